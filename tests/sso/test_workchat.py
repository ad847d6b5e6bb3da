"""DingTalk and WeCom sign-in (in the app and by QR code) against the local platform servers."""

from __future__ import annotations

from typing import Any

import pytest

from tests.sso.conftest import ACME, dingtalk_settings, follow, link, user_id, wecom_settings


@pytest.fixture
def dingtalk(idps: Any, configure: Any, client: Any) -> Any:
    configure("dingtalk", "acme-dingtalk", dingtalk_settings(idps), name="DingTalk")
    link(client, ACME, "acme-dingtalk", "dt-007", user_id(client, "alice"))
    return idps


def test_dingtalk_info_shows_no_secret(dingtalk: Any, browser: Any) -> None:
    info = browser.ok(
        "GET",
        "/api/third/auth-dingtalk-login/dt-info-byDomain",
        params={"tenantDomain": "http://acme.localhost:8000"},
    )
    assert info["corpId"] == dingtalk.dingtalk.corp_id and info["appKey"] == dingtalk.dingtalk.app_key
    assert dingtalk.dingtalk.app_secret not in str(info) and dingtalk.dingtalk.sso_secret not in str(info)


def test_dingtalk_in_app_sign_in_and_helper_token_cache(dingtalk: Any, browser: Any) -> None:
    dt = dingtalk.dingtalk
    calls = dt.token_calls
    for _ in range(2):
        data = browser.ok(
            "GET",
            "/api/third/auth-dingtalk-login/login",
            params={"code": dt.code_for("dt-007"), "corpId": dt.corp_id},
        )
        assert data["userFullName"] == "Alice Zhang" and data["ssoType"] == "dingtalk"
    assert dt.token_calls - calls <= 1  # the app token is kept for 300 seconds


def test_dingtalk_code_is_single_use(dingtalk: Any, browser: Any) -> None:
    dt = dingtalk.dingtalk
    code = dt.code_for("dt-007")
    assert (
        browser.get("/api/third/auth-dingtalk-login/login", params={"code": code, "corpId": dt.corp_id})[
            "code"
        ]
        == 800
    )
    body = browser.get("/api/third/auth-dingtalk-login/login", params={"code": code, "corpId": dt.corp_id})
    assert body["code"] == 400 and "refused" in body["msg"] and body["data"] is None


def test_dingtalk_qr_sign_in(dingtalk: Any, browser: Any) -> None:
    start = browser.ok(
        "GET", "/api/third/auth-dingtalk-login/qr-url", params={"tenantDomain": "acme.localhost"}
    )
    assert "/connect/qrconnect?" in start["url"] and "via%3Ddingtalk" in start["url"]
    back = follow(start["url"])
    data = browser.ok("GET", "/api/third/auth-dingtalk-login/scanCode/login", params=back)
    assert data["userFullName"] == "Alice Zhang"


def test_dingtalk_qr_state_replayed(dingtalk: Any, browser: Any) -> None:
    start = browser.ok(
        "GET", "/api/third/auth-dingtalk-login/qr-url", params={"tenantDomain": "acme.localhost"}
    )
    back = follow(start["url"])
    browser.ok("GET", "/api/third/auth-dingtalk-login/scanCode/login", params=back)
    body = browser.get("/api/third/auth-dingtalk-login/scanCode/login", params=back)
    assert body["code"] == 400 and "already used" in body["msg"]


def test_dingtalk_console_sign_in(dingtalk: Any, browser: Any) -> None:
    dt = dingtalk.dingtalk
    data = browser.ok(
        "GET",
        "/api/third/auth-dingtalk-login/sso/login",
        params={"code": dt.code_for("dt-007"), "corpId": dt.corp_id},
    )
    assert data["userFullName"] == "Alice Zhang"


def test_dingtalk_unknown_corp(dingtalk: Any, browser: Any) -> None:
    body = browser.get("/api/third/auth-dingtalk-login/login", params={"code": "x", "corpId": "ding-unknown"})
    assert body["code"] == 400 and "corp id" in body["msg"]


def test_dingtalk_member_linked_to_nobody(dingtalk: Any, browser: Any) -> None:
    from tests.sso_providers.workchat import Member

    dt = dingtalk.dingtalk
    dt.members["dt-100"] = Member("dt-100", "Nobody Here", unionid="union-100")
    body = browser.get(
        "/api/third/auth-dingtalk-login/login", params={"code": dt.code_for("dt-100"), "corpId": dt.corp_id}
    )
    assert body["code"] == 1001 and "not linked" in body["msg"]


@pytest.mark.parametrize("where", ["slow_url", "garbage_url"])
def test_dingtalk_unreliable_platform(idps: Any, configure: Any, browser: Any, where: str) -> None:
    base = getattr(idps, where)
    configure(
        "dingtalk",
        "acme-dingtalk",
        dingtalk_settings(idps, api_base=base, app_key="other-app", timeout_seconds=1),
    )
    body = browser.get(
        "/api/third/auth-dingtalk-login/login", params={"code": "c", "corpId": idps.dingtalk.corp_id}
    )
    assert body["code"] == 400
    assert ("did not answer in time" if where == "slow_url" else "cannot be understood") in body["msg"]


@pytest.fixture
def wecom(idps: Any, configure: Any, client: Any) -> Any:
    configure("wecom", "acme-wecom", wecom_settings(idps), name="WeCom")
    link(client, ACME, "acme-wecom", "wx-042", user_id(client, "alice"))
    return idps


def test_wecom_in_app_and_qr_sign_in(wecom: Any, browser: Any) -> None:
    info = browser.ok(
        "GET", "/api/third/auth-wx-login/wxcp-info-byDomain", params={"tenantDomain": "acme.localhost"}
    )
    assert info["corpId"] == wecom.wecom.corp_id and wecom.wecom.secret not in str(info)
    for mode, path in (("inapp", "/connect/oauth2/authorize?"), ("qr", "/wwlogin/sso/login?")):
        start = browser.ok(
            "GET",
            "/api/third/auth-wx-login/login-url",
            params={"tenantDomain": "acme.localhost", "mode": mode},
        )
        assert path in start["url"]
        data = browser.ok("GET", "/api/third/auth-wx-login/callback", params=follow(start["url"]))
        assert data["userFullName"] == "Alice Zhang" and data["ssoType"] == "wecom"


def test_wecom_outsider_is_refused(wecom: Any, browser: Any) -> None:
    wecom.wecom.outsider = True
    start = browser.ok("GET", "/api/third/auth-wx-login/login-url", params={"tenantDomain": "acme.localhost"})
    body = browser.get("/api/third/auth-wx-login/callback", params=follow(start["url"]))
    assert body["code"] == 400 and "not a member" in body["msg"]


def test_wecom_state_from_another_browser(wecom: Any, browser: Any, other_browser: Any) -> None:
    start = browser.ok("GET", "/api/third/auth-wx-login/login-url", params={"tenantDomain": "acme.localhost"})
    body = other_browser.get("/api/third/auth-wx-login/callback", params=follow(start["url"]))
    assert body["code"] == 400 and "another browser" in body["msg"]


def test_wecom_not_configured_for_tenant(wecom: Any, browser: Any) -> None:
    body = browser.get(
        "/api/third/auth-wx-login/wxcp-info-byDomain", params={"tenantDomain": "globex.localhost"}
    )
    assert body["code"] == 400 and "not offered here" in body["msg"]


def test_dingtalk_created_user_refresh_and_logout(idps: Any, configure: Any, browser: Any) -> None:
    from tests.sso_providers.workchat import Member

    configure("dingtalk", "acme-dingtalk", dingtalk_settings(idps), onUnknown="create")
    dt = idps.dingtalk
    dt.members["dt-200"] = Member("dt-200", "Dan Ding", unionid="union-200")
    data = browser.ok(
        "GET",
        "/api/third/auth-dingtalk-login/login",
        params={"code": dt.code_for("dt-200"), "corpId": dt.corp_id},
    )
    assert data["portalType"] == "sso" and data["ssoType"] == "dingtalk" and data["urlLogout"] == ""
    renewed = browser.ok(
        "POST", "/api/base/base-user/refresh-token", json={"refreshToken": data["refresh-authorization"]}
    )
    browser.headers["authorization"] = renewed["authorization"]
    me = browser.ok("GET", "/api/base/base-user/get-login-user")
    assert me["userFullName"] == "Dan Ding" and me["portalType"] == "sso" and me["ssoType"] == "dingtalk"
    browser.ok("GET", "/api/base/base-user/logout")
    assert browser.get("/api/base/base-user/get-login-user")["code"] == -1


def test_disabled_account_cannot_sign_in(dingtalk: Any, browser: Any, client: Any, user_factory: Any) -> None:
    from tests.sso.conftest import admin_of
    from tests.sso_providers.workchat import Member

    _, _, uid = user_factory(ACME)
    dt = dingtalk.dingtalk
    dt.members["dt-300"] = Member("dt-300", "Off Line", unionid="union-300")
    link(client, ACME, "acme-dingtalk", "dt-300", uid)
    assert (
        browser.get(
            "/api/third/auth-dingtalk-login/login",
            params={"code": dt.code_for("dt-300"), "corpId": dt.corp_id},
        )["code"]
        == 800
    )
    admin_of(client, ACME).ok("POST", "/api/base/admin/users/state", json={"userId": uid, "enabled": False})
    body = browser.get(
        "/api/third/auth-dingtalk-login/login", params={"code": dt.code_for("dt-300"), "corpId": dt.corp_id}
    )
    assert body["code"] == 1001 and "disabled" in body["msg"] and body["data"] is None
