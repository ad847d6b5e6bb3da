"""The report viewer in Chromium against the real server and the demo panels: every chart kind draws its
series, filter widgets change the data, drill down and back, linkage, the inner jump, tables (pages, sort,
copy), the details dialog, exports and the server's message in place of a failed view. Screenshots of
each demo panel go to var/artifacts/screenshots/."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import CHROMIUM_ARGS, shot, sign_in  # noqa: F401 - CHROMIUM_ARGS documents the launch flags
from playwright.sync_api import BrowserContext, Page, expect
from test_reports_support import (
    ANTV_GALLERY,
    ECHARTS_GALLERY,
    OVERVIEW,
    PANELS,
    PROVINCE_DETAIL,
    TABLES,
    clear_widgets,
    data_of,
    ok,
    open_panel,
    painted,
    panel_ids,
    view,
    wait_views_ready,
)

pytestmark = pytest.mark.e2e

ECHARTS_KINDS = {
    "bar",
    "bar-stack",
    "bar-horizontal",
    "bar-contrast",
    "bar-stack-horizontal",
    "line",
    "line-stack",
    "pie",
    "pie-rose",
    "funnel",
    "radar",
    "gauge",
    "gauge-percentage",
    "scatter",
    "treemap",
    "chart-mix",
    "map",
}
ANTV_KINDS = {
    "bar",
    "bar-stack",
    "bar-horizontal",
    "bar-stack-horizontal",
    "line",
    "line-stack",
    "scatter",
    "radar",
    "gauge",
    "pie",
    "pie-rose",
    "funnel",
    "treemap",
    "liquid",
    "waterfall",
    "word-cloud",
}
SINGLE_SERIES = {
    "pie",
    "pie-rose",
    "funnel",
    "treemap",
    "map",
    "gauge",
    "gauge-percentage",
    "liquid",
    "waterfall",
    "word-cloud",
}


@pytest.fixture(scope="module")
def viewer(browser, live_server) -> Iterator[BrowserContext]:
    """One signed-in browser profile for the module (downloads on, clipboard allowed)."""
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US", accept_downloads=True)
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": live_server.url}])
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)

    def outside(route):
        url = route.request.url
        if url.startswith(live_server.url) or url.startswith(("data:", "blob:", "about:")):
            route.fallback()
        else:
            route.fulfill(
                status=200, content_type="text/html", body="<html><body>external page</body></html>"
            )

    ctx.route("**/*", outside)
    p = ctx.new_page()
    sign_in(p, live_server.url)
    p.close()
    yield ctx
    ctx.close()


@pytest.fixture
def rp(viewer: BrowserContext) -> Iterator[Page]:
    p = viewer.new_page()
    p.set_default_timeout(20000)
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    yield p
    p.close()
    assert not errors, errors


@pytest.fixture(scope="module")
def ids(viewer: BrowserContext, live_server) -> dict[str, str]:
    p = viewer.new_page()
    p.goto(live_server.url + "/home")
    out = panel_ids(p)
    p.close()
    assert set(PANELS) <= set(out), out
    return out


def data_requests(page: Page) -> list[dict[str, Any]]:
    """Records every getData call of the page: view id, body and answer."""
    seen: list[dict[str, Any]] = []

    def on_response(response):
        m = re.search(r"/chart/view/getData/([^/]+)/", response.url)
        if not m:
            return
        try:
            body = json.loads(response.request.post_data or "{}")
            seen.append(
                {
                    "view": m.group(1),
                    "body": body.get("params", body),
                    "answer": response.json().get("data") or {},
                }
            )
        except Exception:  # noqa: BLE001 - a page closing mid-response
            pass

    page.on("response", on_response)
    return seen


def last_for(seen: list[dict[str, Any]], view_id: str) -> dict[str, Any]:
    hits = [s for s in seen if s["view"] == view_id]
    assert hits, f"no data call for {view_id}"
    return hits[-1]


def chart_point(page: Page, view_id: str, series: int, index: int) -> tuple[float, float]:
    """The page coordinates of a data point of an echarts view."""
    xy = page.evaluate(
        """([id, s, i]) => {
            const v = document.querySelector(`[data-testid=report-view][data-view-id="${id}"] .rpt-chart`);
            const c = v.__chart; const opt = c.getOption();
            const d = opt.series[s].data[i];
            const cat = (opt.xAxis && opt.xAxis[0] && opt.xAxis[0].data) || [];
            const value = typeof d === 'object' ? d.value : d;
            const p = c.convertToPixel({seriesIndex: s}, [cat[i] ?? i, value / 2]);  // the middle of the bar
            const r = v.getBoundingClientRect();
            return [r.left + p[0], r.top + p[1]];
        }""",
        [view_id, series, index],
    )
    return float(xy[0]), float(xy[1])


def wait_call(
    page: Page, seen: list[dict[str, Any]], view_id: str, since: int, timeout: int = 15000
) -> dict[str, Any]:
    deadline = page.evaluate("() => Date.now()") + timeout
    while page.evaluate("() => Date.now()") < deadline:
        hits = [s for s in seen[since:] if s["view"] == view_id]
        if hits:
            return hits[-1]
        page.wait_for_timeout(100)
    raise AssertionError(f"no new data call for {view_id}")


# ---------------------------------------------------------------------------------------------------------
# every chart kind
# ---------------------------------------------------------------------------------------------------------


def expected_series(kind: str, render: str, answer: dict[str, Any]) -> int:
    series = [s for s in answer["data"]["series"] if (s.get("property") or {}).get("axis") != "extBubble"]
    if kind in SINGLE_SERIES:
        return 1
    if render == "antv":
        return max(1, len({d["category"] for d in answer["data"]["datas"]}))
    return len(series)


@pytest.mark.parametrize(
    "panel,kinds,render", [(ECHARTS_GALLERY, ECHARTS_KINDS, "echarts"), (ANTV_GALLERY, ANTV_KINDS, "antv")]
)
def test_every_chart_kind_draws_its_series(
    rp: Page, live_server, ids, panel: str, kinds: set[str], render: str
) -> None:
    open_panel(rp, live_server.url, ids[panel])
    states = wait_views_ready(rp, len(kinds))
    for _ in range(6):  # the widgets' default filters may redraw a view once more after it first drew
        if all(s["series"] is not None for s in states):
            break
        rp.wait_for_timeout(500)
        states = wait_views_ready(rp, len(kinds))
    assert {s["kind"] for s in states} == kinds
    for s in states:
        assert s["state"] == "ready" and s["render"] == render, s
        answer = data_of(rp, s["id"], ids[panel])
        assert s["series"] == expected_series(s["kind"], render, answer), s
        assert painted(rp, s["id"]), f"{s['kind']} drew nothing"
    shot(rp, f"reports-{render}-gallery")


def test_screenshots_of_the_demo_panels(rp: Page, live_server, ids) -> None:
    for name, slug in ((OVERVIEW, "overview"), (TABLES, "tables"), (PROVINCE_DETAIL, "province-detail")):
        open_panel(rp, live_server.url, ids[name])
        if name == OVERVIEW:
            wait_views_ready(rp)
            clear_widgets(rp)
        states = wait_views_ready(rp)
        # a view whose data call fails shows the server's message instead
        # (the extract view before its first sync)
        assert all(s["state"] == "ready" or (s["state"] == "error" and s["error"]) for s in states), states
        rp.wait_for_timeout(500)
        shot(rp, f"reports-{slug}")


# ---------------------------------------------------------------------------------------------------------
# filters
# ---------------------------------------------------------------------------------------------------------


def test_filter_widgets_change_the_data(rp: Page, live_server, ids) -> None:
    seen = data_requests(rp)
    open_panel(rp, live_server.url, ids[OVERVIEW])
    wait_views_ready(rp, 10)
    region = view(rp, "大区销售额").get_attribute("data-view-id")
    assert region
    # the date widget's dynamic default (this year) reaches every view as a between filter of two days
    first = last_for(seen, region)["body"]
    dates = [f for f in first["filter"] if f["operator"] == "between"]
    assert dates and len(dates[0]["value"]) == 2
    # reset clears the widgets, then applies: the views get data
    n = len(seen)
    clear_widgets(rp)
    after_reset = wait_call(rp, seen, region, n)
    assert after_reset["body"]["filter"] == []
    regions = after_reset["answer"]["data"]["x"]
    assert len(regions) > 1

    # select (multiple): choose one region, the search button applies it
    popup = rp.get_by_test_id("select-popup")
    select_all = rp.get_by_test_id("select-all")

    def all_box() -> str:
        return select_all.evaluate("e => e.closest('.ant-checkbox').className")

    dropdown = rp.locator(".ant-select-dropdown").filter(has=popup)
    moving = re.compile(r"-(enter|leave)\b")

    def settled() -> None:
        """The dropdown is neither opening nor closing (a closing one still looks visible)."""
        if dropdown.count():
            expect(dropdown).not_to_have_class(moving)

    def open_select() -> None:
        settled()
        if not popup.is_visible():
            rp.get_by_test_id("select-widget").click()
        expect(popup).to_be_visible()
        settled()

    open_select()
    assert "indeterminate" not in all_box() and "checked" not in all_box()
    popup.get_by_text(regions[0], exact=True).click()
    assert "indeterminate" in all_box()  # some chosen
    n = len(seen)
    rp.get_by_test_id("button-search").click()
    got = wait_call(rp, seen, region, n)
    assert got["body"]["filter"][0]["operator"] == "in"
    assert got["answer"]["data"]["x"] == [regions[0]]
    # select all checks every value, a second click clears them
    all_checkbox = popup.locator(".ant-checkbox").filter(has=select_all)
    open_select()
    select_all.click()
    expect(all_checkbox).to_have_class(re.compile(r"\bant-checkbox-checked\b"))
    open_select()
    select_all.click()
    expect(all_checkbox).not_to_have_class(re.compile(r"\bant-checkbox-(checked|indeterminate)\b"))
    rp.keyboard.press("Escape")

    # number range: bad input shows the message and sets nothing; a minimum gives ge
    rp.get_by_test_id("number-min").fill("1.5")
    expect(rp.get_by_test_id("number-error")).to_have_text("Please enter an integer")
    rp.get_by_test_id("number-min").fill("-2147483649")
    expect(rp.get_by_test_id("number-error")).to_have_text("The value cannot be less than -2147483648")
    rp.get_by_test_id("number-min").fill("9")
    expect(rp.get_by_test_id("number-error")).to_have_count(0)
    n = len(seen)
    rp.get_by_test_id("button-search").click()
    got = wait_call(rp, seen, region, n)
    qty = [f for f in got["body"]["filter"] if f["operator"] == "ge"]
    assert qty and qty[0]["value"] == [9]
    assert sum(p["value"] for p in got["answer"]["data"]["series"][0]["data"] if p) < sum(
        p["value"] for p in after_reset["answer"]["data"]["series"][0]["data"] if p
    )
    # reset again: every widget empty, all data back
    n = len(seen)
    clear_widgets(rp)
    got = wait_call(rp, seen, region, n)
    assert got["body"]["filter"] == []
    expect(rp.get_by_test_id("number-min")).to_have_value("")


# ---------------------------------------------------------------------------------------------------------
# clicks: drill, linkage, jump
# ---------------------------------------------------------------------------------------------------------


def ready_overview(rp: Page, base: str, ids: dict[str, str]) -> list[dict[str, Any]]:
    seen = data_requests(rp)
    open_panel(rp, base, ids[OVERVIEW])
    wait_views_ready(rp, 10)
    clear_widgets(rp)
    rp.wait_for_timeout(300)
    wait_views_ready(rp, 10)
    return seen


def test_drill_down_and_back(rp: Page, live_server, ids) -> None:
    seen = ready_overview(rp, live_server.url, ids)
    region = view(rp, "大区销售额").get_attribute("data-view-id")
    top = last_for(seen, region)["answer"]["data"]["x"]
    n = len(seen)
    rp.mouse.click(*chart_point(rp, region, 0, 0))
    menu = rp.get_by_test_id("click-menu")
    expect(menu).to_be_visible()  # drill and linkage both apply to this view
    menu.locator("[data-action=drill]").click()
    got = wait_call(rp, seen, region, n)
    assert got["body"]["drill"] == [{"fieldId": got["body"]["drill"][0]["fieldId"], "value": [top[0]]}]
    provinces = got["answer"]["data"]["x"]
    assert provinces and set(provinces).isdisjoint(top)
    crumbs = rp.get_by_test_id("drill-breadcrumb")
    expect(crumbs).to_contain_text(top[0])
    wait_views_ready(rp)
    # back up through the breadcrumb
    n = len(seen)
    crumbs.get_by_text("All").click()
    got = wait_call(rp, seen, region, n)
    assert got["body"]["drill"] == []
    assert got["answer"]["data"]["x"] == top
    expect(crumbs).to_have_count(0)


def test_linkage_filters_the_linked_views(rp: Page, live_server, ids) -> None:
    seen = ready_overview(rp, live_server.url, ids)
    region = view(rp, "大区销售额").get_attribute("data-view-id")
    trend = view(rp, "月度销售额").get_attribute("data-view-id")
    top = last_for(seen, region)["answer"]["data"]["x"]
    n = len(seen)
    rp.mouse.click(*chart_point(rp, region, 0, 1))
    rp.get_by_test_id("click-menu").locator("[data-action=linkage]").click()
    got = wait_call(rp, seen, trend, n)
    assert [f["value"] for f in got["body"]["linkageFilters"]] == [[top[1]]]
    expect(view(rp, "大区销售额").get_by_test_id("clear-linkage")).to_be_visible()
    n = len(seen)
    view(rp, "大区销售额").get_by_test_id("clear-linkage").click()
    got = wait_call(rp, seen, trend, n)
    assert got["body"]["linkageFilters"] == []


def test_inner_jump_opens_the_target_with_the_clicked_value(rp: Page, live_server, ids) -> None:
    ready_overview(rp, live_server.url, ids)
    map_view = view(rp, "省份销售地图")
    map_id = map_view.get_attribute("data-view-id")
    xy = rp.evaluate(
        """id => {
            const v = document.querySelector(`[data-testid=report-view][data-view-id="${id}"] .rpt-chart`);
            const p = v.__chart.convertToPixel({seriesIndex: 0}, [113.28, 23.13]);
            const r = v.getBoundingClientRect();
            return [r.left + p[0], r.top + p[1]];
        }""",
        map_id,
    )
    with rp.context.expect_page() as popup_info:
        rp.mouse.click(xy[0], xy[1])  # the map has only a jump: no menu
    target = popup_info.value
    target.wait_for_load_state()
    assert re.search(r"/dynamic-report/link/[A-Za-z0-9_-]+$", target.url), target.url
    seen = data_requests(target)
    expect(target.get_by_test_id("report-panel")).to_be_visible(timeout=30000)
    wait_views_ready(target, 3)
    assert seen and all(any(f["value"] == ["广东"] for f in s["body"]["urlFilter"]) for s in seen), seen
    # the target read and removed the stored jump parameters
    assert target.evaluate("() => localStorage.getItem('atrium.reports.jumpParams')") is None
    shot(target, "reports-jump-target")
    target.close()


# ---------------------------------------------------------------------------------------------------------
# tables
# ---------------------------------------------------------------------------------------------------------


def test_table_pages_sort_and_copy(rp: Page, live_server, ids) -> None:
    seen = data_requests(rp)
    open_panel(rp, live_server.url, ids[TABLES])
    wait_views_ready(rp, 6)
    details = view(rp, "明细表")
    details_id = details.get_attribute("data-view-id")
    first = last_for(seen, details_id)
    assert first["answer"]["data"]["pageSize"] == 20
    table = details.get_by_test_id("report-table")
    assert table.locator("tbody tr").count() == 20
    height = table.locator("tbody tr").first.evaluate("r => r.getBoundingClientRect().height")
    assert abs(height - 36) <= 1
    pager = details.get_by_test_id("report-pager")
    assert pager.locator("button[aria-current], button:not([aria-label])").count() == 5
    # page 2
    n = len(seen)
    pager.get_by_role("button", name="2", exact=True).click()
    got = wait_call(rp, seen, details_id, n)
    assert got["body"]["goPage"] == 2
    assert got["answer"]["data"]["tableRow"] != first["answer"]["data"]["tableRow"]
    expect(pager.locator("button[aria-current=page]")).to_have_text("2")
    # sort: ascending, descending, none; each click queries again
    header = table.locator("th").filter(has_text="销售额").first
    orders = []
    for _ in range(3):
        n = len(seen)
        header.click()
        got = wait_call(rp, seen, details_id, n)
        orders.append(header.get_attribute("data-sort"))
        sort = got["body"].get("sort")
        if orders[-1] != "none":
            assert sort and sort[0]["sort"] == orders[-1]
        else:
            assert not sort
    assert orders == ["asc", "desc", "none"]
    # right click copies a cell and says so
    cell = table.locator("tbody tr").first.locator("td").nth(1)
    text = cell.inner_text()
    cell.click(button="right")
    expect(rp.get_by_text("Copied")).to_be_visible()
    assert rp.evaluate("() => navigator.clipboard.readText()") == text
    # the other kinds: normal and pivot tables, text labels
    kinds = {s["kind"] for s in wait_views_ready(rp)}
    assert {"table-info", "table-normal", "table-pivot", "text", "label"} <= kinds
    expect(view(rp, "透视表").locator("thead tr")).to_have_count(2)


# ---------------------------------------------------------------------------------------------------------
# details, export, failed views
# ---------------------------------------------------------------------------------------------------------


def test_details_dialog(rp: Page, live_server, ids) -> None:
    ready_overview(rp, live_server.url, ids)
    view(rp, "品类销售额").get_by_test_id("view-details").click()
    dialog = rp.get_by_test_id("details-dialog")
    expect(dialog).to_be_visible()
    rp.wait_for_timeout(800)  # the opening animation scales the dialog
    box = rp.locator(".ant-modal").filter(has=dialog).first.bounding_box()
    assert box and abs(box["width"] - 1440 * 0.7) < 4
    assert abs(box["y"] - 900 * 0.2) < 4
    chart = dialog.get_by_test_id("details-chart").bounding_box()
    table = dialog.get_by_test_id("details-table").bounding_box()
    assert chart and table and chart["x"] < table["x"] and abs(chart["width"] - table["width"]) < 20
    expect(dialog.get_by_test_id("details-table").locator("tbody tr")).not_to_have_count(0)
    expect(rp.get_by_test_id("details-export")).to_have_text("Export to Excel")
    shot(rp, "reports-details")
    rp.keyboard.press("Escape")
    # tables show only the table
    view(rp, "省份汇总").get_by_test_id("view-details").click()
    expect(rp.get_by_test_id("details-chart")).to_have_count(0)
    expect(rp.get_by_test_id("details-table")).to_be_visible()


def test_export_downloads_an_excel(rp: Page, live_server, ids) -> None:
    ready_overview(rp, live_server.url, ids)
    # a view's own export
    with rp.expect_download(timeout=60000) as dl:
        view(rp, "品类销售额").get_by_test_id("view-export").click()
    assert dl.value.suggested_filename.endswith(".xlsx")
    # the export button: several views, so a choice first
    rp.get_by_test_id("button-export").click()
    choose = rp.get_by_test_id("export-choose")
    expect(choose).to_be_visible()
    choose.get_by_text("Select all").click()  # none
    choose.get_by_text("渠道订单数").click()
    with rp.expect_download(timeout=60000) as dl2:
        rp.get_by_test_id("export-confirm").click()
    assert dl2.value.suggested_filename.endswith(".xlsx")


def test_a_failed_view_shows_the_server_message(rp: Page, live_server, ids) -> None:
    rp.goto(live_server.url + "/home")
    listed = ok(rp, f"/api/dyreport/chart/view/listByPanel/{ids[PROVINCE_DETAIL]}")
    broken = listed[0]["id"]

    def fail(route):
        route.fulfill(
            status=200,
            content_type="application/json",
            body=json.dumps({"code": 400, "msg": "The field 城市 no longer exists", "data": None}),
        )

    rp.route(f"**/chart/view/getData/{broken}/**", fail)
    open_panel(rp, live_server.url, ids[PROVINCE_DETAIL])
    states = wait_views_ready(rp, 3)
    failed = [s for s in states if s["id"] == broken][0]
    assert failed["state"] == "error" and failed["error"] == "The field 城市 no longer exists"
    assert all(s["state"] == "ready" for s in states if s["id"] != broken)
