"""Usage tracking and the home dashboard in Chromium: a page visit, a button click and the remotes' loads
recorded from the real host; every usage card drawn with the demo data; the cards gone for a tenant
without the tracking plugin."""

from __future__ import annotations

import secrets
import uuid
from typing import Any

import httpx
import pytest
from conftest import api_client, shot, sign_in
from playwright.sync_api import expect

from atrium.sdk.testing import DEMO_PASSWORDS

pytestmark = pytest.mark.e2e
WAIT = 20_000
GLOBEX = 1002


def recent_until(page: Any, http: httpx.Client, wanted: Any) -> list[dict[str, Any]]:
    """The tenant's latest raw records, polled until `wanted(records)` holds (the writes are buffered).

    Waiting goes through the page: the context routes every request through Playwright, which serves
    the browser's own requests (the tracker's) only while the test is inside a Playwright call."""
    records: list[dict[str, Any]] = []
    for _ in range(40):
        records = http.get("/api/log/tracking/recent?limit=200").json()["data"]
        if wanted(records):
            return records
        page.wait_for_timeout(500)
    return records


def statistic_values(card: Any) -> list[str]:
    return [v.strip() for v in card.locator(".ant-statistic-content-value").all_inner_texts()]


def test_home_cards_are_drawn_with_data(admin_page: Any, live_server: Any) -> None:
    page = admin_page
    cards = page.get_by_test_id("tracking-cards")
    expect(cards).to_be_visible(timeout=WAIT)
    for key in ("clickTotal", "visitTotal", "activeUsers", "loadTotal"):
        value = page.get_by_test_id(f"tracking-{key}").locator(".ant-statistic-content-value")
        expect(value).not_to_have_text("0", timeout=WAIT)
    for chart in (
        "tracking-visit-analysis",
        "tracking-trend",
        "tracking-top-tenants",
        "tracking-top-menus",
        "tracking-top-users",
    ):
        expect(page.get_by_test_id(chart).locator("canvas").first).to_be_visible(timeout=WAIT)
    tenants = page.get_by_test_id("tracking-top-tenants").locator("li")
    expect(tenants.first).to_contain_text("Acme")
    expect(tenants.nth(1)).to_contain_text("Globex")
    expect(page.get_by_test_id("tracking-top-users").locator("li").first).not_to_be_empty()
    assert page.get_by_test_id("tracking-top-menus").locator("li").count() == 10
    expect(page.get_by_test_id("tracking-clickTotal")).to_contain_text("Whole platform")
    # the host's own figures from the kernel: tenants, users, questions
    home = page.get_by_test_id("home-page")
    for title in ("Tenants", "Users", "Questions"):
        expect(home.get_by_text(title, exact=True)).to_be_visible()
    # the process and forms plugins' cards, with the numbers their APIs answer
    http = api_client(live_server.url, "admin")
    processes = http.get("/api/process/count").json()["data"]
    forms = http.get("/api/form/count").json()["data"]
    assert forms["forms"] > 0
    process_card = page.get_by_test_id("home-process-counts")
    expect(process_card.locator(".ant-statistic-content-value").first).not_to_have_text("-", timeout=WAIT)
    expected = [f"{processes[k]:,}" for k in ("running", "failed", "normal", "weekTotal")]
    assert statistic_values(process_card) == expected
    form_card = page.get_by_test_id("home-form-count")
    form_total = form_card.locator(".ant-statistic-content-value")
    expect(form_total).to_have_text(f"{forms['forms']:,}", timeout=WAIT)
    expect(form_card).to_contain_text(str(forms["submissions"]))
    shot(page, "tracking-home")


def test_page_visit_click_and_remote_load_are_recorded(admin_page: Any, live_server: Any) -> None:
    page = admin_page
    page.goto(live_server.url + "/content-management")
    expect(page.get_by_test_id("content-management")).to_be_visible(timeout=WAIT)
    page.get_by_role("button", name="New article").click()
    title = f"Tracked article {uuid.uuid4().hex[:8]}"
    page.get_by_test_id("article-title-input").fill(title)
    page.get_by_test_id("article-save").click()
    row = page.locator("tr", has_text=title)
    expect(row).to_be_visible(timeout=WAIT)
    row.get_by_role("button", name="Publish").click()
    expect(row.get_by_role("button", name="Unpublish")).to_be_visible(timeout=WAIT)
    page.evaluate("window.dispatchEvent(new Event('pagehide'))")

    http = api_client(live_server.url, "admin")

    def arrived(records: list[dict[str, Any]]) -> bool:
        kinds = {(r["eventType"], r["routePath"], r["buttonName"]) for r in records}
        return (
            (2, "/content-management", "") in kinds
            and (3, "/content-management", "publish-article") in kinds
            and any(r["eventType"] == 1 and r["microAppCode"] == "portal" for r in records)
        )

    records = recent_until(page, http, arrived)
    assert arrived(records), [
        (r["eventType"], r["routePath"], r["buttonName"], r["at"]) for r in records[:12]
    ]
    visit = next(r for r in records if r["eventType"] == 2 and r["routePath"] == "/content-management")
    assert visit["pageStayTime"] > 0 and visit["userName"] and visit["browserName"] == "Chrome"
    assert visit["screenWidth"] > 0 and visit["ip"]
    loads = {r["microAppCode"] for r in records if r["eventType"] == 1}
    assert "portal" in loads


def test_cards_vanish_when_tracking_is_disabled_for_the_tenant(page: Any, live_server: Any) -> None:
    admin = api_client(live_server.url, "admin")
    sign_in(page, live_server.url, "bob", DEMO_PASSWORDS["bob"])
    expect(page.get_by_test_id("tracking-cards")).to_be_visible(timeout=WAIT)
    state = {"plugin": "tracking", "enabled": False, "tenantId": GLOBEX}
    assert admin.post("/api/base/admin/plugins/state", json={"params": state}).json()["code"] == 800
    try:
        page.reload()
        page.get_by_test_id("home-page").wait_for()
        expect(page.get_by_test_id("login-chart")).to_be_visible(timeout=WAIT)
        page.wait_for_timeout(1500)
        expect(page.get_by_test_id("tracking-cards")).to_have_count(0)
    finally:
        state["enabled"] = True
        admin.post("/api/base/admin/plugins/state", json={"params": state})


def test_background_jobs_card_stands_in_when_the_process_plugin_is_disabled(
    page: Any, live_server: Any
) -> None:
    """Globex's administrator: the job counts are tenant-wide figures (a plain member sees none)."""
    admin = api_client(live_server.url, "admin")
    account, password = f"gx{secrets.token_hex(3)}", "Globex2024"
    boss = {"account": account, "password": password, "userFullName": "Globex Boss", "tenantId": GLOBEX}
    created = admin.post("/api/base/admin/users", json={**boss, "supervisor": True}).json()
    assert created["code"] == 800, created
    state = {"plugin": "process", "enabled": False, "tenantId": GLOBEX}
    assert admin.post("/api/base/admin/plugins/state", json={"params": state}).json()["code"] == 800
    try:
        member = api_client(live_server.url, account, password)
        jobs = member.get("/api/log/dashboard/run-states").json()["data"]
        assert jobs["counts"] == "jobs"
        assert (
            api_client(live_server.url, "bob").get("/api/log/dashboard/run-states").json()["data"]["counts"]
            == "none"
        )
        sign_in(page, live_server.url, account, password)
        card = page.get_by_test_id("tracking-background-jobs")
        expect(card).to_be_visible(timeout=WAIT)
        expect(card).to_contain_text("Background jobs")
        expect(card).to_contain_text("imports and exports")
        assert statistic_values(card) == [f"{jobs[k]:,}" for k in ("running", "failed", "normal")]
        expect(page.get_by_test_id("home-process-counts")).to_have_count(0)
    finally:
        state["enabled"] = True
        admin.post("/api/base/admin/plugins/state", json={"params": state})
    page.reload()
    expect(page.get_by_test_id("home-process-counts")).to_be_visible(timeout=WAIT)
    expect(page.get_by_test_id("tracking-background-jobs")).to_have_count(0)
