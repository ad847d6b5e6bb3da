"""Report viewer: the size of the reports remote and its chart chunks; the time from opening a panel (a click
in the report list) until it is drawn in headless Chromium, beside the time of the same panel's data calls
alone: the demo panel with 12 views (every view drawn), and a panel of 50 views made for the bench (the data
of all 50 there and the views in the window drawn; the views below are drawn when scrolled to, without a new
data call).

    .venv/bin/python -m tests.bench.bench_report_viewer

Builds the reports remote (and the host) when missing; runs a demo server on a free port.
"""

from __future__ import annotations

import gzip
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.bench.report import report
from tests.bench.rounds import ROUNDS, Rounds, alternate, report_limit, report_rounds
from tests.bench.servers import ROOT, platform_server
from tests.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.reports.view_grid import publish_view_grid

DIST = ROOT / "web-plugins" / "reports" / "dist"
BASELINE_REMOTE = ROOT / "tests" / "e2e" / "fixture_remote" / "dist"
OVERVIEW = "销售总览"
LARGE_PANEL = "Bench: 50 views"
LARGE_VIEWS = 50
COLUMNS = 4
DESIGN_WIDTH = 1600
VIEW_HEIGHT = 300
OVERVIEW_BUDGET_S = 1.0
LARGE_BUDGET_S = 2.0
LARGE_BUDGET_RATIO = 3.0

# A view shows what it draws: a chart the engine finished drawing, a table, a text value or the no-data
# message.
DRAWN_JS = """v => {
    const chart = v.querySelector('.rpt-chart');
    if (chart) return chart.dataset.rendered === '1';
    return !!v.querySelector('.rpt-table, [data-testid=report-text-value], .rpt-empty');
}"""

# Every view's data answered (or its failure shown), and every view drawn.
ALL_DRAWN = f"""(n) => {{
    const drawn = {DRAWN_JS};
    const vs = Array.from(document.querySelectorAll('[data-testid=report-view]'));
    return vs.length >= n && vs.every(v => v.dataset.state === 'error'
        || (v.dataset.state === 'ready' && drawn(v)));
}}"""

# Every view's data answered (or its failure shown), and the views in the window drawn.
IN_VIEW_DRAWN = f"""(n) => {{
    const drawn = {DRAWN_JS};
    const inView = v => {{
        const r = v.getBoundingClientRect();
        return r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
    }};
    const vs = Array.from(document.querySelectorAll('[data-testid=report-view]'));
    return vs.length >= n && vs.every(v => v.dataset.state === 'error'
        || (v.dataset.state === 'ready' && (!inView(v) || drawn(v))));
}}"""

REPLAY_JS = """async ([t, calls]) => {
    const start = performance.now();
    await Promise.all(calls.map(([u, b]) => fetch(u, {method: 'POST', body: b,
        headers: {authorization: t, 'content-type': 'application/json'}}).then(r => r.json())));
    return (performance.now() - start) / 1000;
}"""


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


def api(page: Any, token: str, path: str, body: Any = None) -> Any:
    """The data of an API call made from the page as the signed-in user."""
    envelope = page.evaluate(
        """([t, p, b]) => fetch(p, {method: b === null ? 'GET' : 'POST',
            headers: {authorization: t, 'content-type': 'application/json'},
            body: b === null ? undefined : JSON.stringify(b)}).then(r => r.json())""",
        [token, "/api/dyreport" + path, body],
    )
    assert envelope["code"] == 800, envelope
    return envelope["data"]


def panel_id_of(page: Any, token: str, name: str) -> str:
    return next(p["id"] for p in api(page, token, "/panel/list") if p["name"] == name)


def make_large_panel(page: Any, token: str) -> str:
    """A published panel of LARGE_VIEWS views, copies of the demo overview's views in turn, COLUMNS a row."""
    overview = panel_id_of(page, token, OVERVIEW)
    sources = api(page, token, f"/chart/view/listByPanel/{overview}")
    return publish_view_grid(
        lambda path, body: api(page, token, path, body),
        LARGE_PANEL,
        sources,
        LARGE_VIEWS,
        columns=COLUMNS,
        design_width=DESIGN_WIDTH,
        view_height=VIEW_HEIGHT,
    )


class PanelOpener:
    """Opens a panel from the report list and waits until it is drawn; keeps the data calls of the last
    opening, to replay them alone."""

    def __init__(self, page: Any, base: str, token: str, panel_id: str, views: int, drawn_js: str) -> None:
        self.page, self.base, self.token = page, base, token
        self.panel_id, self.views, self.drawn_js = panel_id, views, drawn_js
        self.calls: list[tuple[str, str]] = []
        page.on("request", self.record)

    def record(self, request: Any) -> None:
        if "/chart/view/getData/" in request.url:
            self.calls.append((request.url, request.post_data or "{}"))

    def close(self) -> None:
        self.page.remove_listener("request", self.record)

    def open(self) -> float:
        """Seconds from the click in the report list until the panel is drawn."""
        self.page.goto(self.base + "/dynamic-report")
        link = self.page.locator(f"[data-panel-id='{self.panel_id}']")
        link.wait_for()
        self.page.wait_for_load_state("networkidle")
        self.calls.clear()
        start = time.perf_counter()
        link.click()
        self.page.wait_for_function(self.drawn_js, arg=self.views, timeout=120_000)
        return time.perf_counter() - start

    def drawn_count(self) -> int:
        return int(self.page.evaluate("() => document.querySelectorAll('[data-testid=report-view]').length"))

    def replay(self, calls: list[tuple[str, str]]) -> Callable[[], float]:
        """The given data calls alone, all at once from the report list with nothing else under way: seconds
        until every answer is read."""

        def once() -> float:
            self.page.goto(self.base + "/dynamic-report")
            self.page.locator(f"[data-panel-id='{self.panel_id}']").wait_for()
            self.page.wait_for_load_state("networkidle")
            return float(self.page.evaluate(REPLAY_JS, [self.token, calls]))

        return once


def measured(opener: PanelOpener) -> tuple[Rounds, list[float]]:
    """Alternating rounds of opening the panel and of its data calls alone (those of a warm-up opening), and
    the opening times themselves."""
    opener.open()  # warm-up: the browser cache holds the bundles, the server its answers
    calls = list(opener.calls)
    rounds = alternate(opener.open, opener.replay(calls))
    return rounds, rounds.values


def overview_figures(page: Any, base: str, token: str) -> None:
    opener = PanelOpener(page, base, token, panel_id_of(page, token, OVERVIEW), 10, ALL_DRAWN)
    rounds, samples = measured(opener)
    opener.open()
    drawn = opener.drawn_count()
    opener.close()
    report_rounds(
        f"demo panel clicked to all {drawn} views drawn (12 views, 2 in lazy tabs)",
        rounds,
        "s",
        baseline_name="the same data calls alone, in parallel",
    )
    report_limit("demo panel clicked to all views drawn", samples, OVERVIEW_BUDGET_S, "s", what="budget")


def scroll_through(page: Any) -> tuple[list[float], int, int]:
    """Scrolls each view below the window into view, top to bottom, right after the panel is drawn: the
    seconds until each is drawn, how many were drawn already, and the data calls made meanwhile."""
    fetched: list[str] = []

    def record(request: Any) -> None:
        if "/chart/view/getData/" in request.url:
            fetched.append(request.url)

    below = page.evaluate(
        """() => Array.from(document.querySelectorAll('[data-testid=report-view]'))
            .filter(v => v.getBoundingClientRect().top >= innerHeight).map(v => v.dataset.viewId)"""
    )
    page.on("request", record)
    waits: list[float] = []
    already = 0
    for view_id in below:
        selector = f"[data-testid=report-view][data-view-id='{view_id}']"
        already += bool(page.evaluate(f"v => ({DRAWN_JS})(v)", page.locator(selector).element_handle()))
        start = time.perf_counter()
        page.locator(selector).evaluate("v => v.scrollIntoView({block: 'center'})")
        page.wait_for_function(f"s => ({DRAWN_JS})(document.querySelector(s))", arg=selector, timeout=30_000)
        waits.append(time.perf_counter() - start)
    page.remove_listener("request", record)
    return waits, already, len(fetched)


def large_panel_figures(page: Any, base: str, token: str) -> None:
    panel_id = make_large_panel(page, token)
    opener = PanelOpener(page, base, token, panel_id, LARGE_VIEWS, IN_VIEW_DRAWN)
    rounds, samples = measured(opener)
    opener.close()
    report_rounds(
        f"{LARGE_VIEWS}-view panel clicked to every view's data there and the views in the window drawn",
        rounds,
        "s",
        LARGE_BUDGET_RATIO,
        baseline_name="the same data calls alone, in parallel",
    )
    report_limit(
        f"{LARGE_VIEWS}-view panel clicked to drawn in the window",
        samples,
        LARGE_BUDGET_S,
        "s",
        what="budget",
    )

    every = PanelOpener(page, base, token, panel_id, LARGE_VIEWS, ALL_DRAWN)
    all_drawn = [every.open() for _ in range(ROUNDS)]
    every.close()
    print(
        f"{LARGE_VIEWS}-view panel clicked to all {LARGE_VIEWS} views drawn (nobody scrolling): median "
        f"{statistics.median(all_drawn):.3f} s of {ROUNDS} ({', '.join(f'{s:.2f}' for s in all_drawn)})",
        flush=True,
    )

    medians: list[float] = []
    slowest = 0.0
    already = scrolls = 0
    calls: list[float] = []
    for _ in range(ROUNDS):
        opener = PanelOpener(page, base, token, panel_id, LARGE_VIEWS, IN_VIEW_DRAWN)
        opener.open()
        opener.close()
        waits, drawn_before, fetched = scroll_through(page)
        medians.append(statistics.median(waits))
        slowest = max(slowest, *waits)
        already += drawn_before
        scrolls += len(waits)
        calls.append(float(fetched))
    median = statistics.median(medians)
    print(
        f"{LARGE_VIEWS}-view panel, each view below the window scrolled to until drawn: "
        f"median {median:.3f} s "
        f"(per-round medians {', '.join(f'{m:.3f}' for m in medians)}; spread "
        f"±{max(abs(m - median) for m in medians):.3f} s; slowest {slowest:.3f} s; {scrolls} scrolls over "
        f"{ROUNDS} rounds, {already} of them drawn before the scroll)",
        flush=True,
    )
    report_limit(
        f"{LARGE_VIEWS}-view panel: data calls while scrolling through", calls, 0, "calls", what="none"
    )


def timings(base: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser, page, token = signed_in(p, base)
        overview_figures(page, base, token)
        large_panel_figures(page, base, token)
        browser.close()


def main() -> None:
    ensure_built()
    sizes()
    with platform_server() as server:
        timings(server.url)


if __name__ == "__main__":
    main()
