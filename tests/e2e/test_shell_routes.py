"""Shell routes in Chromium (spec 2.1, 2.2, 3, 7, 8): the panel preview without the shell, the public
article without a session, /grid-layout, fetch menus loading their entries on expand, and the stock
messages where they apply (no dashboard for the jump, page not allowed, link outdated)."""

from __future__ import annotations

import json
import re
import time

import pytest
from conftest import shot, sign_in
from playwright.sync_api import Page, expect
from test_reports_support import OVERVIEW, ok, panel_ids

pytestmark = pytest.mark.e2e

ARTICLES = "/api/portal/portal-article"


def test_panel_preview_shows_the_panel_without_the_shell(admin_page: Page, live_server) -> None:
    page = admin_page
    pid = panel_ids(page)[OVERVIEW]
    page.goto(f"{live_server.url}/dynamic-report/preview/{pid}")
    expect(page.get_by_test_id("preview-page")).to_be_visible(timeout=30000)
    expect(page.get_by_test_id("report-panel")).to_be_visible()
    # the reports module alone: neither the shell nor the news portal
    expect(page.get_by_test_id("sidebar")).to_have_count(0)
    expect(page.get_by_test_id("portal-page")).to_have_count(0)
    shot(page, "shell-panel-preview")


def test_a_preview_without_a_panel_says_no_dashboard_is_specified(admin_page: Page, live_server) -> None:
    page = admin_page
    page.goto(f"{live_server.url}/dynamic-report/preview")
    expect(page.get_by_test_id("no-dashboard")).to_contain_text("No dashboard is specified for the jump")


def test_panel_preview_needs_a_session(page: Page, live_server) -> None:
    page.goto(f"{live_server.url}/dynamic-report/preview/anything")
    page.wait_for_url("**/login")


def _articles(page: Page) -> tuple[dict, dict]:
    """A published public article and a published one that is not public (demo: news are public)."""
    listed = ok(page, f"{ARTICLES}/list?pageRows=50")["list"]
    public = next(a for a in listed if a["public"])
    private = next(a for a in listed if not a["public"])
    return public, private


def test_a_public_article_opens_without_a_session(browser, admin_page: Page, live_server) -> None:
    public, private = _articles(admin_page)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": live_server.url}])
    try:
        page = ctx.new_page()
        page.goto(f"{live_server.url}/knowledge-details?id={public['id']}")
        expect(page.get_by_test_id("article-title")).to_have_text(public["title"], timeout=30000)
        assert "/login" not in page.url
        expect(page.get_by_test_id("open-article")).to_be_visible()
        expect(page.get_by_test_id("sidebar")).to_have_count(0)
        shot(page, "shell-public-article")
        # an article that is not public is not shown to a reader without a session
        page.goto(f"{live_server.url}/knowledge-details?id={private['id']}")
        missing = page.get_by_text("This article does not exist or is not published")
        expect(missing).to_be_visible(timeout=30000)
        expect(page.get_by_test_id("article-title")).to_have_count(0)
        assert "/login" not in page.url
    finally:
        ctx.close()


def test_a_signed_in_reader_gets_the_article_in_the_shell(admin_page: Page, live_server) -> None:
    page = admin_page
    _public, private = _articles(page)
    page.goto(f"{live_server.url}/knowledge-details?id={private['id']}")
    expect(page.get_by_test_id("article-title")).to_have_text(private["title"], timeout=30000)
    expect(page.get_by_test_id("sidebar")).to_be_visible()


def test_grid_layout_is_a_route(admin_page: Page, live_server) -> None:
    page = admin_page
    page.goto(f"{live_server.url}/grid-layout")
    expect(page.get_by_test_id("grid-layout")).to_be_visible()
    expect(page.get_by_test_id("sidebar")).to_have_count(0)
    expect(page.get_by_text("The page you are looking for does not exist")).to_have_count(0)


def test_grid_layout_needs_a_session(page: Page, live_server) -> None:
    page.goto(f"{live_server.url}/grid-layout")
    page.wait_for_url("**/login")


def test_a_frame_page_outside_the_users_menus_is_not_allowed(admin_page: Page, live_server) -> None:
    page = admin_page
    page.goto(f"{live_server.url}/third-view/999999999")
    expect(page.get_by_test_id("page-not-allowed")).to_contain_text("This page is not allowed")


def test_a_hand_over_link_whose_time_is_out_is_outdated(page: Page, live_server) -> None:
    past = int(time.time()) - 60
    page.goto(f"{live_server.url}/midea-login?token=abc&expires={past}")
    expect(page.get_by_text("The link is outdated")).to_be_visible()
    assert "/midea-login" in page.url
    # a link with no token at all is invalid, not outdated
    page.goto(f"{live_server.url}/midea-login")
    expect(page.get_by_text("The link is invalid")).to_be_visible()


def test_a_fetch_menu_loads_its_entries_on_expand(page: Page, live_server) -> None:
    """The partner site menu is made a fetch menu in the menus answer; its entry comes from the server."""

    def mark_fetch(items: list[dict]) -> None:
        for m in items:
            if m.get("menuCode") == "partner-site" or m.get("menuName") in ("合作伙伴门户", "Partner site"):
                m["isFetch"] = 1
                m["fetchPath"] = "/portal/news"
            mark_fetch(m.get("children") or [])

    def patch(route) -> None:
        response = route.fetch()
        body = response.json()
        data = body.get("data")
        mark_fetch(data if isinstance(data, list) else (data or {}).get("menus") or [])
        route.fulfill(response=response, body=json.dumps(body))

    page.route("**/base-rolemenu/find-user-menus*", patch)
    calls: list[dict] = []
    page.on(
        "request",
        lambda r: calls.append(r.post_data_json) if "base-menu-fetch/find-list" in r.url else None,
    )
    sign_in(page, live_server.url)
    sidebar = page.get_by_test_id("sidebar")
    if not sidebar.get_by_text("Partner site", exact=True).is_visible():
        sidebar.get_by_text("Workbench", exact=True).click()
    assert calls == []
    sidebar.get_by_text("Partner site", exact=True).click()
    entry = sidebar.get_by_text("合作伙伴", exact=True)
    expect(entry).to_be_visible()
    assert len(calls) == 1 and set(calls[0]["params"]) == {"menuId"}, calls
    shot(page, "shell-fetch-menu")
    entry.click()
    page.wait_for_url(re.compile(r"/portal/news\?menuFetchId=\w+$"))
