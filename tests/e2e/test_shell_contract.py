"""Shell contract in Chromium (spec 2.3, 2.5, 3): languages from the SYSTEM_LANGUAGE_TYPES dictionary, the
requirements QR code behind its flag, full screen from the side toolbar and back, routes pushed by an
embedding page (allowed origins and internal paths only), external menus by code, tab titles kept over a
reload, the back-to-home delay and the SMS and form sign-in modes."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import api_client, shot, sign_in
from playwright.sync_api import Page, Route, expect

pytestmark = pytest.mark.e2e

DICTIONARY = "**/api/base/dic-items/get-dictype-notoken?dicType=SYSTEM_LANGUAGE_TYPES"
EMBEDDER = "http://embedder.example"
ALL_LANGUAGES = ("zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu")
POST_JS = "(message) => window.postMessage(message, '*')"


def answer(data: Any) -> dict[str, Any]:
    return {
        "status": 200,
        "content_type": "application/json",
        "body": json.dumps({"code": 800, "msg": "ok", "data": data}),
    }


class Admin:
    """The live server's API as the demo administrator."""

    def __init__(self, base: str) -> None:
        self.http = api_client(base, "admin")

    def call(self, method: str, path: str, **kw: Any) -> Any:
        body = self.http.request(method, path, **kw).json()
        assert body["code"] == 800, f"{path}: {body}"
        return body["data"]

    def server_config(self, key: str, value: str) -> None:
        self.call("POST", "/api/base/admin/server-config", json={"configKey": key, "value": value})


@pytest.fixture
def admin_api(live_server: Any) -> Iterator[Admin]:
    api = Admin(live_server.url)
    yield api
    api.http.close()


def language_options(page: Page, opener: str, hover: bool = False) -> list[str]:
    trigger = page.get_by_test_id(opener)
    if hover:
        trigger.hover()
    else:
        trigger.click()
    menu = page.locator(".ant-dropdown:not(.ant-dropdown-hidden)")
    expect(menu.get_by_role("menuitem").first).to_be_visible()
    return [t.get_attribute("data-testid") or "" for t in menu.locator("[data-testid^='lang-']").all()]


# 1. languages ------------------------------------------------------------------------------------------


def test_the_sign_in_page_offers_the_dictionary_languages(page: Page, live_server: Any) -> None:
    page.goto(live_server.url + "/login")
    expect(page.get_by_role("button", name="Sign in")).to_be_visible()
    # the demo's dictionary lists all five
    assert language_options(page, "login-language", hover=True) == [f"lang-{x}" for x in ALL_LANGUAGES]


def test_a_dictionary_of_two_languages_offers_those_two_only(page: Page, live_server: Any) -> None:
    items = [
        {"dicCode": "en_US", "dicName": "English", "diId": "1"},
        {"dicCode": "fr-fr", "dicName": "Français", "diId": "2"},
        {"dicCode": "zh-cn", "dicName": "简体中文", "diId": "3"},
    ]
    page.route(DICTIONARY, lambda route: route.fulfill(**answer(items)))
    page.goto(live_server.url + "/login")
    assert language_options(page, "login-language", hover=True) == ["lang-en-us", "lang-zh-cn"]
    expect(page.get_by_text("Français")).to_have_count(0)  # no translations for it: not offered
    page.keyboard.press("Escape")
    sign_in(page, live_server.url)
    assert language_options(page, "language-switch") == ["lang-en-us", "lang-zh-cn"]
    page.get_by_test_id("lang-zh-cn").click()
    expect(page.get_by_test_id("tab-/home")).to_contain_text("首页")
    shot(page, "shell-contract-languages")


@pytest.mark.parametrize("failure", ["empty", "unreachable"])
def test_without_the_dictionary_the_five_built_in_languages_are_offered(
    page: Page, live_server: Any, failure: str
) -> None:
    def reply(route: Route) -> None:
        if failure == "empty":
            route.fulfill(**answer([]))
        else:
            route.abort()

    page.route(DICTIONARY, reply)
    page.goto(live_server.url + "/login")
    expect(page.get_by_role("button", name="Sign in")).to_be_visible()
    assert language_options(page, "login-language", hover=True) == [f"lang-{x}" for x in ALL_LANGUAGES]


# 2. requirements QR ------------------------------------------------------------------------------------


def test_the_requirements_qr_code_follows_the_server_flag(
    page: Page, live_server: Any, admin_api: Admin
) -> None:
    sign_in(page, live_server.url)
    page.goto(live_server.url + "/person-info")
    expect(page.get_by_test_id("toolbar-favourite")).to_be_visible()
    expect(page.get_by_test_id("toolbar-requirements")).to_have_count(0)
    admin_api.server_config("SHOW_REQUIREMENT_QR", "true")
    try:
        page.reload()
        page.get_by_test_id("toolbar-requirements").hover()
        qr = page.get_by_test_id("requirements-qr")
        expect(qr).to_be_visible()
        expect(qr.locator("canvas, svg").first).to_be_visible()
        expect(page.get_by_text("Tell us what you need")).to_be_visible()
        shot(page, "shell-contract-requirements-qr")
    finally:
        admin_api.server_config("SHOW_REQUIREMENT_QR", "false")


@pytest.mark.parametrize(
    ("config", "shown"),
    [
        ("{requirementsQr: true}", True),
        ("{SHOW_REQUIREMENT_QR: 'true'}", True),
        ("{SHOW_REQUIREMENT_QR: false}", False),
    ],
)
def test_the_page_configuration_switches_the_requirements_qr_code(
    page: Page, live_server: Any, config: str, shown: bool
) -> None:
    page.context.add_init_script(f"window.ATRIUM_CONFIG = {config};")
    sign_in(page, live_server.url)
    page.goto(live_server.url + "/person-info")
    expect(page.get_by_test_id("toolbar-favourite")).to_be_visible()
    expect(page.get_by_test_id("toolbar-requirements")).to_have_count(1 if shown else 0)


# 3. full screen ----------------------------------------------------------------------------------------


def expect_fullscreen(page: Page, on: bool) -> None:
    content = page.get_by_test_id("main-content")
    if on:
        expect(content).to_have_class(re.compile(r"\bfullscreen\b"))
        for part in ("navbar", "sidebar", "tab-strip", "toolbar-favourite"):
            expect(page.get_by_test_id(part)).to_have_count(0)
        expect(page.get_by_test_id("fullscreen-exit")).to_be_visible()
    else:
        expect(content).not_to_have_class(re.compile(r"\bfullscreen\b"))
        for part in ("navbar", "sidebar", "tab-strip"):
            expect(page.get_by_test_id(part)).to_be_visible()
        expect(page.get_by_test_id("fullscreen-exit")).to_have_count(0)


def test_full_screen_from_the_side_toolbar_and_back(admin_page: Page, live_server: Any) -> None:
    page = admin_page
    page.goto(live_server.url + "/person-info")
    expect(page.get_by_test_id("person-info")).to_be_visible()
    # beside the favourite button
    favourite = page.get_by_test_id("toolbar-favourite").bounding_box()
    button = page.get_by_test_id("toolbar-fullscreen")
    box = button.bounding_box()
    assert favourite and box and abs(box["x"] - favourite["x"]) < 2 and box["y"] > favourite["y"]
    button.click()
    expect_fullscreen(page, True)
    expect(page.get_by_test_id("person-info")).to_be_visible()
    shot(page, "shell-contract-fullscreen")
    page.get_by_test_id("fullscreen-exit").click()
    expect_fullscreen(page, False)
    # Escape leaves it too
    page.get_by_test_id("toolbar-fullscreen").click()
    expect_fullscreen(page, True)
    page.keyboard.press("Escape")
    expect_fullscreen(page, False)
    # and a route change
    page.get_by_test_id("toolbar-fullscreen").click()
    expect_fullscreen(page, True)
    page.evaluate(POST_JS, {"type": "atrium:open-route", "path": "/letters"})
    page.wait_for_url("**/letters")
    expect_fullscreen(page, False)


def test_full_screen_by_query_parameter_is_left_with_the_exit_button(
    admin_page: Page, live_server: Any
) -> None:
    page = admin_page
    page.goto(live_server.url + "/person-info?fullscreen=1&tab=base")
    expect_fullscreen(page, True)
    page.get_by_test_id("fullscreen-exit").click()
    expect_fullscreen(page, False)
    assert page.url.endswith("/person-info?tab=base")


def test_full_screen_set_by_the_page_configuration_has_no_way_out(page: Page, live_server: Any) -> None:
    page.context.add_init_script("window.ATRIUM_CONFIG = {fullscreen: true};")
    sign_in(page, live_server.url)
    expect(page.get_by_test_id("main-content")).to_have_class(re.compile(r"\bfullscreen\b"))
    expect(page.get_by_test_id("navbar")).to_have_count(0)
    expect(page.get_by_test_id("fullscreen-exit")).to_have_count(0)


# 4. and 7. routes pushed by an embedding page; titles kept over a reload ----------------------------------


def test_an_embedding_page_pushes_a_route_into_the_tab_strip(admin_page: Page, live_server: Any) -> None:
    page = admin_page
    strip = page.get_by_test_id("tab-strip")
    page.evaluate(POST_JS, {"type": "atrium:open-route", "path": "/letters"})
    page.wait_for_url("**/letters")
    expect(strip.get_by_test_id("tab-/letters")).to_be_visible()
    page.evaluate(
        POST_JS,
        {
            "type": "atrium:open-route",
            "path": "/embedded/quarter",
            "title": "Quarterly numbers",
            "query": {"year": 2024},
        },
    )
    page.wait_for_url("**/embedded/quarter?year=2024")
    expect(strip.get_by_test_id("tab-/embedded/quarter")).to_have_text("Quarterly numbers")
    expect(page.get_by_test_id("main-content")).to_have_attribute("aria-label", "Quarterly numbers")
    shot(page, "shell-contract-embedded-route")
    # the menus do not know the route: after a reload its title comes back from storage
    page.reload()
    expect(page.get_by_test_id("tab-strip").get_by_test_id("tab-/embedded/quarter")).to_have_text(
        "Quarterly numbers"
    )
    assert page.page_errors == []


def test_paths_leaving_the_shell_are_ignored(admin_page: Page, live_server: Any) -> None:
    page = admin_page
    strip = page.get_by_test_id("tab-strip")
    before = strip.get_by_role("tab").count()
    for path in (
        "javascript:alert(1)",
        "https://evil.example/x",
        "//evil.example/x",
        "/\\evil.example",
        "letters",
    ):
        page.evaluate(POST_JS, {"type": "atrium:open-route", "path": path})
    page.evaluate(POST_JS, {"type": "atrium:open-route", "path": "/person-info"})
    page.wait_for_url("**/person-info")
    expect(strip.get_by_role("tab")).to_have_count(before + 1)
    assert page.url.startswith(live_server.url)
    assert page.page_errors == []


EMBEDDER_PAGE = """<!doctype html><html><body><script>
parent.postMessage({type: 'atrium:open-route', path: '/letters', title: 'From the embedder'}, '*');
</script></body></html>"""

SEEN_JS = """(origin) => new Promise((resolve) => {
  window.addEventListener('message', (event) => { if (event.origin === origin) resolve(true); });
  const frame = document.createElement('iframe');
  frame.src = origin + '/embed';
  frame.style.display = 'none';
  document.body.appendChild(frame);
})"""


def serve_embedder(page: Page) -> None:
    page.route(
        f"{EMBEDDER}/**",
        lambda route: route.fulfill(status=200, content_type="text/html", body=EMBEDDER_PAGE),
    )


def test_a_route_from_another_origin_is_ignored(admin_page: Page, live_server: Any) -> None:
    page = admin_page
    serve_embedder(page)
    assert page.evaluate(SEEN_JS, EMBEDDER) is True
    page.wait_for_timeout(500)
    assert page.url.endswith("/home")
    expect(page.get_by_test_id("tab-strip").get_by_test_id("tab-/letters")).to_have_count(0)


def test_a_route_from_a_configured_origin_is_opened(page: Page, live_server: Any) -> None:
    page.context.add_init_script(f"window.ATRIUM_CONFIG = {{embedOrigins: ['{EMBEDDER}']}};")
    sign_in(page, live_server.url)
    serve_embedder(page)
    assert page.evaluate(SEEN_JS, EMBEDDER) is True
    page.wait_for_url("**/letters")
    expect(page.get_by_test_id("tab-strip").get_by_test_id("tab-/letters")).to_be_visible()


# 5. external menus by code -----------------------------------------------------------------------------


def test_an_external_menu_opens_by_its_code(admin_page: Page, live_server: Any) -> None:
    page = admin_page
    page.goto(live_server.url + "/partner-site")
    frame = page.get_by_test_id("third-view")
    expect(frame).to_be_visible()
    assert (frame.get_attribute("src") or "").startswith("https://partner.example/?token=")
    expect(page.get_by_test_id("tab-strip").get_by_test_id("tab-/partner-site")).to_have_text("Partner site")


# 6. back to home after 1,000 ms -------------------------------------------------------------------------


def test_back_to_home_waits_a_second(admin_page: Page, live_server: Any) -> None:
    page = admin_page
    page.goto(live_server.url + "/no-such-page")
    button = page.get_by_test_id("back-home")
    expect(button).to_be_visible()
    started = time.monotonic()
    button.click()
    expect(button).to_have_class(re.compile(r"ant-btn-loading"))
    assert page.url.endswith("/no-such-page")
    page.wait_for_url("**/home")
    assert time.monotonic() - started >= 0.95


# 8. sign-in modes ---------------------------------------------------------------------------------------


def test_sms_and_form_login_are_modes_of_their_own(page: Page, live_server: Any) -> None:
    page.goto(live_server.url + "/login")
    tabs = page.locator(".at-login-card").get_by_role("tab")
    expect(tabs.filter(has_text="Mobile (SMS)")).to_have_count(1)
    # every mode fits the tab strip (no overflow menu); form login is a link under the account form
    expect(
        page.locator(".at-login-card .ant-tabs-nav-operations:not(.ant-tabs-nav-operations-hidden)")
    ).to_have_count(0)
    page.get_by_test_id("login-form-link").click()
    expect(page.get_by_test_id("login-form-mode")).to_contain_text("Form login")
    page.get_by_test_id("login-form-mode").get_by_text("Back to account login").click()
    expect(tabs.filter(has_text="Account")).to_have_attribute("aria-selected", "true")
    page.get_by_test_id("login-form-link").click()
    page.locator("#account").fill("admin")
    page.locator("#password").fill("Admin@123")
    page.locator("#agree").check()
    shot(page, "shell-contract-form-login")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/home")
    expect(page.get_by_test_id("home-page")).to_be_visible()
