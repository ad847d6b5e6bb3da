"""SQL datasets: one SELECT with allowed functions only, nothing that reads files; slow queries cut off."""

from __future__ import annotations

import os
import secrets
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

PG = os.environ.get("ATRIUM_TEST_DATABASE_URL", "")
PREVIEW = "/api/dyreport/dataset/previewDraft"


@pytest.fixture
def source(admin_client, tmp_path) -> dict[str, Any]:
    path = tmp_path / f"g-{secrets.token_hex(3)}.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (a INTEGER, b TEXT)")
    con.executemany("INSERT INTO t VALUES (?, ?)", [(i, f"b{i}") for i in range(10)])
    con.commit()
    con.close()
    src: dict[str, Any] = admin_client.ok(
        "POST",
        "/api/dyreport/datasource/save",
        json={"name": "g", "url": f"sqlite:///{path}", "queryTimeout": 1},
    )
    src["path"] = path
    return src


def rows_of(path: Path) -> int:
    con = sqlite3.connect(path)
    try:
        return int(con.execute("SELECT count(*) FROM t").fetchone()[0])
    finally:
        con.close()


@pytest.mark.parametrize(
    "sql,message",
    [
        # writes and DDL
        ("delete from t", "single SELECT"),
        ("update t set a = 0", "single SELECT"),
        ("insert into t values (1, 'x')", "single SELECT"),
        ("create table u (x int)", "single SELECT"),
        ("drop table t", "single SELECT"),
        ("with d as (delete from t returning *) select * from d", "single SELECT"),
        # several statements
        ("select * from t; delete from t", "single SELECT"),
        ("select 1; select 2", "single SELECT"),
        # other database files, the file system, code
        ("ATTACH DATABASE '/etc/passwd' AS p", "single SELECT"),
        ("select * from read_csv('/etc/passwd')", "READ_CSV is not allowed"),
        ("select * from '/etc/passwd'", "is not allowed"),
        ("select pg_read_file('/etc/passwd')", "pg_read_file is not allowed"),
        ("select load_extension('/tmp/x')", "load_extension is not allowed"),
        ("LOAD DATA INFILE '/etc/passwd' INTO TABLE t", "single SELECT"),
        ("select * from t into outfile '/tmp/out.txt'", "single SELECT"),
        ("pragma writable_schema = on", "single SELECT"),
        # functions outside the allow-list
        ("select zeroblob(1000000000) as z", "Function zeroblob is not allowed"),
        ("select sleep(10) as s", "Function sleep is not allowed"),
        ("select nextval('s') as n", "Function nextval is not allowed"),
        ("select a from t where a = (select randomblob(10))", "Function randomblob is not allowed"),
    ],
)
def test_refused_queries(admin_client, source, sql, message):
    for url, body in (
        (PREVIEW, {"datasourceId": source["id"], "kind": "sql", "sql": sql}),
        (
            "/api/dyreport/dataset/save",
            {"name": "bad", "datasourceId": source["id"], "kind": "sql", "sql": sql},
        ),
    ):
        answer = admin_client.post(url, json=body)
        assert answer["code"] == 400 and message in answer["msg"], (url, answer)
    assert rows_of(source["path"]) == 10


def test_allowed_functions_pass(admin_client, source):
    sql = (
        "select upper(b) as u, round(avg(a) * 1.0, 2) as m, count(distinct a) as n, "
        "coalesce(max(a), 0) as top from t where length(b) = 2 group by upper(b) order by u"
    )
    answer = admin_client.ok("POST", PREVIEW, json={"datasourceId": source["id"], "kind": "sql", "sql": sql})
    assert answer["rows"][0] == {"u": "B0", "m": 0.0, "n": 1, "top": 0} and len(answer["rows"]) == 10


def test_slow_query_is_cancelled(admin_client, source):
    slow = (
        "with recursive c(x) as (select 1 union all select x + 1 from c where x < 300000000) "
        "select sum(x) as s from c"
    )
    answer = admin_client.post(PREVIEW, json={"datasourceId": source["id"], "kind": "sql", "sql": slow})
    assert answer["code"] == 504 and answer["msg"] == "The data source did not answer within 1.0 seconds"


@pytest.mark.skipif(not PG, reason="needs PostgreSQL (ATRIUM_TEST_DATABASE_URL)")
def test_slow_query_is_cancelled_on_postgresql(admin_client):
    url = sa.engine.make_url(PG)
    src = admin_client.ok(
        "POST",
        "/api/dyreport/datasource/save",
        json={
            "name": "pg slow",
            "type": "postgresql",
            "host": url.host or "127.0.0.1",
            "port": url.port or 5432,
            "database": url.database,
            "username": url.username,
            "queryTimeout": 1,
        },
    )
    slow = (
        "with recursive c(x) as (select 1 union all select x + 1 from c where x < 300000000) "
        "select sum(x) as s from c"
    )
    answer = admin_client.post(PREVIEW, json={"datasourceId": src["id"], "kind": "sql", "sql": slow})
    assert answer["code"] == 504 and "did not answer within 1" in answer["msg"]
