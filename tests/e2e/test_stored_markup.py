"""Stored markup stays text (the stored-XSS class that hit peers): a menu named with an HTML tag that
would run script is shown literally in the sidebar and opens its page, and feedback carrying the same
markup is accepted as text; no script from either ever runs in the page."""

from __future__ import annotations

import secrets

import pytest
from conftest import user_menu
from playwright.sync_api import expect
from test_admin_console import A
from test_message_inbox import Api

pytestmark = pytest.mark.e2e
WAIT = 15_000
MARKUP = '<img src=x onerror="window.__storedMarkupRan=1">'


def test_menu_names_and_feedback_with_markup_stay_text(admin_page, live_server):
    page, base = admin_page, live_server.url
    admin = Api(base, "admin")
    code = f"mk{secrets.token_hex(3)}"
    name = f"Menu {code} {MARKUP}"
    admin.ok("POST", f"{A}/menus", json={"menuCode": code, "menuName": name, "menuUrl": "/portal/news"})

    user_menu(page, "Personal centre", "/person-info")
    page.get_by_test_id("toolbar-feedback").click()
    dialog = page.get_by_role("dialog")
    dialog.locator(".ant-select").click()
    page.locator(".ant-select-item-option").first.click()
    dialog.get_by_test_id("feedback-description").fill(MARKUP)
    dialog.get_by_role("button", name="Submit").click()
    expect(page.get_by_text("Thank you for your feedback")).to_be_visible(timeout=WAIT)

    page.reload()
    sidebar = page.get_by_test_id("sidebar")
    entry = sidebar.get_by_text(name, exact=True)
    expect(entry).to_be_visible(timeout=WAIT)
    entry.click()
    page.wait_for_url("**/portal/news")

    assert page.locator('img[src="x"]').count() == 0
    assert page.evaluate("window.__storedMarkupRan") is None
    assert not page.page_errors
