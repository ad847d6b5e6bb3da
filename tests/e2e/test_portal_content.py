"""The portal in Chromium: every panel drawn, an article written, previewed and published in content
management and read from the portal; company news paged and searched; panels gone for a tenant without the
portal plugin."""

from __future__ import annotations

import io
import re
import uuid
from typing import Any

import pytest
from conftest import api_client, shot, sign_in
from playwright.sync_api import expect

from atrium.sdk.testing import DEMO_PASSWORDS

pytestmark = pytest.mark.e2e
WAIT = 20_000
ACME = 1001
GLOBEX = 1002


def test_portal_panels(admin_page: Any, live_server: Any) -> None:
    page = admin_page
    page.goto(live_server.url + "/portal")
    expect(page.get_by_test_id("portal-panels")).to_be_visible(timeout=WAIT)
    for panel, text in (
        ("announcement", "Year-end asset inventory"),
        ("hot", "How to file an expense claim"),
        ("featured", "Designing forms that people finish"),
        ("news", "Q3 results"),
    ):
        expect(page.get_by_test_id(f"portal-panel-{panel}")).to_contain_text(text, timeout=WAIT)
    expect(page.get_by_test_id("portal-panel-hot")).to_contain_text("318 views")
    # the host's own panels: application entrance and quick navigation
    expect(page.get_by_text("Quick navigation", exact=False).first).to_be_visible()
    # my upcoming, my pending and my process come from the process plugin...
    for panel in ("upcoming", "pending", "process"):
        expect(page.get_by_test_id(f"portal-panel-{panel}")).to_be_visible(timeout=WAIT)
        expect(page.get_by_test_id(f"portal-panel-{panel}")).not_to_contain_text("not installed")
    shot(page, "portal-panels")
    # ...and say so when it is not there for the tenant
    admin = api_client(live_server.url, "admin")
    state = {"plugin": "process", "enabled": False, "tenantId": ACME}
    assert admin.post("/api/base/admin/plugins/state", json={"params": state}).json()["code"] == 800
    try:
        page.reload()
        for panel in ("upcoming", "pending", "process"):
            placeholder = page.get_by_test_id(f"portal-panel-{panel}")
            expect(placeholder).to_contain_text("not installed", timeout=WAIT)
    finally:
        state["enabled"] = True
        admin.post("/api/base/admin/plugins/state", json={"params": state})


def png(width: int, height: int, padding: int = 0) -> bytes:
    """A real PNG picture; `padding` bytes of a text chunk make it as large as wanted."""
    from PIL import Image, PngImagePlugin

    info = PngImagePlugin.PngInfo()
    if padding:
        info.add_text("padding", "x" * padding)
    out = io.BytesIO()
    Image.new("RGB", (width, height), (32, 75, 227)).save(out, "PNG", pnginfo=info)
    return out.getvalue()


def choose_cover(page: Any, name: str, mime: str, data: bytes) -> None:
    cover = page.get_by_test_id("article-cover")
    cover.locator("input[type=file]").set_input_files({"name": name, "mimeType": mime, "buffer": data})


def test_write_preview_publish_and_read(admin_page: Any, live_server: Any) -> None:
    page = admin_page
    title = f"Library opens on Saturdays {uuid.uuid4().hex[:6]}"
    page.goto(live_server.url + "/content-management")
    expect(page.get_by_test_id("content-management")).to_be_visible(timeout=WAIT)
    page.get_by_test_id("article-new").click()
    page.get_by_test_id("article-title-input").fill(title)
    # the cover: the image rules are checked before anything is sent
    choose_cover(page, "cover.gif", "image/gif", b"GIF89a" + b"\0" * 64)
    expect(page.get_by_text("The cover image must be a JPG, JPEG or PNG picture")).to_be_visible()
    choose_cover(page, "huge.png", "image/png", png(8, 8, padding=2 * 1024 * 1024))
    expect(page.get_by_text("The cover image must not exceed 2 MB")).to_be_visible()
    expect(page.get_by_test_id("article-cover-image")).to_have_count(0)
    choose_cover(page, "cover.png", "image/png", png(320, 180))
    cover = page.get_by_test_id("article-cover-image")
    expect(cover).to_have_attribute("src", re.compile(r"^/api/file/iot-base-attachment/file/"), timeout=WAIT)
    page.wait_for_function("(img) => img.complete && img.naturalWidth === 320", arg=cover.element_handle())
    # the rich text: plain words, then bold ones from the toolbar
    editor = page.get_by_test_id("article-content-editor").locator("[contenteditable=true]")
    editor.click()
    page.keyboard.type("From next week ")
    page.get_by_test_id("editor-bold").click()
    page.keyboard.type("every Saturday")
    page.get_by_test_id("editor-bold").click()
    page.keyboard.type(".")
    expect(editor.locator("strong")).to_have_text("every Saturday")
    page.get_by_test_id("article-preview").click()
    preview = page.get_by_test_id("article-preview-content")
    expect(preview.locator("strong")).to_have_text("every Saturday")
    expect(preview).to_contain_text("From next week every Saturday.")
    page.keyboard.press("Escape")
    page.get_by_test_id("article-save").click()
    row = page.locator("tr", has_text=title)
    expect(row).to_contain_text("Draft", timeout=WAIT)
    row.get_by_role("button", name="Publish").click()
    expect(row).to_contain_text("Published", timeout=WAIT)

    page.goto(live_server.url + "/portal")
    news = page.get_by_test_id("portal-panel-news")
    news.get_by_text(title).click()
    expect(page.get_by_test_id("article-title")).to_have_text(title, timeout=WAIT)
    content = page.get_by_test_id("article-content")
    expect(content.locator("strong")).to_have_text("every Saturday")
    expect(content).to_contain_text("From next week every Saturday.")
    image = page.get_by_test_id("article-cover")
    expect(image).to_be_visible(timeout=WAIT)
    page.wait_for_function("(img) => img.complete && img.naturalWidth === 320", arg=image.element_handle())
    expect(page.get_by_test_id("article-views")).to_contain_text("1 views")
    shot(page, "portal-article")


def test_news_list_pages_and_searches(admin_page: Any, live_server: Any) -> None:
    page = admin_page
    page.goto(live_server.url + "/portal/news")
    listing = page.get_by_test_id("portal-news-list")
    expect(listing).to_contain_text("Acme opens its Budapest office", timeout=WAIT)
    listing.get_by_role("searchbox").fill("Budapest")
    listing.get_by_role("searchbox").press("Enter")
    expect(listing.locator(".ant-list-item")).to_have_count(1, timeout=WAIT)


def test_panels_vanish_when_the_portal_plugin_is_disabled(page: Any, live_server: Any) -> None:
    admin = api_client(live_server.url, "admin")
    sign_in(page, live_server.url, "bob", DEMO_PASSWORDS["bob"])
    page.goto(live_server.url + "/portal")
    expect(page.get_by_test_id("portal-panel-announcement")).to_contain_text(
        "Globex portal launched", timeout=WAIT
    )
    state = {"plugin": "portal", "enabled": False, "tenantId": GLOBEX}
    assert admin.post("/api/base/admin/plugins/state", json={"params": state}).json()["code"] == 800
    try:
        page.reload()
        expect(page.get_by_test_id("portal-page")).to_be_visible(timeout=WAIT)
        page.wait_for_timeout(1500)
        expect(page.get_by_test_id("portal-panels")).to_have_count(0)
    finally:
        state["enabled"] = True
        admin.post("/api/base/admin/plugins/state", json={"params": state})
