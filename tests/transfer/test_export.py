"""Export: asynchronous tasks, results, records, neutralised cells, sheets, cleanup, Word export."""

from __future__ import annotations

import csv
import io
import uuid
import zipfile
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

import openpyxl
import pytest
import python_calamine as pc
from sqlalchemy import update

from atrium.plugins.transfer.jobs import scheduled
from atrium.plugins.transfer.models import ExportTask
from atrium.plugins.transfer.registry import ExportRequest, ExportSource, paged, registry
from atrium.plugins.transfer.settings import transfer_settings
from atrium.sdk.context import tenant_scope
from atrium.sdk.db import utcnow
from atrium.sdk.testing import AtriumClient

from .util import EXPORT, download, wait_export

CONTACTS = "api/transfer/contacts/exportData"
TRICKY = ["=1+2", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A2)", "\tTAB", "\rCR", "plain", "", "a=b", "-"]


def create(c: AtriumClient, **body: Any) -> dict[str, Any]:
    payload = {
        "url": CONTACTS,
        "fileName": "contacts",
        "excelType": "xlsx",
        "method": "POST",
        "singleSheetMaxRows": 100000,
        "pageIndex": 1,
        "pageRows": 1000,
        "columnList": [{"title": "Name", "key": "name"}, {"title": "Company", "key": "company"}],
        "params": {},
        **body,
    }
    return c.post(f"{EXPORT}/export/", json=payload)


@pytest.fixture
def sources() -> Iterator[None]:
    """Export sources over generated rows, for the tests."""

    def tricky(req: ExportRequest) -> Iterator[list[Any]]:
        for v in TRICKY:
            yield [
                v,
                12.5,
                date(2024, 1, 2),
                datetime(2024, 1, 2, 3, 4, 5),
                None,
                True,
                Decimal("1.5"),
                uuid.UUID(int=7),
                b"=bytes",
            ]

    def many(req: ExportRequest) -> Iterator[tuple[Any, ...]]:
        n = int(req.params.get("rows", 10))
        for i in range(n):
            yield (i, f"row {i}")

    def dicts(req: ExportRequest, page: int, size: int) -> list[dict[str, Any]]:
        start = (page - 1) * size
        return [{"id": i, "label": f"#{i}"} for i in range(start, min(start + size, 2500))]

    def broken(req: ExportRequest) -> Iterator[list[Any]]:
        yield ["ok"]
        raise RuntimeError("the data source went away")

    registry.sources["test/tricky"] = ExportSource(url="test/tricky", name="Tricky", rows=tricky)
    registry.sources["test/many"] = ExportSource(
        url="test/many", name="Many", rows=many, count=lambda req: int(req.params.get("rows", 10))
    )
    registry.sources["test/dicts"] = ExportSource(url="test/dicts", name="Dicts", rows=paged(dicts))
    registry.sources["test/broken"] = ExportSource(url="test/broken", name="Broken", rows=broken)
    registry.sources["test/admin"] = ExportSource(
        url="test/admin", name="Admin only", rows=many, permission="admin"
    )
    yield
    for key in ("test/tricky", "test/many", "test/dicts", "test/broken", "test/admin"):
        registry.sources.pop(key, None)


def test_export_task_runs_and_the_file_downloads(user_client: AtriumClient) -> None:
    created = create(user_client)
    assert created["code"] == 800 and created["data"]["status"] == 0
    res = wait_export(user_client, created["data"]["exportId"])
    assert res["status"] == 2 and res["progress"] == 100 and res["errorMsg"] == ""
    assert res["fileName"] == "contacts.xlsx" and res["url"].startswith("/api/file/")
    wb = pc.CalamineWorkbook.from_filelike(io.BytesIO(download(user_client, res["url"], res["fileName"])))
    sheets = [wb.get_sheet_by_index(i).to_python() for i in range(len(wb.sheet_names))]
    assert all(sheet[0] == ["Name", "Company"] for sheet in sheets)
    assert ["王芳", "Acme"] in sheets[0]
    assert sum(len(sheet) - 1 for sheet in sheets) == res["rowCount"]
    signed = user_client.http.get(res["downloadUrl"])
    assert signed.status_code == 200 and "contacts.xlsx" in signed.headers["content-disposition"]


def test_export_without_slash_and_with_params_wrapper(user_client: AtriumClient) -> None:
    body = user_client.post(
        f"{EXPORT}/export", json={"params": {"url": CONTACTS, "fileName": "x", "columnList": ["name"]}}
    )
    assert body["code"] == 800
    assert wait_export(user_client, body["data"]["exportId"])["status"] == 2


def test_unknown_source_and_bad_input(user_client: AtriumClient) -> None:
    assert create(user_client, url="api/nowhere/exportData") == {
        "code": 400,
        "msg": "This data cannot be exported",
        "data": None,
    }
    assert create(user_client, excelType="pdf")["code"] == 400
    assert create(user_client, singleSheetMaxRows=0)["code"] == 400
    assert create(user_client, columnList=[{"title": "no key"}])["code"] == 400


def test_cells_are_neutralised_and_never_formulas(user_client: AtriumClient, sources: None) -> None:
    res = wait_export(
        user_client,
        create(
            user_client,
            url="test/tricky",
            fileName="tricky",
            columnList=[
                {"title": t, "key": t}
                for t in ("text", "num", "date", "time", "none", "flag", "dec", "id", "raw")
            ],
        )["data"]["exportId"],
    )
    assert res["status"] == 2
    data = download(user_client, res["url"])
    sheet_xml = zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in sheet_xml  # no formula anywhere
    ws = openpyxl.load_workbook(io.BytesIO(data)).active
    cells = [row[0] for row in ws.iter_rows(min_row=2)]
    for cell, text in zip(cells, TRICKY, strict=True):
        if not text:
            assert cell.value is None
            continue
        # a carriage return is stored as OOXML's escape _x000D_, which Excel shows as the character
        assert cell.data_type == "s" and cell.value == text.replace("\r", "_x000D_")
        assert cell.quotePrefix is (text[0] in "=+-@\t\r"), text
    second = [c.value for c in next(ws.iter_rows(min_row=2))]
    assert (
        second[1] == 12.5 and second[2] == datetime(2024, 1, 2) and second[3] == datetime(2024, 1, 2, 3, 4, 5)
    )
    assert second[5] is True and second[6] == 1.5 and second[7] == str(uuid.UUID(int=7))
    assert second[8] == "=bytes" and next(ws.iter_rows(min_row=2))[8].quotePrefix is True
    assert next(ws.iter_rows(min_row=2))[2].number_format == "yyyy-mm-dd"


def test_csv_export_prefixes_dangerous_text(user_client: AtriumClient, sources: None) -> None:
    res = wait_export(
        user_client,
        create(user_client, url="test/tricky", fileName="tricky", excelType="csv", columnList=["text"])[
            "data"
        ]["exportId"],
    )
    assert res["fileName"] == "tricky.csv"
    rows = list(csv.reader(io.StringIO(download(user_client, res["url"]).decode("utf-8-sig"), newline="")))
    col = [r[0] for r in rows[1:]]
    assert col[:6] == ["'=1+2", "'+cmd|' /C calc'!A0", "'-2+3", "'@SUM(A1:A2)", "'\tTAB", "'\rCR"]
    assert col[6:] == ["plain", "", "a=b", "'-"]


def test_250000_rows_make_three_sheets(user_client: AtriumClient, sources: None) -> None:
    created = create(
        user_client,
        url="test/many",
        fileName="big",
        params={"rows": 250_000},
        columnList=[{"title": "No", "key": "n"}, {"title": "Label", "key": "l"}],
    )
    res = wait_export(user_client, created["data"]["exportId"])
    assert res["status"] == 2 and res["rowCount"] == 250_000
    wb = pc.CalamineWorkbook.from_filelike(io.BytesIO(download(user_client, res["url"])))
    assert len(wb.sheet_names) == 3
    heights = [wb.get_sheet_by_index(i).height for i in range(3)]
    assert heights == [100_001, 100_001, 50_001]  # a header row on every sheet
    last = wb.get_sheet_by_index(2).to_python()
    assert last[0] == ["No", "Label"] and last[-1] == [249_999.0, "row 249999"]


def test_paged_dict_source_and_sheet_size_from_the_request(user_client: AtriumClient, sources: None) -> None:
    created = create(
        user_client,
        url="test/dicts",
        singleSheetMaxRows=1000,
        pageRows=300,
        columnList=[{"label": "Id", "prop": "id"}, {"title": "Label", "dataeaseName": "label"}],
    )
    res = wait_export(user_client, created["data"]["exportId"])
    assert res["rowCount"] == 2500
    wb = pc.CalamineWorkbook.from_filelike(io.BytesIO(download(user_client, res["url"])))
    assert [wb.get_sheet_by_index(i).height for i in range(len(wb.sheet_names))] == [1001, 1001, 501]
    assert wb.get_sheet_by_index(0).to_python()[1] == [0.0, "#0"]


def test_failures_are_reported_with_a_reason(
    user_client: AtriumClient, sources: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    res = wait_export(
        user_client, create(user_client, url="test/broken", columnList=["x"])["data"]["exportId"]
    )
    assert res["status"] == 3 and res["errorMsg"] == "The export failed because of a system error"
    monkeypatch.setattr(transfer_settings(), "export_max_rows", 50)
    res = wait_export(
        user_client,
        create(user_client, url="test/many", params={"rows": 80}, columnList=["n"])["data"]["exportId"],
    )
    assert res["status"] == 3
    assert res["errorMsg"] == "The export has more than 50 rows; narrow the filters and try again"


def test_admin_only_source(user_client: AtriumClient, admin_client: AtriumClient, sources: None) -> None:
    assert create(user_client, url="test/admin", columnList=["n"])["code"] == 403
    assert create(admin_client, url="test/admin", columnList=["n"])["code"] == 800


def test_results_of_others_are_not_found(
    user_client: AtriumClient, client: AtriumClient, user_factory
) -> None:
    export_id = create(user_client)["data"]["exportId"]
    wait_export(user_client, export_id)
    bob = client.signed_in("bob")
    account, password, _ = user_factory(1001)
    carol = client.signed_in(account, password)
    for other in (bob, carol):
        theirs = other.post(f"{EXPORT}/get-export-result?exportId={export_id}")
        missing = other.post(f"{EXPORT}/get-export-result?exportId=99999999")
        assert theirs == missing and theirs["code"] == 404
    sup = client.signed_in("supervisor")  # an administrator of the tenant sees every record
    assert sup.ok("POST", f"{EXPORT}/get-export-result?exportId={export_id}")["status"] == 2


def test_export_records_list(user_client: AtriumClient, admin_client: AtriumClient) -> None:
    export_id = create(user_client, functionName="Contact list")["data"]["exportId"]
    wait_export(user_client, export_id)
    page = user_client.ok("POST", f"{EXPORT}/list", json={"pageNum": 1, "pageSize": 100})
    row = next(r for r in page["list"] if r["exportId"] == export_id)
    for key in (
        "exportId",
        "status",
        "requestUrl",
        "creationDate",
        "functionName",
        "userName",
        "action",
        "errorMsg",
    ):
        assert key in row
    assert (row["functionName"], row["userName"], row["action"]) == ("Contact list", "Alice Zhang", "excel")
    assert row["requestUrl"] == "transfer/contacts/exportData"
    assert {r["userName"] for r in page["list"]} == {"Alice Zhang"}
    demo = admin_client.ok("POST", f"{EXPORT}/list", json={"pageSize": 200, "keyword": "联系人"})
    assert any(r["userName"] == "王主管" and r["status"] == 2 for r in demo["list"])  # the demo record
    done = user_client.ok("POST", f"{EXPORT}/list", json={"status": 2})
    assert all(r["status"] == 2 for r in done["list"])


def test_demo_export_record_downloads(admin_client: AtriumClient) -> None:
    demo = admin_client.ok("POST", f"{EXPORT}/list", json={"pageSize": 200, "keyword": "联系人"})
    row = next(r for r in demo["list"] if r["userName"] == "王主管")
    wb = openpyxl.load_workbook(io.BytesIO(download(admin_client, row["url"], row["fileName"])))
    assert next(wb.active.iter_rows(values_only=True))[0] == "Name"


def test_expired_files_are_cleaned(user_client: AtriumClient, kernel: Any) -> None:
    export_id = create(user_client)["data"]["exportId"]
    res = wait_export(user_client, export_id)
    with tenant_scope(1001), kernel.db() as db:
        db.execute(
            update(ExportTask)
            .where(ExportTask.id == export_id)
            .values(expires_at=utcnow() - timedelta(hours=1))
        )
    assert scheduled.cleanup()["exports"] >= 1
    after = user_client.ok("POST", f"{EXPORT}/get-export-result?exportId={export_id}")
    assert after["status"] == 4 and after["url"] == "" and after["downloadUrl"] == ""
    assert user_client.get(res["url"])["code"] == 404


# -- Word ------------------------------------------------------------------------------------------------


def docx_text(data: bytes) -> str:
    from docx import Document

    doc = Document(io.BytesIO(data))
    parts = [p.text for p in doc.paragraphs]
    for t in doc.tables:
        parts += [c.text for row in t.rows for c in row.cells]
    return "\n".join(parts)


def test_word_export_fills_the_template(user_client: AtriumClient) -> None:
    body = user_client.post(
        f"{EXPORT}/export-word",
        json={
            "tempCode": "export-summary",
            "resourceId": "btn-1",
            "apiParams": {
                "params": {
                    "title": "Quarter <3>",
                    "text": "All good & done",
                    "items": [
                        {"label": "Revenue", "value": "1,200"},
                        {"label": "<b>x</b>", "value": "{{ 7*7 }}"},
                    ],
                }
            },
        },
    )
    assert body["code"] == 800, body
    data = body["data"]
    assert data["fileName"].startswith("export-summary-") and data["fileName"].endswith(".docx")
    text = docx_text(download(user_client, data["fileUrl"], data["fileName"]))
    assert "Quarter <3>" in text and "All good & done" in text and "Revenue" in text
    lines = text.splitlines()  # data is never a template: the value stays as typed, nothing computes 49
    assert "<b>x</b>" in lines and "{{ 7*7 }}" in lines and "49" not in lines
    assert "Alice Zhang" in text
    rec = user_client.ok("POST", f"{EXPORT}/get-export-result?exportId={data['exportId']}")
    assert rec["action"] == "word" and rec["status"] == 2


def test_word_export_with_a_registered_template(user_client: AtriumClient) -> None:
    data = user_client.ok(
        "POST",
        f"{EXPORT}/export-word",
        json={"tempCode": "contacts-summary", "apiParams": {"params": {"title": "Team"}}},
    )
    text = docx_text(download(user_client, data["fileUrl"]))
    assert "Team" in text and "王芳" in text


@pytest.mark.parametrize("code", ["no-such-template", "../transfer/x", "broken-sample"])
def test_word_export_failure_answers_805(user_client: AtriumClient, code: str) -> None:
    body = user_client.post(f"{EXPORT}/export-word", json={"tempCode": code, "apiParams": {"params": {}}})
    assert body["code"] == 805 and body["msg"].startswith("Export failed: ")
    page = user_client.ok("POST", f"{EXPORT}/list", json={"pageSize": 5})
    assert page["list"][0]["action"] == "word" and page["list"][0]["status"] == 3
    assert page["list"][0]["errorMsg"] and page["list"][0]["errorMsg"] in body["msg"]


def test_word_templates_list(user_client: AtriumClient) -> None:
    assert {"export-summary", "contacts-summary"} <= set(user_client.ok("GET", f"{EXPORT}/templates"))
