"""Charts look finished: every chart kind of the demo galleries, in Chinese and English, on a desktop and a
phone, read back from the drawn chart itself (the node's `atriumChart`: the engine's own option and the box of
every text it drew). No label overlaps another or leaves its card, every number shown is formatted (separators
or units, the view's decimals, never a raw float), gauges and liquid show a real percentage of the view's
maximum, and the spec's constants are what the engines drew. Screenshots go to var/artifacts/screenshots/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import SCREENSHOTS, sign_in
from playwright.sync_api import Browser, Page, expect
from test_reports_support import (
    ANTV_GALLERY,
    ECHARTS_GALLERY,
    OVERVIEW,
    ok,
    open_panel,
    panel_ids,
    wait_views_ready,
)

pytestmark = pytest.mark.e2e

VIEWPORTS = {"desktop": {"width": 1440, "height": 900}, "phone": {"width": 390, "height": 844}}
LOCALES = {"zh-cn": "zh-CN", "en-us": "en-US"}
GALLERIES = {"echarts": (ECHARTS_GALLERY, 17), "antv": (ANTV_GALLERY, 16)}
# the gallery's gauges and liquid: profit (2 decimals) against a maximum of 20 million
TARGET = 20_000_000
DECIMAL_KINDS = {"gauge", "gauge-percentage", "liquid"}
SLACK = 1.0  # pixels: rounding of text boxes

READ_CHARTS = """async () => Promise.all(Array.from(document.querySelectorAll('[data-testid=report-view]'))
  .map(async v => {
    const c = v.querySelector('.rpt-chart');
    if (!c || !c.atriumChart) return {id: v.dataset.viewId, kind: v.dataset.kind, missing: true};
    const box = c.getBoundingClientRect();
    const card = v.getBoundingClientRect();
    const chart = c.atriumChart;
    const o = chart.option();
    const pick = s => ({type: s.type, barMaxWidth: s.barMaxWidth, barWidth: s.barWidth, max: s.max,
        lineWidth: s.lineStyle && s.lineStyle.width,
        symbolSizes: Array.isArray(s.data) ? s.data.map(d => d && typeof d === 'object' ? d.symbolSize : null)
            .filter(x => typeof x === 'number') : []});
    const option = chart.engine === 'echarts'
        ? {colors: (o.color || []).length, series: (o.series || []).map(pick)}
        : {colors: Array.isArray(o.color) ? o.color.length : null, maxColumnWidth: o.maxColumnWidth,
           maxBarWidth: o.maxBarWidth, lineWidth: o.lineStyle && o.lineStyle.lineWidth, radius: o.radius,
           percent: o.percent, max: o.max, wordStyle: o.wordStyle && {fontSize: o.wordStyle.fontSize,
           padding: o.wordStyle.padding}, size: o.size};
    return {id: v.dataset.viewId, kind: v.dataset.kind, engine: chart.engine, option,
            texts: await chart.texts(),
            width: box.width, height: box.height,
            inCard: box.left >= card.left - 1 && box.top >= card.top - 1 && box.right <= card.right + 1
                && box.bottom <= card.bottom + 1};
}))"""

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def unformatted(text: str, decimals: int = 2) -> list[str]:
    """The numbers of a drawn text that are not formatted: a run of five digits or more without separators,
    badly grouped thousands, or more decimals than the view asks for (a raw float such as 12345.678901)."""
    bad = []
    for token in NUMBER.findall(text):
        whole, _, frac = token.rpartition(".") if "." in token else (token, "", "")
        groups = whole.split(",")
        grouped = len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:])
        if (len(groups) == 1 and len(whole) > 4) or (len(groups) > 1 and not grouped) or len(frac) > decimals:
            bad.append(token)
    return bad


def overlaps(texts: list[dict[str, Any]]) -> list[tuple[str, str]]:
    out = []
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            w = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
            h = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
            if w > SLACK and h > SLACK:
                out.append((a["text"], b["text"]))
    return out


def outside(chart: dict[str, Any]) -> list[str]:
    return [
        t["text"]
        for t in chart["texts"]
        if t["x"] < -SLACK
        or t["y"] < -SLACK
        or t["x"] + t["width"] > chart["width"] + SLACK
        or t["y"] + t["height"] > chart["height"] + SLACK
    ]


def percent_of(texts: list[dict[str, Any]]) -> list[float]:
    return [
        float(m.group(1).replace(",", ""))
        for t in texts
        for m in re.finditer(r"(\d[\d,]*(?:\.\d+)?)\s*%", t["text"])
    ]


@pytest.fixture(scope="module")
def signed_in(browser: Browser, live_server) -> Iterator[dict[str, Any]]:
    """The signed-in profile's storage, shared by the contexts of every locale and width."""
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"], locale="en-US")
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": live_server.url}])
    p = ctx.new_page()
    sign_in(p, live_server.url)
    ids = panel_ids(p)
    links = {}
    for name in (ECHARTS_GALLERY, ANTV_GALLERY):
        link = ok(p, f"/api/dyreport/api/link/enable/{ids[name]}", {})
        body = {"id": link["id"], "valid": True, "enablePwd": False, "clearOverTime": True, "unlock": True}
        links[ids[name]] = ok(p, "/api/dyreport/api/link/update", body)["id"]
    state = ctx.storage_state()
    ctx.close()
    yield {"state": state, "ids": ids, "links": links}


def gallery_page(browser: Browser, live_server, signed_in, locale: str, width: str) -> Page:
    ctx = browser.new_context(
        viewport=VIEWPORTS[width],
        locale=LOCALES[locale],
        storage_state=signed_in["state"],
        is_mobile=width == "phone",
        has_touch=width == "phone",
    )
    ctx.add_cookies([{"name": "language", "value": locale, "url": live_server.url}])
    base = live_server.url

    def route(r):
        url = r.request.url
        if url.startswith(base) or url.startswith(("data:", "blob:", "about:")):
            r.fallback()
        else:
            r.fulfill(status=200, content_type="text/html", body="<html></html>")

    ctx.route("**/*", route)
    page = ctx.new_page()
    page.set_default_timeout(30000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def open_gallery(page: Page, base: str, panel_id: str, width: str, links: dict[str, str]) -> None:
    """On a desktop the reports page (list and panel); on a phone the panel's shared link, as a link sent to a
    phone opens: the panel alone, one chart under another."""
    if width == "desktop":
        open_panel(page, base, panel_id)
        return
    page.goto(f"{base}/dynamic-report/link/{links[panel_id]}")
    expect(page.get_by_test_id("report-panel")).to_have_attribute("data-layout", "stacked", timeout=30000)


def screenshot(page: Page, name: str) -> None:
    """The whole panel: the window grows to the panel's height (its width, and so the layout, stays)."""
    height = page.evaluate(
        "() => { const p = document.querySelector('[data-testid=report-panel]');"
        " return Math.ceil(p.getBoundingClientRect().bottom + 40); }"
    )
    size = page.viewport_size or VIEWPORTS["desktop"]
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(int(height), 12000))})
    page.wait_for_timeout(600)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def read_charts(page: Page, count: int) -> list[dict[str, Any]]:
    wait_views_ready(page, count, timeout=90000)
    page.wait_for_timeout(800)  # the last redraw after the widgets' defaults and the echarts animations
    wait_views_ready(page, count, timeout=90000)
    charts: list[dict[str, Any]] = page.evaluate(READ_CHARTS)
    for _ in range(10):  # a view redrawn once more (new data) has its texts back a moment later
        if all(c.get("missing") or c["texts"] or c["kind"] == "map" for c in charts):
            break
        page.wait_for_timeout(500)
        wait_views_ready(page, count, timeout=90000)
        charts = page.evaluate(READ_CHARTS)
    return charts


@pytest.mark.parametrize("width", ["desktop", "phone"])
@pytest.mark.parametrize("locale", ["zh-cn", "en-us"])
@pytest.mark.parametrize("render", ["echarts", "antv"])
def test_every_chart_kind_looks_finished(
    browser: Browser, live_server: Any, signed_in: dict[str, Any], render: str, locale: str, width: str
) -> None:
    panel, count = GALLERIES[render]
    page = gallery_page(browser, live_server, signed_in, locale, width)
    try:
        open_gallery(page, live_server.url, signed_in["ids"][panel], width, signed_in["links"])
        charts = read_charts(page, count)
        screenshot(page, f"reports-charts-{render}-{locale}-{width}")
        assert not page.errors, page.errors
    finally:
        page.context.close()

    assert len(charts) == count and not [c for c in charts if c.get("missing")], charts
    problems: list[str] = []
    for chart in charts:
        kind = chart["kind"]
        texts = chart["texts"]
        where = f"{render} {kind} ({locale}, {width})"
        if not chart["inCard"]:
            problems.append(f"{where}: the chart leaves its card")
        if pair := overlaps(texts):
            problems.append(f"{where}: labels overlap: {pair}")
        if out := outside(chart):
            problems.append(f"{where}: labels leave the card: {out}")
        for t in texts:
            if bad := unformatted(t["text"]):
                problems.append(f"{where}: unformatted number {bad} in {t['text']!r}")
        if kind in DECIMAL_KINDS and not any(re.search(r"\d\.\d{2}(?!\d)", t["text"]) for t in texts):
            problems.append(f"{where}: the value is not shown with the view's 2 decimals: {texts}")
        if kind in ("gauge-percentage", "liquid"):
            shares = percent_of(texts)
            if not shares or any(s > 1000 for s in shares):
                problems.append(f"{where}: no real percentage of the maximum: {texts}")
        # the data labels and axes a chart must show: some text at all (hidden labels leave the rest)
        if kind not in ("map",) and not texts:
            problems.append(f"{where}: no text drawn")
    assert not problems, "\n".join(problems)

    # the spec's constants, as the engines drew them
    by_kind = {c["kind"]: c["option"] for c in charts}
    if render == "echarts":
        assert by_kind["bar"]["colors"] == 9
        assert by_kind["bar"]["series"][0]["barMaxWidth"] == 40
        assert by_kind["line"]["series"][0]["lineWidth"] == 2
        assert by_kind["gauge"]["series"][0]["max"] == TARGET
        assert by_kind["gauge-percentage"]["series"][0]["max"] == 100
        bubbles = [s for x in by_kind["scatter"]["series"] for s in x["symbolSizes"]]
        assert bubbles and min(bubbles) >= 5 and max(bubbles) <= (30 if width == "phone" else 80)
    else:
        assert by_kind["bar"]["colors"] == 9 or by_kind["bar"]["colors"] is None
        assert by_kind["bar"]["maxColumnWidth"] == 40
        assert by_kind["bar-horizontal"]["maxBarWidth"] == 40
        assert by_kind["line"]["lineWidth"] == 2
        assert by_kind["liquid"]["radius"] == 0.8
        assert 0 < by_kind["liquid"]["percent"] < 1
        assert by_kind["gauge"]["max"] == TARGET and 0 < by_kind["gauge"]["percent"] < 1
        assert by_kind["word-cloud"]["wordStyle"] == {"fontSize": [8, 32], "padding": 6}
        assert by_kind["scatter"]["size"] == [5, 30]


def test_the_overview_gauge_shows_its_value_against_its_maximum(
    browser: Browser, live_server: Any, signed_in: dict[str, Any]
) -> None:
    """The first report a user opens: its profit gauge measures against 20 million, its numbers formatted."""
    page = gallery_page(browser, live_server, signed_in, "zh-cn", "desktop")
    try:
        open_panel(page, live_server.url, signed_in["ids"][OVERVIEW])
        charts = read_charts(page, 10)
        screenshot(page, "reports-charts-overview-zh-cn-desktop")
    finally:
        page.context.close()
    gauge = next(c for c in charts if c["kind"] == "gauge")
    assert gauge["option"]["series"][0]["max"] == TARGET
    texts = [t["text"] for t in gauge["texts"]]
    assert "2000万" in texts, texts  # the maximum on the axis, in the locale's units
    for chart in charts:
        if chart.get("missing"):
            continue
        for t in chart["texts"]:
            assert not unformatted(t["text"]), (chart["kind"], t["text"])
        assert not overlaps(chart["texts"]), (chart["kind"], overlaps(chart["texts"]))
