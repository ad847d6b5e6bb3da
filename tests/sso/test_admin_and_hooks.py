"""Administration of providers, login types on the sign-in page, and a provider added by another plugin."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.sso.conftest import ACME, GLOBEX, admin_of, link, oidc_settings, user_id, wecom_settings


def test_provider_kinds_with_settings_schema(client: Any) -> None:
    kinds = {p["kind"]: p for p in admin_of(client, ACME).ok("GET", "/api/third/admin/providers")}
    assert {"oidc", "oauth2", "cloud", "dingtalk", "wecom"} <= set(kinds)
    assert "issuer" in kinds["oidc"]["schema"]["properties"]
    assert kinds["wecom"]["modes"] == ["inapp", "qr"]
    assert "magic-link" not in kinds  # its plugin is not enabled for Acme


def test_settings_are_validated(idps: Any, client: Any) -> None:
    admin = admin_of(client, ACME)
    body = admin.post(
        "/api/third/admin/configs/save",
        json={
            "code": "bad-oidc",
            "kind": "oidc",
            "name": "Bad",
            "settings": {"issuer": "ftp://x", "client_id": "c"},
        },
    )
    assert body["code"] == 400 and "issuer" in body["msg"]
    body = admin.post(
        "/api/third/admin/configs/save",
        json={
            "code": "bad-oidc",
            "kind": "oidc",
            "name": "Bad",
            "settings": {**oidc_settings(idps), "id_token_algs": ["HS256"]},
        },
    )
    assert body["code"] == 400 and "id_token_algs" in body["msg"]
    body = admin.post(
        "/api/third/admin/configs/save",
        json={
            "code": "bad-oidc",
            "kind": "oidc",
            "name": "Bad",
            "settings": {**oidc_settings(idps), "surprise": 1},
        },
    )
    assert body["code"] == 400 and "surprise" in body["msg"]
    body = admin.post(
        "/api/third/admin/configs/save",
        json={"code": "Bad Code", "kind": "oidc", "name": "Bad", "settings": oidc_settings(idps)},
    )
    assert body["code"] == 400
    assert all(c["code"] != "bad-oidc" for c in admin.ok("GET", "/api/third/admin/configs"))


def test_secrets_are_masked_and_kept(idps: Any, configure: Any, client: Any, browser: Any) -> None:
    configure("wecom", "acme-wecom", wecom_settings(idps))
    admin = admin_of(client, ACME)
    row = next(c for c in admin.ok("GET", "/api/third/admin/configs") if c["code"] == "acme-wecom")
    assert row["settings"]["secret"] == "******" and idps.wecom.secret not in str(row)
    admin.ok("POST", "/api/third/admin/configs/save", json={**row, "name": "WeCom renamed"})
    link(client, ACME, "acme-wecom", "wx-042", user_id(client, "alice"))
    start = browser.ok("GET", "/api/third/auth-wx-login/login-url", params={"tenantDomain": "acme.localhost"})
    from tests.sso.conftest import follow

    assert browser.ok("GET", "/api/third/auth-wx-login/callback", params=follow(start["url"]))["userId"]


def test_only_administrators(user_client: Any) -> None:
    assert user_client.get("/api/third/admin/configs")["code"] == 403
    assert (
        user_client.post(
            "/api/third/admin/identities/link", json={"provider": "x", "subject": "y", "userId": 1}
        )["code"]
        == 403
    )


def test_tenant_isolation(idps: Any, configure: Any, client: Any) -> None:
    configure("oidc", "acme-only", oidc_settings(idps))
    globex = admin_of(client, GLOBEX)
    assert all(c["code"] != "acme-only" for c in globex.ok("GET", "/api/third/admin/configs"))
    missing = globex.post(
        "/api/third/admin/identities/link",
        json={"provider": "acme-only", "subject": "s", "userId": user_id(client, "bob")},
    )
    assert missing["code"] == 404
    acme = admin_of(client, ACME)
    # bob is no member of Acme: answered like a user that does not exist
    nobody = acme.post(
        "/api/third/admin/identities/link", json={"provider": "acme-only", "subject": "s", "userId": 987654}
    )
    foreign = acme.post(
        "/api/third/admin/identities/link",
        json={"provider": "acme-only", "subject": "s", "userId": user_id(client, "bob")},
    )
    assert nobody["code"] == foreign["code"] == 404 and nobody["msg"] == foreign["msg"]
    link(client, ACME, "acme-only", "s-1", user_id(client, "alice"))
    row = next(r for r in acme.ok("GET", "/api/third/admin/identities") if r["subject"] == "s-1")
    assert row["account"] == "alice"
    assert globex.post("/api/third/admin/identities/unlink", json={"id": int(row["id"])})["code"] == 404
    assert globex.post("/api/third/admin/identities/unlink", json={"id": 99999999})["code"] == 404
    dup = acme.post(
        "/api/third/admin/identities/link",
        json={"provider": "acme-only", "subject": "s-1", "userId": user_id(client, "alice")},
    )
    assert dup["code"] == 409


def test_login_types_come_from_the_kernel_paths(idps: Any, configure: Any, client: Any, browser: Any) -> None:
    configure("oidc", "corp-oidc", oidc_settings(idps), name="Corporate SSO")
    configure("wecom", "acme-wecom", wecom_settings(idps), name="WeCom", enabled=False)
    types = browser.ok("GET", "/api/base/base-sso-oauth-config/get-login-type?domainName=acme.localhost")
    assert [t["type"] for t in types][:3] == ["account", "phone", "email"]
    mine = [t for t in types if t.get("provider") == "corp-oidc"]
    assert mine and mine[0]["name"] == "Corporate SSO" and mine[0]["loginUrl"].startswith("/sso/login?")
    assert not [t for t in types if t.get("provider") == "acme-wecom"]  # disabled configuration
    assert idps.idp.client_secret not in str(types)
    info = browser.ok("GET", "/api/base/base-login-config/get-login-info?domainName=acme.localhost")
    assert any(t.get("provider") == "corp-oidc" for t in info["loginTypes"])
    globex = browser.ok("GET", "/api/base/base-sso-oauth-config/get-login-type?domainName=globex.localhost")
    assert not [t for t in globex if t.get("provider") == "corp-oidc"]
    assert browser.ok("GET", "/api/third/login-types?domainName=acme.localhost")[0]["provider"] == "corp-oidc"


@pytest.fixture
def example_enabled_for_globex(client: Any) -> Iterator[Any]:
    admin = admin_of(client, GLOBEX)
    admin.ok(
        "POST",
        "/api/base/admin/plugins/state",
        json={"plugin": "sso-example", "enabled": True, "tenantId": GLOBEX},
    )
    yield admin
    admin.ok(
        "POST",
        "/api/base/admin/plugins/state",
        json={"plugin": "sso-example", "enabled": False, "tenantId": GLOBEX},
    )


def test_provider_from_an_installed_plugin(
    example_enabled_for_globex: Any, configure: Any, client: Any, browser: Any
) -> None:
    admin = example_enabled_for_globex
    plugins = {p["name"]: p for p in admin.ok("GET", "/api/base/admin/plugins")}
    assert plugins["sso-example"]["status"] == "loaded"
    assert "magic-link" in {p["kind"] for p in admin.ok("GET", "/api/third/admin/providers")}
    configure(
        "magic-link", "globex-magic", {"subject": "m-bob", "key": "k3y"}, tenant_id=GLOBEX, name="Magic"
    )
    refused = admin_of(client, ACME).post(
        "/api/third/admin/configs/save",
        json={
            "code": "acme-magic",
            "kind": "magic-link",
            "name": "Magic",
            "settings": {"subject": "x", "key": "k"},
        },
    )
    assert refused["code"] == 400
    globex_types = browser.ok(
        "GET", "/api/base/base-sso-oauth-config/get-login-type?domainName=globex.localhost"
    )
    assert [t["name"] for t in globex_types if t["type"] == "magic-link"] == ["Magic"]
    acme_types = browser.ok("GET", "/api/base/base-sso-oauth-config/get-login-type?domainName=acme.localhost")
    assert not [t for t in acme_types if t["type"] == "magic-link"]
    # and it signs people in through the sso plugin's flow
    link(client, GLOBEX, "globex-magic", "m-bob", user_id(client, "bob"))
    start = browser.ok("POST", "/api/third/sso/start", json={"tenantId": GLOBEX, "provider": "globex-magic"})
    back = {k: v[0] for k, v in parse_qs(urlsplit(start["url"]).query).items()}
    data = browser.ok("POST", "/api/third/sso/callback", json=back)
    assert data["userFullName"] == "Bob Li" and data["tenantId"] == GLOBEX
    # switched off for Globex: gone from its sign-in page although still configured
    admin.ok(
        "POST",
        "/api/base/admin/plugins/state",
        json={"plugin": "sso-example", "enabled": False, "tenantId": GLOBEX},
    )
    again = browser.ok("GET", "/api/base/base-sso-oauth-config/get-login-type?domainName=globex.localhost")
    assert not [t for t in again if t["type"] == "magic-link"]


def test_code_keeps_its_kind(idps: Any, configure: Any, client: Any) -> None:
    configure("oidc", "one-code", oidc_settings(idps))
    body = admin_of(client, ACME).post(
        "/api/third/admin/configs/save",
        json={"code": "one-code", "kind": "wecom", "name": "Other", "settings": wecom_settings(idps)},
    )
    assert body["code"] == 409 and "one-code" in body["msg"]
