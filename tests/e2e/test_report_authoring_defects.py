"""Defects report authors met in the designer, the panel list and the data screens, in Chromium against the
real server: a new panel's true publishing state, the list after coming back from the designer, the
designer's tab title, the canvas zoom, the chart editor's title, identifier columns as dimensions, a filter's
title and its dropdown's Escape, and the platform database among the data sources."""

from __future__ import annotations

import re
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import pytest
from conftest import shot
from playwright.sync_api import Page, expect
from test_report_designer_data import create_source, pick
from test_report_designer_panel import add_from_palette, create_panel, drag_by
from test_reports_support import OVERVIEW, ok, open_panel, panel_ids

pytestmark = pytest.mark.e2e

PANEL_WIDTH = 1600
COLUMNS = 24


def tag() -> str:
    return uuid.uuid4().hex[:6]


def listed(page: Page, panel_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in ok(page, "/api/dyreport/panel/list") if p["id"] == panel_id)
    return found


def publish(page: Page) -> None:
    page.get_by_test_id("designer-publish").click()
    page.get_by_test_id("publish-confirm").click()
    expect(page.get_by_test_id("designer-status")).to_have_attribute("data-status", "published")


def test_a_new_panel_shows_that_it_was_never_published(admin_page: Page, live_server) -> None:
    """1. A panel just created is not published: the designer and the list say so until it is."""
    page, base = admin_page, live_server.url
    panel_id = create_panel(page, base, f"Never published {tag()}")
    status = page.get_by_test_id("designer-status")
    expect(status).to_have_attribute("data-status", "draft")
    expect(status).to_have_text("Never published")
    assert listed(page, panel_id)["live"] is False

    page.goto(base + "/dynamic-report")
    flag = page.get_by_test_id(f"panel-unpublished-{panel_id}")
    expect(flag).to_have_text("Draft")
    expect(flag).to_have_attribute("data-state", "draft")
    flag.hover()
    expect(page.get_by_role("tooltip")).to_contain_text("Never published")

    # published: the designer says so and the list flags nothing
    page.get_by_test_id(f"panel-design-{panel_id}").click()
    page.wait_for_url(f"**/dynamic-report/design/{panel_id}")
    expect(page.get_by_test_id("designer-status")).to_have_attribute("data-status", "draft")
    publish(page)
    expect(page.get_by_test_id("designer-status")).to_have_text(re.compile(r"^Published · v\d+$"))
    page.goto(base + "/dynamic-report")
    expect(page.locator(f"[data-testid=panel-list] [data-panel-id='{panel_id}']")).to_be_visible()
    expect(page.get_by_test_id(f"panel-unpublished-{panel_id}")).to_have_count(0)

    # a demo panel is live without a version: it is not called a draft
    overview = panel_ids(page)[OVERVIEW]
    assert listed(page, overview)["live"] is True
    expect(page.get_by_test_id(f"panel-unpublished-{overview}")).to_have_count(0)


def test_the_list_shows_a_new_panel_after_back(admin_page: Page, live_server) -> None:
    """2. Back from the designer of a panel just created: the list (kept alive in its tab) has it."""
    page, base = admin_page, live_server.url
    name = f"Back to list {tag()}"
    panel_id = create_panel(page, base, name)
    page.get_by_test_id("designer-back").click()
    page.wait_for_url(f"**/dynamic-report?panelId={panel_id}")
    entry = page.locator(f"[data-testid=panel-list] [data-panel-id='{panel_id}']")
    expect(entry).to_have_text(name)
    expect(page.get_by_test_id(f"panel-unpublished-{panel_id}")).to_have_text("Draft")

    # renamed and published in the designer's tab: the list's tab shows the new name when it is back
    page.get_by_test_id(f"panel-design-{panel_id}").click()
    page.wait_for_url(f"**/dynamic-report/design/{panel_id}")
    page.get_by_test_id("designer-name").fill(f"{name} renamed")
    publish(page)
    page.get_by_test_id("tab-/dynamic-report").click()
    page.wait_for_url(re.compile(r"/dynamic-report(\?|$)"))
    expect(entry).to_have_text(f"{name} renamed")
    expect(page.get_by_test_id(f"panel-unpublished-{panel_id}")).to_have_count(0)
    assert not page.page_errors


def test_the_designer_tab_is_titled_with_the_panel(admin_page: Page, live_server) -> None:
    """3. The designer's tab is "Edit: <name>", not the list's menu title; it follows a rename."""
    page, base = admin_page, live_server.url
    name = f"Tab title {tag()}"
    panel_id = create_panel(page, base, name)
    design_tab = page.get_by_test_id(f"tab-/dynamic-report/design/{panel_id}")
    list_tab = page.get_by_test_id("tab-/dynamic-report")
    expect(design_tab).to_have_text(f"Edit: {name}")
    expect(list_tab).to_have_text("Reports")
    page.get_by_test_id("designer-name").fill(f"{name} 2")
    expect(design_tab).to_have_text(f"Edit: {name} 2")
    # the list's tab keeps its menu's title when the designer is left open behind it
    list_tab.click()
    page.wait_for_url(re.compile(r"/dynamic-report(\?|$)"))
    expect(list_tab).to_have_text("Reports")
    expect(design_tab).to_have_text(f"Edit: {name} 2")


def canvas_width(page: Page) -> float:
    box = page.get_by_test_id("designer-canvas").bounding_box()
    assert box
    return float(box["width"])


def test_the_canvas_zooms(admin_page: Page, live_server) -> None:
    """4. The canvas fits the visible width by default; the zoom bar draws it at 100 % (the design's own
    pixels, scrolling sideways), in and out by steps, and back to the fitted width; the choice is kept."""
    page, base = admin_page, live_server.url
    create_panel(page, base, f"Zoom {tag()}")
    rect_id = add_from_palette(page, "rect")
    zoom = page.get_by_test_id("canvas-zoom")
    expect(zoom).to_have_attribute("data-zoom", "fit")
    fitted = canvas_width(page)
    assert fitted < PANEL_WIDTH
    expect(page.get_by_test_id("canvas-zoom-value")).to_have_text(f"{round(fitted / PANEL_WIDTH * 100)}%")

    page.get_by_test_id("canvas-zoom-100").click()
    expect(zoom).to_have_attribute("data-zoom", "1")
    expect(page.get_by_test_id("canvas-zoom-value")).to_have_text("100%")
    expect(page.get_by_test_id("designer-canvas")).to_have_attribute("data-scale", "1.0000")
    assert abs(canvas_width(page) - PANEL_WIDTH) <= 1
    # the grid animates sizes: wait for the rectangle's 8 columns to be 8/24 of the design width
    page.wait_for_function(
        """([id, want]) => {
            const r = document.querySelector(`[data-testid="canvas-item-${id}"]`).getBoundingClientRect();
            return Math.abs(r.width - want) <= 2;
        }""",
        arg=[rect_id, 8 * PANEL_WIDTH / COLUMNS],
    )
    scroller = page.get_by_test_id("designer-canvas-scroll")
    assert scroller.evaluate("e => e.scrollWidth > e.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    shot(page, "designer-zoom-100")

    # moving a component works at this zoom: six columns are six columns
    raw = page.get_by_test_id(f"canvas-item-{rect_id}").get_attribute("data-grid-cell") or ""
    x0 = int(raw.split(",")[0])
    drag_by(page, page.get_by_test_id(f"canvas-item-{rect_id}"), PANEL_WIDTH / COLUMNS * 6, 0)
    expect(page.get_by_test_id(f"canvas-item-{rect_id}")).to_have_attribute(
        "data-grid-cell", re.compile(rf"^{x0 + 6},")
    )

    page.get_by_test_id("canvas-zoom-in").click()
    expect(page.get_by_test_id("canvas-zoom-value")).to_have_text("110%")
    assert abs(canvas_width(page) - PANEL_WIDTH * 1.1) <= 1
    page.get_by_test_id("canvas-zoom-out").click()
    page.get_by_test_id("canvas-zoom-out").click()
    expect(page.get_by_test_id("canvas-zoom-value")).to_have_text("90%")
    assert abs(canvas_width(page) - PANEL_WIDTH * 0.9) <= 1

    # kept for the next visit
    page.reload()
    expect(page.get_by_test_id("canvas-zoom-value")).to_have_text("90%", timeout=30000)
    page.get_by_test_id("canvas-zoom-fit").click()
    expect(zoom).to_have_attribute("data-zoom", "fit")
    assert abs(canvas_width(page) - fitted) <= 2


def chart_of_panel(page: Page, title: str) -> str:
    """A new panel with one saved bar chart on it (through the API); its id."""
    dataset = next(d for d in ok(page, "/api/dyreport/dataset/list") if d["name"] == "销售明细")
    fields = {f["originName"]: f["id"] for f in dataset["fields"]}
    panel = ok(page, "/api/dyreport/panel/save", {"name": f"Chart editor {tag()}", "panelData": []})
    view = ok(
        page,
        "/api/dyreport/chart/view/save",
        {
            "panelId": panel["id"],
            "tableId": dataset["id"],
            "name": title,
            "title": title,
            "type": "bar",
            "render": "echarts",
            "xaxis": [{"id": fields["region"]}],
            "yaxis": [{"id": fields["amount"], "summary": "sum"}],
        },
    )
    component = {
        "id": f"c-{view['id'][:8]}",
        "type": "view",
        "component": "user-view",
        "propValue": {"viewId": view["id"]},
        "style": {"left": 0, "top": 0, "width": 800, "height": 300},
    }
    ok(page, "/api/dyreport/panel/saveDraft", {"id": panel["id"], "panelData": [component]})
    return str(panel["id"])


def test_the_chart_editor_names_a_saved_chart(admin_page: Page, live_server) -> None:
    """5. Editing a saved chart: the editor's header is "Edit chart: <its title>", and stays so while the
    editor closes after a save (it never says "New chart")."""
    page, base = admin_page, live_server.url
    title = f"Sales by region {tag()}"
    panel_id = chart_of_panel(page, title)
    page.goto(f"{base}/dynamic-report/design/{panel_id}")
    view_item = page.locator("[data-testid^=canvas-item-][data-type=view]").first
    expect(view_item).to_be_visible(timeout=30000)
    view_item.click(position={"x": 12, "y": 12})
    page.get_by_test_id("view-edit").click()
    header = page.get_by_test_id("view-editor-title")
    expect(header).to_have_text(f"Edit chart: {title}")
    page.evaluate(
        """() => {
            window.__editorTitles = [];
            const note = () => document.querySelectorAll('[data-testid=view-editor-title]')
                .forEach(e => window.__editorTitles.push(e.textContent));
            window.__editorTitleWatch = new MutationObserver(note);
            window.__editorTitleWatch.observe(document.body,
                {subtree: true, childList: true, characterData: true});
        }"""
    )
    page.get_by_test_id("view-save").click()
    expect(page.get_by_test_id("view-editor")).to_be_hidden()
    titles = page.evaluate("() => { window.__editorTitleWatch.disconnect(); return window.__editorTitles; }")
    assert "New chart" not in titles, titles

    # a new chart is still called one
    page.get_by_test_id("palette-view").click()
    expect(page.get_by_test_id("view-editor-title")).to_have_text("New chart")


def orders_database(folder: Path) -> Path:
    path = folder / "orders.db"
    with sqlite3.connect(path) as db:
        db.execute(
            "create table orders (id integer primary key, customer_id integer, amount real, region text)"
        )
        db.executemany(
            "insert into orders (customer_id, amount, region) values (?, ?, ?)",
            [(7, 120.5, "East"), (8, 80.0, "West")],
        )
    return path


def role_of(page: Page, column: str) -> str:
    """The role shown for a column of the new dataset (the last cell of its row)."""
    rows = page.get_by_test_id("draft-columns").locator(".ant-table-row")
    row = rows.filter(has=page.get_by_test_id(f"draft-check-{column}"))
    return row.locator("td").last.inner_text().strip()


def test_identifier_columns_are_dimensions_in_a_new_dataset(admin_page: Page, live_server, tmp_path) -> None:
    """6. A new dataset over a table: a numeric `id` and `customer_id` are dimensions, amounts measures."""
    page, base = admin_page, live_server.url
    source = f"Ids {tag()}"
    create_source(page, base, source, orders_database(tmp_path))
    page.goto(base + "/dynamic-report/dataset")
    page.get_by_test_id("dataset-new").click()
    pick(page, "dataset-source", source)
    page.get_by_test_id("dataset-table").click()
    open_list = ".ant-select-dropdown:not(.ant-select-dropdown-hidden)"
    page.locator(f"{open_list} .ant-select-item-option[title=orders]").click()
    expect(page.get_by_test_id("draft-columns").locator(".ant-table-row")).to_have_count(4)
    assert role_of(page, "id") == "Dimension"
    assert role_of(page, "customer_id") == "Dimension"
    assert role_of(page, "amount") == "Measure"
    assert role_of(page, "region") == "Dimension"


def test_a_filter_title_shows_and_its_dropdown_closes_on_escape(admin_page: Page, live_server) -> None:
    """7. A select filter on the canvas shows its title whole, clear of the selection toolbar; the filter's
    dropdown closes on Escape in the viewer and in the designer's preview (which stays open)."""
    page, base = admin_page, live_server.url
    create_panel(page, base, f"Filter {tag()}")
    add_from_palette(page, "rect")  # something above it: the toolbar of the filter sits over that
    select_id = add_from_palette(page, "select")
    item = page.get_by_test_id(f"canvas-item-{select_id}")
    expect(item).to_have_class(re.compile(r"\bdsg-selected\b"))
    title = item.locator(".rpt-widget-title")
    expect(title).to_have_text(re.compile(r"\S"))
    bar = item.locator(".dsg-item-bar")
    expect(bar).to_be_visible()
    shot(page, "designer-filter-selected")
    t, i, b = title.bounding_box(), item.bounding_box(), bar.bounding_box()
    assert t and i and b
    assert t["y"] >= i["y"] - 0.5 and t["y"] + t["height"] <= i["y"] + i["height"] + 0.5, (t, i)
    overlap_x = min(t["x"] + t["width"], b["x"] + b["width"]) - max(t["x"], b["x"])
    overlap_y = min(t["y"] + t["height"], b["y"] + b["height"]) - max(t["y"], b["y"])
    assert overlap_x <= 0 or overlap_y <= 0, (t, b)

    # the designer's preview: Escape closes the dropdown, not the preview
    page.get_by_test_id("designer-preview").click()
    preview = page.locator(".ant-modal").get_by_test_id("report-panel")
    expect(preview).to_be_visible()
    popup = page.get_by_test_id("select-popup")
    preview.get_by_test_id("select-widget").click()
    expect(popup).to_be_visible()
    page.keyboard.press("Escape")
    expect(popup).to_be_hidden()
    expect(preview).to_be_visible()
    page.keyboard.press("Escape")
    expect(preview).to_be_hidden()

    # the viewer
    open_panel(page, base, panel_ids(page)[OVERVIEW])
    page.get_by_test_id("select-widget").click()
    expect(popup).to_be_visible()
    page.keyboard.press("Escape")
    expect(popup).to_be_hidden()
    page.get_by_test_id("select-widget").click()
    expect(popup).to_be_visible()
    page.keyboard.press("Escape")
    expect(popup).to_be_hidden()
    # the date filter's calendar too
    page.get_by_test_id("date-widget").first.click()
    calendar = page.locator(".ant-picker-dropdown:not(.ant-picker-dropdown-hidden)")
    expect(calendar).to_be_visible()
    page.keyboard.press("Escape")
    expect(calendar).to_be_hidden()


def test_the_platform_database_is_a_builtin_source(admin_page: Page, live_server) -> None:
    """8. The data sources list the platform's own database (which serves the demo's datasets) first, as a
    built-in source that cannot be edited or deleted."""
    page, base = admin_page, live_server.url
    page.goto(base + "/dynamic-report/datasource")
    page.get_by_test_id("datasource-page").wait_for()
    first = page.locator(".ant-table-row").first
    expect(first.get_by_test_id("source-builtin")).to_have_text("Platform database")
    expect(first).to_contain_text("Built-in")
    expect(first.get_by_test_id("source-builtin-readonly")).to_have_text("Read-only")
    expect(first.get_by_role("button")).to_have_count(0)
    expect(page.get_by_text("No data sources yet")).to_have_count(0)
    # the demo's datasets read it: their source is the same name
    page.get_by_test_id("source-search").locator("input").fill("platform")
    expect(page.locator(".ant-table-row")).to_have_count(1)
    shot(page, "datasource-builtin")
    page.goto(base + "/dynamic-report/dataset")
    page.get_by_test_id("dataset-item-销售明细").click()
    expect(page.get_by_test_id("dataset-editor")).to_contain_text("Platform database")
