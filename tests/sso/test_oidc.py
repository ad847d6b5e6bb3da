"""OpenID Connect sign-in against the local provider: the whole redirect dance, and every way it can fail."""

from __future__ import annotations

from typing import Any

import pytest

from tests.sso.conftest import ACME, follow, link, oidc_settings, user_id


@pytest.fixture
def corp_oidc(idps: Any, configure: Any, client: Any) -> Any:
    configure("oidc", "corp-oidc", oidc_settings(idps), name="Corporate SSO")
    link(client, ACME, "corp-oidc", "u-1001", user_id(client, "alice"))
    return idps


def start(browser: Any) -> str:
    data = browser.ok(
        "POST",
        "/api/base/sso/oidc/login",
        json={"params": {"domainName": "http://acme.localhost:8080", "provider": "corp-oidc"}},
    )
    return str(data["url"])


def finish(browser: Any, back: dict[str, str]) -> dict[str, Any]:
    return browser.post(
        "/api/base/sso/oidc/login",
        json={"params": {"code": back.get("code", ""), "state": back.get("state", "")}},
    )


def test_sign_in_refresh_and_logout(corp_oidc: Any, browser: Any) -> None:
    url = start(browser)
    assert "code_challenge_method=S256" in url and "nonce=" in url and "state=" in url
    body = finish(browser, follow(url))
    assert body["code"] == 800, body
    data = body["data"]
    assert data["userFullName"] == "Alice Zhang" and data["tenantId"] == ACME
    assert data["ssoType"] == "oidc" and data["provider"] == "corp-oidc"
    browser.headers["authorization"] = data["authorization"]
    browser.headers["refreshAuthorization"] = data["refresh-authorization"]
    me = browser.ok("GET", "/api/base/base-user/get-login-user")
    assert me["account"] == "alice"
    # the platform session renews like any other
    renewed = browser.ok(
        "POST", "/api/base/base-user/refresh-token", json={"refreshToken": data["refresh-authorization"]}
    )
    assert renewed["authorization"] != data["authorization"]
    browser.headers["authorization"] = renewed["authorization"]
    browser.ok("GET", "/api/base/base-user/logout")
    assert (
        browser.get("/api/base/base-user/get-login-user", headers={"refreshAuthorization": ""})["code"] == -1
    )


def test_state_is_single_use(corp_oidc: Any, browser: Any) -> None:
    back = follow(start(browser))
    assert finish(browser, back)["code"] == 800
    again = finish(browser, back)
    assert again["code"] == 400 and "already used" in again["msg"]
    assert again["data"] is None


def test_unknown_state_is_refused(corp_oidc: Any, browser: Any) -> None:
    start(browser)
    body = finish(browser, {"code": "whatever", "state": "forged-state"})
    assert body["code"] == 400 and "invalid" in body["msg"]


def test_state_from_another_browser_is_refused(corp_oidc: Any, browser: Any, other_browser: Any) -> None:
    back = follow(start(browser))
    body = finish(other_browser, back)
    assert body["code"] == 400 and "another browser" in body["msg"]
    assert "authorization" not in other_browser.last.headers
    # the attempt spent the state: the right browser cannot use it afterwards either
    assert finish(browser, back)["code"] == 400


@pytest.mark.parametrize(
    ("behaviour", "words"),
    [
        ("wrong_nonce", "does not belong to this sign-in"),
        ("wrong_issuer", "could not be verified"),
        ("wrong_audience", "another application"),
        ("expired", "expired"),
        ("forged", "could not be verified"),
        ("alg_none", "could not be verified"),
        ("garbage", "cannot be understood"),
        ("userinfo_other_sub", "someone other than the person its token names"),
    ],
)
def test_bad_id_tokens_sign_nobody_in(corp_oidc: Any, browser: Any, behaviour: str, words: str) -> None:
    back = follow(start(browser))
    corp_oidc.idp.behaviour = behaviour
    body = finish(browser, back)
    assert body["code"] == 400, body
    assert words in body["msg"]
    assert body["data"] is None and "authorization" not in browser.last.headers


def test_claims_only_at_userinfo(idps: Any, configure: Any, browser: Any) -> None:
    """An ID token with the subject only: the name and e-mail come from userinfo (same subject)."""
    configure("oidc", "corp-oidc", oidc_settings(idps), onUnknown="create")
    idps.idp.person.sub, idps.idp.person.name = "u-userinfo", "Uma Info"
    idps.idp.person.email = "uma@idp.example"
    back = follow(start(browser))
    idps.idp.behaviour = "claims_in_userinfo"
    data = browser.ok("POST", "/api/base/sso/oidc/login", json={"params": back})
    assert data["userFullName"] == "Uma Info"
    browser.headers["authorization"] = data["authorization"]
    assert browser.ok("GET", "/api/account")["email"] == "uma@idp.example"


def test_userinfo_merge_rules() -> None:
    from atrium.plugins.sso.providers.base import ProviderError
    from atrium.plugins.sso.providers.oidc import lacks_claims, merge_userinfo

    scopes = "openid profile email"
    assert lacks_claims({"sub": "a"}, scopes)
    assert lacks_claims({"sub": "a", "name": "A"}, scopes)
    assert not lacks_claims({"sub": "a", "preferred_username": "a", "email": "a@x.example"}, scopes)
    assert not lacks_claims({"sub": "a"}, "openid")
    assert lacks_claims({"sub": "a", "name": "A", "email": "a@x.example"}, "openid phone")
    # the ID token wins where it says something; userinfo fills the rest
    merged = merge_userinfo(
        {"sub": "a", "iss": "https://op.example", "name": "From Token", "email": ""},
        {"sub": "a", "name": "From Userinfo", "email": "a@x.example", "email_verified": True},
    )
    assert merged["name"] == "From Token" and merged["email"] == "a@x.example"
    assert merged["iss"] == "https://op.example" and merged["email_verified"] is True
    for info in ({"sub": "b", "name": "B"}, {"name": "B"}, {"sub": 1}):
        with pytest.raises(ProviderError) as caught:
            merge_userinfo({"sub": "a"}, info)
        assert caught.value.key == "userinfo_subject_mismatch"


def test_discovery_naming_another_issuer_is_refused(corp_oidc: Any, browser: Any) -> None:
    from atrium.plugins.sso.providers import oidc

    oidc._documents.clear()
    corp_oidc.idp.behaviour = "discovery_issuer"
    body = browser.post(
        "/api/base/sso/oidc/login", json={"domainName": "acme.localhost", "provider": "corp-oidc"}
    )
    oidc._documents.clear()
    assert body["code"] == 400 and "does not match its configuration" in body["msg"]


def test_provider_that_times_out(corp_oidc: Any, browser: Any) -> None:
    back = follow(start(browser))
    corp_oidc.idp.behaviour = "slow"
    body = finish(browser, back)
    assert body["code"] == 400 and "did not answer in time" in body["msg"]


def test_identity_linked_to_nobody(idps: Any, configure: Any, browser: Any) -> None:
    configure("oidc", "corp-oidc", oidc_settings(idps))
    idps.idp.person.sub = "u-nobody"
    body = finish(browser, follow(start(browser)))
    assert body["code"] == 1001 and "not linked" in body["msg"]


def test_same_email_does_not_link(idps: Any, configure: Any, browser: Any) -> None:
    """The provider says the person is alice@acme.example: that alone signs nobody in as alice."""
    configure("oidc", "corp-oidc", oidc_settings(idps))
    idps.idp.person.sub, idps.idp.person.email = "u-alias", "alice@acme.example"
    body = finish(browser, follow(start(browser)))
    assert body["code"] == 1001


def test_unknown_domain_and_unconfigured_provider(corp_oidc: Any, browser: Any) -> None:
    body = browser.post(
        "/api/base/sso/oidc/login", json={"domainName": "nowhere.example", "provider": "corp-oidc"}
    )
    assert body["code"] == 400 and "nowhere.example" in body["msg"]
    body = browser.post(
        "/api/base/sso/oidc/login", json={"domainName": "globex.localhost", "provider": "corp-oidc"}
    )
    assert body["code"] == 400 and "not offered here" in body["msg"]
