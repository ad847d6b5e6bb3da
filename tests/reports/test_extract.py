"""Extract mode: Parquet copies queried with DuckDB, sync now, scheduled syncs, versions and the cache."""

from __future__ import annotations

import io
import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from atrium.plugins.reports.demo import content
from atrium.plugins.reports.engine import extract, filters, sources
from atrium.plugins.reports.models import Dataset
from atrium.plugins.reports.store import extract_store
from atrium.sdk.context import unscoped
from tests.reports import reference as ref
from tests.reports.conftest import LAST_YEAR as Y
from tests.reports.conftest import calc


def extract_view(acme, kind="bar", **axes):
    return {"tableId": acme.extract_id, "panelId": acme.overview, "type": kind, "render": "echarts", **axes}


@pytest.fixture
def synced(acme, admin_client):
    status = admin_client.ok("POST", f"/api/dyreport/dataset/sync/{acme.extract_id}")
    assert status["status"] == "ok" and status["ready"] is True and status["lastSyncTime"]
    return status


def test_not_synced_yet_is_a_clear_message(admin_client, acme, tmp_path):
    path = tmp_path / "e.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (a TEXT, b INTEGER)")
    con.execute("INSERT INTO t VALUES ('x', 1)")
    con.commit()
    con.close()
    src = admin_client.ok(
        "POST", "/api/dyreport/datasource/save", json={"name": "e", "url": f"sqlite:///{path}"}
    )
    ds = admin_client.ok(
        "POST",
        "/api/dyreport/dataset/save",
        json={"name": "e", "datasourceId": src["id"], "tableName": "t", "mode": "extract"},
    )
    assert ds["sync"]["status"] == "never" and ds["sync"]["ready"] is False
    body = admin_client.post(
        "/api/dyreport/chart/view/calcData/e",
        json={
            "view": {
                "tableId": ds["id"],
                "panelId": acme.overview,
                "type": "text",
                "render": "echarts",
                "yaxis": [{"id": "count", "summary": "count"}],
            }
        },
    )
    assert body["code"] == 409 and "not been synchronised" in body["msg"]


def test_extract_answers_match_the_rows(acme, admin_client, sales, synced):
    f = acme.extract_fields
    assert synced["rows"] == len(sales)
    answer = calc(
        admin_client,
        extract_view(
            acme,
            "table-normal",
            xaxis=[{"id": f["region"]}, {"id": f["order_date"], "dateStyle": "y_Q"}],
            yaxis=[
                {"id": f["amount"], "summary": "sum"},
                {"id": f["quantity"], "summary": "avg"},
                {"id": f["product"], "summary": "count_distinct"},
            ],
        ),
        filter=[
            {"fieldId": f["order_date"], "operator": "between", "value": [f"{Y}-01-01", f"{Y}-06-30"]},
            {"fieldId": f["channel"], "operator": "in", "value": ["线上", "分销"]},
            {"fieldId": f["product"], "operator": "like", "value": ["机"]},
        ],
    )

    def where(r: dict) -> bool:
        return (
            datetime(Y, 1, 1) <= r["order_date"] < datetime(Y, 7, 1)
            and r["channel"] in ("线上", "分销")
            and "机" in r["product"]
        )

    sums = ref.group(sales, lambda r: (r["region"], ref.quarter(r)), "amount", "sum", where)
    avgs = ref.group(sales, lambda r: (r["region"], ref.quarter(r)), "quantity", "avg", where)
    distinct = ref.group(sales, lambda r: (r["region"], ref.quarter(r)), "product", "count_distinct", where)
    keys = [fl["key"] for fl in answer["data"]["fields"]]
    rows = answer["data"]["tableRow"]
    assert len(rows) == len(sums)
    for r in rows:
        k = (r[keys[0]], r[keys[1]])
        assert r[keys[2]] == pytest.approx(sums[k]) and r[keys[3]] == pytest.approx(avgs[k])
        assert r[keys[4]] == distinct[k]


def test_extract_equals_direct_for_demo_views(acme, admin_client, synced):
    v = acme.view("表格与文本", "抽取模式：大区销售额")
    direct = calc(
        admin_client,
        {
            **extract_view(acme, xaxis=v["xaxis"], yaxis=v["yaxis"]),
            "tableId": acme.dataset_id,
            "xaxis": [{"id": acme.fields["region"]}],
            "yaxis": [{"id": acme.fields["amount"], "summary": "sum"}],
        },
    )
    answer = admin_client.ok("POST", f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}", json={})
    assert answer["data"]["x"] == direct["data"]["x"]
    for a, b in zip(answer["data"]["series"][0]["data"], direct["data"]["series"][0]["data"], strict=True):
        assert a["value"] == pytest.approx(b["value"])
    values = admin_client.ok(
        "POST",
        "/api/dyreport/dataset/field/multFieldValues",
        json={"fieldIds": [acme.extract_fields["channel"]]},
    )
    assert values == sorted(["线上", "门店", "分销"])


def test_a_sync_swaps_in_a_new_version(acme, admin_client, kernel, synced):
    v = acme.view("表格与文本", "抽取模式：大区销售额")
    before = admin_client.ok("POST", f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}", json={})
    with unscoped(), kernel.db() as db:
        ds_row = db.execute(
            sa.text("SELECT extract_file, version, tenant_id FROM rpt_dataset WHERE id = :i"),
            {"i": acme.extract_id},
        ).one()
    folder = Path(kernel.settings.var_dir) / "reports" / "extracts" / str(ds_row.tenant_id) / acme.extract_id
    old_file = folder / ds_row.extract_file
    assert old_file.exists()
    table = content.table_name(1001)
    with kernel.engine.begin() as conn:
        conn.execute(
            sa.text(
                f"INSERT INTO {table} (id, order_date, region, province, city, category, product, "
                "channel, quantity, amount, profit, lat, lng) VALUES (999999, :d, '华东', '上海', '上海', "
                "'技术', '手机', '线上', 1, 1000000, 1, 31.2, 121.4)"
            ),
            {"d": datetime(2024, 1, 1)},
        )
    try:
        cached = admin_client.ok(
            "POST", f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}", json={}
        )
        assert cached["data"] == before["data"]
        status = admin_client.ok("POST", f"/api/dyreport/dataset/sync/{acme.extract_id}")
        assert status["rows"] == 20_001
        after = admin_client.ok("POST", f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}", json={})
        east = after["data"]["x"].index("华东")
        assert after["data"]["series"][0]["data"][east]["value"] == pytest.approx(
            before["data"]["series"][0]["data"][east]["value"] + 1_000_000
        )
        files = sorted(p.name for p in folder.glob("v*.parquet"))
        assert old_file.name in files and len(files) == 2
    finally:
        with kernel.engine.begin() as conn:
            conn.execute(sa.text(f"DELETE FROM {table} WHERE id = 999999"))
        admin_client.ok("POST", f"/api/dyreport/dataset/sync/{acme.extract_id}")


def test_scheduled_sync_and_visible_errors(admin_client, acme, kernel, tmp_path):
    path = tmp_path / "s.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (a TEXT, b REAL, c TEXT)")
    con.executemany(
        "INSERT INTO t VALUES (?, ?, ?)",
        [(f"g{i % 4}", i * 0.5, f"2024-03-0{1 + i % 9}") for i in range(100)],
    )
    con.commit()
    con.close()
    src = admin_client.ok(
        "POST", "/api/dyreport/datasource/save", json={"name": "s", "url": f"sqlite:///{path}"}
    )
    ds = admin_client.ok(
        "POST",
        "/api/dyreport/dataset/save",
        json={"name": "s", "datasourceId": src["id"], "tableName": "t", "mode": "extract", "syncInterval": 5},
    )
    with kernel.db():
        extract.run_due()
    status = admin_client.ok("GET", f"/api/dyreport/dataset/syncStatus/{ds['id']}")
    assert status["status"] == "ok" and status["rows"] == 100
    f = {x["originName"]: x["id"] for x in ds["fields"]}
    answer = calc(
        admin_client,
        {
            "tableId": ds["id"],
            "panelId": acme.overview,
            "type": "bar",
            "render": "echarts",
            "xaxis": [{"id": f["a"]}],
            "yaxis": [{"id": f["b"], "summary": "sum"}],
        },
        filter=[{"fieldId": f["c"], "operator": "ge", "value": ["2024-03-05"]}],
    )
    expected: dict[str, float] = {}
    for i in range(100):
        if 1 + i % 9 >= 5:
            expected[f"g{i % 4}"] = expected.get(f"g{i % 4}", 0) + i * 0.5
    got = {
        x: p["value"] for x, p in zip(answer["data"]["x"], answer["data"]["series"][0]["data"], strict=True)
    }
    assert got == pytest.approx(expected)
    con = sqlite3.connect(path)
    con.execute("ALTER TABLE t RENAME TO gone")
    con.commit()
    con.close()
    failed = admin_client.post(f"/api/dyreport/dataset/sync/{ds['id']}")
    assert failed["code"] == 502
    status = admin_client.ok("GET", f"/api/dyreport/dataset/syncStatus/{ds['id']}")
    assert status["status"] == "error" and status["error"] and status["ready"] is True
    still = calc(
        admin_client,
        {
            "tableId": ds["id"],
            "panelId": acme.overview,
            "type": "text",
            "render": "echarts",
            "yaxis": [{"id": "count", "summary": "count"}],
        },
    )
    assert still["data"]["series"][0]["data"][0]["value"] == 100


def test_sync_needs_extract_mode(acme, admin_client):
    body = admin_client.post(f"/api/dyreport/dataset/sync/{acme.dataset_id}")
    assert body["code"] == 400


def test_a_query_past_its_time_limit_is_stopped(acme, kernel, synced):
    """The shared DuckDB database interrupts a query at its limit and answers the next one as usual."""
    with unscoped(), kernel.db() as db:
        ds = db.get(Dataset, acme.extract_id)
        endless = sa.select(sa.text("count(*) FROM range(1000000000000) AS a"))
        with pytest.raises(sources.SourceTimeout) as stopped:
            extract.query(ds, [], lambda _rel: endless, timeout=0.2)
        assert stopped.value.params == {"seconds": 0.2}
        keys, rows = extract.query(ds, [], lambda _rel: sa.select(sa.literal(7).label("n")), timeout=5)
        assert keys == ["n"] and rows == [(7,)]


def test_the_watchdog_stops_each_query_at_its_own_deadline():
    """A limit shorter than the watchdog's sleep wakes it; the usual limit, started while it sleeps one limit,
    is still stopped on time; a released query is never interrupted."""
    stopped: dict[str, float] = {}
    done = threading.Event()

    def interrupt(name: str) -> Callable[[], None]:
        def stop() -> None:
            stopped[name] = time.monotonic()
            if len(stopped) == 2:
                done.set()

        return stop

    watchdog = extract.Watchdog(idle_seconds=lambda: 0.3)
    start = time.monotonic()
    watchdog.watch(0.3, interrupt("usual"))
    watchdog.watch(0.05, interrupt("short"))
    released = watchdog.watch(0.1, interrupt("released"))
    watchdog.release(released)
    assert done.wait(5)
    assert set(stopped) == {"usual", "short"}
    assert stopped["short"] < stopped["usual"]
    assert stopped["short"] - start >= 0.05 and stopped["usual"] - start >= 0.3
    time.sleep(0.2)
    assert "released" not in stopped


def test_kept_statements_follow_filters_fields_and_days(acme, admin_client, synced, monkeypatch):
    """DuckDB statements are compiled once and kept; each answer still follows the request's filter values,
    a changed calculated field and the day a dynamic date resolves to."""
    f, direct_fields = acme.extract_fields, acme.fields
    double = admin_client.ok(
        "POST",
        f"/api/dyreport/dataset/calcField/{acme.extract_id}",
        json={"name": "double", "expression": "amount * 2", "role": "quota"},
    )
    view = admin_client.ok(
        "POST",
        "/api/dyreport/chart/view/save",
        json={
            **extract_view(acme, xaxis=[{"id": f["region"]}], yaxis=[{"id": double["id"], "summary": "sum"}]),
            "name": "kept statements",
        },
    )
    url = f"/api/dyreport/chart/view/getData/{view['id']}/{view['panelId']}"

    def sums(answer: dict) -> dict[str, float]:
        return {
            x: s["value"]
            for x, s in zip(answer["data"]["x"], answer["data"]["series"][0]["data"], strict=True)
        }

    def extract_sums(*items: dict) -> dict[str, float]:
        return sums(admin_client.ok("POST", url, json={"filter": list(items), "cache": False}))

    def direct_sums(*items: dict) -> dict[str, float]:
        definition = {
            **extract_view(acme, xaxis=[{"id": direct_fields["region"]}]),
            "tableId": acme.dataset_id,
            "yaxis": [{"id": direct_fields["amount"], "summary": "sum"}],
        }
        return sums(calc(admin_client, definition, filter=list(items)))

    def channel(value: str, fields: dict[str, str]) -> dict:
        return {"fieldId": fields["channel"], "operator": "in", "value": [value]}

    try:
        for value in ("线上", "分销", "线上"):
            expected = {k: 2 * v for k, v in direct_sums(channel(value, direct_fields)).items()}
            assert extract_sums(channel(value, f)) == pytest.approx(expected)
        assert extract_sums(channel("线上", f)) != pytest.approx(extract_sums(channel("分销", f)))

        before = extract_sums(channel("门店", f))
        admin_client.ok(
            "POST",
            f"/api/dyreport/dataset/calcField/{acme.extract_id}",
            json={"id": double["id"], "name": "double", "expression": "amount * 3", "role": "quota"},
        )
        assert extract_sums(channel("门店", f)) == pytest.approx({k: v * 1.5 for k, v in before.items()})

        admin_client.ok(
            "POST",
            f"/api/dyreport/dataset/calcField/{acme.extract_id}",
            json={"id": double["id"], "name": "double", "expression": "amount * 2", "role": "quota"},
        )
        dynamic = {"fieldId": f["order_date"], "dynamic": {"dkey": "thisMonth"}}
        for month in (2, 5):
            monkeypatch.setattr(filters, "today", lambda month=month: date(Y, month, 15))
            last = (date(Y, month + 1, 1) - timedelta(days=1)).isoformat()
            span = {"fieldId": direct_fields["order_date"], "operator": "between"}
            expected = direct_sums({**span, "value": [f"{Y}-{month:02d}-01", last]})
            assert expected and extract_sums(dynamic) == pytest.approx(
                {k: 2 * v for k, v in expected.items()}
            )
    finally:
        admin_client.ok("POST", f"/api/dyreport/chart/view/delete/{view['id']}")
        admin_client.ok("POST", f"/api/dyreport/dataset/calcField/delete/{acme.extract_id}/{double['id']}")


def test_a_missing_extract_file_is_a_clear_message(acme, admin_client, kernel, synced):
    """A file taken away under the platform (from the store and the node's cache) answers "not
    synchronised", not a failure; a cached copy alone taken away is fetched again from the store."""
    v = acme.view("表格与文本", "抽取模式：大区销售额")
    url = f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}"
    before = admin_client.ok("POST", url, json={"cache": False})
    with unscoped(), kernel.db() as db:
        ds = db.get(Dataset, acme.extract_id)
        current = extract.current_file(ds)
        stored_key = extract_store.key(ds, ds.extract_file)
        tenant_id = ds.tenant_id
    assert current is not None
    current.unlink()
    assert admin_client.ok("POST", url, json={"cache": False})["data"] == before["data"]
    assert current.exists()
    with kernel.storage.get(tenant_id, stored_key) as fh:
        stored = fh.read()
    kernel.storage.delete(tenant_id, stored_key)
    aside = current.with_name(current.name + ".aside")
    current.rename(aside)
    try:
        body = admin_client.post(url, json={"cache": False})
        assert body["code"] == 409 and "not been synchronised" in body["msg"]
    finally:
        aside.rename(current)
        kernel.storage.put(tenant_id, stored_key, io.BytesIO(stored))
    assert admin_client.ok("POST", url, json={"cache": False})["data"] == before["data"]
