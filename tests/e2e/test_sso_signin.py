"""Single sign-on in real Chromium: OpenID Connect through the local provider, a refused ID token shown
on the sign-in page, QR sign-in with DingTalk, and in-app sign-in inside the DingTalk browser (the host's
open sign-in pages); the administrators' provider screen (the sso plugin's remote)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from atrium.sdk.testing import encrypt_password

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: tests.sso_providers
from conftest import sign_in  # noqa: E402

from tests.sso_providers.server import Providers, serve  # noqa: E402

pytestmark = pytest.mark.e2e
ACME = 1001
WAIT = 15_000  # ms: the machine running the browser tests is shared and often busy
ROOT = Path(__file__).resolve().parents[2]


def ensure_remote_built(name: str) -> None:
    """Build a plugin's remote when missing. The kernel mounts `/plugins/<name>/` only for a `dist` that
    exists when the server starts, so this runs while the tests are collected, before any server."""
    folder = ROOT / "web-plugins" / name
    if not (folder / "dist" / "remoteEntry.js").exists():
        subprocess.run(
            ["npx", "webpack", "--mode", "production"], cwd=folder, check=True, stdout=subprocess.DEVNULL
        )


ensure_remote_built("sso")  # the administrators' screen


class Api:
    """The live server's API as the demo administrator."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=10)
        enc = self.call("POST", "/api/base/base-user/get-enryption")
        body = self.call(
            "POST",
            "/api/base/base-user/login",
            json={
                "account": "admin",
                "password": encrypt_password(enc["publicKey"], enc["nonce"], "Admin@123"),
            },
        )
        self.http.headers["authorization"] = body["authorization"]

    def call(self, method: str, path: str, **kw: Any) -> Any:
        body = self.http.request(method, path, **kw).json()
        assert body["code"] == 800, f"{path}: {body}"
        return body["data"]

    def user_id(self, account: str) -> int:
        users = self.call("GET", "/api/base/admin/users", params={"tenantId": ACME})
        rows = users["list"] if isinstance(users, dict) else users
        return int(next(u for u in rows if u["account"] == account)["userId"])


@pytest.fixture(scope="module")
def providers() -> Iterator[Providers]:
    with serve() as p:
        yield p


@pytest.fixture(scope="module")
def api(live_server: Any) -> Api:
    return Api(live_server.url)


@pytest.fixture
def context(browser: Any, live_server: Any, providers: Providers) -> Iterator[Any]:
    """Like the shell's context, but the local identity providers are reachable."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": live_server.url}])

    def outside(route: Any) -> None:
        url = route.request.url
        if url.startswith((live_server.url, providers.base_url, "data:", "blob:", "about:")):
            route.fallback()
        else:
            route.fulfill(
                status=200, content_type="text/html", body="<html><body>external page</body></html>"
            )

    ctx.route("**/*", outside)
    yield ctx
    ctx.close()


def routed(page: Any, base: str, path: str, testid: str, wait: bool = True) -> None:
    """Open a sign-in route, after the provider choice (which also loads the host's sso pages): these are
    the host's open routes, so a page that is not drawn fails the test."""
    page.goto(f"{base}/sso/multi-login?tenantId={ACME}")
    page.get_by_test_id("sso-multi-login").wait_for(timeout=WAIT)
    page.goto(base + path)
    if wait and testid != "sso-login":  # /sso/login leaves for the provider at once
        page.get_by_test_id(testid).wait_for()


def configure(api: Api, kind: str, code: str, settings: dict[str, Any], **extra: Any) -> None:
    api.call(
        "POST",
        "/api/third/admin/configs/save",
        json={"code": code, "kind": kind, "name": extra.pop("name", code), "settings": settings, **extra},
    )


def link(api: Api, provider: str, subject: str, account: str) -> None:
    rows = api.call("GET", "/api/third/admin/identities", params={"provider": provider})
    if not any(r["subject"] == subject for r in rows):
        api.call(
            "POST",
            "/api/third/admin/identities/link",
            json={"provider": provider, "subject": subject, "userId": api.user_id(account)},
        )


@pytest.fixture
def oidc(api: Api, providers: Providers) -> Providers:
    providers.reset()
    idp = providers.idp
    configure(
        api,
        "oidc",
        "e2e-oidc",
        {
            "issuer": idp.issuer,
            "client_id": idp.client_id,
            "client_secret": idp.client_secret,
            "timeout_seconds": 3,
        },
        name="Corporate SSO",
    )
    link(api, "e2e-oidc", idp.person.sub, "alice")
    return providers


def test_oidc_sign_in_lands_on_home(page: Any, live_server: Any, oidc: Providers) -> None:
    routed(page, live_server.url, f"/sso/multi-login?tenantId={ACME}", "sso-multi-login")
    page.get_by_test_id("sso-provider-e2e-oidc").click()
    page.wait_for_url("**/home")
    expect(page.get_by_test_id("user-name")).to_contain_text("Alice")


def test_refused_id_token_is_explained_and_signs_nobody_in(
    page: Any, live_server: Any, oidc: Providers
) -> None:
    oidc.idp.behaviour = "wrong_nonce"
    routed(page, live_server.url, f"/sso/login?provider=e2e-oidc&tenantId={ACME}", "sso-login")
    expect(page.get_by_test_id("sso-error")).to_contain_text("does not belong to this sign-in")
    assert not any(c["name"] == "Atrium-Token" for c in page.context.cookies())
    page.get_by_role("button", name="Back to sign-in").click()
    page.wait_for_url("**/login")


def test_replayed_callback_is_refused(page: Any, live_server: Any, oidc: Providers) -> None:
    routed(page, live_server.url, f"/sso/login?provider=e2e-oidc&tenantId={ACME}", "sso-login")
    page.wait_for_url("**/home")
    page.goto(live_server.url + "/sso/login?code=spent&state=already-used")
    expect(page.get_by_test_id("sso-error")).to_contain_text("invalid or was already used")


@pytest.fixture
def dingtalk(api: Api, providers: Providers) -> Providers:
    providers.reset()
    dt = providers.dingtalk
    configure(
        api,
        "dingtalk",
        "e2e-dingtalk",
        {
            "corp_id": dt.corp_id,
            "app_key": dt.app_key,
            "app_secret": dt.app_secret,
            "api_base": providers.base_url + dt.prefix,
            "timeout_seconds": 3,
        },
        name="DingTalk",
    )
    link(api, "e2e-dingtalk", "dt-007", "alice")
    return providers


def test_dingtalk_qr_sign_in(page: Any, live_server: Any, dingtalk: Providers) -> None:
    routed(page, live_server.url, f"/qrcode?tenantId={ACME}", "sso-qrcode")
    frame = page.frame_locator("[data-testid=sso-qr-dingtalk]")
    frame.locator("#scan").click()
    page.wait_for_url("**/home")
    expect(page.get_by_test_id("user-name")).to_contain_text("Alice")


def test_dingtalk_in_app_sign_in(browser: Any, live_server: Any, dingtalk: Providers) -> None:
    ctx = browser.new_context(
        user_agent="Mozilla/5.0 (iPhone) AliApp(DingTalk/7.0.0) DingTalk/7.0.0", locale="en-US"
    )
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": live_server.url}])
    code = dingtalk.dingtalk.code_for("dt-007")
    fake_jsapi = (
        "window.dd = {ready: (cb) => cb(), runtime: {permission: {requestAuthCode: (o) => o.onSuccess(%s)}}};"
    )
    ctx.add_init_script(fake_jsapi % f"{{code: '{code}'}}")
    page = ctx.new_page()
    try:
        # in the app the code arrives at once, so the page may already be leaving for /home
        routed(
            page, live_server.url, "/third-login?tenantDomain=acme.localhost", "sso-third-login", wait=False
        )
        page.wait_for_url("**/home", timeout=15000)
        expect(page.get_by_test_id("user-name")).to_contain_text("Alice")
    finally:
        ctx.close()


def test_admin_screen_comes_from_the_sso_remote(page: Any, live_server: Any, oidc: Providers) -> None:
    """The administrators' screen at its menu address is the sso plugin's federated module."""
    remotes: list[str] = []
    page.on("request", lambda r: remotes.append(r.url) if "/plugins/" in r.url else None)
    sign_in(page, live_server.url)
    page.goto(live_server.url + "/third-party/sso-config")
    screen = page.get_by_test_id("sso-admin")
    expect(screen.get_by_role("tab", name="Sign-in providers")).to_be_visible(timeout=WAIT)
    expect(screen.get_by_role("cell", name="Corporate SSO")).to_be_visible(timeout=WAIT)
    assert any(u.startswith(f"{live_server.url}/plugins/sso/remoteEntry.js") for u in remotes), remotes
    screen.get_by_role("tab", name="Linked identities").click()
    expect(screen.get_by_role("cell", name=oidc.idp.person.sub)).to_be_visible(timeout=WAIT)
    screen.get_by_role("tab", name="Sign-in providers").click()
    screen.get_by_role("button", name="Add provider").click()
    expect(page.get_by_role("dialog", name="Add provider")).to_be_visible(timeout=WAIT)
