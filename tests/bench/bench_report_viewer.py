"""Report viewer: the size of the reports remote and its chart chunks, and the time from opening the demo
panel with 12 views (a click in the report list) to every view drawn in headless Chromium, beside the time
of the same panel's data calls alone.

    .venv/bin/python -m tests.bench.bench_report_viewer

Builds the reports remote (and the host) when missing; runs a demo server on a free port.
"""

from __future__ import annotations

import gzip
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from tests.bench.report import report
from tests.bench.servers import ROOT, platform_server
from tests.chromium import CHROMIUM, CHROMIUM_ARGS

DIST = ROOT / "web-plugins" / "reports" / "dist"
BASELINE_REMOTE = ROOT / "tests" / "e2e" / "fixture_remote" / "dist"
OVERVIEW = "销售总览"
ROUNDS = 3


def gz(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), 9))


def ensure_built() -> None:
    if not (ROOT / "web-host" / "dist" / "index.html").exists():
        subprocess.run(["npm", "run", "build:host"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    if not (DIST / "remoteEntry.js").exists():
        subprocess.run(
            ["npm", "run", "build", "--workspace", "web-plugins/reports"],
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    if not (BASELINE_REMOTE / "remoteEntry.js").exists():
        subprocess.run(
            [
                "npx",
                "webpack",
                "--config",
                str(BASELINE_REMOTE.parent / "webpack.config.cjs"),
                "--mode",
                "production",
            ],
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )


def classify() -> dict[str, list[Path]]:
    """The remote's files: its own code, the echarts chunk, the g2plot chunk, the map."""
    out: dict[str, list[Path]] = {"own": [], "echarts": [], "g2plot": [], "map": []}
    for f in sorted(DIST.glob("*.js")):
        text = f.read_text(errors="ignore")
        if f.name.startswith("map-"):
            out["map"].append(f)
        elif "registerMap" in text and len(text) > 100_000:
            out["echarts"].append(f)
        elif ("G2Plot" in text or "WordCloud" in text) and len(text) > 100_000:
            out["g2plot"].append(f)
        else:
            out["own"].append(f)
    return out


def sizes() -> None:
    parts = classify()
    own = sum(gz(f) for f in parts["own"]) / 1024
    empty = sum(gz(f) for f in BASELINE_REMOTE.glob("*.js")) / 1024
    report(
        "reports remote without chart libraries, gzip",
        own,
        empty,
        "KB",
        "at most 50 KB beyond the chart libraries",
        baseline_name="empty remote from the same helper",
    )
    full_echarts = gz(ROOT / "node_modules" / "echarts" / "dist" / "echarts.min.js") / 1024
    report(
        "echarts chunk (the charts the viewer draws), gzip",
        sum(gz(f) for f in parts["echarts"]) / 1024,
        full_echarts,
        "KB",
        "downloaded only when a report opens",
        baseline_name="echarts.min.js whole",
    )
    g2 = ROOT / "node_modules" / "@antv" / "g2plot" / "dist" / "g2plot.min.js"
    report(
        "g2plot chunk, gzip",
        sum(gz(f) for f in parts["g2plot"]) / 1024,
        gz(g2) / 1024 if g2.exists() else 0,
        "KB",
        "downloaded only when an antv view opens",
        baseline_name="g2plot.min.js whole",
    )
    report(
        "map chunk (China provinces), gzip",
        sum(gz(f) for f in parts["map"]) / 1024,
        full_echarts,
        "KB",
        "downloaded only with a map view",
        baseline_name="echarts.min.js whole",
    )


def signed_in(p: Any, base: str) -> tuple[Any, Any, str]:
    """A Chromium page signed in as the demo's administrator: (browser, page, access token)."""
    browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": base}])
    page = ctx.new_page()
    page.goto(base + "/login")
    page.locator("#account").fill("admin")
    page.locator("#password").fill("Admin@123")
    page.locator("#agree").check()
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/home")
    token = next(c["value"] for c in ctx.cookies() if c["name"] == "Atrium-Token")
    return browser, page, token


def panel_open_times(
    page: Any, base: str, token: str, panel_id: str, min_views: int
) -> tuple[float, float, int]:
    """Medians over ROUNDS of: clicking the panel in the report list until every view is drawn, and the same
    panel's data calls replayed alone, in parallel; and how many views were drawn."""
    calls: list[tuple[str, str]] = []

    def record(request):
        if "/chart/view/getData/" in request.url:
            calls.append((request.url, request.post_data or "{}"))

    page.on("request", record)
    # drawn: every view shows its failure, or what it draws: a chart the engine finished drawing (views below
    # the fold included, drawn after the first paint), a table, a text value or the no-data message
    ready = """(n) => {
        const vs = Array.from(document.querySelectorAll('[data-testid=report-view]'));
        return vs.length >= n && vs.every(v => {
            if (v.dataset.state === 'error') return true;
            if (v.dataset.state !== 'ready') return false;
            const chart = v.querySelector('.rpt-chart');
            if (chart) return chart.dataset.rendered === '1';
            return !!v.querySelector('.rpt-table, [data-testid=report-text-value], .rpt-empty');
        });
    }"""

    def open_panel() -> float:
        page.goto(base + "/dynamic-report")
        link = page.locator(f"[data-panel-id='{panel_id}']")
        link.wait_for()
        page.wait_for_load_state("networkidle")
        calls.clear()
        start = time.perf_counter()
        link.click()
        page.wait_for_function(ready, arg=min_views, timeout=120_000)
        return time.perf_counter() - start

    open_panel()  # warm-up: the browser cache holds the bundles, the server its answers
    panel_times = []
    data_times = []
    drawn = 0
    for _ in range(ROUNDS):
        panel_times.append(open_panel())
        drawn = page.evaluate("() => document.querySelectorAll('[data-testid=report-view]').length")
        replay = list(calls)
        data_times.append(
            page.evaluate(
                """async ([t, calls]) => {
                    const start = performance.now();
                    await Promise.all(calls.map(([u, b]) => fetch(u, {method: 'POST', body: b,
                        headers: {authorization: t, 'content-type': 'application/json'}})
                        .then(r => r.json())));
                    return (performance.now() - start) / 1000;
                }""",
                [token, replay],
            )
        )
    page.remove_listener("request", record)
    return statistics.median(panel_times), statistics.median(data_times), drawn


def timings(base: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser, page, token = signed_in(p, base)
        panels = page.evaluate(
            "t => fetch('/api/dyreport/panel/list', {headers: {authorization: t}}).then(r => r.json())", token
        )["data"]
        panel_id = next(x["id"] for x in panels if x["name"] == OVERVIEW)
        panel, data, drawn = panel_open_times(page, base, token, panel_id, 10)
        browser.close()
    report(
        f"demo panel clicked to all {drawn} views drawn (12 views, 2 in lazy tabs), median of {ROUNDS}",
        panel,
        data,
        "s",
        "under 1 s",
        baseline_name="the same data calls alone, in parallel",
    )


def main() -> None:
    ensure_built()
    sizes()
    with platform_server() as server:
        timings(server.url)


if __name__ == "__main__":
    main()
