"""Live push over the kernel's `/ws` from the message plugin's side: frames, keys, misuse, logout."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.message.helpers import GLOBEX, inbox, receive, send_ok, subscribe, token


def _ws(c: Any) -> Any:
    return c.http.websocket_connect(f"/ws?token={token(c)}")


def test_a_letter_is_pushed_to_the_recipients_socket(admin_client, member):
    u = member()
    with _ws(u) as ws:
        subscribe(ws, u.user_id)
        send_ok(admin_client, toUsers=[u.user_id], content="<p>Payroll is <b>out</b></p>")
        frame = receive(ws)
    assert frame["code"] == 800 and frame["subKey"] == "systemNotify"
    data = frame["data"]
    assert data["action"] == "message" and data["systemCode"] == "iotAutho"
    assert data["preview"] == "Payroll is out"
    assert data["msgInstanceId"] == inbox(u)["list"][0]["msgInstanceId"]
    assert data["sendTime"] == inbox(u)["list"][0]["sendTime"]


def test_pushes_follow_the_system_code(admin_client, member):
    u = member()
    with _ws(u) as ws:
        subscribe(ws, str(u.user_id), "assetMgmt")
        send_ok(admin_client, toUsers=[u.user_id], content="<p>portal letter</p>")
        send_ok(admin_client, toUsers=[u.user_id], content="<p>asset letter</p>", systemCode="assetMgmt")
        frame = receive(ws)
    assert frame["data"]["preview"] == "asset letter"


def test_only_recipients_are_told(admin_client, member):
    u, other = member(), member()
    with _ws(other) as ws:
        subscribe(ws, other.user_id)
        send_ok(admin_client, toUsers=[u.user_id], content="<p>not for you</p>")
        send_ok(admin_client, toUsers=[other.user_id], content="<p>for you</p>")
        assert receive(ws)["data"]["preview"] == "for you"


def test_a_tenant_switch_keeps_pushes_in_their_tenant(kernel, client, admin_client, user_factory):
    from atrium.kernel import accounts
    from atrium.sdk.context import unscoped

    account, password, uid = user_factory(1001)
    with unscoped(), kernel.db():
        accounts.add_membership(uid, GLOBEX)
    in_globex = client.signed_in(account, password)
    in_globex.ok("POST", f"/api/base/base-user/change-tenant?tenantId={GLOBEX}&systemCode=iotAutho")
    globex_admin = client.signed_in("admin")
    globex_admin.ok("POST", f"/api/base/base-user/change-tenant?tenantId={GLOBEX}&systemCode=iotAutho")
    with _ws(in_globex) as ws:
        subscribe(ws, uid)
        send_ok(admin_client, toUsers=[uid], content="<p>acme letter</p>")
        send_ok(globex_admin, toUsers=[uid], content="<p>globex letter</p>")
        assert receive(ws)["data"]["preview"] == "globex letter"


def test_subscribing_to_another_users_key_is_closed_with_a_reason(member, user_client):
    u = member()
    alice_id = user_client.profile["userId"]
    with _ws(u) as ws:
        ws.send_json(
            {"type": "subscribe", "subKey": "systemNotify", "userId": alice_id, "systemCode": "iotAutho"}
        )
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
    assert closed.value.code == 4403 and closed.value.reason == "subscription not allowed"


@pytest.mark.parametrize(
    ("raw", "code", "reason"),
    [
        ("this is not json", 4400, "malformed message"),
        ('["subscribe"]', 4400, "malformed message"),
        ('{"type": "hack"}', 4400, "unknown message type"),
        (
            '{"type": "subscribe", "subKey": "system Notify!", "systemCode": "iotAutho"}',
            4403,
            "subscription not allowed",
        ),
        ('{"type": "ping", "pad": "' + "x" * (64 * 1024) + '"}', 1009, "message too large"),
    ],
)
def test_garbage_is_closed(member, raw, code, reason):
    u = member()
    with _ws(u) as ws:
        ws.send_text(raw)
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
    assert (closed.value.code, closed.value.reason) == (code, reason)


def test_a_socket_without_a_valid_token_is_refused(client):
    with pytest.raises(WebSocketDisconnect) as closed:  # noqa: SIM117 - the refusal comes at connect time
        with client.http.websocket_connect("/ws?token=forged") as ws:
            receive(ws)
    assert closed.value.code == 4001


def test_heartbeat(member):
    u = member()
    with _ws(u) as ws:
        ws.send_json({"type": "ping"})
        assert receive(ws) == {"type": "pong"}


def test_signing_out_closes_that_sessions_pages_only(client, member):
    first = member()
    second = client.signed_in(first.account, "Passw0rd1")
    with _ws(first) as mine, _ws(second) as other:
        subscribe(mine, first.user_id)
        subscribe(other, first.user_id)
        second.ok("GET", "/api/base/base-user/logout")
        assert receive(other) == {"code": -1, "type": "logout", "msg": "logout"}
        with pytest.raises(WebSocketDisconnect):
            receive(other)
        mine.send_json({"type": "ping"})
        assert receive(mine) == {"type": "pong"}  # the other sign-in keeps its page


def test_a_forced_sign_out_is_pushed_to_every_page(kernel, client, member):
    from atrium.plugins.message.service import push_logout

    first = member()
    second = client.signed_in(first.account, "Passw0rd1")
    with _ws(first) as a, _ws(second) as b:
        subscribe(a, first.user_id)
        subscribe(b, first.user_id, "assetMgmt")
        with kernel.db():
            push_logout(1001, first.user_id)
        for ws in (a, b):
            assert receive(ws) == {"code": 800, "subKey": "systemNotify", "data": {"action": "logout"}}
