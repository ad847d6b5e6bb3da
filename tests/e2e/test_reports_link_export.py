"""A shared link's viewer exports to Excel in Chromium, never signed in (reports spec 1, 4, 7.2): the view's
export button on the link page runs the export through the link's own routes and the browser receives an
.xlsx that openpyxl opens, with the view's rows."""

from __future__ import annotations

from collections.abc import Iterator

import openpyxl
import pytest
from conftest import shot, sign_in
from playwright.sync_api import BrowserContext, Page, expect
from test_reports_support import TABLES, ok, panel_ids

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def owner(browser, live_server) -> Iterator[Page]:
    """A signed-in administrator who shares the demo tables panel."""
    ctx: BrowserContext = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": live_server.url}])
    p = ctx.new_page()
    sign_in(p, live_server.url)
    yield p
    ctx.close()


def test_a_link_viewer_exports_a_view_to_excel(page: Page, live_server, owner, tmp_path) -> None:
    pid = panel_ids(owner)[TABLES]
    link = ok(owner, f"/api/dyreport/api/link/enable/{pid}", {})
    ok(
        owner,
        "/api/dyreport/api/link/update",
        {"id": link["id"], "valid": True, "enablePwd": False, "clearOverTime": True, "unlock": True},
    )
    details = next(
        v for v in ok(owner, f"/api/dyreport/chart/view/listByPanel/{pid}") if v["name"] == "明细表"
    )

    # `page` is a fresh browser profile: no session cookie, nobody signed in
    assert not [c for c in page.context.cookies() if c["name"] == "Atrium-Token"]
    page.goto(f"{live_server.url}/dynamic-report/link/{link['id']}")
    expect(page.get_by_test_id("link-page")).to_have_attribute("data-state", "2", timeout=30000)
    card = page.locator(f'[data-testid=report-view][data-view-id="{details["id"]}"]')
    expect(card).to_have_attribute("data-state", "ready", timeout=30000)
    expect(page.get_by_text("Sign in to export data")).to_have_count(0)
    button = card.get_by_test_id("view-export")
    expect(button).to_be_visible()
    calls: list[str] = []
    page.on("request", lambda r: calls.append(r.url) if "/export" in r.url else None)
    with page.expect_download(timeout=60000) as info:
        button.click()
    download = info.value
    assert download.suggested_filename.endswith(".xlsx"), download.suggested_filename
    target = tmp_path / download.suggested_filename
    download.save_as(target)
    expect(page.get_by_text("Export finished")).to_be_visible()
    shot(page, "reports-link-export")

    # the link's own routes, never the signed-in export service
    assert any("/api/dyreport/api/link/export" in u for u in calls), calls
    assert not any("/dataexport/" in u for u in calls), calls
    book = openpyxl.load_workbook(target, read_only=True)
    rows = list(book.active.iter_rows(values_only=True))
    assert list(rows[0]) == ["下单日期", "城市", "产品", "数量", "销售额"]
    assert len(rows) > 1 and all(r[1] for r in rows[1:])
    assert not page.page_errors, page.page_errors
