"""Data sources from structured settings (SQLite, DuckDB, PostgreSQL, MariaDB), validation and deletion."""

from __future__ import annotations

import os
import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from atrium.plugins.reports.store import crypto
from atrium.sdk.testing import AtriumClient
from tests.reports.conftest import calc

PG = os.environ.get("ATRIUM_TEST_DATABASE_URL", "")
MARIADB = "mysql+pymysql://root@127.0.0.1:3306/test"
SAVE = "/api/dyreport/datasource/save"
VALIDATE = "/api/dyreport/datasource/validate"


def globex(client: AtriumClient) -> AtriumClient:
    """The demo super administrator switched into the other demo tenant (Globex)."""
    other = client.signed_in("admin")
    switched = other.ok("POST", "/api/base/base-user/change-tenant?tenantId=1002&systemCode=iotAutho")
    other.headers["authorization"] = switched["authorization"]
    return other


def sqlite_file(path: Path) -> Path:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE sales (region TEXT, amount INTEGER)")
    con.executemany("INSERT INTO sales VALUES (?, ?)", [("east", 10), ("west", 5), ("east", 7)])
    con.commit()
    con.close()
    return path


def bar(ds: dict[str, Any], panel_id: str, dim: str, quota: str) -> dict[str, Any]:
    fields = {f["originName"]: f["id"] for f in ds["fields"]}
    return {
        "tableId": ds["id"],
        "panelId": panel_id,
        "type": "bar",
        "render": "echarts",
        "xaxis": [{"id": fields[dim]}],
        "yaxis": [{"id": fields[quota], "summary": "sum"}],
    }


def series(answer: dict[str, Any]) -> dict[str, Any]:
    data = answer["data"]
    return {x: p["value"] for x, p in zip(data["x"], data["series"][0]["data"], strict=True)}


def test_sqlite_settings_round_trip_and_validate(admin_client, acme, tmp_path):
    path = sqlite_file(tmp_path / "shop.db")
    src = admin_client.ok(
        "POST", SAVE, json={"name": "shop", "type": "sqlite", "path": str(path), "queryTimeout": 5}
    )
    assert src["type"] == "sqlite" and src["path"] == str(path) and src["driver"] == "sqlite"
    listed = next(s for s in admin_client.ok("GET", "/api/dyreport/datasource/list") if s["id"] == src["id"])
    assert {k: listed[k] for k in ("type", "host", "port", "database", "username", "path")} == {
        "type": "sqlite",
        "host": None,
        "port": None,
        "database": None,
        "username": None,
        "path": str(path),
    }
    checked = admin_client.ok("POST", VALIDATE, json={"id": src["id"]})
    assert checked == {"ok": True, "tables": ["sales"]}
    ds = admin_client.ok(
        "POST",
        "/api/dyreport/dataset/save",
        json={"name": "shop", "datasourceId": src["id"], "kind": "table", "tableName": "sales"},
    )
    assert series(calc(admin_client, bar(ds, acme.overview, "region", "amount"))) == {"east": 17, "west": 5}


@pytest.mark.parametrize(
    "settings,message",
    [
        ({"type": "sqlite"}, "Enter the path"),
        ({"type": "sqlite", "path": "relative.db"}, "must be absolute"),
        ({"type": "sqlite", "path": "/nonexistent/x.db"}, "No database file"),
        ({"type": "postgresql", "database": "x"}, "Enter the host"),
        ({"type": "mysql", "host": "127.0.0.1"}, "Enter the database name"),
    ],
)
def test_incomplete_settings_are_refused(admin_client, settings, message):
    body = admin_client.post(SAVE, json={"name": "bad", **settings})
    assert body["code"] == 400 and message in body["msg"]


def test_platform_files_are_refused(admin_client, kernel):
    var_dir = Path(kernel.settings.var_dir)
    inside = var_dir / f"copy-{secrets.token_hex(3)}.db"
    sqlite_file(inside)
    try:
        body = admin_client.post(SAVE, json={"name": "var", "type": "sqlite", "path": str(inside)})
        assert body["code"] == 400 and "platform's own database" in body["msg"]
    finally:
        inside.unlink()
    url = sa.engine.make_url(kernel.settings.effective_database_url)
    if url.get_backend_name() == "sqlite":
        body = admin_client.post(SAVE, json={"name": "db", "type": "sqlite", "path": url.database})
        assert body["code"] == 400 and "platform's own database" in body["msg"]


def test_file_types_need_a_super_admin_and_users_are_refused(client, tmp_path):
    path = sqlite_file(tmp_path / "s.db")
    supervisor = client.signed_in("supervisor")
    body = supervisor.post(SAVE, json={"name": "f", "type": "duckdb", "path": str(path)})
    assert body["code"] == 403
    alice = client.signed_in("alice")
    for method, url, payload in (
        ("POST", SAVE, {"name": "f", "type": "postgresql", "host": "h", "database": "d"}),
        ("POST", VALIDATE, {"type": "sqlite", "path": str(path)}),
        ("GET", "/api/dyreport/datasource/list", None),
    ):
        answer = alice.post(url, json=payload) if method == "POST" else alice.get(url)
        assert answer["code"] == 403


def test_duckdb_source(admin_client, acme, tmp_path):
    import duckdb

    path = tmp_path / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE sales (region VARCHAR, amount DOUBLE)")
    con.execute("INSERT INTO sales VALUES ('north', 1.5), ('north', 2.25), ('south', 4)")
    con.close()
    src = admin_client.ok(
        "POST", SAVE, json={"name": "duck", "type": "duckdb", "path": str(path), "queryTimeout": 1}
    )
    assert src["type"] == "duckdb" and src["driver"] == "duckdb"
    assert admin_client.ok("POST", VALIDATE, json={"id": src["id"]}) == {"ok": True, "tables": ["sales"]}
    ds = admin_client.ok(
        "POST",
        "/api/dyreport/dataset/save",
        json={"name": "duck", "datasourceId": src["id"], "kind": "table", "tableName": "sales"},
    )
    assert series(calc(admin_client, bar(ds, acme.overview, "region", "amount"))) == {
        "north": 3.75,
        "south": 4,
    }
    slow = admin_client.post(
        "/api/dyreport/dataset/previewDraft",
        json={
            "datasourceId": src["id"],
            "kind": "sql",
            "sql": "with recursive c(x) as (select 1 union all select x + 1 from c where x < 2000000000) "
            "select sum(x) as s from c",
        },
    )
    assert slow["code"] == 504 and slow["msg"] == "The data source did not answer within 1.0 seconds"


def test_validate_failure_is_an_answer_not_an_error(admin_client):
    answer = admin_client.ok(
        "POST",
        VALIDATE,
        json={"type": "postgresql", "host": "127.0.0.1", "port": 1, "database": "none", "username": "x"},
    )
    assert answer["ok"] is False and answer["tables"] == []
    assert answer["error"].startswith("Cannot connect to the data source")
    zh = AtriumClient(admin_client.http, "zh-cn")
    zh.headers["authorization"] = admin_client.headers["authorization"]
    answer = zh.ok("POST", VALIDATE, json={"type": "mysql", "host": "127.0.0.1", "port": 1, "database": "x"})
    assert answer["ok"] is False and "无法连接" in answer["error"]


def test_delete_refused_while_datasets_use_it(admin_client, tmp_path, client):
    path = sqlite_file(tmp_path / "d.db")
    src = admin_client.ok("POST", SAVE, json={"name": "d", "type": "sqlite", "path": str(path)})
    made = [
        admin_client.ok(
            "POST",
            "/api/dyreport/dataset/save",
            json={"name": f"d{i}", "datasourceId": src["id"], "kind": "table", "tableName": "sales"},
        )
        for i in range(2)
    ]
    refused = admin_client.post(f"/api/dyreport/datasource/delete/{src['id']}")
    assert refused["code"] == 400 and refused["msg"] == "2 dataset(s) still use this data source"
    other = globex(client)
    for url, payload in (
        (f"/api/dyreport/datasource/delete/{src['id']}", None),
        (VALIDATE, {"id": src["id"]}),
        (SAVE, {"id": src["id"], "name": "x", "type": "sqlite", "path": str(path)}),
    ):
        body = other.post(url, json=payload)
        assert body["code"] == 404 and body["msg"] == "Data source not found"
    for ds in made:
        admin_client.ok("POST", f"/api/dyreport/dataset/delete/{ds['id']}")
    assert admin_client.ok("POST", f"/api/dyreport/datasource/delete/{src['id']}") is True


# ---------------------------------------------------------------------------
# server databases
# ---------------------------------------------------------------------------


def _mariadb_engine() -> sa.Engine | None:
    engine = sa.create_engine(MARIADB, connect_args={"connect_timeout": 3})
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
    except sa.exc.OperationalError:
        engine.dispose()
        return None
    return engine


@pytest.fixture
def mariadb_table() -> Iterator[str]:
    """A fresh table in MariaDB's `test` database (g, v, d), dropped afterwards."""
    engine = _mariadb_engine()
    if engine is None:
        if os.environ.get("CI"):
            pytest.fail("MariaDB at 127.0.0.1:3306 is not reachable (CI must run this test)")
        pytest.skip("MariaDB at 127.0.0.1:3306 is not reachable")
    name = f"rpt_t_{secrets.token_hex(4)}"
    with engine.begin() as conn:
        conn.exec_driver_sql(f"CREATE TABLE {name} (g VARCHAR(20), v INT, d DATETIME)")
        conn.exec_driver_sql(
            f"INSERT INTO {name} VALUES ('a', 1, '2024-01-05 10:00:00'), ('a', 2, '2024-02-01 00:00:00'), "
            "('b', 5, '2024-02-09 12:00:00')"
        )
    try:
        yield name
    finally:
        with engine.begin() as conn:
            conn.exec_driver_sql(f"DROP TABLE IF EXISTS {name}")
        engine.dispose()


def test_mariadb_source(admin_client, acme, mariadb_table):
    settings = {"type": "mysql", "host": "127.0.0.1", "port": 3306, "database": "test", "username": "root"}
    src = admin_client.ok("POST", SAVE, json={"name": "maria", "queryTimeout": 1, **settings})
    assert {k: src[k] for k in settings} == settings and src["driver"] == "mysql"
    checked = admin_client.ok("POST", VALIDATE, json={"id": src["id"]})
    assert checked["ok"] is True and mariadb_table in checked["tables"]
    ds = admin_client.ok(
        "POST",
        "/api/dyreport/dataset/save",
        json={"name": "maria", "datasourceId": src["id"], "kind": "table", "tableName": mariadb_table},
    )
    assert {f["originName"]: f["type"] for f in ds["fields"]} == {"g": "text", "v": "integer", "d": "time"}
    assert series(calc(admin_client, bar(ds, acme.overview, "g", "v"))) == {"a": 3, "b": 5}
    fields = {f["originName"]: f["id"] for f in ds["fields"]}
    by_month = calc(
        admin_client,
        {
            **bar(ds, acme.overview, "g", "v"),
            "xaxis": [{"id": fields["d"], "dateStyle": "y_M"}],
        },
    )
    assert series(by_month) == {"2024-01": 1, "2024-02": 7}
    # an edit without a password keeps the stored one; the name changes
    renamed = admin_client.ok(
        "POST", SAVE, json={"id": src["id"], "name": "maria 2", "queryTimeout": 1, **settings}
    )
    assert renamed["name"] == "maria 2"
    slow = admin_client.post(
        "/api/dyreport/dataset/previewDraft",
        json={
            "datasourceId": src["id"],
            "kind": "sql",
            "sql": "select count(*) as n from information_schema.columns a, information_schema.columns b, "
            "information_schema.columns c",
        },
    )
    assert slow["code"] == 504 and "did not answer within 1" in slow["msg"]


@pytest.mark.skipif(not PG, reason="needs PostgreSQL (ATRIUM_TEST_DATABASE_URL)")
def test_postgresql_source_keeps_its_password(admin_client, acme, kernel):
    url = sa.engine.make_url(PG)
    schema = f"rpt_d_{secrets.token_hex(4)}"
    role = f"rpt_u_{secrets.token_hex(3)}"
    password = secrets.token_hex(8)
    eng = sa.create_engine(PG.replace("postgresql://", "postgresql+psycopg://", 1))
    with eng.begin() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
        conn.execute(sa.text(f"CREATE TABLE {schema}.t (g text, v integer)"))
        conn.execute(
            sa.text(f"INSERT INTO {schema}.t SELECT 'g' || (i % 2), i FROM generate_series(1, 10) i")
        )
        conn.execute(sa.text(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'"))
        conn.execute(sa.text(f"GRANT USAGE ON SCHEMA {schema} TO {role}"))
        conn.execute(sa.text(f"GRANT SELECT ON {schema}.t TO {role}"))
    settings = {
        "type": "postgresql",
        "host": url.host or "127.0.0.1",
        "port": url.port or 5432,
        "database": url.database,
        "username": role,
    }
    try:
        src = admin_client.ok("POST", SAVE, json={"name": "pg", "password": password, **settings})
        listed = next(
            s for s in admin_client.ok("GET", "/api/dyreport/datasource/list") if s["id"] == src["id"]
        )
        assert password not in str(listed) and listed["username"] == role and listed["hasCredentials"]
        admin_client.ok("POST", SAVE, json={"id": src["id"], "name": "pg", "password": "", **settings})
        checked = admin_client.ok("POST", VALIDATE, json={"id": src["id"], **settings})
        assert checked["ok"] is True, checked
        with kernel.engine.connect() as conn:
            stored = conn.execute(
                sa.text("SELECT url_enc FROM rpt_datasource WHERE id = :i"), {"i": src["id"]}
            ).scalar()
        assert password not in stored and sa.engine.make_url(crypto.decrypt(stored)).password == password
        ds = admin_client.ok(
            "POST",
            "/api/dyreport/dataset/save",
            json={"name": "pg", "datasourceId": src["id"], "kind": "table", "tableName": f"{schema}.t"},
        )
        assert series(calc(admin_client, bar(ds, acme.overview, "g", "v"))) == {"g0": 30, "g1": 25}
    finally:
        with eng.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
            conn.execute(sa.text(f"DROP ROLE {role}"))
        eng.dispose()
