"""The whole product at a sub-path, behind the reverse proxy: deploy/nginx.conf proxies only `/atrium/` to a
node started with ATRIUM_BASE_PATH=/atrium. In Chromium a person signs in, lands on the home page, opens
a plugin's page, reloads it, gets the live socket and signs out, and every address the page asks for
(scripts, chunks, remotes, translations, API calls, the socket) stays under `/atrium/`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import demo_server, ensure_web_built, shot, user_menu
from playwright.sync_api import expect

from tests.bench.bench_rolling_restart import NGINX, nginx

pytestmark = pytest.mark.e2e
PREFIX = "/atrium"
LOAD = 30000


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of the platform as the browser reaches it: nginx's, with the prefix."""
    assert Path(NGINX).exists(), "nginx is needed: apt-get install -y nginx (nox -s tests installs it)"
    ensure_web_built()
    var_dir = tmp_path_factory.mktemp("atrium-base-path")
    with demo_server(var_dir, {"ATRIUM_BASE_PATH": PREFIX}, prefix=PREFIX) as node:
        port = int(node.rsplit(":", 1)[1])
        with nginx(port, port, prefix=PREFIX) as proxy:
            yield proxy + PREFIX


def test_the_portal_works_under_a_sub_path(browser, proxied: str) -> None:
    site = proxied[: -len(PREFIX)]
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": proxied + "/"}])
    outside: list[str] = []
    sockets: list[str] = []

    def guard(route) -> None:
        url = route.request.url
        if url.startswith(proxied + "/") or url.startswith(("data:", "blob:")):
            route.fallback()
        else:
            outside.append(url)
            route.fulfill(status=404, body="outside the platform's path")

    ctx.route("**/*", guard)
    page = ctx.new_page()
    page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        page.goto(proxied + "/login")
        page.locator("#account").fill("admin")
        page.locator("#password").fill("Admin@123")
        page.locator("#agree").check()
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{proxied}/home", timeout=LOAD)
        expect(page.get_by_test_id("home-page")).to_be_visible(timeout=LOAD)
        shot(page, "base-path-01-home")

        page.goto(proxied + "/process_manage")
        expect(page.get_by_test_id("process-new-model")).to_be_visible(timeout=LOAD)
        # the tab strip names the page by the platform's path, not the browser's
        expect(page.locator('[data-node-key="/process_manage"].ant-tabs-tab-active')).to_be_visible()
        page.reload()
        expect(page.get_by_test_id("process-new-model")).to_be_visible(timeout=LOAD)
        shot(page, "base-path-02-plugin-page")

        page.get_by_test_id("process-new-model").click()
        page.wait_for_url(f"{proxied}/process_manage/design/new", timeout=LOAD)
        expect(page.get_by_test_id("process-canvas").locator(".djs-container")).to_be_visible(timeout=LOAD)

        for _ in range(60):  # the live socket opens once the shell has its user
            if sockets:
                break
            page.wait_for_timeout(250)
        assert [s for s in sockets if s.startswith(f"ws://{site[len('http://') :]}{PREFIX}/ws?")], sockets

        user_menu(page, "Sign out")
        page.locator(".ant-modal-confirm").get_by_role("button", name="OK").click()
        page.wait_for_url(f"{proxied}/login", timeout=LOAD)
        expect(page.locator("#account")).to_be_visible()
        assert outside == [], f"asked for outside {PREFIX}/: {outside}"
        assert sockets and all(s.split("?")[0].endswith(f"{PREFIX}/ws") for s in sockets), sockets
    finally:
        ctx.close()
