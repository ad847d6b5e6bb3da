"""QR-code sign-in: the desktop's code and socket, the phone's confirm or decline, expiry and reuse."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import WebSocketDisconnect

from atrium.sdk.testing import AtriumClient
from tests.kernel.conftest import ACME, Person

EXPIRED = {"code": 1007, "msg": "The QR code has expired, please refresh it", "data": None}
USED = {"code": 1007, "msg": "The QR code has already been used", "data": None}


def new_code(client: AtriumClient) -> dict[str, Any]:
    made: dict[str, Any] = client.ok("POST", "/api/base/qrcode/create")
    assert made["expiresIn"] == 120 and made["qrCode"] != made["secret"]
    return made


def socket_url(made: dict[str, Any]) -> str:
    return f"/ws/qrcode?code={made['qrCode']}&secret={made['secret']}"


def test_confirmed_on_the_phone_signs_the_desktop_in(http, client, person):
    phone: Person = person()
    made = new_code(client)
    with http.websocket_connect(socket_url(made)) as ws:
        assert ws.receive_json() == {"type": "qrcode", "state": "waiting"}
        phone.client.ok("POST", "/api/base/qrcode/scan", json={"qrCode": made["qrCode"]})
        assert ws.receive_json() == {"type": "qrcode", "state": "scanned"}
        early = client.post("/api/base/qrcode/login", json=made)
        assert early["msg"] == "The sign-in has not been confirmed on the phone yet"
        phone.client.ok("POST", "/api/base/qrcode/confirm", json={"params": {"qrCode": made["qrCode"]}})
        assert ws.receive_json() == {"type": "qrcode", "state": "confirmed"}
        desktop = AtriumClient(http)
        answer = desktop.post("/api/base/qrcode/login", json=made)
        assert answer["code"] == 800 and answer["data"]["userId"] == phone.user_id
        assert answer["data"]["tenantId"] == ACME
        desktop.headers["authorization"] = answer["data"]["authorization"]
        me = desktop.ok("GET", "/api/base/base-user/get-login-user")
        assert me["userId"] in (phone.user_id, str(phone.user_id))
    # a code signs in once
    assert client.post("/api/base/qrcode/login", json=made) == USED
    assert client.ok("POST", "/api/base/qrcode/state", json=made) == {"state": "used"}
    assert phone.client.post("/api/base/qrcode/confirm", json={"qrCode": made["qrCode"]}) == USED


def test_declined_on_the_phone(http, client, person):
    phone: Person = person()
    made = new_code(client)
    with http.websocket_connect(socket_url(made)) as ws:
        assert ws.receive_json()["state"] == "waiting"
        phone.client.ok("POST", "/api/base/qrcode/decline", json={"qrCode": made["qrCode"]})
        assert ws.receive_json() == {"type": "qrcode", "state": "declined"}
    declined = client.post("/api/base/qrcode/login", json=made)
    assert declined == {"code": 1007, "msg": "Sign-in was declined on the phone", "data": None}
    assert phone.client.post("/api/base/qrcode/confirm", json={"qrCode": made["qrCode"]})["code"] == 1007


def test_expired_code(http, client, person, kernel):
    phone: Person = person()
    made = new_code(client)
    kernel.cache.delete(f"qrcode:{made['qrCode']}")  # what the cache does after two minutes
    assert phone.client.post("/api/base/qrcode/confirm", json={"qrCode": made["qrCode"]}) == EXPIRED
    assert client.post("/api/base/qrcode/login", json=made) == EXPIRED
    assert client.ok("POST", "/api/base/qrcode/state", json=made) == {"state": "expired"}
    with pytest.raises(WebSocketDisconnect) as info, http.websocket_connect(socket_url(made)) as ws:
        ws.receive_json()
    assert info.value.code == 4410


def test_only_the_desktop_holding_the_secret_collects(http, client, person):
    phone: Person = person()
    made = new_code(client)
    phone.client.ok("POST", "/api/base/qrcode/confirm", json={"qrCode": made["qrCode"]})
    stranger = client.post("/api/base/qrcode/login", json={"qrCode": made["qrCode"], "secret": "guessed"})
    assert stranger == EXPIRED
    with (
        pytest.raises(WebSocketDisconnect),
        http.websocket_connect(f"/ws/qrcode?code={made['qrCode']}&secret=guessed") as ws,
    ):
        ws.receive_json()
    assert client.post("/api/base/qrcode/login", json=made)["code"] == 800


def test_confirming_needs_a_signed_in_phone(client, person):
    made = new_code(client)
    anonymous = client.post("/api/base/qrcode/confirm", json={"qrCode": made["qrCode"]})
    assert anonymous["code"] == -1
    # a second phone cannot take over a code the first one scanned
    first: Person = person()
    second: Person = person()
    first.client.ok("POST", "/api/base/qrcode/scan", json={"qrCode": made["qrCode"]})
    assert second.client.post("/api/base/qrcode/confirm", json={"qrCode": made["qrCode"]}) == USED


def test_qrcode_is_a_login_type(client, rows):
    types = client.ok("GET", "/api/base/base-sso-oauth-config/get-login-type?domainName=acme.localhost")
    assert {"type": "qrcode"} in types


def test_qrcode_messages_in_hungarian(make_client):
    hu = make_client("hu-hu")
    answer = hu.post("/api/base/qrcode/login", json={"qrCode": "nope", "secret": "nope"})
    assert answer == {"code": 1007, "msg": "A QR-kód lejárt, kérjük, frissítse", "data": None}
