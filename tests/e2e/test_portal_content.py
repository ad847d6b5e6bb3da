"""The portal in Chromium: every panel drawn, an article written, previewed and published in content
management and read from the portal; company news paged and searched; panels gone for a tenant without the
portal plugin."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from conftest import shot, sign_in
from playwright.sync_api import expect

from atrium.sdk.testing import DEMO_PASSWORDS, encrypt_password

pytestmark = pytest.mark.e2e
WAIT = 20_000
ACME = 1001
GLOBEX = 1002


def api(base: str, account: str) -> httpx.Client:
    http = httpx.Client(base_url=base, timeout=20, headers={"language": "en#us"})
    enc = http.post("/api/base/base-user/get-enryption").json()["data"]
    secret = encrypt_password(enc["publicKey"], enc["nonce"], DEMO_PASSWORDS[account])
    body = http.post("/api/base/base-user/login", json={"account": account, "password": secret}).json()
    assert body["code"] == 800, body
    http.headers["authorization"] = body["data"]["authorization"]
    return http


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
    admin = api(live_server.url, "admin")
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


def test_write_preview_publish_and_read(admin_page: Any, live_server: Any) -> None:
    page = admin_page
    page.goto(live_server.url + "/content-management")
    expect(page.get_by_test_id("content-management")).to_be_visible(timeout=WAIT)
    page.get_by_test_id("article-new").click()
    page.get_by_test_id("article-title-input").fill("Library opens on Saturdays")
    page.get_by_test_id("article-content-input").fill(
        '<p>From next week <b>every Saturday</b>.</p><img src="x" onerror="window.hacked=1">'
        "<script>window.hacked=2</script>"
    )
    page.get_by_test_id("article-preview").click()
    preview = page.get_by_test_id("article-preview-content")
    expect(preview).to_contain_text("every Saturday")
    assert "onerror" not in preview.inner_html() and "script" not in preview.inner_html()
    page.keyboard.press("Escape")
    page.get_by_test_id("article-save").click()
    row = page.locator("tr", has_text="Library opens on Saturdays")
    expect(row).to_contain_text("Draft", timeout=WAIT)
    row.get_by_role("button", name="Publish").click()
    expect(row).to_contain_text("Published", timeout=WAIT)

    page.goto(live_server.url + "/portal")
    news = page.get_by_test_id("portal-panel-news")
    news.get_by_text("Library opens on Saturdays").click()
    expect(page.get_by_test_id("article-title")).to_have_text("Library opens on Saturdays", timeout=WAIT)
    expect(page.get_by_test_id("article-content")).to_contain_text("every Saturday")
    expect(page.get_by_test_id("article-views")).to_contain_text("1 views")
    assert page.evaluate("window.hacked") is None
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
    admin = api(live_server.url, "admin")
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
