"""Excel datasets, and exports through the transfer plugin's export engine."""

from __future__ import annotations

import io
import time
from datetime import datetime

import openpyxl
import pytest

from tests.reports.conftest import calc


def workbook(rows: list[list[object]]) -> bytes:
    wb = openpyxl.Workbook()
    ws = wb.active
    for r in rows:
        ws.append(r)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def test_excel_becomes_a_dataset(acme, admin_client):
    rows = [["门店", "日期", "件数", "金额"]] + [
        [f"S{i % 3}", datetime(2024, 1, 1 + i % 28), i, i * 1.5] for i in range(60)
    ]
    body = admin_client.post(
        "/api/dyreport/dataset/importExcel",
        data={"name": "门店流水"},
        files={"file": ("shops.xlsx", workbook(rows), "application/octet-stream")},
    )
    assert body["code"] == 800, body
    ds = body["data"]
    assert ds["kind"] == "excel" and ds["name"] == "门店流水"
    types = {f["name"]: f["type"] for f in ds["fields"]}
    assert types == {"门店": "text", "日期": "time", "件数": "integer", "金额": "float"}
    f = {x["name"]: x["id"] for x in ds["fields"]}
    answer = calc(
        admin_client,
        {
            "tableId": ds["id"],
            "panelId": acme.overview,
            "type": "bar",
            "render": "antv",
            "xaxis": [{"id": f["门店"]}],
            "yaxis": [{"id": f["金额"], "summary": "sum"}],
        },
        filter=[{"fieldId": f["日期"], "operator": "le", "value": ["2024-01-10"]}],
    )
    expected: dict[str, float] = {}
    for i in range(60):
        if 1 + i % 28 <= 10:
            expected[f"S{i % 3}"] = expected.get(f"S{i % 3}", 0) + i * 1.5
    got = {
        x: p["value"] for x, p in zip(answer["data"]["x"], answer["data"]["series"][0]["data"], strict=True)
    }
    assert got == pytest.approx(expected)
    wrong = admin_client.post(
        "/api/dyreport/dataset/importExcel",
        data={"name": "x"},
        files={"file": ("notes.txt", b"hello", "text/plain")},
    )
    assert wrong["code"] == 400 and "xls or xlsx" in wrong["msg"]
    broken = admin_client.post(
        "/api/dyreport/dataset/importExcel",
        data={"name": "x"},
        files={"file": ("broken.xlsx", b"PK not really", "application/octet-stream")},
    )
    assert broken["code"] == 400


def _wait_export(client, export_id: int) -> dict:
    for _ in range(300):
        task = client.ok("POST", f"/api/dataexport/data-export/v2/get-export-result?exportId={export_id}")
        if task["status"] in (2, 3):
            return task
        time.sleep(0.1)
    raise AssertionError("export did not finish")


def test_export_through_the_transfer_plugin(acme, admin_client, sales, kernel):
    if "transfer" not in kernel.plugins.loaded:
        pytest.skip("transfer plugin not installed")
    v = acme.view("表格与文本", "明细表")
    f = acme.fields
    task = admin_client.ok(
        "POST",
        "/api/dataexport/data-export/v2/export/",
        json={
            "url": "api/dyreport/chart/view/exportData",
            "fileName": "明细",
            "excelType": "xlsx",
            "method": "POST",
            "singleSheetMaxRows": 100000,
            "pageIndex": 1,
            "pageRows": 1000,
            "columnList": [],
            "params": {
                "view": {"id": v["id"], "panelId": v["panelId"]},
                "requestList": {"filter": [{"fieldId": f["city"], "value": ["杭州"]}]},
            },
        },
    )
    done = _wait_export(admin_client, task["exportId"])
    assert done["status"] == 2, done
    expected = sum(1 for r in sales if r["city"] == "杭州")
    assert done["rowCount"] == expected
    raw = admin_client.http.get(done["downloadUrl"], headers=admin_client.headers)
    ws = openpyxl.load_workbook(io.BytesIO(raw.content), read_only=True).active
    rows = list(ws.iter_rows(values_only=True))
    assert list(rows[0]) == ["下单日期", "城市", "产品", "数量", "销售额"]
    assert len(rows) == expected + 1 and {r[1] for r in rows[1:]} == {"杭州"}


def test_export_needs_the_export_privilege(acme, client, user_factory, kernel):
    if "transfer" not in kernel.plugins.loaded:
        pytest.skip("transfer plugin not installed")
    account, password, _ = user_factory(1001)
    user = client.signed_in(account, password)
    v = acme.view("表格与文本", "明细表")
    body = user.post(
        "/api/dataexport/data-export/v2/export/",
        json={
            "url": "api/dyreport/chart/view/exportData",
            "fileName": "x",
            "params": {"viewId": v["id"], "panelId": v["panelId"]},
        },
    )
    if body["code"] == 800:
        done = _wait_export(user, body["data"]["exportId"])
        assert done["status"] == 3 and done["errorMsg"]
    else:
        assert body["code"] in (403, 404)
