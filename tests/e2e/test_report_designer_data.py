"""The report designer's data screens in Chromium against the real server: a SQLite data source on a file
the test makes (tested, then saved), a table dataset with a calculated field and its preview rows, a SQL
dataset, and a refused calculated expression showing the server's message."""

from __future__ import annotations

import re
import sqlite3
import uuid
from pathlib import Path

import pytest
from conftest import shot, sign_in
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

ROWS = [
    ("East", "Tea", 1200.5, 3),
    ("West", "Coffee", 880.0, 2),
    ("East", "Coffee", 15230.25, 12),
    ("North", "Cocoa", 430.0, 1),
]


def make_database(folder: Path) -> Path:
    path = folder / "shop.db"
    with sqlite3.connect(path) as db:
        db.execute(
            "create table orders"
            " (id integer primary key, region text, product text, amount real, qty integer)"
        )
        db.executemany("insert into orders (region, product, amount, qty) values (?, ?, ?, ?)", ROWS)
    return path


def pick(page: Page, select_testid: str, option: str) -> None:
    """Chooses an option of an antd Select by its text."""
    page.get_by_test_id(select_testid).click()
    page.locator(
        ".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option", has_text=option
    ).first.click()


def create_source(page: Page, base: str, name: str, path: Path) -> None:
    page.goto(base + "/dynamic-report/datasource")
    page.get_by_test_id("datasource-page").wait_for()
    page.get_by_test_id("source-new").click()
    page.get_by_test_id("source-name").fill(name)
    pick(page, "source-type", "SQLite")
    # the network settings give way to the file path
    expect(page.get_by_test_id("source-host")).to_have_count(0)
    page.get_by_test_id("source-path").fill(str(path))
    page.get_by_test_id("source-test").click()
    check = page.get_by_test_id("source-check")
    expect(check).to_contain_text("Connected")
    expect(check).to_contain_text("Tables found: 1")
    page.get_by_test_id("source-save").click()
    expect(page.locator(".ant-table-row", has_text=name)).to_be_visible()


def test_sqlite_source_table_dataset_calculated_field_and_sql_dataset(
    page: Page, live_server, tmp_path: Path
):
    base = live_server.url
    sign_in(page, base)
    tag = uuid.uuid4().hex[:6]
    source = f"Shop {tag}"
    create_source(page, base, source, make_database(tmp_path))

    # a port outside 1..65535 is refused before anything is sent
    page.get_by_test_id("source-new").click()
    page.get_by_test_id("source-port").fill("70000")
    page.get_by_test_id("source-save").click()
    expect(page.locator(".ant-form-item-explain-error", has_text="A port from 1 to 65535")).to_be_visible()
    page.keyboard.press("Escape")

    # a dataset over the table: columns to tick, the first rows before saving
    page.goto(base + "/dynamic-report/dataset")
    page.get_by_test_id("dataset-new").click()
    pick(page, "dataset-source", source)
    pick(page, "dataset-table", "orders")
    expect(page.get_by_test_id("draft-columns").locator(".ant-table-row")).to_have_count(5)
    draft = page.get_by_test_id("dataset-preview")
    expect(draft.locator(".ant-table-row")).to_have_count(len(ROWS))
    expect(draft).to_contain_text("15,230.25")
    page.get_by_test_id("draft-check-id").uncheck()
    expect(draft.locator("th", has_text="id")).to_have_count(0)
    table_dataset = f"Orders {tag}"
    page.get_by_test_id("dataset-name").fill(table_dataset)
    page.get_by_test_id("dataset-create").click()
    editor = page.get_by_test_id("dataset-editor")
    expect(page.get_by_test_id("dataset-title")).to_have_text(table_dataset)
    expect(page).to_have_url(re.compile(r"/dynamic-report/dataset\?id=\w+$"))
    expect(editor.get_by_test_id("dataset-preview").locator(".ant-table-row")).to_have_count(len(ROWS))
    shot(page, "designer-dataset-table")

    # a calculated field: added, listed, and its values in the preview
    page.get_by_test_id("tab-calc").click()
    page.get_by_test_id("calc-name").fill("Net")
    page.get_by_test_id("calc-expression").fill("amount - qty * 100")
    page.get_by_test_id("calc-save").click()
    calc = page.get_by_test_id("calc-fields")
    expect(calc.locator(".ant-table-row", has_text="amount - qty * 100")).to_be_visible()
    page.get_by_test_id("tab-preview").click()
    preview = editor.get_by_test_id("dataset-preview")
    expect(preview.locator("th", has_text="Net")).to_be_visible()
    expect(preview).to_contain_text("14,030.25")

    # a refused expression: the server's reason under the form, nothing added
    page.get_by_test_id("tab-calc").click()
    page.get_by_test_id("calc-name").fill("Bad")
    page.get_by_test_id("calc-expression").fill("sum(amount)")
    page.get_by_test_id("calc-save").click()
    error = page.get_by_test_id("calc-error")
    expect(error).to_be_visible()
    reason = error.locator(".ant-alert-description").inner_text().strip()
    assert reason and reason != "The expression was refused"
    expect(calc.locator(".ant-table-row")).to_have_count(1)
    shot(page, "designer-dataset-calc-refused")

    # a SQL dataset over the same source
    page.get_by_test_id("dataset-new").click()
    page.get_by_test_id("dataset-origin").get_by_text("SQL").click()
    pick(page, "dataset-source", source)
    page.get_by_test_id("dataset-sql").fill("SELECT region, SUM(amount) AS total FROM orders GROUP BY region")
    page.get_by_test_id("dataset-run-sql").click()
    sql_preview = page.get_by_test_id("dataset-preview")
    expect(sql_preview.locator(".ant-table-row")).to_have_count(3)
    expect(sql_preview).to_contain_text("16,430.75")
    sql_dataset = f"Totals {tag}"
    page.get_by_test_id("dataset-name").fill(sql_dataset)
    page.get_by_test_id("dataset-create").click()
    expect(page.get_by_test_id("dataset-title")).to_have_text(sql_dataset)
    expect(page.get_by_test_id("dataset-item-" + sql_dataset)).to_be_visible()
    expect(
        page.get_by_test_id("dataset-editor").get_by_test_id("dataset-preview").locator(".ant-table-row")
    ).to_have_count(3)

    # the source is in use: deleting it is refused with the server's message
    page.goto(base + "/dynamic-report/datasource")
    page.get_by_test_id(f"source-delete-{source}").click()
    page.locator(".ant-popconfirm").get_by_role("button", name="Delete").click()
    expect(page.locator(".ant-message, .ant-notification").first).to_be_visible()
    expect(page.locator(".ant-table-row", has_text=source)).to_be_visible()
    assert not page.page_errors


def drag(page: Page, source: str, target: str) -> None:
    """Drags with the mouse, in small steps (the editor starts a drag after a few pixels)."""
    a = page.get_by_test_id(source).bounding_box()
    b = page.get_by_test_id(target).bounding_box()
    assert a and b
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2 + 8, a["y"] + a["height"] / 2 + 4, steps=3)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=10)
    page.mouse.up()


def keyboard_drag(page: Page, source: str, target: str) -> None:
    """Picks the item up with Space, moves it with the arrow keys (25 px a press) onto the target, drops. The
    target is measured once the drag has started (the zones open up then), and the last presses go up or
    down until the target says the item is over it."""
    zone = page.get_by_test_id(target)
    a = page.get_by_test_id(source).bounding_box()
    page.get_by_test_id(source).focus()
    page.keyboard.press("Space")
    # the library takes arrow keys and measures the zones just after the pick-up; no person is faster
    page.wait_for_timeout(200)
    b = zone.bounding_box()
    assert a and b
    dx = (b["x"] + 20) - (a["x"] + 10)
    dy = (b["y"] + b["height"] / 2) - (a["y"] + a["height"] / 2)
    for _ in range(round(abs(dx) / 25)):
        page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    for _ in range(round(abs(dy) / 25)):
        page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
    for key in ["ArrowDown"] * 3 + ["ArrowUp"] * 6:
        if zone.get_attribute("data-over") == "true":
            break
        page.keyboard.press(key)
    expect(zone).to_have_attribute("data-over", "true")
    page.keyboard.press("Space")


def test_view_editor_from_the_designer(page: Page, live_server):
    from test_reports_support import ok, panel_ids

    base = live_server.url
    sign_in(page, base)
    panel = panel_ids(page)["表格与文本"]
    dataset = next(d for d in ok(page, "/api/dyreport/dataset/list") if d["name"] == "销售明细")
    names = {f["originName"]: f for f in dataset["fields"]}
    region, amount = names["region"], names["amount"]

    page.goto(f"{base}/dynamic-report/design/{panel}")
    page.get_by_test_id("palette-view").click()
    pick(page, "view-dataset", "销售明细")
    preview = page.get_by_test_id("view-preview")
    expect(page.get_by_test_id("field-count")).to_be_visible()

    with page.expect_response(lambda r: "/chart/view/calcData/" in r.url) as first:
        drag(page, f"field-{region['dataeaseName']}", "zone-xaxis")
        drag(page, f"field-{amount['dataeaseName']}", "zone-yaxis")
    assert first.value.json()["code"] == 800
    expect(page.get_by_test_id("zone-xaxis").get_by_test_id("chip-xaxis-0")).to_have_attribute(
        "data-field-id", region["id"]
    )
    expect(preview).to_have_attribute("data-state", "ready")
    expect(preview.locator(".rpt-chart")).to_be_visible()
    # the chart drawn (its library loads beside the data): the keyboard drag below measures the page first
    page.wait_for_function(
        "() => !!document.querySelector('[data-testid=view-preview] .rpt-chart')?.atriumChart", timeout=30_000
    )

    # the record count, dropped with the keyboard, counts
    keyboard_drag(page, "field-count", "zone-yaxis")
    expect(page.get_by_test_id("chip-yaxis-1")).to_have_attribute("data-field-id", "count")

    # a quota's menu: the average is asked of the server
    page.get_by_test_id("chip-yaxis-0").click()
    with page.expect_request(
        lambda r: "/chart/view/calcData/" in r.url and '"avg"' in (r.post_data or "")
    ) as again:
        pick(page, "chip-summary", "Average")
    body = again.value.post_data_json
    view = body.get("params", body)["view"]
    assert view["yaxis"][0] == {"id": amount["id"], "summary": "avg"}
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("chip-yaxis-0")).to_contain_text("Average")

    # another kind redraws the preview
    page.get_by_test_id("tab-view-kind").click()
    page.get_by_test_id("kind-pie").click()
    expect(preview).to_have_attribute("data-kind", "pie")
    expect(preview).to_have_attribute("data-state", "ready")

    # saved on the panel with the settings the viewer reads
    page.get_by_test_id("tab-view-style").click()
    page.get_by_test_id("view-title").fill("Average by region")
    page.get_by_test_id("view-save").click()
    expect(page.get_by_test_id("view-editor")).to_be_hidden()
    saved = next(
        v
        for v in ok(page, f"/api/dyreport/chart/view/listByPanel/{panel}")
        if v["title"] == "Average by region"
    )
    assert saved["type"] == "pie" and saved["render"] == "echarts" and saved["tableId"] == dataset["id"]
    assert [a["id"] for a in saved["xaxis"]] == [region["id"]]
    assert [(a["id"], a["summary"]) for a in saved["yaxis"]] == [(amount["id"], "avg"), ("count", "count")]
    shot(page, "designer-view-saved")
    assert not page.page_errors
