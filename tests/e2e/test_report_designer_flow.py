"""From a database table to a shared, interactive panel, as a report author in Chromium: a SQLite data
source and a table dataset, a bar chart, a table and a pie built by dragging fields, a panel with a date
filter (dynamic default: this month) and a select filter bound to them, a linkage and an external jump,
published, shared with a 4-digit password, and opened in a fresh browser: the numbers shown are the ones
a SQL query over the same file gives."""

from __future__ import annotations

import sqlite3
import uuid
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import shot, sign_in
from playwright.sync_api import Page, expect
from test_report_designer_data import create_source, drag, pick
from test_report_designer_panel import add_from_palette, create_panel
from test_reports_support import ok, wait_views_ready
from test_reports_viewer import chart_point

pytestmark = pytest.mark.e2e

TODAY = date.today()
MONTH_START = TODAY.replace(day=1)
# rows of this month, and of two months that are surely earlier (more than 31 days back)
ROWS = [
    (TODAY, "East", "Tea", 1200.5, 3),
    (TODAY, "West", "Coffee", 880.0, 2),
    (MONTH_START, "East", "Coffee", 15230.25, 12),
    (MONTH_START, "North", "Cocoa", 430.0, 1),
    (TODAY - timedelta(days=45), "East", "Tea", 999.0, 9),
    (TODAY - timedelta(days=80), "West", "Cocoa", 5000.0, 4),
]
PASSWORD = "4826"


def make_database(folder: Path) -> Path:
    path = folder / "sales.db"
    with sqlite3.connect(path) as db:
        db.execute(
            "create table sales (id integer primary key, order_date text, region text, product text, "
            "amount real, qty integer)"
        )
        db.executemany(
            "insert into sales (order_date, region, product, amount, qty) values (?, ?, ?, ?, ?)",
            [(d.isoformat(), *rest) for d, *rest in ROWS],
        )
    return path


def query(path: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute(sql, args).fetchall()


def build_view(
    page: Page,
    dataset: str,
    fields: dict[str, dict[str, Any]],
    x: list[str],
    y: str,
    kind: str | None,
    title: str,
) -> None:
    page.get_by_test_id("palette-view").click()
    expect(page.get_by_test_id("view-editor")).to_be_visible()
    pick(page, "view-dataset", dataset)
    expect(page.get_by_test_id("field-count")).to_be_visible()
    for name in x:
        drag(page, f"field-{fields[name]['dataeaseName']}", "zone-xaxis")
    drag(page, f"field-{fields[y]['dataeaseName']}", "zone-yaxis")
    expect(page.get_by_test_id(f"chip-xaxis-{len(x) - 1}")).to_be_visible()
    expect(page.get_by_test_id("chip-yaxis-0")).to_be_visible()
    if kind:
        page.get_by_test_id("tab-view-kind").click()
        page.get_by_test_id(f"kind-{kind}").click()
    page.get_by_test_id("tab-view-style").click()
    page.get_by_test_id("view-title").fill(title)
    page.get_by_test_id("view-save").click()
    expect(page.get_by_test_id("view-editor")).to_be_hidden()


def bind(page: Page, widget_id: str, dataset_id: str, field: str) -> None:
    """Binds the selected filter widget to every chart of the panel and one field of their dataset."""
    page.get_by_test_id(f"canvas-item-{widget_id}").click(position={"x": 6, "y": 6})
    views = page.get_by_test_id("widget-views")
    views.click()
    options = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")
    for i in range(options.count()):
        options.nth(i).click()
    page.keyboard.press("Escape")
    expect(options).to_have_count(0)
    chosen(page, f"widget-field-{dataset_id}", field)


def chosen(page: Page, select: str, option: str) -> None:
    """Picks the option of an antd Select whose text is exactly `option`."""
    page.get_by_test_id(select).click()
    page.locator(
        f".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title='{option}']"
    ).click()
    expect(page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)")).to_have_count(0)


def table_rows(page: Page, view_id: str) -> list[list[str]]:
    return page.evaluate(
        """id => Array.from(document.querySelectorAll(
                `[data-testid=report-view][data-view-id="${id}"] [data-testid=report-table] tbody tr`))
            .map(tr => Array.from(tr.querySelectorAll('td')).map(td => td.textContent.trim()))""",
        view_id,
    )


def number(text: str) -> float:
    return float(text.replace(",", "").replace(" ", ""))


def test_from_a_table_to_a_shared_interactive_panel(page: Page, browser, live_server, tmp_path: Path) -> None:
    base = live_server.url
    sign_in(page, base)
    tag = uuid.uuid4().hex[:6]
    db = make_database(tmp_path)

    # a data source on the file and a table dataset over it
    source = f"Shop db {tag}"
    create_source(page, base, source, db)
    page.goto(base + "/dynamic-report/dataset")
    page.get_by_test_id("dataset-new").click()
    pick(page, "dataset-source", source)
    chosen(page, "dataset-table", "sales")
    dataset_name = f"Sales {tag}"
    page.get_by_test_id("dataset-name").fill(dataset_name)
    page.get_by_test_id("dataset-create").click()
    expect(page.get_by_test_id("dataset-title")).to_have_text(dataset_name)
    dataset = next(d for d in ok(page, "/api/dyreport/dataset/list") if d["name"] == dataset_name)
    fields = {f["originName"]: f for f in ok(page, f"/api/dyreport/dataset/get/{dataset['id']}")["fields"]}
    assert fields["order_date"]["type"] == "time"

    # a panel with a bar, a table and a pie, each made by dragging fields
    panel_id = create_panel(page, base, f"Sales flow {tag}")
    build_view(page, dataset_name, fields, ["region"], "amount", None, "Amount by region")
    build_view(
        page, dataset_name, fields, ["region", "product"], "amount", "table-normal", "Amount by product"
    )
    build_view(page, dataset_name, fields, ["region"], "qty", "pie", "Quantity share")
    views = {v["title"]: v for v in ok(page, f"/api/dyreport/chart/view/listByPanel/{panel_id}")}
    bar, table, pie = (views[t]["id"] for t in ("Amount by region", "Amount by product", "Quantity share"))
    for view_id in (bar, table, pie):
        expect(
            page.locator(f"[data-testid^=canvas-item-][data-type=view] [data-view-id='{view_id}']")
        ).to_have_count(1)

    # a date filter defaulting to this month, and a select filter, bound to the three charts
    date_id = add_from_palette(page, "date")
    bind(page, date_id, dataset["id"], "order_date")
    page.get_by_test_id("widget-dynamic").click()
    expect(page.get_by_test_id("widget-dynamic-key")).to_contain_text("This month")
    select_id = add_from_palette(page, "select")
    bind(page, select_id, dataset["id"], "region")

    # the bar links to the pie (region to region) and jumps to an external address with the region
    page.locator(f"[data-testid^=canvas-item-]:has([data-view-id='{bar}'])").click(position={"x": 6, "y": 6})
    page.get_by_test_id("view-interactions").click()
    page.get_by_test_id(f"linkage-target-{pie}").check()
    page.get_by_test_id(f"linkage-add-field-{pie}").click()
    chosen(page, f"linkage-source-{pie}-0", "region")
    chosen(page, f"linkage-target-field-{pie}-0", "region")
    page.get_by_test_id("interactions-tab-jump").click()
    region_id = fields["region"]["id"]
    page.get_by_test_id(f"jump-field-{region_id}").check()
    page.get_by_test_id(f"jump-type-{region_id}").get_by_text("External address").click()
    page.get_by_test_id(f"jump-url-{region_id}").fill("https://example.com/sales")
    page.get_by_text("Append the clicked values as parameters", exact=True).click()
    page.get_by_test_id("interactions-tab-drill").click()
    page.get_by_test_id("interactions-save").click()
    expect(page.get_by_test_id("interactions-dialog")).to_be_hidden()
    linkage = ok(page, f"/api/dyreport/linkage/getPanelAllLinkageInfo/{panel_id}")
    assert f"{pie}#{region_id}" in linkage[f"{bar}#{region_id}"]

    # saved, published
    page.get_by_test_id("designer-save").click()
    expect(page.get_by_test_id("designer-status")).to_have_attribute("data-status", "unpublished")
    page.get_by_test_id("designer-publish").click()
    page.get_by_test_id("publish-confirm").click()
    expect(page.get_by_test_id("designer-status")).to_have_attribute("data-status", "published")
    expect(page.get_by_test_id("publish-note")).to_be_hidden()
    shot(page, "designer-flow-published")

    # shared with a password of four digits (anything else is refused before it is sent)
    page.get_by_test_id("designer-share").click()
    dialog = page.get_by_test_id("share-dialog")
    expect(dialog).to_be_visible()
    # opening the dialog shares nothing: closed again, the panel still has no link
    expect(page.get_by_test_id("share-enable")).to_have_attribute("aria-checked", "false")
    expect(page.get_by_test_id("share-address")).to_have_count(0)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert ok(page, f"/api/dyreport/api/link/currentGenerator/{panel_id}", {})["id"] is None
    page.get_by_test_id("designer-share").click()
    expect(dialog).to_be_visible()
    page.get_by_test_id("share-enable").click()
    expect(page.get_by_test_id("share-enable")).to_have_attribute("aria-checked", "true")
    page.get_by_test_id("share-pwd-enable").click()
    page.get_by_test_id("share-pwd").fill("12a4")
    page.get_by_test_id("share-pwd-save").click()
    expect(page.get_by_test_id("share-pwd-error")).to_have_text("The password is exactly four digits")
    page.get_by_test_id("share-pwd").fill(PASSWORD)
    page.get_by_test_id("share-pwd-save").click()
    expect(page.locator(".ant-message")).to_contain_text("Password saved")
    address = page.get_by_test_id("share-address").inner_text().strip()
    assert address.startswith(base + "/dynamic-report/link/")

    # a stranger opens the link in a fresh browser, enters the password, sees the data of this month
    stranger = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    stranger.add_cookies([{"name": "language", "value": "en-us", "url": base}])
    stranger.route(
        "**/*",
        lambda r: (
            r.fallback()
            if r.request.url.startswith(base)
            else r.fulfill(status=200, content_type="text/html", body="external page")
        ),
    )
    try:
        guest = stranger.new_page()
        answers: dict[str, dict[str, Any]] = {}
        requests: list[dict[str, Any]] = []

        def on_response(response):
            if "/chart/view/getData/" in response.url and response.status == 200:
                view_id = response.url.split("/getData/")[1].split("/")[0]
                body = response.request.post_data_json or {}
                requests.append({"view": view_id, "body": body.get("params", body)})
                answers[view_id] = response.json()["data"]["data"]

        guest.on("response", on_response)
        guest.goto(address)
        expect(guest.get_by_test_id("link-page")).to_have_attribute("data-state", "1", timeout=30000)
        guest.get_by_test_id("link-password-input").fill(PASSWORD)
        guest.get_by_test_id("link-password-submit").click()
        expect(guest.get_by_test_id("link-page")).to_have_attribute("data-state", "2", timeout=30000)
        states = wait_views_ready(guest, 3)
        assert all(s["state"] == "ready" for s in states), states

        month = MONTH_START.isoformat()
        expected_bar = dict(
            query(
                db,
                "select region, round(sum(amount), 2) from sales where order_date >= ? group by region",
                month,
            )
        )
        shown_bar = dict(
            zip(answers[bar]["x"], [p["value"] for p in answers[bar]["series"][0]["data"]], strict=True)
        )
        assert shown_bar == pytest.approx(expected_bar)
        expected_table = {
            (r, p): a
            for r, p, a in query(
                db,
                "select region, product, round(sum(amount), 2) from sales where order_date >= ? "
                "group by region, product",
                month,
            )
        }
        rows = table_rows(guest, table)
        assert {(r[0], r[1]): number(r[2]) for r in rows} == pytest.approx(expected_table)
        shot(guest, "designer-flow-link")

        # the select filter: East only, on every chart
        guest.get_by_test_id("select-widget").click()
        guest.get_by_test_id("select-popup").get_by_text("East", exact=True).click()
        guest.keyboard.press("Escape")
        expect(guest.locator(f"[data-testid=report-view][data-view-id='{table}'] tbody tr")).to_have_count(
            len(
                query(
                    db, "select distinct product from sales where region = 'East' and order_date >= ?", month
                )
            )
        )
        east = {(r[0], r[1]): number(r[2]) for r in table_rows(guest, table)}
        assert east == pytest.approx({k: v for k, v in expected_table.items() if k[0] == "East"})
        (east_total,) = query(
            db, "select round(sum(amount), 2) from sales where region = 'East' and order_date >= ?", month
        )[0]
        wait_views_ready(guest, 3)
        assert answers[bar]["series"][0]["data"][0]["value"] == pytest.approx(east_total)

        # a click on the bar: linkage filters the pie by the region, the jump opens the address with it
        n = len(requests)
        guest.locator(f"[data-testid=report-view][data-view-id='{bar}']").scroll_into_view_if_needed()
        guest.mouse.click(*chart_point(guest, bar, 0, 0))
        guest.get_by_test_id("click-menu").locator("[data-action=linkage]").click()
        for _ in range(100):
            linked = [r for r in requests[n:] if r["view"] == pie]
            if linked:
                break
            guest.wait_for_timeout(100)
        assert linked and [f["value"] for f in linked[-1]["body"]["linkageFilters"]] == [["East"]]
        guest.mouse.click(*chart_point(guest, bar, 0, 0))
        with stranger.expect_page() as popup:
            guest.get_by_test_id("click-menu").locator("[data-action=jump]").click()
        assert popup.value.url.startswith("https://example.com/sales?region=East")
    finally:
        stranger.close()
