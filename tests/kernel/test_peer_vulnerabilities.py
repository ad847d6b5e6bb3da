"""Vulnerability classes that hit peer products, each reproduced here so that it cannot come back.

- Grafana CVE-2021-43798: path traversal through a plugin's static route.
- Grafana CVE-2021-39226: unauthenticated reads of shared dashboards through guessable keys.
- Superset CVE-2023-27524: a default or weak secret key in production.
- Metabase CVE-2023-38646: data-source validation that reads files or runs code.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from atrium.kernel.config import DEMO_SECRET, Settings
from atrium.sdk.testing import AtriumClient

TRAVERSALS = [
    "/plugins/reports/../../../pyproject.toml",
    "/plugins/reports/..%2f..%2f..%2fpyproject.toml",
    "/plugins/reports/%2e%2e/%2e%2e/%2e%2e/pyproject.toml",
    "/plugins/reports/....//....//pyproject.toml",
    "/plugins/reports/..%5c..%5c..%5cpyproject.toml",
    "/plugins/reports/%252e%252e/%252e%252e/pyproject.toml",
    "/plugins/../../../../etc/passwd",
    "/assets/../../../../etc/passwd",
    "/i18n/..%2f..%2fpyproject.toml",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_static_routes_never_leave_their_folder(client: AtriumClient, path: str) -> None:
    resp = client.http.request("GET", path)
    assert b"[project]" not in resp.content and b"root:" not in resp.content
    assert resp.status_code == 404 or b"<html" in resp.content[:200].lower()


def test_share_links_are_unguessable_and_closed_without_one(
    admin_client: AtriumClient, client: AtriumClient
) -> None:
    panel = admin_client.ok("GET", "/api/dyreport/panel/list")[0]["id"]
    link = admin_client.ok("POST", f"/api/dyreport/api/link/enable/{panel}")
    link_id = link.get("uuid") or link.get("id")
    assert isinstance(link_id, str) and len(link_id) >= 22  # 128 random bits or more, never a counter
    view = admin_client.ok("GET", f"/api/dyreport/chart/view/listByPanel/{panel}")[0]["id"]
    anonymous = client.http.post(f"/api/dyreport/chart/view/getData/{view}/{panel}", json={})
    assert anonymous.json()["code"] != 800
    detail = client.http.get(f"/api/dyreport/api/link/resourceDetail/{panel}")
    assert detail.json()["code"] != 800
    for guess in ("1", "2", link_id[:-1] + ("A" if link_id[-1] != "A" else "B")):
        assert client.http.get(f"/api/dyreport/link/{guess}").json()["code"] == 404


@pytest.mark.parametrize("key", [DEMO_SECRET, "short", "x" * 31, ""])
def test_a_default_or_weak_secret_key_refuses_to_start(key: str, tmp_path: Path) -> None:
    settings = Settings(var_dir=tmp_path, secret_key=key, demo=False)
    with pytest.raises(SystemExit, match="ATRIUM_SECRET_KEY"):
        settings.check_secret()


def test_a_strong_secret_key_starts(tmp_path: Path) -> None:
    Settings(var_dir=tmp_path, secret_key="k" * 48, demo=False).check_secret()


@pytest.mark.parametrize(
    "url",
    [
        "jdbc:h2:mem:;INIT=RUNSCRIPT FROM 'http://127.0.0.1:1/x.sql'",
        "jdbc:sqlite:/etc/passwd",
        "h2:mem:test",
    ],
)
def test_jdbc_style_source_urls_are_refused(admin_client: AtriumClient, url: str) -> None:
    body = admin_client.post("/api/dyreport/datasource/save", json={"name": "x", "url": url})
    assert body["code"] == 400


@pytest.fixture
def sqlite_source(admin_client: AtriumClient, tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "src.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (a INTEGER)")
    con.execute("INSERT INTO t VALUES (1)")
    con.commit()
    con.close()
    return admin_client.ok(
        "POST", "/api/dyreport/datasource/save", json={"name": "s", "url": f"sqlite:///{path}"}
    )


@pytest.mark.parametrize(
    "sql",
    [
        "ATTACH DATABASE '/etc/passwd' AS p",
        "select 1; ATTACH DATABASE ':memory:' AS p",
        "select load_extension('/tmp/evil')",
        "select * from t where a = (select load_extension('x'))",
        "select readfile('/etc/passwd')",
        "select pg_read_file('/etc/passwd')",
        "select * from read_csv('/etc/passwd')",
        "select * from read_csv_auto('/etc/passwd')",
        "with x as (select * from read_text('/etc/passwd')) select * from x",
        "select * from t; pragma writable_schema = on",
    ],
)
def test_sql_datasets_cannot_read_files_or_run_code(
    admin_client: AtriumClient, sqlite_source: dict[str, Any], sql: str
) -> None:
    body = admin_client.post(
        "/api/dyreport/dataset/save",
        json={"name": "bad", "datasourceId": sqlite_source["id"], "kind": "sql", "sql": sql},
    )
    assert body["code"] == 400, body
    assert "root:" not in str(body)


def test_duckdb_sources_cannot_read_other_files(admin_client: AtriumClient, tmp_path: Path) -> None:
    import duckdb

    secret = tmp_path / "secret.csv"
    secret.write_text("name\nTOP-SECRET\n")
    path = tmp_path / "src.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE t (a INTEGER)")
    con.execute("INSERT INTO t VALUES (1)")
    con.close()
    src = admin_client.post("/api/dyreport/datasource/save", json={"name": "d", "url": f"duckdb:///{path}"})
    if src["code"] != 800:
        assert src["code"] == 400  # no DuckDB driver for sources: nothing to read through
        return
    reads = (
        f"select * from '{secret}'",
        f"select * from read_csv('{secret}')",
        f"select * from t, '{secret}'",
    )
    for sql in reads:
        body = admin_client.post(
            "/api/dyreport/dataset/save",
            json={"name": "bad", "datasourceId": src["data"]["id"], "kind": "sql", "sql": sql},
        )
        assert body["code"] != 800 and "TOP-SECRET" not in str(body), (sql, body)
