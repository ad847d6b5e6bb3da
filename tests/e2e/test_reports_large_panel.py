"""A panel of 50 views in Chromium: every view's data is asked for when the panel opens, the views in the
window are drawn, and a view far below is drawn once scrolled to, with the data fetched before (no data call
on the scroll)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import sign_in
from playwright.sync_api import BrowserContext, Page
from test_reports_support import OVERVIEW, ok, painted, panel_ids

from tests.reports.view_grid import publish_view_grid

pytestmark = pytest.mark.e2e

VIEWS = 50
COLUMNS = 4
DESIGN_WIDTH = 1600
VIEW_HEIGHT = 300
DATA_CALL = "/chart/view/getData/"

# every view's data answered, and the views whose card shows in the window drawn
IN_WINDOW_DRAWN = """n => {
    const vs = Array.from(document.querySelectorAll('[data-testid=report-view]'));
    const inWindow = v => {
        const r = v.getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight;
    };
    const drawn = v => { const c = v.querySelector('.rpt-chart'); return !c || c.dataset.rendered === '1'; };
    return vs.length === n && vs.every(v => v.dataset.state === 'ready' && (!inWindow(v) || drawn(v)));
}"""


def chart_views(page: Page) -> list[dict[str, Any]]:
    """The demo overview's chart views (no tables or texts), as the designer saves them."""
    views = ok(page, f"/api/dyreport/chart/view/listByPanel/{panel_ids(page)[OVERVIEW]}")
    return [v for v in views if not v["type"].startswith("table") and "text" not in v["type"]]


def make_panel(page: Page) -> str:
    """A published panel of VIEWS chart views, COLUMNS a row, copies of the overview's charts in turn."""
    return publish_view_grid(
        lambda path, body: ok(page, "/api/dyreport" + path, body),
        "Fifty views",
        chart_views(page),
        VIEWS,
        columns=COLUMNS,
        design_width=DESIGN_WIDTH,
        view_height=VIEW_HEIGHT,
    )


@pytest.fixture(scope="module")
def viewer(browser, live_server) -> Iterator[Page]:
    ctx: BrowserContext = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": live_server.url}])
    page = ctx.new_page()
    page.set_default_timeout(30000)
    sign_in(page, live_server.url)
    yield page
    ctx.close()


@pytest.fixture(scope="module")
def large_panel(viewer: Page) -> Iterator[str]:
    panel_id = make_panel(viewer)
    yield panel_id
    ok(viewer, f"/api/dyreport/panel/delete/{panel_id}", {})


def test_a_view_far_below_draws_when_scrolled_to_with_its_data_fetched_before(
    viewer: Page, live_server, large_panel: str
) -> None:
    page = viewer
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if DATA_CALL in r.url else None)

    page.goto(f"{live_server.url}/dynamic-report")
    page.locator(f"[data-panel-id='{large_panel}']").click()
    page.wait_for_function(IN_WINDOW_DRAWN, arg=VIEWS, timeout=90000)

    ids = page.evaluate(
        "() => Array.from(document.querySelectorAll('[data-testid=report-view]')).map(v => v.dataset.viewId)"
    )
    assert len(set(ids)) == VIEWS
    assert {i for i in ids if any(f"{DATA_CALL}{i}/" in url for url in asked)} == set(ids)
    shown = page.evaluate(
        """() => Array.from(document.querySelectorAll('[data-testid=report-view]'))
            .filter(v => v.getBoundingClientRect().top < innerHeight).map(v => v.dataset.viewId)"""
    )
    assert shown and len(shown) < VIEWS
    for view_id in shown:
        assert painted(page, view_id), f"view {view_id} in the window drew nothing"

    last = ids[-1]
    far = page.locator(f"[data-testid=report-view][data-view-id='{last}']")
    assert far.bounding_box()["y"] > 2 * page.viewport_size["height"]
    asked.clear()
    far.scroll_into_view_if_needed()
    page.wait_for_function(
        "id => document.querySelector(`[data-testid=report-view][data-view-id='${id}'] .rpt-chart`)"
        ".dataset.rendered === '1'",
        arg=last,
    )
    assert painted(page, last)
    assert far.get_attribute("data-state") == "ready"
    assert not [url for url in asked if DATA_CALL in url], asked
    assert not errors, errors
