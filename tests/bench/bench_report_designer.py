"""Report designer: the view editor's live preview of a chart over a 1,000,000-row dataset (calcData on the
unsaved definition) beside getData on the same view saved, both uncached, turn about in the same run; and a
50-view panel opened in headless Chromium from a click in the report list until every view is drawn, beside
the same panel's data calls alone.

    .venv/bin/python -m tests.bench.bench_report_designer

PostgreSQL from ATRIUM_TEST_DATABASE_URL or postgresql://postgres@127.0.0.1:5432/test (its own schema,
dropped afterwards); the 50-view panel on a demo server (SQLite) on a free port.
"""

from __future__ import annotations

import secrets
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg

from tests.bench.bench_report_viewer import ensure_built, panel_open_times, signed_in
from tests.bench.bench_reports import PG_URL, ROWS, generate, load_postgres
from tests.bench.report import report
from tests.bench.servers import platform_server

PREVIEW_RUNS = 9
PANEL_VIEWS = 50
KINDS = ["bar", "line", "pie", "table-normal", "funnel"]


def preview_beside_get_data() -> None:
    from starlette.testclient import TestClient

    from atrium.kernel.config import Settings
    from atrium.sdk.testing import AtriumClient, build_app

    tmp = Path(tempfile.mkdtemp(prefix="bench-designer-"))
    schema = f"bench_dsg_{secrets.token_hex(4)}"
    generate(tmp).close()
    load_postgres(tmp / "sales.csv", schema)
    settings = Settings(var_dir=tmp / "var", demo=True, scheduler=False, secret_key=secrets.token_hex(24))
    try:
        with TestClient(build_app(settings), base_url="http://testserver") as http:
            admin = AtriumClient(http).signed_in("admin")
            panel = admin.ok("POST", "/api/dyreport/panel/save", json={"name": "bench", "panelData": []})
            source = admin.ok(
                "POST",
                "/api/dyreport/datasource/save",
                json={"name": "bench", "url": f"{PG_URL}?options=-csearch_path%3D{schema}"},
            )
            dataset = admin.ok(
                "POST",
                "/api/dyreport/dataset/save",
                json={"name": "sales", "datasourceId": source["id"], "tableName": "sales", "mode": "direct"},
            )
            f = {x["originName"]: x["id"] for x in dataset["fields"]}
            definition = {
                "panelId": panel["id"],
                "tableId": dataset["id"],
                "name": "preview",
                "type": "bar-stack",
                "render": "echarts",
                "xaxis": [{"id": f["region"]}],
                "xaxisExt": [{"id": f["channel"]}],
                "yaxis": [{"id": f["amount"], "summary": "sum"}],
            }
            saved = admin.ok("POST", "/api/dyreport/chart/view/save", json=definition)
            url = f"/api/dyreport/chart/view/getData/{saved['id']}/{panel['id']}"

            def preview() -> None:
                answer = admin.ok(
                    "POST",
                    f"/api/dyreport/chart/view/calcData/{saved['id']}",
                    json={"view": definition, "cache": False},
                )
                assert len(answer["data"]["x"]) == 5

            def get_data() -> None:
                assert len(admin.ok("POST", url, json={"cache": False})["data"]["x"]) == 5

            preview()
            get_data()
            previews, reads = [], []
            for _ in range(PREVIEW_RUNS):
                t0 = time.perf_counter()
                get_data()
                reads.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                preview()
                previews.append(time.perf_counter() - t0)
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
        shutil.rmtree(tmp, ignore_errors=True)
    report(
        f"designer preview (calcData, unsaved view) over {ROWS:,} rows on PostgreSQL, p50 of {PREVIEW_RUNS}",
        statistics.median(previews),
        statistics.median(reads),
        "s",
        "within 1.3x",
        baseline_name="getData on the saved view",
    )


def fifty_view_panel(base: str) -> str:
    """A panel of 50 views over the demo's sales dataset, laid out four to a row, published."""
    from atrium.sdk.testing import AtriumClient

    with httpx.Client(base_url=base, timeout=60) as http:
        admin = AtriumClient(http).signed_in("admin")

        def ok(method: str, path: str, body: Any = None) -> Any:
            return admin.ok(method, path, json=body)

        dataset = next(d for d in ok("GET", "/api/dyreport/dataset/list") if d.get("mode") == "direct")
        fields = ok("GET", f"/api/dyreport/dataset/get/{dataset['id']}")["fields"]
        dims = [x["id"] for x in fields if x["role"] == "dimension" and x["type"] == "text"]
        quotas = [x["id"] for x in fields if x["role"] == "quota"]
        panel = ok("POST", "/api/dyreport/panel/save", {"name": f"{PANEL_VIEWS} views", "panelData": []})
        components = []
        for i in range(PANEL_VIEWS):
            view = ok(
                "POST",
                "/api/dyreport/chart/view/save",
                {
                    "panelId": panel["id"],
                    "tableId": dataset["id"],
                    "name": f"view {i + 1}",
                    "title": f"View {i + 1}",
                    "type": KINDS[i % len(KINDS)],
                    "render": "echarts",
                    "xaxis": [{"id": dims[i % len(dims)]}],
                    "yaxis": [{"id": quotas[i % len(quotas)], "summary": "sum"}],
                },
            )
            components.append(
                {
                    "id": f"c{i}",
                    "type": "view",
                    "component": "user-view",
                    "style": {"left": (i % 4) * 400, "top": (i // 4) * 300, "width": 390, "height": 290},
                    "propValue": {"viewId": view["id"]},
                }
            )
        ok(
            "POST",
            "/api/dyreport/panel/saveDraft",
            {"id": panel["id"], "panelData": components, "panelStyle": {}},
        )
        ok("POST", "/api/dyreport/panel/publish", {"id": panel["id"]})
        return str(panel["id"])


def panel_opened(base: str) -> None:
    from playwright.sync_api import sync_playwright

    panel_id = fifty_view_panel(base)
    with sync_playwright() as p:
        browser, page, token = signed_in(p, base)
        panel, data, drawn = panel_open_times(page, base, token, panel_id, PANEL_VIEWS)
        browser.close()
    report(
        f"{PANEL_VIEWS}-view panel clicked to all {drawn} views drawn",
        panel,
        data,
        "s",
        "under 2 s",
        baseline_name="the same data calls alone, in parallel",
    )


def main() -> None:
    preview_beside_get_data()
    ensure_built()
    with platform_server() as server:
        panel_opened(server.url)


if __name__ == "__main__":
    main()
