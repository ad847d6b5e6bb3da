"""The help plugin in Chromium: the help drawer on a page with a help document and on one without, the
floating toolbar's help button (user manual, else the drawer with the page's document or the note that it
has none, and the assistant; on a page without a menu the no-document message), a question asked in the
drawer streaming in token by token (stop and retry), the chat side panel's 6 of 24 columns and the 384 px
it shifts the help drawer by, and the chat forgotten on sign-out.

The shell's own help button shows only with the chat feature on (without it the help plugin's navbar
button stands in: test_help_topbar.py); the feature flag is answered as on for these pages.
The language model is a local server speaking the OpenAI streaming format, holding its answer after the
first piece until the test lets it go."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import ROOT, api_client, shot, sign_in, user_menu
from playwright.sync_api import expect

from atrium.sdk.testing import DEMO_PASSWORDS

if str(ROOT) not in sys.path:  # browser tests run from their folder; the local servers live in tests/help
    sys.path.insert(0, str(ROOT))
from tests.help.servers import ANSWER, FakeLlm, serve  # noqa: E402

pytestmark = pytest.mark.e2e
WAIT = 15_000


def ensure_remotes_built(*names: str) -> None:
    for name in names:
        folder = ROOT / "web-plugins" / name
        if not (folder / "dist" / "remoteEntry.js").exists():
            subprocess.run(
                ["npx", "webpack", "--mode", "production"], cwd=folder, check=True, stdout=subprocess.DEVNULL
            )


ensure_remotes_built("help", "message")


@pytest.fixture
def chat_on(page: Any) -> Any:
    def flag(route: Any) -> None:
        route.fulfill(
            status=200,
            content_type="application/json",
            body=json.dumps({"code": 800, "msg": "Success", "data": True}),
        )

    page.route("**/api/base/aigc/enable", flag)
    return page


@pytest.fixture
def llm(live_server: Any) -> Iterator[FakeLlm]:
    """Acme's endpoint pointed at the local model for one test, switched off afterwards."""
    fake = FakeLlm()
    boss = api_client(live_server.url, "supervisor")
    with serve(fake.app) as url:
        endpoint = {"baseUrl": url + "/v1", "model": "ok", "apiKey": "sk-e2e", "timeoutSeconds": 20}
        body = boss.post("/api/aigc/admin/endpoint/save", json=endpoint)
        assert body.json()["code"] == 800
        try:
            yield fake
        finally:
            fake.release.set()
            boss.post("/api/aigc/admin/endpoint/save", json={"baseUrl": "", "model": "", "enabled": 0})


def open_help(page: Any) -> Any:
    page.get_by_test_id("help-button").click()
    drawer = page.get_by_role("dialog").filter(has=page.get_by_test_id("help-chat"))
    expect(drawer).to_be_visible(timeout=WAIT)
    return drawer


def test_help_on_a_page_with_a_document_and_on_one_without(chat_on, live_server):
    page = chat_on
    sign_in(page, live_server.url, "alice", "Alice@123")
    page.goto(live_server.url + "/letters")
    drawer = open_help(page)
    expect(drawer).to_contain_text("Messages — introduction")
    expect(drawer.get_by_test_id("help-document")).to_contain_text(
        "Messages and the message bell", timeout=WAIT
    )
    expect(drawer.get_by_test_id("help-document")).to_contain_text("mark all read")
    expect(drawer.get_by_test_id("help-no-doc")).to_have_count(0)
    shot(page, "help-drawer-document")
    page.keyboard.press("Escape")

    page.goto(live_server.url + "/api-center/analytics")
    drawer = open_help(page)
    expect(drawer.get_by_test_id("help-no-doc")).to_have_text(
        "No help document exists yet for this page", timeout=WAIT
    )


def with_manual(page: Any, menu_url: str, manual: str) -> None:
    """The menus answer with a user-manual address on the menu at `menu_url`."""

    def menus(route: Any) -> None:
        body = route.fetch().json()

        def mark(items: list[dict[str, Any]]) -> None:
            for item in items:
                if str(item.get("menuUrl", "")).lstrip("/") == menu_url.lstrip("/"):
                    item["userManualUrl"] = manual
                mark(item.get("children") or [])

        data = body["data"]
        mark(data["menus"] if isinstance(data, dict) else data)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route("**/api/base/base-rolemenu/find-user-menus**", menus)


def test_toolbar_help_opens_the_manual_or_the_drawer_with_the_document_or_without(chat_on, live_server):
    page = chat_on
    with_manual(page, "/help-center", "https://docs.example/help-centre")
    sign_in(page, live_server.url, "alice", "Alice@123")

    page.goto(live_server.url + "/letters")
    page.get_by_test_id("toolbar-help").click()
    drawer = page.get_by_role("dialog").filter(has=page.get_by_test_id("help-document"))
    expect(drawer).to_contain_text("Messages — introduction", timeout=WAIT)
    expect(drawer.get_by_test_id("help-document")).to_contain_text(
        "Messages and the message bell", timeout=WAIT
    )
    drawer.get_by_role("button", name="Close").click()
    expect(drawer).to_be_hidden(timeout=WAIT)

    page.goto(live_server.url + "/data-transfer/exports")  # no document: the assistant opens all the same
    page.get_by_test_id("toolbar-help").click()
    drawer = page.get_by_role("dialog").filter(has=page.get_by_test_id("help-chat"))
    expect(drawer.get_by_test_id("help-no-doc")).to_have_text(
        "No help document exists yet for this page", timeout=WAIT
    )
    expect(drawer.get_by_test_id("chat-input")).to_be_editable()
    drawer.get_by_role("button", name="Close").click()
    expect(drawer).to_be_hidden(timeout=WAIT)

    page.goto(live_server.url + "/api-center/analytics")  # no menu (chat feature off on the server)
    page.get_by_test_id("toolbar-help").click()
    expect(page.locator(".ant-message-notice")).to_have_text(
        "There is no help document for this page yet", timeout=WAIT
    )
    expect(page.get_by_test_id("help-document")).to_have_count(0)

    page.goto(live_server.url + "/help-center")  # it has a document too: the manual comes first
    with page.expect_popup() as popup:
        page.get_by_test_id("toolbar-help").click()
    assert popup.value.url == "https://docs.example/help-centre"
    assert page.page_errors == []


def open_chat_panel(page: Any, base: str) -> Any:
    sign_in(page, base, "alice", "Alice@123")
    page.goto(base + "/letters")
    page.get_by_test_id("chat-toggle").click()
    panel = page.get_by_test_id("chat-panel")
    expect(panel.get_by_test_id("help-chat")).to_be_visible(timeout=WAIT)
    return panel


def test_the_open_chat_shifts_the_help_drawer_by_384_px(chat_on, live_server):
    page = chat_on
    open_chat_panel(page, live_server.url)
    page.get_by_test_id("help-button").click()
    content = page.locator(".ant-drawer-content-wrapper").filter(has=page.get_by_test_id("help-document"))
    expect(content).to_be_visible(timeout=WAIT)
    page.wait_for_timeout(400)  # the drawer slides in
    drawer = content.bounding_box()
    width = page.viewport_size["width"]
    assert drawer and abs(drawer["x"] + drawer["width"] - (width - 384)) <= 1, (drawer, width)
    shot(page, "help-drawer-beside-chat")


def test_the_chat_panel_takes_six_of_24_columns_beside_the_page(chat_on, live_server):
    page = chat_on
    panel = open_chat_panel(page, live_server.url)
    body = page.locator(".at-body").bounding_box()
    box = panel.bounding_box()
    main = page.locator(".at-main").bounding_box()
    assert body and box and main
    assert abs(box["width"] - body["width"] * 6 / 24) <= 2, (box, body)
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= page.viewport_size["width"]
    assert abs(box["x"] + box["width"] - (body["x"] + body["width"])) <= 2, (box, body)
    assert main["x"] + main["width"] <= box["x"] + 1, (main, box)


def test_chat_is_forgotten_on_sign_out(chat_on, live_server):
    page = chat_on
    sign_in(page, live_server.url, "alice", "Alice@123")
    page.goto(live_server.url + "/letters")
    page.get_by_test_id("chat-toggle").click()
    panel = page.get_by_test_id("chat-panel")
    panel.get_by_test_id("chat-input").fill("How do I mark all messages as read?")
    panel.get_by_test_id("chat-input").press("Enter")
    expect(panel.get_by_test_id("chat-turn")).to_have_count(1, timeout=WAIT)
    expect(panel.get_by_test_id("chat-turn")).to_have_attribute("data-status", "done", timeout=WAIT)

    user_menu(page, "Sign out")
    page.locator(".ant-modal-confirm").get_by_role("button", name="OK").click()
    page.wait_for_url("**/login")
    for attempt in range(3):  # the same page, nothing reloaded; the form may re-render as its settings load
        page.locator("#account").fill("alice")
        page.locator("#password").fill("Alice@123")
        page.locator("#agree").check()
        page.get_by_role("button", name="Sign in").click()
        try:
            page.get_by_test_id("chat-toggle").click(timeout=5000)
            break
        except Exception:
            if attempt == 2:
                raise
    panel = page.get_by_test_id("chat-panel")
    expect(panel.get_by_test_id("help-chat")).to_be_visible(timeout=WAIT)
    expect(panel.get_by_test_id("chat-turn")).to_have_count(0)
    assert page.page_errors == []


def test_a_question_streams_into_the_drawer_with_stop_and_retry(chat_on, live_server, llm):
    page = chat_on
    sign_in(page, live_server.url, "alice", "Alice@123")
    page.goto(live_server.url + "/letters")
    drawer = open_help(page)
    drawer.get_by_test_id("chat-input").fill("How do I change my password?")
    drawer.get_by_test_id("chat-send").click()

    answer = drawer.get_by_test_id("chat-answer").last
    expect(answer).to_have_text(ANSWER[0] + "▍", timeout=WAIT)  # the first piece, the rest still coming
    expect(drawer.get_by_test_id("chat-stop")).to_be_visible()
    shot(page, "help-chat-streaming")
    llm.release.set()
    expect(answer).to_have_text("".join(ANSWER), timeout=WAIT)
    expect(drawer.get_by_test_id("chat-sources").last).to_contain_text("Signing in and passwords")
    expect(drawer.get_by_test_id("chat-stop")).to_have_count(0)
    assert "Change Password" in llm.requests[-1]["body"]["messages"][-1]["content"]

    llm.release.clear()
    drawer.get_by_test_id("chat-retry").click()
    expect(drawer.get_by_test_id("chat-answer").last).to_have_text(ANSWER[0] + "▍", timeout=WAIT)
    drawer.get_by_test_id("chat-stop").click()
    last = drawer.get_by_test_id("chat-turn").last
    expect(last).to_have_attribute("data-status", "stopped", timeout=WAIT)
    expect(last).to_contain_text("Stopped")
    expect(drawer.get_by_test_id("chat-retry")).to_be_visible()
    assert page.page_errors == []


def test_without_a_model_the_panel_answers_with_marked_passages(chat_on, live_server):
    page = chat_on
    sign_in(page, live_server.url, "alice", "Alice@123")
    page.goto(live_server.url + "/letters")
    page.get_by_test_id("chat-toggle").click()
    panel = page.get_by_test_id("chat-panel")
    expect(panel.get_by_test_id("help-chat")).to_be_visible(timeout=WAIT)
    panel.get_by_test_id("chat-input").fill("How do I mark all messages as read?")
    panel.get_by_test_id("chat-input").press("Enter")
    expect(panel.get_by_test_id("chat-passages-only")).to_be_visible(timeout=WAIT)
    expect(panel.get_by_test_id("chat-answer").last).to_contain_text("mark all read", timeout=WAIT)
    expect(panel.get_by_test_id("chat-sources")).to_contain_text("Messages and the message bell")
    shot(page, "help-chat-panel")


def test_help_centre_search_and_a_document_written_in_the_editor(page, live_server):
    sign_in(page, live_server.url, "supervisor", DEMO_PASSWORDS["supervisor"])
    page.goto(live_server.url + "/help-center")
    centre = page.get_by_test_id("help-centre")
    expect(centre.get_by_test_id("help-item")).to_have_count(13, timeout=WAIT)
    centre.get_by_test_id("help-search").locator("input").fill("watermark font")
    centre.get_by_test_id("help-search").locator("input").press("Enter")
    expect(centre.get_by_test_id("help-item").first).to_contain_text("Watermark settings", timeout=WAIT)

    centre.get_by_test_id("help-new").click()
    editor = page.get_by_test_id("help-editor")
    editor.get_by_label("Title").fill("Quarterly closing")
    html = "<p>Close the <b>ledger</b> first.</p><script>alert(1)</script>"
    editor.get_by_label("Content (HTML)").fill(html)
    page.get_by_role("button", name="Save").click()
    expect(editor).to_have_count(0, timeout=WAIT)
    centre.get_by_test_id("help-search").locator("input").fill("ledger")
    centre.get_by_test_id("help-search").locator("input").press("Enter")
    item = centre.get_by_test_id("help-item").first
    expect(item).to_contain_text("Quarterly closing", timeout=WAIT)
    item.get_by_role("link", name="Quarterly closing").click()
    detail = page.get_by_test_id("help-detail")
    expect(detail.locator("b")).to_have_text("ledger", timeout=WAIT)
    expect(detail.locator("script")).to_have_count(0)
    shot(page, "help-centre-detail")
    page.get_by_test_id("help-back").click()
    page.get_by_test_id("help-search").locator("input").fill("ledger")
    page.get_by_test_id("help-search").locator("input").press("Enter")
    row = page.get_by_test_id("help-item").filter(has_text="Quarterly closing")
    row.get_by_role("button", name="Delete").click()
    page.locator(".ant-popconfirm").get_by_role("button", name="Delete").click()
    expect(row).to_have_count(0, timeout=WAIT)
    assert page.page_errors == []
