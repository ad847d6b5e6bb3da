"""The `/ws` endpoint: handshake checks, subscriptions bound to the socket's own user, misuse, pushes."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from starlette.testclient import WebSocketDisconnect

from atrium.kernel.services.ws import ws_key
from atrium.sdk.testing import AtriumClient
from tests.kernel.conftest import ACME, Person


def refused_at_handshake(http: Any, url: str, **kw: Any) -> int:
    with pytest.raises(WebSocketDisconnect) as info, http.websocket_connect(url, **kw) as ws:
        ws.receive_json()
    return info.value.code


def closed_with(ws: Any) -> int:
    """The close code of a socket the server is closing (other frames before it are skipped)."""
    while True:
        message = ws.receive()
        if message["type"] == "websocket.close":
            return int(message.get("code", 1000))


def subscribe(ws: Any, user_id: int, system: str = "iotAutho") -> dict[str, Any]:
    ws.send_json({"type": "subscribe", "subKey": "systemNotify", "userId": user_id, "systemCode": system})
    answer: dict[str, Any] = ws.receive_json()
    return answer


def token_of(c: AtriumClient) -> str:
    return c.headers["authorization"]


def test_no_or_forged_token_is_closed_4001(http):
    assert refused_at_handshake(http, "/ws") == 4001
    assert refused_at_handshake(http, f"/ws?token={secrets.token_urlsafe(32)}") == 4001
    assert refused_at_handshake(http, "/ws?token=" + "x" * 300) == 4001


def test_wrong_origin_is_closed_4003(http, person):
    p: Person = person()
    url = f"/ws?token={token_of(p.client)}"
    assert refused_at_handshake(http, url, headers={"origin": "http://evil.example"}) == 4003
    with http.websocket_connect(url, headers={"origin": "http://testserver"}) as ws:
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_subscribe_ping_and_push(http, person, kernel):
    p: Person = person()
    with http.websocket_connect(f"/ws?token={token_of(p.client)}") as ws:
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        answer = subscribe(ws, p.user_id)
        assert answer == {"type": "subscribed", "subKey": "systemNotify", "systemCode": "iotAutho"}
        payload = {"code": 800, "subKey": "systemNotify", "data": {"title": "你好", "n": 1}}
        kernel.ws.send(ws_key("systemNotify", ACME, p.user_id, "iotAutho"), payload)
        assert ws.receive_json() == payload
        # a push for another system of the same user does not arrive; the next one does
        kernel.ws.send(ws_key("systemNotify", ACME, p.user_id, "assetMgmt"), {"code": 800, "data": "other"})
        kernel.ws.send(ws_key("systemNotify", ACME, p.user_id, "iotAutho"), {"code": 800, "data": "mine"})
        assert ws.receive_json() == {"code": 800, "data": "mine"}


def test_userid_as_text_is_the_same_user(http, person):
    p: Person = person()
    with http.websocket_connect(f"/ws?token={token_of(p.client)}") as ws:
        assert subscribe(ws, str(p.user_id))["type"] == "subscribed"


def test_a_push_reaches_only_its_user(http, person, kernel):
    a, b = person(), person()
    with (
        http.websocket_connect(f"/ws?token={token_of(a.client)}") as wa,
        http.websocket_connect(f"/ws?token={token_of(b.client)}") as wb,
    ):
        subscribe(wa, a.user_id)
        subscribe(wb, b.user_id)
        kernel.ws.send(ws_key("systemNotify", ACME, b.user_id, "iotAutho"), {"code": 800, "data": "for b"})
        assert wb.receive_json() == {"code": 800, "data": "for b"}
        kernel.ws.send(ws_key("systemNotify", ACME, a.user_id, "iotAutho"), {"code": 800, "data": "for a"})
        assert wa.receive_json() == {"code": 800, "data": "for a"}  # a never saw b's push first


def test_subscribing_for_another_user_is_closed_4403(http, person, user_client):
    p: Person = person()
    with http.websocket_connect(f"/ws?token={token_of(p.client)}") as ws:
        ws.send_json({"type": "subscribe", "subKey": "systemNotify", "userId": user_client.profile["userId"]})
        assert closed_with(ws) == 4403


@pytest.mark.parametrize(
    "message",
    [
        {"type": "subscribe", "subKey": "bad key!", "systemCode": "iotAutho"},
        {"type": "subscribe", "subKey": "systemNotify", "systemCode": "x" * 65},
    ],
)
def test_bad_subscriptions_are_closed_4403(http, person, message):
    p: Person = person()
    with http.websocket_connect(f"/ws?token={token_of(p.client)}") as ws:
        ws.send_json(message)
        assert closed_with(ws) == 4403


@pytest.mark.parametrize("garbage", ["not json", "[1, 2]", '"text"', json.dumps({"type": "dance"}), "{}"])
def test_garbage_is_closed_4400(http, person, garbage):
    p: Person = person()
    with http.websocket_connect(f"/ws?token={token_of(p.client)}") as ws:
        ws.send_text(garbage)
        assert closed_with(ws) == 4400


def test_message_over_64kb_is_closed_1009(http, person):
    p: Person = person()
    with http.websocket_connect(f"/ws?token={token_of(p.client)}") as ws:
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * (64 * 1024)}))
        assert closed_with(ws) == 1009
    with http.websocket_connect(f"/ws?token={token_of(p.client)}") as ws:
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * (60 * 1024)}))
        assert ws.receive_json() == {"type": "pong"}


def test_logout_closes_the_socket(http, person):
    p: Person = person()
    other = AtriumClient(p.client.http).signed_in(p.account, p.password)
    with (
        http.websocket_connect(f"/ws?token={token_of(p.client)}") as ws,
        http.websocket_connect(f"/ws?token={token_of(other)}") as kept,
    ):
        subscribe(ws, p.user_id)
        subscribe(kept, p.user_id)
        p.client.ok("GET", "/api/base/base-user/logout")
        assert closed_with(ws) == 4001
        # the same user's other session keeps its socket (plugins may push it a note about the sign-out)
        kept.send_json({"type": "ping"})
        frames = [kept.receive_json()]
        while frames[-1] != {"type": "pong"}:
            assert frames[-1].get("code") == 800, frames
            frames.append(kept.receive_json())


def test_a_revoked_session_is_closed_at_its_next_message(http, person, admin_client):
    p: Person = person()
    with http.websocket_connect(f"/ws?token={token_of(p.client)}") as ws:
        subscribe(ws, p.user_id)
        admin_client.ok("POST", "/api/base/admin/users/state", json={"userId": p.user_id, "enabled": False})
        assert closed_with(ws) == 4001  # disabling closes every socket of the user
    assert refused_at_handshake(http, f"/ws?token={token_of(p.client)}") == 4001


def test_password_change_closes_the_sockets(http, person):
    from tests.kernel.conftest import b64

    p: Person = person()
    with http.websocket_connect(f"/ws?token={token_of(p.client)}") as ws:
        subscribe(ws, p.user_id)
        body = {"oldMagic": b64(p.password), "magic": b64("Other1234"), "confirmMagic": b64("Other1234")}
        p.client.ok("POST", "/api/base/base-user/update-pwd", json=body)
        assert closed_with(ws) == 4001
