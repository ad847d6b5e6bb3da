"""Helpers of the report viewer's browser tests (no tests here): demo panels by name, API calls with the
signed-in token, view state read from the page."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

OVERVIEW = "销售总览"
ECHARTS_GALLERY = "ECharts 图表一览"
ANTV_GALLERY = "AntV 图表一览"
TABLES = "表格与文本"
PROVINCE_DETAIL = "省份明细"
PANELS = (OVERVIEW, ECHARTS_GALLERY, ANTV_GALLERY, TABLES, PROVINCE_DETAIL)
TOKEN_COOKIE = "Atrium-Token"


def token(page: Page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == TOKEN_COOKIE)


def call(page: Page, path: str, body: Any = None, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """The envelope of an API call made from the page with the signed-in token (or none)."""
    auth = next((c["value"] for c in page.context.cookies() if c["name"] == TOKEN_COOKIE), "")
    return page.evaluate(
        """([t, p, b, h]) => fetch(p, {method: b === null ? 'GET' : 'POST',
            headers: Object.assign(t ? {authorization: t} : {},
                {'content-type': 'application/json'}, h || {}),
            body: b === null ? undefined : JSON.stringify(b)}).then(r => r.json())""",
        [auth, path, body, headers or {}],
    )


def ok(page: Page, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    env = call(page, path, body, headers)
    assert env["code"] == 800, env
    return env["data"]


def panel_ids(page: Page) -> dict[str, str]:
    return {p["name"]: p["id"] for p in ok(page, "/api/dyreport/panel/list")}


def view_states(page: Page) -> list[dict[str, Any]]:
    """Every view on the page: kind, render, state, series count drawn, whether drawn, error text."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('[data-testid=report-view]')).map(v => {
            const c = v.querySelector('.rpt-chart');
            const err = v.querySelector('[data-testid=view-error]');
            return {id: v.dataset.viewId, kind: v.dataset.kind, render: v.dataset.render,
                    state: v.dataset.state,
                    series: c ? Number(c.dataset.series) : null,
                    rendered: c ? c.dataset.rendered === '1' : null,
                    error: err ? err.textContent : null,
                    title: (v.querySelector('.rpt-view-title') || {}).textContent};
        })"""
    )


def painted(page: Page, view_id: str) -> bool:
    """Whether the view's chart drew something: a canvas with coloured pixels, or an svg with shapes."""
    return page.evaluate(
        """id => {
            const v = document.querySelector(`[data-testid=report-view][data-view-id="${id}"]`);
            if (!v) return false;
            const svg = v.querySelector('.rpt-chart svg');
            if (svg && svg.querySelectorAll('path,rect,circle,text').length > 0) return true;
            for (const c of v.querySelectorAll('.rpt-chart canvas')) {
                if (!c.width || !c.height) continue;
                const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                for (let i = 3; i < d.length; i += 16) if (d[i] !== 0) return true;
            }
            return false;
        }""",
        view_id,
    )


def open_panel(page: Page, base: str, panel_id: str) -> None:
    page.goto(f"{base}/dynamic-report?panelId={panel_id}")
    expect(page.get_by_test_id("report-panel")).to_be_visible(timeout=30000)


def wait_views_ready(page: Page, count: int | None = None, timeout: int = 45000) -> list[dict[str, Any]]:
    """Waits until every view finished loading (and, for charts, drawing)."""
    page.wait_for_function(
        """n => {
            const vs = Array.from(document.querySelectorAll('[data-testid=report-view]'));
            if (n !== null && vs.length < n) return false;
            return vs.length > 0 && vs.every(v => {
                if (v.dataset.state === 'error') return true;
                if (v.dataset.state !== 'ready') return false;
                const c = v.querySelector('.rpt-chart');
                return !c || c.dataset.rendered === '1';
            });
        }""",
        arg=count,
        timeout=timeout,
    )
    return view_states(page)


def view(page: Page, title: str):
    return (
        page.locator("[data-testid=report-view]")
        .filter(has=page.locator(".rpt-view-title", has_text=title))
        .first
    )


def data_of(page: Page, view_id: str, panel_id: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    return ok(page, f"/api/dyreport/chart/view/getData/{view_id}/{panel_id}", body or {})


def clear_widgets(page: Page) -> None:
    """The overview's date widget defaults to this year; reset clears the widgets and applies."""
    page.get_by_test_id("button-reset").click()
