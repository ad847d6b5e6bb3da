"""Data sources: external databases, SQL datasets, read-only and time-limited queries, dynamic dates."""

from __future__ import annotations

import calendar
import os
import secrets
import sqlite3
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from tests.reports.conftest import calc

PG = os.environ.get("ATRIUM_TEST_DATABASE_URL", "")
TODAY = date.today()


def days_table(path: Path) -> None:
    """One row per day from 400 days ago to 400 days ahead: day (text ISO date), n = 1, k = day index."""
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE days (day TEXT, n INTEGER, k INTEGER, label TEXT)")
    con.executemany(
        "INSERT INTO days VALUES (?, 1, ?, ?)",
        [((TODAY + timedelta(days=i)).isoformat(), i, f"d{i % 7}") for i in range(-400, 401)],
    )
    con.commit()
    con.close()


@pytest.fixture
def ext(admin_client, tmp_path) -> dict[str, Any]:
    path = tmp_path / f"ext-{secrets.token_hex(4)}.db"
    days_table(path)
    src = admin_client.ok(
        "POST",
        "/api/dyreport/datasource/save",
        json={"name": "days", "url": f"sqlite:///{path}", "queryTimeout": 2},
    )
    ds = admin_client.ok(
        "POST",
        "/api/dyreport/dataset/save",
        json={"name": "days", "datasourceId": src["id"], "kind": "table", "tableName": "days"},
    )
    return {"path": path, "source": src, "dataset": ds, "fields": {f["originName"]: f for f in ds["fields"]}}


def count_view(ds: dict[str, Any], panel: str) -> dict[str, Any]:
    return {
        "tableId": ds["id"],
        "panelId": panel,
        "type": "text",
        "render": "echarts",
        "yaxis": [{"id": "count", "summary": "count"}],
    }


def count(client: Any, ds: dict[str, Any], panel: str, filters: list[dict[str, Any]]) -> int:
    answer = calc(client, count_view(ds, panel), filter=filters)
    return answer["data"]["series"][0]["data"][0]["value"] or 0


def test_external_source_fields_and_credentials(ext, admin_client, kernel):
    fields = ext["fields"]
    assert {k: v["type"] for k, v in fields.items()} == {
        "day": "time",
        "n": "integer",
        "k": "integer",
        "label": "text",
    }
    assert fields["n"]["role"] == "quota" and fields["label"]["role"] == "dimension"
    listed = admin_client.ok("GET", "/api/dyreport/datasource/list")
    assert any(s["id"] == ext["source"]["id"] and s["url"].startswith("sqlite:///") for s in listed)
    with kernel.engine.connect() as conn:
        stored = conn.execute(
            sa.text("SELECT url_enc FROM rpt_datasource WHERE id = :i"), {"i": ext["source"]["id"]}
        ).scalar()
    assert str(ext["path"]) not in stored and stored.startswith("gAAAA")


def server_today(client: Any) -> date:
    """The server's today (its clock and time zone decide dynamic dates; the test may cross midnight)."""
    day = date.fromisoformat(
        client.ok("POST", "/api/dyreport/dataset/field/dynamicDates", json={"dkey": "today"})["dates"][0]
    )
    assert abs((day - date.today()).days) <= 1
    return day


def same_day(client: Any, check: Any) -> None:
    """Run `check(today)`; once more if the server's day changed meanwhile."""
    for _ in range(2):
        t = server_today(client)
        try:
            check(t)
            return
        except AssertionError:
            if server_today(client) == t:
                raise


def _expected(keys: str, t: date) -> tuple[date, date] | date:
    monday = t - timedelta(days=t.weekday())
    q0 = date(t.year, 3 * ((t.month - 1) // 3) + 1, 1)

    def month_end(d: date) -> date:
        return date(d.year, d.month, calendar.monthrange(d.year, d.month)[1])

    prev_month_end = t.replace(day=1) - timedelta(days=1)
    prev_q_end = q0 - timedelta(days=1)
    table: dict[str, Any] = {
        "today": t,
        "yesterday": t - timedelta(days=1),
        "monthStart": t.replace(day=1),
        "yearStart": date(t.year, 1, 1),
        "thisWeek": (monday, monday + timedelta(days=6)),
        "lastWeek": (monday - timedelta(days=7), monday - timedelta(days=1)),
        "thisMonth": (t.replace(day=1), month_end(t)),
        "lastMonth": (prev_month_end.replace(day=1), prev_month_end),
        "thisQuarter": (q0, month_end(date(q0.year, q0.month + 2, 1))),
        "lastQuarter": (date(prev_q_end.year, prev_q_end.month - 2, 1), prev_q_end),
        "thisYear": (date(t.year, 1, 1), date(t.year, 12, 31)),
        "lastYear": (date(t.year - 1, 1, 1), date(t.year - 1, 12, 31)),
    }
    return table[keys]


@pytest.mark.parametrize(
    "dkey",
    [
        "today",
        "yesterday",
        "monthStart",
        "yearStart",
        "thisWeek",
        "lastWeek",
        "thisMonth",
        "lastMonth",
        "thisQuarter",
        "lastQuarter",
        "thisYear",
        "lastYear",
    ],
)
def test_dynamic_dates(ext, admin_client, acme, dkey):
    def check(t: date) -> None:
        want = _expected(dkey, t)
        got = count(
            admin_client,
            ext["dataset"],
            acme.overview,
            [{"fieldId": ext["fields"]["day"]["id"], "dynamic": {"dkey": dkey}}],
        )
        if isinstance(want, tuple):
            lo, hi = max(want[0], TODAY - timedelta(days=400)), min(want[1], TODAY + timedelta(days=400))
            assert got == (hi - lo).days + 1
        else:
            assert got == 1
        resolved = admin_client.ok("POST", "/api/dyreport/dataset/field/dynamicDates", json={"dkey": dkey})
        assert resolved["dates"] == (
            [d.isoformat() for d in want] if isinstance(want, tuple) else [want.isoformat()]
        )

    same_day(admin_client, check)


@pytest.mark.parametrize(
    "n,unit,suffix",
    [
        (3, "day", "before"),
        (2, "week", "after"),
        (1, "month", "before"),
        (13, "month", "after"),
        (1, "year", "before"),
    ],
)
def test_dynamic_offsets(ext, admin_client, acme, n, unit, suffix):
    def check(t: date) -> None:
        sign = -1 if suffix == "before" else 1
        if unit == "day":
            want = t + timedelta(days=sign * n)
        elif unit == "week":
            want = t + timedelta(weeks=sign * n)
        else:
            months = n * (12 if unit == "year" else 1) * sign
            y, m = divmod(t.month - 1 + months, 12)
            y += t.year
            want = date(y, m + 1, min(t.day, calendar.monthrange(y, m + 1)[1]))
        field = ext["fields"]["day"]["id"]
        spec = {"dkey": "custom", "dynamicPrefix": n, "dynamicInfill": unit, "dynamicSuffix": suffix}
        assert count(admin_client, ext["dataset"], acme.overview, [{"fieldId": field, "dynamic": spec}]) == 1
        ge = count(
            admin_client,
            ext["dataset"],
            acme.overview,
            [{"fieldId": field, "operator": "ge", "dynamic": spec}],
        )
        assert ge == (TODAY + timedelta(days=400) - want).days + 1
        resolved = admin_client.ok("POST", "/api/dyreport/dataset/field/dynamicDates", json=spec)
        assert resolved["dates"] == [want.isoformat()]

    same_day(admin_client, check)


def test_cache_bypass_sees_new_rows(ext, admin_client, acme):
    ds = ext["dataset"]
    view = {**count_view(ds, acme.overview)}
    first = admin_client.ok("POST", "/api/dyreport/chart/view/calcData/v1", json={"view": view})
    con = sqlite3.connect(ext["path"])
    con.execute("INSERT INTO days VALUES ('2000-01-01', 1, 9999, 'x')")
    con.commit()
    con.close()
    cached = admin_client.ok("POST", "/api/dyreport/chart/view/calcData/v1", json={"view": view})
    fresh = admin_client.ok(
        "POST", "/api/dyreport/chart/view/calcData/v1", json={"view": view, "cache": False}
    )
    assert (
        cached["data"]["series"][0]["data"][0]["value"]
        == first["data"]["series"][0]["data"][0]["value"]
        == 801
    )
    assert fresh["data"]["series"][0]["data"][0]["value"] == 802


def test_sql_dataset_and_field_values(ext, admin_client, acme):
    ds = admin_client.ok(
        "POST",
        "/api/dyreport/dataset/save",
        json={
            "name": "odd days",
            "datasourceId": ext["source"]["id"],
            "kind": "sql",
            "sql": "select label, k, day from days where k % 2 = 1 and label <> ':x'",
        },
    )
    fields = {f["originName"]: f["id"] for f in ds["fields"]}
    answer = calc(
        admin_client,
        {
            "tableId": ds["id"],
            "panelId": acme.overview,
            "type": "bar",
            "render": "echarts",
            "xaxis": [{"id": fields["label"]}],
            "yaxis": [{"id": fields["k"], "summary": "count"}],
        },
    )
    odd = [i for i in range(-400, 401) if i > 0 and i % 2 == 1]  # SQL: -3 % 2 is -1
    expected: dict[str, int] = {}
    for i in odd:
        expected[f"d{i % 7}"] = expected.get(f"d{i % 7}", 0) + 1
    got = {
        x: p["value"] for x, p in zip(answer["data"]["x"], answer["data"]["series"][0]["data"], strict=True)
    }
    assert got == expected
    values = admin_client.ok(
        "POST",
        "/api/dyreport/dataset/field/multFieldValues",
        json={
            "fieldIds": [fields["label"]],
            "filter": [{"fieldId": fields["k"], "operator": "le", "value": [7]}],
        },
    )
    assert values == sorted({f"d{i % 7}" for i in odd if i <= 7})


@pytest.mark.parametrize(
    "sql",
    [
        "delete from days",
        "select 1; delete from days",
        "update days set n = 2",
        "select * from days; drop table days",
    ],
)
def test_sql_datasets_are_one_select(ext, admin_client, sql):
    body = admin_client.post(
        "/api/dyreport/dataset/save",
        json={"name": "bad", "datasourceId": ext["source"]["id"], "kind": "sql", "sql": sql},
    )
    assert body["code"] == 400 and "single SELECT" in body["msg"]


def test_slow_query_gets_a_clear_message(ext, admin_client, acme):
    ds = admin_client.ok(
        "POST",
        "/api/dyreport/dataset/save",
        json={
            "name": "slow",
            "datasourceId": ext["source"]["id"],
            "kind": "sql",
            "sql": "with recursive c(x) as (select 1 union all select x + 1 from c where x < 200000000) "
            "select x from c",
        },
    )
    body = admin_client.post(
        "/api/dyreport/chart/view/calcData/slow",
        json={
            "view": {
                "tableId": ds["id"],
                "panelId": acme.overview,
                "type": "text",
                "render": "echarts",
                "yaxis": [{"id": ds["fields"][0]["id"], "summary": "sum"}],
            },
            "cache": False,
        },
    )
    assert body["code"] == 504 and "did not answer within 2" in body["msg"]


def test_failing_sources(admin_client, acme):
    src = admin_client.ok(
        "POST",
        "/api/dyreport/datasource/save",
        json={"name": "down", "url": "postgresql://nobody@127.0.0.1:1/none"},
    )
    check = admin_client.ok("POST", "/api/dyreport/datasource/validate", json={"id": src["id"]})
    assert check["ok"] is False and "Cannot connect" in check["error"] and check["tables"] == []
    body = admin_client.post(
        "/api/dyreport/dataset/save",
        json={"name": "x", "datasourceId": src["id"], "kind": "table", "tableName": "t"},
    )
    assert body["code"] == 502
    bad = admin_client.post("/api/dyreport/datasource/save", json={"name": "bad", "url": "not a url"})
    assert bad["code"] == 400 and "Invalid data source address" in bad["msg"]
    nodrv = admin_client.post(
        "/api/dyreport/datasource/save", json={"name": "x", "url": "oracle+cx_oracle://u@h/x"}
    )
    assert nodrv["code"] == 400 and "No database driver" in nodrv["msg"] or nodrv["code"] == 800


def test_file_sources_need_a_super_admin(client, tmp_path):
    supervisor = client.signed_in("supervisor")
    body = supervisor.post(
        "/api/dyreport/datasource/save", json={"name": "f", "url": f"sqlite:///{tmp_path}/x.db"}
    )
    assert body["code"] == 403
    body = supervisor.post("/api/dyreport/dataset/save", json={"name": "s", "kind": "sql", "sql": "select 1"})
    assert body["code"] == 403
    body = supervisor.post(
        "/api/dyreport/dataset/save", json={"name": "s", "kind": "table", "tableName": "user_account"}
    )
    assert body["code"] == 404


@pytest.mark.skipif(not PG, reason="needs PostgreSQL")
def test_postgresql_source_is_read_only(admin_client, acme):
    schema = f"rpt_ext_{secrets.token_hex(4)}"
    eng = sa.create_engine(PG.replace("postgresql://", "postgresql+psycopg://", 1))
    with eng.begin() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
        conn.execute(sa.text(f"CREATE TABLE {schema}.t (g text, v integer)"))
        conn.execute(
            sa.text(f"INSERT INTO {schema}.t SELECT 'g' || (i % 3), i FROM generate_series(1, 300) i")
        )
        conn.execute(sa.text(f"CREATE SEQUENCE {schema}.s"))
    try:
        src = admin_client.ok(
            "POST",
            "/api/dyreport/datasource/save",
            json={"name": "pg", "url": f"{PG}?options=-csearch_path%3D{schema}", "queryTimeout": 1},
        )
        ds = admin_client.ok(
            "POST",
            "/api/dyreport/dataset/save",
            json={"name": "t", "datasourceId": src["id"], "kind": "table", "tableName": f"{schema}.t"},
        )
        f = {x["originName"]: x["id"] for x in ds["fields"]}
        answer = calc(
            admin_client,
            {
                "tableId": ds["id"],
                "panelId": acme.overview,
                "type": "bar",
                "render": "echarts",
                "xaxis": [{"id": f["g"]}],
                "yaxis": [{"id": f["v"], "summary": "sum"}],
            },
        )
        assert answer["data"]["x"] == ["g0", "g1", "g2"]
        assert [p["value"] for p in answer["data"]["series"][0]["data"]] == [
            sum(i for i in range(1, 301) if i % 3 == k) for k in range(3)
        ]
        writer = admin_client.post(
            "/api/dyreport/dataset/save",
            json={
                "name": "w",
                "datasourceId": src["id"],
                "kind": "sql",
                "sql": f"select nextval('{schema}.s') as n",
            },
        )
        assert writer["code"] == 400 and "nextval" in writer["msg"]
        locker = admin_client.post(
            "/api/dyreport/dataset/save",
            json={"name": "w", "datasourceId": src["id"], "kind": "sql", "sql": "select * from t for update"},
        )
        assert locker["code"] == 502 and "read-only" in locker["msg"]
        slow = admin_client.ok(
            "POST",
            "/api/dyreport/dataset/save",
            json={
                "name": "slow",
                "datasourceId": src["id"],
                "kind": "sql",
                "sql": "with recursive c(x) as (select 1 union all select x + 1 from c where x < 500000000) "
                "select x from c",
            },
        )
        body = admin_client.post(
            "/api/dyreport/chart/view/calcData/s",
            json={
                "view": {
                    "tableId": slow["id"],
                    "panelId": acme.overview,
                    "type": "text",
                    "render": "echarts",
                    "yaxis": [{"id": slow["fields"][0]["id"], "summary": "sum"}],
                },
                "cache": False,
            },
        )
        assert body["code"] == 504
    finally:
        with eng.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        eng.dispose()
