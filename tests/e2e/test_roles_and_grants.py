"""The demo's roles as people meet them in Chromium: the viewer (alice) sees no authoring button and her own
figures on home, the author (carol) sees the designers; a member whose roles lack the export button has the
export hidden and, called anyway from her browser, refused by the export route itself."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
from conftest import shot, sign_in
from playwright.sync_api import BrowserContext, Page, expect
from test_reports_support import OVERVIEW, call, ok, open_panel, panel_ids, wait_views_ready

pytestmark = pytest.mark.e2e
REFUSED = "You do not have permission for this action"


@pytest.fixture
def person(browser, live_server) -> Iterator[tuple[BrowserContext, str]]:
    """A fresh English browser profile for one person, closed after the test."""
    ctx: BrowserContext = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": live_server.url}])
    yield ctx, live_server.url
    ctx.close()


def test_the_viewer_sees_no_authoring_and_her_own_figures(person, browser, live_server) -> None:
    ctx, base = person
    alice: Page = ctx.new_page()
    sign_in(alice, base, "alice", "Alice@123")
    expect(alice.get_by_test_id("stat-loginTotal")).to_contain_text("My sign-ins in 7 days")
    expect(alice.get_by_test_id("login-chart")).to_contain_text("My sign-ins (7 days)")
    # her clicks are the tracking cards' alone: one figure, not two that disagree
    expect(alice.get_by_text("My clicks (7 days)")).to_be_visible()
    expect(alice.get_by_test_id("stat-visitTotal")).to_have_count(0)
    shot(alice, "roles-viewer-home")
    alice.goto(base + "/process_manage")
    expect(alice.get_by_role("tab", name="Models")).to_be_visible()
    expect(alice.locator("[data-testid^=process-model-]").first).to_be_visible()
    expect(alice.get_by_test_id("process-new-model")).to_have_count(0)
    expect(alice.get_by_role("button", name="Deploy")).to_have_count(0)
    shot(alice, "roles-viewer-process")
    refused = call(alice, "/api/dyreport/dataset/list")
    assert refused["code"] == 403 and refused["msg"] == REFUSED
    # the demo panels are hers to open, not to change or to add to
    alice.goto(base + "/dynamic-report")
    expect(alice.get_by_test_id("panel-list")).to_contain_text(OVERVIEW)
    expect(alice.get_by_test_id("reports-new-panel")).to_have_count(0)
    expect(alice.locator("[data-testid^=panel-design-]")).to_have_count(0)
    alice.goto(base + "/message-management")
    expect(alice.get_by_test_id("message-admin-forbidden")).to_be_visible()

    author_ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    author_ctx.add_cookies([{"name": "language", "value": "en-us", "url": live_server.url}])
    try:
        carol = author_ctx.new_page()
        sign_in(carol, base, "carol", "Carol@123")
        expect(carol.get_by_test_id("stat-loginTotal")).to_contain_text("Sign-ins in 7 days")
        carol.goto(base + "/process_manage")
        expect(carol.get_by_test_id("process-new-model")).to_be_visible()
        expect(carol.get_by_role("button", name="Deploy").first).to_be_visible()
        shot(carol, "roles-author-process")
        assert ok(carol, "/api/dyreport/dataset/list")
        carol.goto(base + "/dynamic-report")
        expect(carol.get_by_test_id("reports-new-panel")).to_be_visible()
        # her message:send button opens the administrators' letters screen to her, menu included
        carol.goto(base + "/message-management")
        expect(carol.get_by_test_id("message-admin")).to_be_visible()
        expect(carol.get_by_test_id("send-to-tenant")).to_be_visible()
    finally:
        author_ctx.close()


def test_an_export_without_the_button_is_refused_by_the_route(admin_page: Page, person) -> None:
    ctx, base = person
    admin = admin_page
    bundle = ok(admin, f"/api/dyreport/panel/export/{panel_ids(admin)[OVERVIEW]}")
    panel = ok(admin, "/api/dyreport/panel/import", {"bundle": bundle})
    account, password = f"v{secrets.token_hex(4)}", "Viewer2024"
    created = ok(
        admin,
        "/api/base/admin/users",
        {"account": account, "password": password, "userFullName": "Vera Viewer", "tenantId": 1001},
    )
    grants = {"grants": [{"subjectType": "user", "subjectId": created["userId"], "export": True}]}
    ok(admin, f"/api/dyreport/panel/grants/{panel['id']}", grants)

    member: Page = ctx.new_page()
    sign_in(member, base, account, password)
    open_panel(member, base, panel["id"])
    wait_views_ready(member)
    expect(member.get_by_test_id("view-details").first).to_be_visible()
    expect(member.get_by_test_id("view-export")).to_have_count(0)
    shot(member, "roles-export-hidden")
    views = ok(member, f"/api/dyreport/chart/view/listByPanel/{panel['id']}")
    answer = call(
        member,
        "/api/dyreport/chart/view/exportData",
        {"viewId": views[0]["id"], "panelId": panel["id"], "pageRows": 10},
    )
    assert answer["code"] == 403 and answer["msg"] == REFUSED and answer["data"] is None
    ok(admin, f"/api/dyreport/panel/delete/{panel['id']}", {})
