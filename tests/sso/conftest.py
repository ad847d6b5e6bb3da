"""Fixtures of the sso tests: the local identity providers, a browser per test, configured providers,
and the separate example plugin installed (by pip, into a private folder) before the app is built."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from starlette.testclient import TestClient

from atrium.sdk.testing import AtriumClient
from tests.sso_providers.server import Providers, serve

EXAMPLE = Path(__file__).parent / "example_provider"
ACME, GLOBEX = 1001, 1002
DOMAINS = {ACME: "acme.localhost", GLOBEX: "globex.localhost"}


def _install_example() -> None:
    """pip-install the example plugin into a private folder on sys.path: its entry point is found by the
    app this session builds, and the shared environment is left untouched."""
    target = Path(tempfile.mkdtemp(prefix="atrium-sso-example-"))
    # each test process builds from its own copy: builds in the shared source folder (its build/ and
    # egg-info) race when parallel workers install at once
    skip = shutil.ignore_patterns("build", "*.egg-info")
    source = Path(shutil.copytree(EXAMPLE, target / "source", ignore=skip))
    target = target / "site"
    base = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-deps",
        "--no-index",
        "--target",
        str(target),
    ]
    done = subprocess.run([*base, "--no-build-isolation", str(source)], capture_output=True, text=True)
    if done.returncode != 0:  # no wheel package here: let pip build in an isolated environment
        done = subprocess.run(
            [*base[:-3], "--target", str(target), str(source)], capture_output=True, text=True
        )
    if done.returncode != 0:
        raise RuntimeError(f"installing the example sso plugin failed:\n{done.stderr[-2000:]}")
    sys.path.insert(0, str(target))
    importlib.invalidate_caches()


_install_example()


@pytest.fixture(scope="session")
def providers() -> Iterator[Providers]:
    with serve() as p:
        yield p


@pytest.fixture
def idps(providers: Providers) -> Iterator[Providers]:
    providers.reset()
    yield providers
    providers.reset()


@pytest.fixture
def browser(atrium_app: Any) -> AtriumClient:
    """A browser of its own (own cookie jar), not signed in."""
    return AtriumClient(TestClient(atrium_app, base_url="http://testserver"))


@pytest.fixture
def other_browser(atrium_app: Any) -> AtriumClient:
    return AtriumClient(TestClient(atrium_app, base_url="http://testserver"))


_admins: dict[int, AtriumClient] = {}
_user_ids: dict[str, int] = {}


def admin_of(client: AtriumClient, tenant_id: int) -> AtriumClient:
    """The demo super administrator signed in to a tenant (one sign-in per tenant and session)."""
    admin = _admins.get(tenant_id)
    if admin is not None and admin.get("/api/base/base-user/get-login-user")["code"] == 800:
        return admin
    admin = client.signed_in("admin")
    if admin.profile["tenantId"] != tenant_id:
        admin.ok("POST", f"/api/base/base-user/change-tenant?tenantId={tenant_id}&systemCode=iotAutho")
        switched = admin.last.headers
        admin.headers["authorization"] = switched["authorization"]
        admin.headers["refreshAuthorization"] = switched["refresh-authorization"]
    _admins[tenant_id] = admin
    return admin


@pytest.fixture
def configure(client: AtriumClient) -> Iterator[Callable[..., dict[str, Any]]]:
    """Save a provider configuration for a tenant (removed after the test)."""
    made: list[tuple[AtriumClient, str]] = []

    def save(
        kind: str, code: str, settings: dict[str, Any], tenant_id: int = ACME, **extra: Any
    ) -> dict[str, Any]:
        admin = admin_of(client, tenant_id)
        body = {
            "code": code,
            "kind": kind,
            "name": extra.pop("name", code.title()),
            "settings": settings,
            **extra,
        }
        data = admin.ok("POST", "/api/third/admin/configs/save", json=body)
        made.append((admin, code))
        return dict(data)

    yield save
    for admin, code in made:
        admin.post("/api/third/admin/configs/delete", json={"code": code})


def oidc_settings(p: Providers, **over: Any) -> dict[str, Any]:
    return {
        "issuer": p.idp.issuer,
        "client_id": p.idp.client_id,
        "client_secret": p.idp.client_secret,
        "timeout_seconds": 2,
        **over,
    }


def oauth2_settings(p: Providers, **over: Any) -> dict[str, Any]:
    base = p.idp.issuer
    return {
        "authorize_url": f"{base}/authorize",
        "token_url": f"{base}/token",
        "userinfo_url": f"{base}/userinfo",
        "client_id": p.idp.client_id,
        "client_secret": p.idp.client_secret,
        "scopes": "profile",
        "logout_url": f"{base}/logout",
        "timeout_seconds": 2,
        **over,
    }


def dingtalk_settings(p: Providers, **over: Any) -> dict[str, Any]:
    dt = p.dingtalk
    return {
        "corp_id": dt.corp_id,
        "app_key": dt.app_key,
        "app_secret": dt.app_secret,
        "agent_id": "88",
        "sso_secret": dt.sso_secret,
        "api_base": p.base_url + dt.prefix,
        "timeout_seconds": 2,
        **over,
    }


def wecom_settings(p: Providers, **over: Any) -> dict[str, Any]:
    wx = p.wecom
    return {
        "corp_id": wx.corp_id,
        "agent_id": wx.agent_id,
        "secret": wx.secret,
        "api_base": p.base_url + wx.prefix,
        "oauth_base": p.base_url + wx.prefix,
        "qr_base": p.base_url + wx.prefix,
        "timeout_seconds": 2,
        **over,
    }


def follow(url: str) -> dict[str, str]:
    """Open the provider's address as the browser would; answers the query it sends the browser back with."""
    resp = httpx.get(url.split("#")[0] + ("&auto=1" if "auto=" not in url else ""), follow_redirects=False)
    assert resp.status_code == 302, f"{url} -> {resp.status_code} {resp.text[:200]}"
    return {k: v[0] for k, v in parse_qs(urlsplit(resp.headers["location"]).query).items()}


def back_to(url: str) -> str:
    resp = httpx.get(url.split("#")[0] + "&auto=1", follow_redirects=False)
    return str(resp.headers["location"])


def user_id(client: AtriumClient, account: str) -> int:
    if account not in _user_ids:
        _user_ids[account] = int(client.signed_in(account).profile["userId"])
    return _user_ids[account]


def link(client: AtriumClient, tenant_id: int, provider: str, subject: str, uid: int) -> None:
    admin_of(client, tenant_id).ok(
        "POST",
        "/api/third/admin/identities/link",
        json={"provider": provider, "subject": subject, "userId": uid},
    )
