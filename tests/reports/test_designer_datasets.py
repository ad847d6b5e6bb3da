"""Dataset drafts and calculated fields: previewDraft, calcField save/delete, their use in chart data."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from atrium.sdk.testing import AtriumClient
from tests.reports.conftest import calc
from tests.reports.test_designer_sources import globex

PREVIEW = "/api/dyreport/dataset/previewDraft"


def calc_field(client: AtriumClient, dataset_id: str, **body: Any) -> dict[str, Any]:
    field: dict[str, Any] = client.ok("POST", f"/api/dyreport/dataset/calcField/{dataset_id}", json=body)
    return field


def bar(ds_id: str, panel_id: str, dim: str, quota: str, summary: str = "sum") -> dict[str, Any]:
    return {
        "tableId": ds_id,
        "panelId": panel_id,
        "type": "bar",
        "render": "echarts",
        "xaxis": [{"id": dim}],
        "yaxis": [{"id": quota, "summary": summary}],
    }


def series(answer: dict[str, Any]) -> dict[str, Any]:
    data = answer["data"]
    return {x: p["value"] for x, p in zip(data["x"], data["series"][0]["data"], strict=True)}


def by_sql(kernel: Any, sql: str) -> dict[str, Any]:
    """What the platform database itself answers (the check of every calculated figure)."""
    with kernel.engine.connect() as conn:
        return {row[0]: row[1] for row in conn.execute(sa.text(sql))}


@pytest.fixture
def demo_table(acme) -> str:
    return str(acme.datasets["销售明细"]["tableName"])


@pytest.fixture
def own_dataset(admin_client, demo_table) -> Iterator[dict[str, Any]]:
    """A direct dataset of the demo sales table that the test may change."""
    ds = admin_client.ok(
        "POST", "/api/dyreport/dataset/save", json={"name": "calc", "kind": "table", "tableName": demo_table}
    )
    yield ds
    admin_client.post(f"/api/dyreport/dataset/delete/{ds['id']}")


SIZE = "CASE WHEN quantity >= 5 THEN 'big' ELSE 'small' END"


def test_calculated_fields_in_direct_mode(admin_client, acme, kernel, own_dataset, demo_table):
    ds_id = own_dataset["id"]
    cost = calc_field(admin_client, ds_id, name="cost", expression="amount - profit")
    assert cost["calculated"] is True and cost["expression"] == "amount - profit"
    assert cost["type"] == "float" and cost["role"] == "quota" and cost["tableId"] == ds_id
    size = calc_field(admin_client, ds_id, name="size", expression=SIZE)
    assert size["type"] == "text" and size["role"] == "dimension"
    listed = admin_client.ok("GET", f"/api/dyreport/dataset/get/{ds_id}")["fields"]
    calculated = {f["name"]: f for f in listed if f["calculated"]}
    assert set(calculated) == {"cost", "size"} and calculated["size"]["expression"] == SIZE
    assert all(f["expression"] == "" for f in listed if not f["calculated"])

    got = series(calc(admin_client, bar(ds_id, acme.overview, size["id"], cost["id"])))
    want = by_sql(kernel, f"SELECT {SIZE}, SUM(amount - profit) FROM {demo_table} GROUP BY 1")
    assert set(got) == set(want) == {"big", "small"}
    assert got == {k: pytest.approx(v, rel=1e-9) for k, v in want.items()}

    # a calculated dimension filters like any field; avg of a calculated quota
    region = next(f["id"] for f in listed if f["originName"] == "region")
    filtered = calc(
        admin_client,
        bar(ds_id, acme.overview, region, cost["id"], "avg"),
        filter=[{"fieldId": size["id"], "operator": "eq", "value": ["big"]}],
    )
    want = by_sql(
        kernel, f"SELECT region, AVG(amount - profit) FROM {demo_table} WHERE quantity >= 5 GROUP BY region"
    )
    assert series(filtered) == {k: pytest.approx(v, rel=1e-9) for k, v in want.items()}

    # editing keeps the id; the new expression is what charts compute
    margin = calc_field(
        admin_client, ds_id, id=cost["id"], name="margin", expression="ROUND(profit * 100 / amount, 2)"
    )
    assert margin["id"] == cost["id"] and margin["name"] == "margin"
    got = series(calc(admin_client, bar(ds_id, acme.overview, size["id"], margin["id"], "max")))
    want = by_sql(
        kernel,
        f"SELECT {SIZE}, MAX(ROUND(CAST(profit * 100.0 / amount AS NUMERIC), 2)) "
        f"FROM {demo_table} GROUP BY 1",
    )
    assert got == {k: pytest.approx(float(v), abs=0.011) for k, v in want.items()}


def test_calculated_fields_in_extract_mode(admin_client, acme, kernel, demo_table):
    ds = admin_client.ok(
        "POST",
        "/api/dyreport/dataset/save",
        json={"name": "calc extract", "kind": "table", "tableName": demo_table, "mode": "extract"},
    )
    try:
        upper = calc_field(
            admin_client, ds["id"], name="channel x", expression="CONCAT(UPPER(channel), '-x')"
        )
        units = calc_field(admin_client, ds["id"], name="units", expression="quantity * 2 + 1", role="quota")
        assert units["type"] == "integer"
        status = admin_client.ok("POST", f"/api/dyreport/dataset/sync/{ds['id']}")
        assert status["status"] == "ok" and status["rows"] == 20_000
        got = series(calc(admin_client, bar(ds["id"], acme.overview, upper["id"], units["id"])))
        want = by_sql(kernel, f"SELECT UPPER(channel), SUM(quantity * 2 + 1) FROM {demo_table} GROUP BY 1")
        assert got == {f"{k}-x": v for k, v in want.items()} and len(got) >= 2
    finally:
        admin_client.post(f"/api/dyreport/dataset/delete/{ds['id']}")


@pytest.mark.parametrize(
    "expression,message",
    [
        ("SUM(amount)", "Aggregate function SUM is not allowed"),
        ("COUNT(*) + 1", "Aggregate function COUNT is not allowed"),
        ("ROW_NUMBER() OVER ()", "is not allowed"),
        ("(SELECT MAX(amount) FROM user_account)", "Subqueries are not allowed"),
        ("amount IN (SELECT 1)", "Subqueries are not allowed"),
        ("no_such_column + 1", "Column no_such_column in the expression is not a field"),
        ("other.amount", "Column other.amount in the expression is not a field"),
        ("pg_read_file('/etc/passwd')", "Function pg_read_file is not allowed"),
        ("read_csv('/etc/passwd')", "Function READ_CSV is not allowed"),
        ("RANDOM()", "Function RAND is not allowed"),
        ("amount; DROP TABLE x", "cannot be read"),
        ("amount +", "cannot be read"),
        ("*", "* is not allowed"),
    ],
)
def test_refused_expressions(admin_client, acme, expression, message):
    body = admin_client.post(
        f"/api/dyreport/dataset/calcField/{acme.dataset_id}", json={"name": "bad", "expression": expression}
    )
    assert body["code"] == 400 and message in body["msg"], body


def test_expression_that_fails_on_the_source_and_name_clash(admin_client, own_dataset):
    ds_id = own_dataset["id"]
    body = admin_client.post(
        f"/api/dyreport/dataset/calcField/{ds_id}", json={"name": "region", "expression": "amount"}
    )
    assert body["code"] == 400 and body["msg"] == "A field named region already exists"
    field = next(f for f in own_dataset["fields"] if f["originName"] == "region")
    body = admin_client.post(f"/api/dyreport/dataset/calcField/delete/{ds_id}/{field['id']}")
    assert body["code"] == 400 and "not a calculated field" in body["msg"]
    body = admin_client.post(
        f"/api/dyreport/dataset/calcField/{ds_id}",
        json={"name": "x", "expression": "amount", "type": "money"},
    )
    assert body["code"] == 400 and "Unknown field type money" in body["msg"]


def test_views_using_a_deleted_calculated_field_answer_400(admin_client, acme, own_dataset):
    ds_id = own_dataset["id"]
    cost = calc_field(admin_client, ds_id, name="cost", expression="amount - profit")
    region = next(f["id"] for f in own_dataset["fields"] if f["originName"] == "region")
    view = admin_client.ok(
        "POST",
        "/api/dyreport/chart/view/save",
        json={**bar(ds_id, acme.overview, region, cost["id"]), "name": "cost by region"},
    )
    try:
        ok = admin_client.ok(
            "POST", f"/api/dyreport/chart/view/getData/{view['id']}/{acme.overview}", json={}
        )
        assert len(ok["data"]["x"]) >= 3
        assert admin_client.ok("POST", f"/api/dyreport/dataset/calcField/delete/{ds_id}/{cost['id']}") is True
        for url, payload in (
            (f"/api/dyreport/chart/view/getData/{view['id']}/{acme.overview}", {}),
            (f"/api/dyreport/chart/view/calcData/{view['id']}", {}),
        ):
            body = admin_client.post(url, json=payload)
            assert body["code"] == 400 and body["msg"] == f"Field {cost['id']} not found"
    finally:
        admin_client.ok("POST", f"/api/dyreport/chart/view/delete/{view['id']}")


def test_a_changed_expression_is_read_back_by_saved_views(admin_client, acme, own_dataset):
    """getData keeps a view's metadata and its dataset's fields between calls: a change of a field is seen
    on the very next call."""
    ds_id = own_dataset["id"]
    double = calc_field(admin_client, ds_id, name="double", expression="amount * 2", role="quota")
    region = next(f["id"] for f in own_dataset["fields"] if f["originName"] == "region")
    view = admin_client.ok(
        "POST",
        "/api/dyreport/chart/view/save",
        json={**bar(ds_id, acme.overview, region, double["id"]), "name": "double by region"},
    )
    url = f"/api/dyreport/chart/view/getData/{view['id']}/{acme.overview}"
    try:
        before = series(admin_client.ok("POST", url, json={}))
        assert series(admin_client.ok("POST", url, json={})) == before
        calc_field(admin_client, ds_id, id=double["id"], name="double", expression="amount * 3", role="quota")
        after = series(admin_client.ok("POST", url, json={}))
        assert after.keys() == before.keys() and len(after) >= 3
        assert after == {k: pytest.approx(v * 1.5) for k, v in before.items()}
    finally:
        admin_client.ok("POST", f"/api/dyreport/chart/view/delete/{view['id']}")


def test_calc_fields_refused_for_users_and_other_tenants(admin_client, client, acme, own_dataset):
    ds_id = own_dataset["id"]
    field = calc_field(admin_client, ds_id, name="double", expression="amount * 2")
    alice = client.signed_in("alice")
    body = alice.post(f"/api/dyreport/dataset/calcField/{ds_id}", json={"name": "x", "expression": "amount"})
    assert body["code"] == 403
    assert alice.post(f"/api/dyreport/dataset/calcField/delete/{ds_id}/{field['id']}")["code"] == 403
    other = globex(client)
    body = other.post(f"/api/dyreport/dataset/calcField/{ds_id}", json={"name": "x", "expression": "amount"})
    assert body["code"] == 404 and body["msg"] == "Dataset not found"
    body = other.post(f"/api/dyreport/dataset/calcField/delete/{ds_id}/{field['id']}")
    assert body["code"] == 404
    own = other.ok("GET", "/api/dyreport/dataset/list")[0]["id"]
    body = other.post(f"/api/dyreport/dataset/calcField/delete/{own}/{field['id']}")
    assert body["code"] == 404 and "not found" in body["msg"]


# ---------------------------------------------------------------------------
# previewDraft
# ---------------------------------------------------------------------------


def test_preview_of_an_unsaved_table_dataset(admin_client, demo_table, kernel):
    before = len(admin_client.ok("GET", "/api/dyreport/dataset/list"))
    answer = admin_client.ok("POST", PREVIEW, json={"kind": "table", "tableName": demo_table})
    fields = {f["originName"]: f for f in answer["fields"]}
    assert fields["region"] == {"originName": "region", "name": "region", "type": "text", "role": "dimension"}
    assert fields["amount"]["type"] == "float" and fields["amount"]["role"] == "quota"
    assert fields["order_date"]["type"] == "time"
    assert len(answer["rows"]) == 100 and set(answer["rows"][0]) == set(fields)
    with kernel.engine.connect() as conn:
        regions = set(conn.execute(sa.text(f"SELECT DISTINCT region FROM {demo_table}")).scalars())
    assert {r["region"] for r in answer["rows"]} <= regions
    assert len(admin_client.ok("GET", "/api/dyreport/dataset/list")) == before  # nothing was stored


def test_preview_of_an_unsaved_sql_dataset(admin_client, tmp_path):
    path = tmp_path / "p.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (g TEXT, v INTEGER)")
    con.executemany("INSERT INTO t VALUES (?, ?)", [(f"g{i % 3}", i) for i in range(250)])
    con.commit()
    con.close()
    src = admin_client.ok(
        "POST", "/api/dyreport/datasource/save", json={"name": "p", "url": f"sqlite:///{path}"}
    )
    answer = admin_client.ok(
        "POST",
        PREVIEW,
        json={"datasourceId": src["id"], "kind": "sql", "sql": "select g, sum(v) as total from t group by g"},
    )
    assert [f["originName"] for f in answer["fields"]] == ["g", "total"]
    assert answer["fields"][1]["type"] == "integer"
    assert {r["g"]: r["total"] for r in answer["rows"]} == {
        f"g{k}": sum(i for i in range(250) if i % 3 == k) for k in range(3)
    }
    table = admin_client.ok(
        "POST", PREVIEW, json={"datasourceId": src["id"], "kind": "table", "tableName": "t"}
    )
    assert len(table["rows"]) == 100 and table["rows"][0] == {"g": "g0", "v": 0}


def test_preview_is_for_administrators(client, demo_table):
    alice = client.signed_in("alice")
    assert alice.post(PREVIEW, json={"kind": "table", "tableName": demo_table})["code"] == 403
    supervisor = client.signed_in("supervisor")
    body = supervisor.post(PREVIEW, json={"kind": "sql", "sql": "select 1 as x"})
    assert body["code"] == 403 and "super administrator" in body["msg"]
    body = supervisor.post(PREVIEW, json={"kind": "table", "tableName": "user_account"})
    assert body["code"] == 404
    other = globex(client)
    body = other.post(PREVIEW, json={"kind": "table", "tableName": demo_table})
    assert body["code"] == 404 and "not found" in body["msg"]
