"""The assistant from every page, in Chromium: the help plugin's navbar button (slot `navbarItem`) opens
the help drawer on home (which has no floating toolbar), on a page with a help document and on one without;
the floating toolbar's help opens the assistant on a page without a document too; with the chat feature on
the shell's own help button is the only one; the button and the drawer speak all five languages.

The demo runs with the chat feature off, as a fresh installation does."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest
from conftest import ROOT, shot, sign_in
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e
WAIT = 15_000
NO_DOC_PAGE = "/data-transfer/exports"  # a menu of alice's without a help document

for name in ("help", "message"):  # the plugins drawing in the navbar
    if not (ROOT / "web-plugins" / name / "dist" / "remoteEntry.js").exists():
        subprocess.run(
            ["npx", "webpack", "--mode", "production"],
            cwd=ROOT / "web-plugins" / name,
            check=True,
            stdout=subprocess.DEVNULL,
        )


def bundle(locale: str) -> dict[str, Any]:
    texts: dict[str, Any] = json.loads((ROOT / "i18n" / locale / "help.json").read_text(encoding="utf-8"))
    return texts["web"]


def open_from_navbar(page: Any) -> Any:
    page.get_by_test_id("navbar").get_by_test_id("help-navbar").click()
    drawer = page.get_by_role("dialog").filter(has=page.get_by_test_id("help-chat"))
    expect(drawer).to_be_visible(timeout=WAIT)
    return drawer


def close(drawer: Any) -> None:
    drawer.get_by_role("button", name="Close").click()
    expect(drawer).to_be_hidden(timeout=WAIT)


def test_the_navbar_help_button_opens_the_assistant_on_every_page(page, live_server):
    base = live_server.url
    sign_in(page, base, "alice", "Alice@123")
    expect(page.get_by_test_id("toolbar-help")).to_have_count(0)  # home has no floating toolbar
    navbar = page.get_by_test_id("navbar")
    expect(navbar.get_by_test_id("help-navbar")).to_have_count(1, timeout=WAIT)
    expect(navbar.get_by_test_id("help-button")).to_have_count(0)  # the shell's own: chat feature only
    expect(navbar.get_by_test_id("help-navbar")).to_have_attribute("aria-label", "Help and assistant")

    drawer = open_from_navbar(page)
    expect(drawer).to_contain_text("Home — introduction")
    expect(drawer.get_by_test_id("help-no-doc")).to_have_text("No help document exists yet for this page")
    drawer.get_by_test_id("chat-input").fill("How do I mark all messages as read?")
    drawer.get_by_test_id("chat-send").click()
    turn = drawer.get_by_test_id("chat-turn").last
    expect(turn).to_have_attribute("data-status", "done", timeout=WAIT)
    expect(turn.get_by_test_id("chat-answer")).to_contain_text("mark all read")
    expect(turn.get_by_test_id("chat-sources").locator("li")).to_have_text(["Messages and the message bell"])
    shot(page, "help-navbar-home")
    close(drawer)

    page.goto(base + "/letters")
    drawer = open_from_navbar(page)
    expect(drawer).to_contain_text("Messages — introduction")
    expect(drawer.get_by_test_id("help-document")).to_contain_text(
        "Messages and the message bell", timeout=WAIT
    )
    close(drawer)

    page.goto(base + NO_DOC_PAGE)
    drawer = open_from_navbar(page)
    expect(drawer.get_by_test_id("help-no-doc")).to_be_visible(timeout=WAIT)
    expect(drawer.get_by_test_id("chat-input")).to_be_visible()
    assert page.page_errors == []


def test_the_toolbar_opens_the_assistant_on_a_page_without_a_document(page, live_server):
    sign_in(page, live_server.url, "alice", "Alice@123")
    page.goto(live_server.url + NO_DOC_PAGE)
    page.get_by_test_id("toolbar-help").click()
    drawer = page.get_by_role("dialog").filter(has=page.get_by_test_id("help-chat"))
    expect(drawer).to_be_visible(timeout=WAIT)
    expect(drawer.get_by_test_id("help-no-doc")).to_have_text("No help document exists yet for this page")
    expect(drawer.get_by_test_id("chat-input")).to_be_editable()
    shot(page, "help-toolbar-no-document")
    assert page.page_errors == []


def test_with_the_chat_feature_on_the_navbar_shows_one_help_button(page, live_server):
    page.route(
        "**/api/base/aigc/enable",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body='{"code": 800, "msg": "Success", "data": true}'
        ),
    )
    sign_in(page, live_server.url, "alice", "Alice@123")
    navbar = page.get_by_test_id("navbar")
    expect(navbar.get_by_test_id("help-button")).to_have_count(1, timeout=WAIT)
    expect(navbar.get_by_test_id("msg-bell")).to_be_visible(timeout=WAIT)  # the plugins' items are drawn
    page.wait_for_timeout(500)
    expect(navbar.get_by_test_id("help-navbar")).to_have_count(0)


@pytest.mark.parametrize("locale", ["zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu"])
def test_the_button_and_the_drawer_in_every_language(page, live_server, locale):
    base = live_server.url
    sign_in(page, base, "alice", "Alice@123")
    page.context.add_cookies([{"name": "language", "value": locale, "url": base}])
    page.goto(base + "/home")
    texts = bundle(locale)
    button = page.get_by_test_id("navbar").get_by_test_id("help-navbar")
    expect(button).to_have_attribute("aria-label", texts["helpButton"], timeout=WAIT)
    drawer = open_from_navbar(page)
    expect(drawer.get_by_test_id("help-no-doc")).to_have_text(texts["noDoc"], timeout=WAIT)
    expect(drawer.get_by_test_id("chat-input")).to_have_attribute("placeholder", texts["placeholder"])
    assert "web." not in drawer.inner_text()
    assert page.page_errors == []
