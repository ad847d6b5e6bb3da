"""Shared report links in Chromium, before sign-in (spec 2.2, 4, 5): the four states (error with the
invalid-link subtitle, password prompt, report, expired), the password rules and re-validation, the
password rate limit message. The host mounts the reports module on /dynamic-report/link/* and
/report/preview without a session."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import shot, sign_in
from playwright.sync_api import BrowserContext, Page, expect
from test_reports_support import OVERVIEW, TABLES, ok, panel_ids, wait_views_ready

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def owner(browser, live_server) -> Iterator[Page]:
    """A signed-in administrator who manages the demo panels' links."""
    ctx: BrowserContext = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": live_server.url}])
    p = ctx.new_page()
    sign_in(p, live_server.url)
    yield p
    ctx.close()


def link_of(owner: Page, panel: str, **update: Any) -> dict[str, Any]:
    """The owner's link to a demo panel, updated (valid, no password, no expiry unless given)."""
    pid = panel_ids(owner)[panel]
    link = ok(owner, f"/api/dyreport/api/link/enable/{pid}", {})
    body = {
        "id": link["id"],
        "valid": True,
        "enablePwd": False,
        "clearOverTime": True,
        "unlock": True,
        **update,
    }
    return ok(owner, "/api/dyreport/api/link/update", body)


def open_link(page: Page, base: str, link_id: str) -> None:
    page.goto(f"{base}/dynamic-report/link/{link_id}")
    expect(page.get_by_test_id("link-page")).to_be_visible(timeout=30000)


def test_a_link_without_password_shows_the_report(page: Page, live_server, owner) -> None:
    link = link_of(owner, OVERVIEW)
    open_link(page, live_server.url, link["id"])
    expect(page.get_by_test_id("link-page")).to_have_attribute("data-state", "2")
    expect(page.get_by_test_id("report-panel")).to_be_visible()
    page.get_by_test_id("button-reset").click()
    states = wait_views_ready(page, 10)
    assert all(s["state"] == "ready" for s in states), states
    # selects read their values through the link (no session): the region list is there
    page.get_by_test_id("select-widget").click()
    expect(page.get_by_test_id("select-popup").locator(".ant-checkbox-wrapper")).not_to_have_count(0)
    shot(page, "reports-link-view")
    # /report/preview is the same page, open without a session
    page.goto(f"{live_server.url}/report/preview?link={link['id']}")
    expect(page.get_by_test_id("link-page")).to_have_attribute("data-state", "2", timeout=30000)


def test_password_prompt_rules_and_revalidation(page: Page, live_server, owner) -> None:
    link = link_of(owner, OVERVIEW, enablePwd=True, pwd="4821")
    calls: list[str] = []
    page.on(
        "request", lambda r: calls.append(r.url.rsplit("/", 1)[-1]) if "/api/link/validate" in r.url else None
    )
    open_link(page, live_server.url, link["id"])
    expect(page.get_by_test_id("link-page")).to_have_attribute("data-state", "1")
    field = page.get_by_test_id("link-password-input")
    assert field.get_attribute("maxlength") == "4"
    page.get_by_test_id("link-password-submit").click()
    expect(page.get_by_test_id("link-password-error")).to_have_text("Please enter the password")
    field.fill("123456")
    assert field.input_value() == "1234"  # at most four characters
    field.fill("12a")
    field.press("Enter")
    expect(page.get_by_test_id("link-password-error")).to_have_text("Password mistake")
    field.fill("9999")
    field.press("Enter")
    expect(page.get_by_test_id("link-password-error")).to_have_text("Password mistake")
    shot(page, "reports-link-password")
    calls.clear()
    field.fill("4821")
    field.press("Enter")  # Enter submits
    expect(page.get_by_test_id("link-page")).to_have_attribute("data-state", "2")
    expect(page.get_by_test_id("report-panel")).to_be_visible()
    # spec 4: a successful check triggers a re-validation
    assert calls[:2] == ["validatePwd", "validate"], calls
    # the same browser tab keeps its pass after a reload
    page.reload()
    expect(page.get_by_test_id("link-page")).to_have_attribute("data-state", "2", timeout=30000)


def test_expired_and_invalid_links(page: Page, live_server, owner) -> None:
    past = int((datetime.now(UTC) - timedelta(days=1)).timestamp() * 1000)
    link = link_of(owner, OVERVIEW, overTime=past, clearOverTime=False)
    open_link(page, live_server.url, link["id"])
    expect(page.get_by_test_id("link-page")).to_have_attribute("data-state", "3")
    expect(page.get_by_text("The link has expired")).to_be_visible()
    shot(page, "reports-link-expired")
    link = link_of(owner, OVERVIEW, valid=False)
    open_link(page, live_server.url, link["id"])
    expect(page.get_by_test_id("link-page")).to_have_attribute("data-state", "0")
    expect(page.get_by_test_id("link-error-reason")).to_have_text("The link is invalid")
    open_link(page, live_server.url, "x" * 32)
    expect(page.get_by_test_id("link-page")).to_have_attribute("data-state", "0")
    expect(page.get_by_test_id("link-error-reason")).to_have_text("The link is invalid")
    shot(page, "reports-link-invalid")
    link_of(owner, OVERVIEW)


def test_password_tries_are_rate_limited(page: Page, live_server, owner) -> None:
    link = link_of(owner, TABLES, enablePwd=True, pwd="5173")
    open_link(page, live_server.url, link["id"])
    field = page.get_by_test_id("link-password-input")
    error = page.get_by_test_id("link-password-error")
    messages = []
    for _ in range(7):
        field.fill("0000")
        field.press("Enter")
        expect(error).not_to_have_text("")
        messages.append(error.inner_text())
        if messages[-1] != "Password mistake":
            break
        page.wait_for_timeout(100)
        error.evaluate("e => { e.textContent = ''; }")
    assert messages[0] == "Password mistake"
    assert messages[-1] != "Password mistake" and messages[-1], (
        messages
    )  # the server's too-many-tries message
    assert len(messages) <= 6
    link_of(owner, TABLES)  # unlocks
