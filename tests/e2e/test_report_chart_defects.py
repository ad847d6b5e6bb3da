"""Defects users met in how report charts and the viewed panel are drawn, each read back in Chromium from the
demo panels: scatter bubbles clear of the axes and one number format per value axis, one number of decimals
per table column, value-axis ticks kept apart on small cards, pie labels kept apart, the view header's icon
buttons (labelled, with tooltips, in five languages), the dashboard's title on the shared page, and no console
warnings from AntV charts."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import sign_in, strict_i18n
from playwright.sync_api import Browser, Page, expect
from test_reports_support import (
    ANTV_GALLERY,
    ECHARTS_GALLERY,
    OVERVIEW,
    PROVINCE_DETAIL,
    TABLES,
    ok,
    open_panel,
    panel_ids,
    view,
    wait_views_ready,
)

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ("zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu")
INTL = {"zh-cn": "zh-CN", "en-us": "en-US"}
VIEWPORT = {"width": 1440, "height": 900}
SLACK = 1.0  # pixels: the bubbles' outline, rounding
TICK_GAP = 24  # the least room between two labels of an upright value axis
ACROSS_GAP = 40  # ... of a value axis drawn across (its labels are wider than tall)
LABEL_GAP = 4  # the least room between two pie labels
# the kinds whose value axis has labels, by engine (AntV's radar, pie and others have none)
AXIS_KINDS = {
    "echarts": {"bar", "bar-stack", "bar-horizontal", "bar-contrast", "bar-stack-horizontal", "line"}
    | {"line-stack", "scatter", "chart-mix"},
    "antv": {"bar", "bar-stack", "bar-horizontal", "bar-stack-horizontal", "line", "line-stack"}
    | {"scatter", "waterfall"},
}

# Every chart of the page as drawn: its value axes (ticks' pixels and the labels written at them), the plot,
# where its x axis line is drawn, its bubbles (centre and radius) and its two-line labels (pies).
READ_CHARTS = """async () => Promise.all(Array.from(document.querySelectorAll('[data-testid=report-view]'))
  .map(async v => {
    const node = v.querySelector('.rpt-chart');
    const out = {id: v.dataset.viewId, kind: v.dataset.kind, engine: node && node.dataset.engine,
                 title: (v.querySelector('.rpt-view-title') || {}).textContent,
                 axes: [], bubbles: [], labels: []};
    if (!node) return out;
    if (node.__chart) {
        const c = node.__chart, m = c.getModel(), o = c.getOption();
        for (const dim of ['xAxis', 'yAxis']) (o[dim] || []).forEach((ao, i) => {
            const am = m.getComponent(dim, i);
            if (!am || !am.axis || am.axis.scale.type !== 'interval') return;
            if (ao.show === false || (ao.axisLabel && ao.axisLabel.show === false)) return;
            const f = ao.axisLabel && ao.axisLabel.formatter;
            out.axes.push({vertical: !am.axis.isHorizontal(),
                coords: am.axis.getTicksCoords().map(t => t.coord),
                labels: am.axis.scale.getTicks()
                    .map(t => typeof f === 'function' ? f(t.value, 0) : String(t.value))});
        });
        const grid = m.getComponent('grid', 0);
        if (grid && grid.coordinateSystem) {
            const r = grid.coordinateSystem.getRect();
            const xa = m.getComponent('xAxis', 0), ya = m.getComponent('yAxis', 0);
            const [lo, hi] = ya.axis.scale.getExtent();
            const onZero = xa.get(['axisLine', 'onZero']) !== false && lo < 0 && hi > 0;
            out.plot = {x: r.x, y: r.y, width: r.width, height: r.height};
            out.bottomLine = onZero ? c.convertToPixel({yAxisIndex: 0}, 0)
                : r.y + r.height + (xa.get('offset') || 0);
        }
        m.eachSeries(s => {
            if (s.subType !== 'scatter') return;
            const d = s.getData();
            for (let i = 0; i < d.count(); i++) {
                const p = d.getItemLayout(i), size = d.getItemVisual(i, 'symbolSize');
                const r = (Array.isArray(size) ? size[1] : size) / 2;
                if (p && Number.isFinite(p[1])) out.bubbles.push({x: p[0], y: p[1], r});
            }
        });
    } else if (node.__plot) {
        const p = node.__plot, ch = p.chart, coord = ch.getCoordinate(), b = ch.coordinateBBox;
        const across = coord.isTransposed;
        const conf = across ? p.options.xAxis : p.options.yAxis;
        if (conf && conf.label !== null) for (const s of ch.getYScales()) {
            if (!s || !s.isLinear) continue;
            const f = conf.label && conf.label.formatter;
            const ticks = s.getTicks();
            const at = t => { const pt = coord.convert({x: 0, y: t.value}); return across ? pt.x : pt.y; };
            out.axes.push({vertical: !across, labels: ticks.map(t => f ? f(t.text, t, 0) : t.text),
                coords: ticks.map(at)});
        }
        out.plot = {x: b.minX, y: b.minY, width: b.width, height: b.height};
        out.bottomLine = b.maxY;
        for (const g of ch.geometries) {
            if (g.type !== 'point') continue;
            for (const e of g.elements) {
                const bb = e.shape.getCanvasBBox();
                out.bubbles.push({x: (bb.minX + bb.maxX) / 2, y: (bb.minY + bb.maxY) / 2, r: bb.width / 2});
            }
        }
    }
    if (node.atriumChart) {
        out.labels = (await node.atriumChart.texts()).filter(t => t.text.includes('\\n'));
    }
    return out;
}))"""


@pytest.fixture(scope="module")
def signed_in(browser: Browser, live_server) -> dict[str, Any]:
    """The administrator's signed-in storage and the demo panels' ids."""
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-US")
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": live_server.url}])
    p = ctx.new_page()
    sign_in(p, live_server.url)
    ids = panel_ids(p)
    state = ctx.storage_state()
    ctx.close()
    return {"state": state, "ids": ids}


@pytest.fixture
def pages(browser: Browser, live_server, signed_in) -> Iterator[Callable[..., Page]]:
    """Opens pages in the given language (signed in, or not), each in a profile of its own; any address
    outside the test server is answered locally. Each page records its console warnings (`page.warnings`);
    none may raise an error or draw a translation key that no bundle has."""
    opened: list[tuple[Any, Page, list[str]]] = []

    def make(locale: str = "en-us", *, signed: bool = True) -> Page:
        ctx = browser.new_context(
            viewport=VIEWPORT,
            locale=INTL.get(locale, "en-US"),
            storage_state=signed_in["state"] if signed else None,
        )
        ctx.add_cookies([{"name": "language", "value": locale, "url": live_server.url}])
        missing = strict_i18n(ctx)

        def outside(route):
            url = route.request.url
            if url.startswith(live_server.url) or url.startswith(("data:", "blob:", "about:")):
                route.fallback()
            else:
                route.fulfill(status=200, content_type="text/html", body="<html></html>")

        ctx.route("**/*", outside)
        page = ctx.new_page()
        page.set_default_timeout(30000)
        page.warnings = []
        page.errors = []
        page.on("console", lambda m: m.type == "warning" and page.warnings.append(m.text))
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        opened.append((ctx, page, missing))
        return page

    yield make
    for ctx, page, missing in opened:
        errors = list(page.errors)
        ctx.close()
        assert not errors, errors
        assert not missing, f"texts drawn from translation keys that no bundle has: {sorted(set(missing))}"


def charts_of(page: Page, count: int | None = None) -> list[dict[str, Any]]:
    """The page's charts once every view drew (and redrew for the widgets' defaults and its size)."""
    wait_views_ready(page, count, timeout=90000)
    page.wait_for_timeout(1000)
    wait_views_ready(page, count, timeout=90000)
    return page.evaluate(READ_CHARTS)


def open_charts(page: Page, base: str, panel_id: str, count: int | None = None) -> list[dict[str, Any]]:
    open_panel(page, base, panel_id)
    return charts_of(page, count)


# ---------------------------------------------------------------------------------------------------------
# 1. scatter: bubbles clear of the axes; one number format per value axis
# ---------------------------------------------------------------------------------------------------------

NUMBER = re.compile(r"^([-\u2212]?)([\d.,\s\u00a0\u202f]*\d)(.*)$")


def format_problems(labels: list[str]) -> list[str]:
    """What mixes formats on one axis: ticks with a unit beside ticks without (1.5万 and 9,000), different
    units, or numbers in full written with and without separators."""
    shown = [x.strip() for x in labels if x and x.strip()]
    units = set()
    for text in shown:
        m = NUMBER.match(text)
        if not m:
            return [f"not a number: {text!r}"]
        if re.fullmatch(r"0+(?:[.,]0+)?", m.group(2)):
            continue  # 0 is written alone
        units.add(m.group(3).strip())
    if len(units) > 1:
        return [f"ticks in different formats: {shown}"]
    if units == {""} and any(re.search(r"\d{4}", NUMBER.match(t).group(2)) for t in shown):
        return [f"numbers in full without separators: {shown}"]
    return []


def bubble_problems(chart: dict[str, Any]) -> list[str]:
    """Bubbles that cross the x axis line (drawn under the plot), the y axis at the plot's left, or leave the
    plot at the top or right."""
    plot, bottom = chart["plot"], chart["bottomLine"]
    bad = []
    for b in chart["bubbles"]:
        x, y, r = b["x"], b["y"], b["r"]
        if y + r > bottom + SLACK or x - r < plot["x"] - SLACK:
            bad.append(f"({x:.0f}, {y:.0f}) r={r:.1f} crosses an axis line")
        elif y - r < plot["y"] - SLACK or x + r > plot["x"] + plot["width"] + SLACK:
            bad.append(f"({x:.0f}, {y:.0f}) r={r:.1f} leaves the plot")
    return bad


@pytest.mark.parametrize("locale", ["zh-cn", "en-us"])
def test_scatter_bubbles_keep_off_the_axes_and_axes_use_one_number_format(
    pages, live_server, signed_in, locale: str
) -> None:
    ids = signed_in["ids"]
    page = pages(locale)
    problems: list[str] = []
    scatters = 0
    for panel in (OVERVIEW, ECHARTS_GALLERY, ANTV_GALLERY):
        for chart in open_charts(page, live_server.url, ids[panel]):
            where = f"{panel} {chart['engine']} {chart['kind']} {chart['title']!r} ({locale})"
            if chart["kind"] == "scatter":
                scatters += 1
                assert chart["bubbles"], f"{where}: no bubbles drawn"
                problems += [f"{where}: bubble {b}" for b in bubble_problems(chart)]
            if chart["kind"] not in AXIS_KINDS.get(chart["engine"], set()):
                continue  # no value axis drawn (pies, radars, gauges, ...)
            for axis in chart["axes"]:
                problems += [f"{where}: {p}" for p in format_problems(axis["labels"])]
    assert scatters == 3, "the overview's and both galleries' scatters"
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------------------
# 2. tables: one number of decimals per column
# ---------------------------------------------------------------------------------------------------------

CELL_NUMBER = re.compile(r"^-?\d{1,3}(?:,\d{3})*(?:\.(\d+))?$")

READ_TABLES = """() => Array.from(document.querySelectorAll('[data-testid=report-view]')).map(v => ({
    title: (v.querySelector('.rpt-view-title') || {}).textContent,
    rows: Array.from(v.querySelectorAll('[data-testid=report-table] tbody tr'))
        .map(r => Array.from(r.querySelectorAll('td')).map(td => td.innerText.trim())),
    lines: Array.from(v.querySelectorAll('[data-testid=report-text-value] > div'))
        .map(d => [d.lastElementChild ? d.lastElementChild.innerText.trim() : '']),
}))"""


def decimals_by_column(rows: list[list[str]]) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for row in rows:
        for i, text in enumerate(row):
            m = CELL_NUMBER.match(text)
            if m and text:
                out.setdefault(i, set()).add(len(m.group(1) or ""))
    return out


def test_table_columns_show_one_number_of_decimals(pages, live_server, signed_in) -> None:
    ids = signed_in["ids"]
    page = pages("en-us")
    problems: list[str] = []
    checked = 0
    for panel in (TABLES, OVERVIEW):
        open_panel(page, live_server.url, ids[panel])
        wait_views_ready(page, timeout=60000)
        for v in page.evaluate(READ_TABLES):
            for name, rows in (("table", v["rows"]), ("label", v["lines"])):
                for column, decimals in decimals_by_column(rows).items():
                    checked += 1
                    if len(decimals) > 1:
                        cells = [r[column] for r in rows if column < len(r)][:8]
                        where = f"{panel} {v['title']} {name} column {column}"
                        problems.append(f"{where}: decimals {sorted(decimals)} in {cells}")
    assert checked >= 8, "the demo's tables and labels have numeric columns"
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------------------
# 3. small cards: value-axis labels kept apart
# ---------------------------------------------------------------------------------------------------------


def test_small_cards_keep_value_axis_labels_apart(pages, live_server, signed_in) -> None:
    """The galleries' cards are small (a plot some 40 to 100 pixels tall): a value axis has as many ticks as
    it has room for, at least TICK_GAP pixels apart upright and ACROSS_GAP pixels across."""
    ids = signed_in["ids"]
    page = pages("zh-cn")
    problems: list[str] = []
    for panel, engine in ((ECHARTS_GALLERY, "echarts"), (ANTV_GALLERY, "antv")):
        charts = open_charts(page, live_server.url, ids[panel])
        kinds = {c["kind"] for c in charts if c["axes"]}
        assert AXIS_KINDS[engine] <= kinds, (engine, AXIS_KINDS[engine] - kinds)
        for chart in charts:
            if chart["kind"] not in AXIS_KINDS[engine]:
                continue
            for axis in chart["axes"]:
                coords = sorted(axis["coords"])
                gaps = [b - a for a, b in zip(coords, coords[1:], strict=False)]
                least = TICK_GAP if axis["vertical"] else ACROSS_GAP
                if len(coords) < 2 or min(gaps) < least - 0.5:
                    problems.append(
                        f"{engine} {chart['kind']}: {len(coords)} ticks"
                        f" {[round(g, 1) for g in gaps]} px apart ({axis['labels']})"
                    )
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------------------
# 4. pies: labels kept apart
# ---------------------------------------------------------------------------------------------------------


def separation(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The room between two boxes (negative when they overlap)."""
    across = max(a["x"], b["x"]) - min(a["x"] + a["width"], b["x"] + b["width"])
    down = max(a["y"], b["y"]) - min(a["y"] + a["height"], b["y"] + b["height"])
    return max(across, down)


@pytest.mark.parametrize("locale", ["zh-cn", "en-us"])
def test_pie_labels_keep_apart(pages, live_server, signed_in, locale: str) -> None:
    ids = signed_in["ids"]
    page = pages(locale)
    problems: list[str] = []
    pies = 0
    for panel in (OVERVIEW, ECHARTS_GALLERY, ANTV_GALLERY, PROVINCE_DETAIL):
        for chart in open_charts(page, live_server.url, ids[panel]):
            if chart["kind"] not in ("pie", "pie-rose"):
                continue
            pies += 1
            labels = chart["labels"]
            if not labels:
                problems.append(f"{panel} {chart['engine']} {chart['kind']}: no label drawn")
            for i, a in enumerate(labels):
                for b in labels[i + 1 :]:
                    if separation(a, b) < LABEL_GAP:
                        problems.append(
                            f"{panel} {chart['engine']} {chart['kind']} ({locale}): {a['text']!r} and"
                            f" {b['text']!r} {separation(a, b):.1f} px apart"
                        )
    assert pies == 6
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------------------
# 5. the view header: icons with labels and tooltips
# ---------------------------------------------------------------------------------------------------------


def reports_web(locale: str) -> dict[str, Any]:
    return json.loads((ROOT / "i18n" / locale / "reportsWeb.json").read_text(encoding="utf-8"))


def test_header_texts_exist_in_every_language() -> None:
    for locale in LOCALES:
        texts = reports_web(locale)["view"]
        for key in ("details", "export", "detailsOf", "exportOf"):
            assert texts.get(key, "").strip(), (locale, key)
        assert "{{title}}" in texts["detailsOf"] and "{{title}}" in texts["exportOf"], locale


@pytest.mark.parametrize("locale", ["en-us", "zh-cn"])
def test_view_header_buttons_are_labelled_icons_with_tooltips(pages, live_server, signed_in, locale) -> None:
    texts = reports_web(locale)["view"]
    page = pages(locale)
    open_panel(page, live_server.url, signed_in["ids"][OVERVIEW])
    wait_views_ready(page, 10, timeout=60000)
    card = view(page, "品类销售额")
    for test_id, key in (("view-details", "details"), ("view-export", "export")):
        button = card.get_by_test_id(test_id)
        expect(button).to_have_attribute("aria-label", texts[f"{key}Of"].replace("{{title}}", "品类销售额"))
        # an icon, drawn: no bare character standing in for one
        assert button.inner_text().strip() == "", button.inner_text()
        icon = button.locator(".anticon svg path")
        expect(icon).to_have_count(1)
        box = button.locator(".anticon svg").bounding_box()
        assert box and 10 <= box["width"] <= 18 and 10 <= box["height"] <= 18, box
        assert button.locator(".anticon").get_attribute("aria-hidden") == "true"
        button.hover()
        expect(page.locator(".ant-tooltip:not(.ant-tooltip-hidden)").last).to_have_text(texts[key])
        page.mouse.move(0, 0)
        expect(page.locator(".ant-tooltip:not(.ant-tooltip-hidden)")).to_have_count(0)
    # the button still does its work
    card.get_by_test_id("view-details").click()
    expect(page.get_by_test_id("details-dialog")).to_be_visible()


# ---------------------------------------------------------------------------------------------------------
# 6. the shared page: the dashboard's title
# ---------------------------------------------------------------------------------------------------------


def test_shared_page_shows_the_dashboard_title(pages, live_server, signed_in) -> None:
    owner = pages("en-us")
    owner.goto(live_server.url + "/home")
    pid = signed_in["ids"][PROVINCE_DETAIL]
    link = ok(owner, f"/api/dyreport/api/link/enable/{pid}", {})
    body = {"id": link["id"], "valid": True, "enablePwd": False, "clearOverTime": True, "unlock": True}
    link_id = ok(owner, "/api/dyreport/api/link/update", body)["id"]

    guest = pages("en-us", signed=False)
    guest.goto(f"{live_server.url}/dynamic-report/link/{link_id}")
    expect(guest.get_by_test_id("link-page")).to_have_attribute("data-state", "2", timeout=30000)
    title = guest.get_by_test_id("link-title")
    expect(title).to_have_text(PROVINCE_DETAIL)
    expect(title).to_be_visible()
    panel = guest.get_by_test_id("report-panel")
    expect(panel).to_be_visible()
    t, p = title.bounding_box(), panel.bounding_box()
    assert t and p and t["y"] + t["height"] <= p["y"] + 1, (t, p)  # above the dashboard, not over it
    wait_views_ready(guest, 3, timeout=60000)


# ---------------------------------------------------------------------------------------------------------
# 7. AntV: no console warnings
# ---------------------------------------------------------------------------------------------------------


def test_antv_charts_log_no_console_warnings(pages, live_server, signed_in) -> None:
    """g-canvas copied the paged legends' arrow direction (up, down) onto the canvas context, which Chromium
    answered with "not a valid enum value of type CanvasDirection" at every draw."""
    page = pages("en-us")
    open_charts(page, live_server.url, signed_in["ids"][ANTV_GALLERY], 16)
    # redraws: a narrower window, then the first again
    page.set_viewport_size({"width": 1100, "height": 900})
    page.wait_for_timeout(800)
    page.set_viewport_size(VIEWPORT)
    charts_of(page, 16)
    page.mouse.move(700, 300)
    page.wait_for_timeout(300)
    assert not page.warnings, page.warnings
