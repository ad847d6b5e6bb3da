"""Run-time plugin loading: a federated module at its prefix, a shell slot, a broken remote kept in its
tab, and mobile width. (The size of the JavaScript the first pages download: test_shell_budget.py.)"""

from __future__ import annotations

import json
import mimetypes

from conftest import FIXTURE_REMOTE, shot, sign_in
from playwright.sync_api import expect

DEMO = {
    "name": "e2e-demo",
    "version": "0.0.1",
    "remoteName": "atrium_e2e_demo",
    "remoteUrl": "/plugins/e2e-demo/",
    "exposes": ["./App"],
    "prefixes": ["/system_manage"],
    "slots": [{"slot": "homeCard", "module": "./App"}],
}
BROKEN = {
    "name": "broken",
    "version": "0.0.1",
    "remoteName": "atrium_broken",
    "remoteUrl": "/plugins/broken/",
    "exposes": ["./App"],
    "prefixes": ["/schedule"],
    "slots": [],
}


def with_test_plugins(page):
    """Adds the test remote and a broken one to the real manifest, and serves the test remote's files."""

    def manifest(route):
        response = route.fetch()
        body = response.json()
        data = body.get("data") or {}
        # the test remotes take over /system_manage from the admin console and /schedule from operations
        taken = {"/system_manage", "/schedule"}
        kept = [p for p in data.get("plugins") or [] if not taken & set(p.get("prefixes") or [])]
        data["plugins"] = [*kept, DEMO, BROKEN]
        body["data"] = data
        route.fulfill(response=response, body=json.dumps(body), content_type="application/json")

    def remote_file(route):
        name = route.request.url.split("/plugins/e2e-demo/", 1)[1].split("?")[0]
        path = FIXTURE_REMOTE / "dist" / name
        if path.is_file():
            route.fulfill(
                status=200,
                body=path.read_bytes(),
                content_type=mimetypes.guess_type(name)[0] or "application/javascript",
            )
        else:
            route.fulfill(status=404, body="")

    page.route("**/api/kernel/manifest", manifest)
    page.route("**/plugins/e2e-demo/**", remote_file)
    page.route(
        "**/plugins/broken/**",
        lambda route: route.fulfill(
            status=200, content_type="application/javascript", body="throw new Error('broken remote');"
        ),
    )


def test_federated_module_loads_at_its_prefix(page, live_server):
    with_test_plugins(page)
    sign_in(page, live_server.url)
    expect(page.get_by_test_id("e2e-home-card")).to_be_visible()
    page.goto(live_server.url + "/system_manage/user")
    expect(page.get_by_test_id("e2e-plugin-page")).to_be_visible()
    expect(page.get_by_test_id("e2e-path")).to_have_text("/system_manage/user")
    # one router, one SDK, one antd App: the plugin sees the session, the shell context, the host's messages
    assert page.get_by_test_id("e2e-user").inner_text().strip() != ""
    expect(page.get_by_test_id("e2e-menus")).to_have_text("menus-shared")
    page.get_by_test_id("e2e-button").click()
    expect(page.get_by_text("plugin message")).to_be_visible()
    shot(page, "10-plugin-page")
    # the page stays alive in its tab while another tab is open
    page.get_by_test_id("tab-/home").click()
    page.get_by_test_id("tab-/system_manage/user").click()
    expect(page.get_by_test_id("e2e-button")).to_have_text("Clicked 1")
    assert page.page_errors == []


def test_broken_remote_is_isolated(page, live_server):
    with_test_plugins(page)
    sign_in(page, live_server.url)
    page.goto(live_server.url + "/schedule/jobs")
    error = page.get_by_test_id("plugin-error")
    expect(error).to_be_visible()
    expect(error.get_by_role("button", name="Retry")).to_be_visible()
    shot(page, "11-broken-remote")
    error.get_by_role("button", name="Retry").click()
    expect(page.get_by_test_id("plugin-error")).to_be_visible()
    # the shell keeps working
    page.get_by_test_id("tab-/home").click()
    expect(page.get_by_test_id("home-page")).to_be_visible()
    page.goto(live_server.url + "/system_manage/role")
    expect(page.get_by_test_id("e2e-plugin-page")).to_be_visible()


def test_mobile_width(browser, live_server):
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="en-US", is_mobile=True, has_touch=True
    )
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": live_server.url}])
    page = ctx.new_page()
    try:
        page.goto(live_server.url + "/login")
        shot(page, "12-mobile-login")
        sign_in(page, live_server.url)
        expect(page.get_by_test_id("mobile-menu")).to_be_visible()
        expect(page.locator("[data-device='mobile']")).to_have_count(1)
        expect(page.get_by_test_id("sidebar")).to_have_count(0)
        page.get_by_test_id("mobile-menu").click()
        expect(page.get_by_test_id("sidebar")).to_be_visible()
        shot(page, "13-mobile-menu")
        page.set_viewport_size({"width": 1400, "height": 900})
        expect(page.locator("[data-device='desktop']")).to_have_count(1, timeout=5000)
    finally:
        ctx.close()
