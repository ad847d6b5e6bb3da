"""OAuth2 sign-in, and the cloud identity provider's redirect sign-in with refresh and sign-out."""

from __future__ import annotations

from typing import Any

import pytest

from tests.sso.conftest import ACME, follow, link, oauth2_settings, oidc_settings, user_id


def test_oauth2_sign_in_refresh_and_logout_url(idps: Any, configure: Any, client: Any, browser: Any) -> None:
    configure("oauth2", "corp-oauth", oauth2_settings(idps))
    link(client, ACME, "corp-oauth", "u-1001", user_id(client, "alice"))
    start = browser.ok(
        "POST", "/api/base/sso/oauth2/login", json={"tenantId": ACME, "provider": "corp-oauth"}
    )
    assert "code_challenge=" in start["url"] and "nonce" not in start["url"]
    back = follow(start["url"])
    data = browser.ok("POST", "/api/base/sso/oauth2/login", json={"params": back})
    assert data["userFullName"] == "Alice Zhang" and data["ssoType"] == "oauth2"
    assert data["urlLogout"].startswith(idps.idp.issuer + "/logout?")
    renewed = browser.ok(
        "POST", "/api/base/base-user/refresh-token", json={"refreshToken": data["refresh-authorization"]}
    )
    assert renewed["authorization"]


def test_oauth2_state_cannot_finish_an_oidc_sign_in(
    idps: Any, configure: Any, client: Any, browser: Any
) -> None:
    configure("oauth2", "corp-oauth", oauth2_settings(idps))
    start = browser.ok(
        "POST", "/api/base/sso/oauth2/login", json={"tenantId": ACME, "provider": "corp-oauth"}
    )
    body = browser.post("/api/base/sso/oidc/login", json=follow(start["url"]))
    assert body["code"] == 400


def test_oauth2_userinfo_garbage(
    idps: Any, configure: Any, client: Any, browser: Any, providers: Any
) -> None:
    configure("oauth2", "corp-oauth", oauth2_settings(idps, userinfo_url=providers.garbage_url + "/userinfo"))
    start = browser.ok(
        "POST", "/api/base/sso/oauth2/login", json={"tenantId": ACME, "provider": "corp-oauth"}
    )
    body = browser.post("/api/third/sso/callback", json=follow(start["url"]))
    assert body["code"] == 400 and "cannot be understood" in body["msg"]


@pytest.fixture
def cloud(idps: Any, configure: Any, client: Any) -> Any:
    configure("cloud", "corp-cloud", oidc_settings(idps), onUnknown="create", name="Cloud ID")
    return idps


def cloud_sign_in(browser: Any) -> dict[str, Any]:
    start = browser.ok("GET", "/api/base/sso/other-url?domainName=acme.localhost")
    assert "/authorize" in start["url"]
    back = follow(start["url"])
    return dict(browser.ok("GET", "/api/base/sso/token-by-code", params=back))


def test_cloud_sign_in_creates_an_sso_user(cloud: Any, browser: Any) -> None:
    cloud.idp.person.sub, cloud.idp.person.name = "cloud-77", "Carol Cloud"
    data = cloud_sign_in(browser)
    assert data["userFullName"] == "Carol Cloud"
    assert data["portalType"] == "sso" and data["ssoType"] == "cloud"
    assert data["domainName"] == "acme.localhost" and data["ssoToken"] and data["ssoRefreshToken"]
    assert data["urlLogin"].endswith("/sso/login?provider=corp-cloud&tenantId=1001")
    browser.headers["authorization"] = data["authorization"]
    me = browser.ok("GET", "/api/base/base-user/get-login-user")
    assert me["portalType"] == "sso" and me["ssoType"] == "cloud"
    assert me["urlLogout"].startswith(cloud.idp.issuer + "/logout?")
    # no password for this account: the password dialog never pops
    assert browser.ok("GET", "/api/base/base-user/check-pwd-login")["pop"] is False
    # a second sign-in finds the same user
    again = cloud_sign_in(browser)
    assert again["userId"] == data["userId"]


def test_cloud_refresh_by_the_guard(cloud: Any, browser: Any, other_browser: Any) -> None:
    cloud.idp.person.sub = "cloud-88"
    data = cloud_sign_in(browser)
    # the guard, with no platform token, hands over the stored domain and sso tokens
    fresh = other_browser.ok(
        "GET",
        "/api/base/sso/token",
        params={
            "domainName": data["domainName"],
            "ssoToken": data["ssoToken"],
            "ssoRefreshToken": data["ssoRefreshToken"],
        },
    )
    assert fresh["userId"] == data["userId"] and fresh["authorization"] != data["authorization"]
    assert fresh["ssoRefreshToken"] != data["ssoRefreshToken"]
    # the provider rotated its refresh token: the old one is spent
    replay = other_browser.get(
        "/api/base/sso/token",
        params={
            "domainName": data["domainName"],
            "ssoToken": data["ssoToken"],
            "ssoRefreshToken": data["ssoRefreshToken"],
        },
    )
    assert replay["code"] == 400 and replay["data"] is None


def test_cloud_refresh_with_unknown_domain(cloud: Any, browser: Any) -> None:
    body = browser.get(
        "/api/base/sso/token", params={"domainName": "evil.example", "ssoToken": "a", "ssoRefreshToken": "b"}
    )
    assert body["code"] == 400 and "evil.example" in body["msg"]


def test_cloud_logout_revokes_and_answers_the_providers_address(cloud: Any, browser: Any) -> None:
    cloud.idp.person.sub = "cloud-99"
    data = cloud_sign_in(browser)
    out = browser.ok(
        "POST",
        "/api/base/sso/logout-ssoapi",
        json={
            "params": {
                "domain": data["domainName"],
                "ssoToken": data["ssoToken"],
                "ssoRefreshToken": data["ssoRefreshToken"],
            }
        },
    )
    assert out["url"].startswith(cloud.idp.issuer + "/logout?")
    assert "post_logout_redirect_uri=http%3A%2F%2Ftestserver%2Flogin" in out["url"]
    assert data["ssoRefreshToken"] in cloud.idp.revoked
    refused = browser.get(
        "/api/base/sso/token",
        params={
            "domainName": data["domainName"],
            "ssoToken": data["ssoToken"],
            "ssoRefreshToken": data["ssoRefreshToken"],
        },
    )
    assert refused["code"] == 400
