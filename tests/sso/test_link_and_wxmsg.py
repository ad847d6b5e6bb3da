"""Linking an unknown identity by a verified code, and WeCom's callback address."""

from __future__ import annotations

from typing import Any

import pytest

from atrium.plugins.sso import wxmsg
from tests.sso.conftest import ACME, follow, link, oidc_settings, user_id, wecom_settings


@pytest.fixture
def verify_oidc(idps: Any, configure: Any) -> Any:
    configure("oidc", "verify-oidc", oidc_settings(idps), onUnknown="verify")
    idps.idp.person.sub = "u-newcomer"
    return idps


def unknown_sign_in(browser: Any) -> dict[str, Any]:
    start = browser.ok(
        "POST", "/api/third/sso/start", json={"domainName": "acme.localhost", "provider": "verify-oidc"}
    )
    body = browser.post("/api/third/sso/callback", json=follow(start["url"]))
    assert body["code"] == 1010, body
    assert "phone or e-mail" in body["msg"]
    return dict(body["data"])


def last_code(browser: Any, target: str) -> str:
    return next(m["code"] for m in browser.ok("GET", "/api/base/dev/outbox") if m["target"] == target)


def test_link_by_sms_code(verify_oidc: Any, browser: Any, client: Any) -> None:
    ticket = unknown_sign_in(browser)["bindTicket"]
    browser.ok(
        "GET",
        "/api/base/base-user/send-sso-validator-code",
        params={"phone": "13800000001", "bindTicket": ticket},
    )
    wrong = browser.post(
        "/api/third/sso/bind",
        json={"bindTicket": ticket, "channel": "sms", "target": "13800000001", "code": "000000"},
    )
    assert wrong["code"] == 400 and "wrong or expired" in wrong["msg"]
    code = last_code(browser, "13800000001")
    data = browser.ok(
        "POST",
        "/api/third/sso/bind",
        json={"bindTicket": ticket, "channel": "sms", "target": "13800000001", "code": code},
    )
    assert data["userId"] == user_id(client, "alice")
    # linked now: the next sign-in needs no code
    start = browser.ok(
        "POST", "/api/third/sso/start", json={"domainName": "acme.localhost", "provider": "verify-oidc"}
    )
    assert (
        browser.ok("POST", "/api/third/sso/callback", json=follow(start["url"]))["userId"] == data["userId"]
    )


def test_link_by_email_code_from_another_browser_is_refused(
    verify_oidc: Any, browser: Any, other_browser: Any
) -> None:
    ticket = unknown_sign_in(browser)["bindTicket"]
    browser.ok(
        "GET",
        "/api/base/base-user/send-sso-email-validator-code",
        params={"email": "alice@acme.example", "bindTicket": ticket},
    )
    code = last_code(browser, "alice@acme.example")
    body = other_browser.post(
        "/api/third/sso/bind",
        json={"bindTicket": ticket, "channel": "email", "target": "alice@acme.example", "code": code},
    )
    assert body["code"] == 400 and "another browser" in body["msg"]


def test_codes_need_a_ticket_and_valid_targets(verify_oidc: Any, browser: Any) -> None:
    assert (
        browser.get(
            "/api/base/base-user/send-sso-validator-code",
            params={"phone": "13800000001", "bindTicket": "nope"},
        )["code"]
        == 400
    )
    ticket = unknown_sign_in(browser)["bindTicket"]
    bad = browser.get(
        "/api/base/base-user/send-sso-validator-code", params={"phone": "12345", "bindTicket": ticket}
    )
    assert bad["code"] == 400 and "phone" in bad["msg"].lower()
    # an address of nobody in the tenant: same answer, but no code is sent
    browser.ok(
        "GET",
        "/api/base/base-user/send-sso-email-validator-code",
        params={"email": "stranger@else.example", "bindTicket": ticket},
    )
    assert not [
        m for m in browser.ok("GET", "/api/base/dev/outbox") if m["target"] == "stranger@else.example"
    ]


AES_KEY = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"


@pytest.fixture
def wecom_callback(idps: Any, configure: Any, client: Any) -> Any:
    configure("wecom", "acme-wecom", wecom_settings(idps, callback_token="cbtoken", callback_aes_key=AES_KEY))
    link(client, ACME, "acme-wecom", "wx-042", user_id(client, "alice"))
    return idps


def signed(encrypted: str) -> dict[str, str]:
    return {
        "corpId": "wwcorp001",
        "timestamp": "1700000000",
        "nonce": "n0nce",
        "msg_signature": wxmsg.signature("cbtoken", "1700000000", "n0nce", encrypted),
    }


def test_wecom_url_check(wecom_callback: Any, browser: Any) -> None:
    echo = wxmsg.encrypt(AES_KEY, "echo-12345", "wwcorp001")
    resp = browser.http.get("/api/third/third-party/receiveWxMsg", params={**signed(echo), "echostr": echo})
    assert resp.status_code == 200 and resp.text == "echo-12345"
    forged = browser.get(
        "/api/third/third-party/receiveWxMsg",
        params={**signed(echo), "msg_signature": "0" * 40, "echostr": echo},
    )
    assert forged["code"] == 400 and "signature" in forged["msg"]


def test_wecom_deleted_member_is_unlinked(wecom_callback: Any, browser: Any, client: Any) -> None:
    inner = (
        "<xml><ToUserName>wwcorp001</ToUserName><MsgType>event</MsgType><Event>change_contact</Event>"
        "<ChangeType>delete_user</ChangeType><UserID>wx-042</UserID></xml>"
    )
    enc = wxmsg.encrypt(AES_KEY, inner, "wwcorp001")
    body = f"<xml><ToUserName>wwcorp001</ToUserName><Encrypt>{enc}</Encrypt><AgentID>1000002</AgentID></xml>"
    resp = browser.http.post("/api/third/third-party/receiveWxMsg", params=signed(enc), content=body)
    assert resp.status_code == 200 and resp.text == "success"
    start = browser.ok("GET", "/api/third/auth-wx-login/login-url", params={"tenantDomain": "acme.localhost"})
    refused = browser.get("/api/third/auth-wx-login/callback", params=follow(start["url"]))
    assert refused["code"] == 1001


def test_wecom_garbage_message(wecom_callback: Any, browser: Any) -> None:
    body = "<xml><Encrypt>not-base64!!</Encrypt></xml>"
    resp = browser.post("/api/third/third-party/receiveWxMsg", params=signed("not-base64!!"), content=body)
    assert resp["code"] == 400 and "cannot be read" in resp["msg"]
    unknown = browser.get("/api/third/third-party/receiveWxMsg", params={"corpId": "nobody", "echostr": "x"})
    assert unknown["code"] == 400
