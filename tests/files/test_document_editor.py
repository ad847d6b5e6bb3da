"""The document editor's workbook routes: xlsx opened as workbook data, edits saved as a new version."""

from __future__ import annotations

import io
from typing import Any

import pytest
from docx import Document
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Font, PatternFill

from atrium.plugins.files.settings import files_settings
from atrium.sdk.testing import AtriumClient

from .util import BASE, uploaded

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
OPEN = f"{BASE}/editor/open"
SAVE = f"{BASE}/editor/save"


def sample_xlsx() -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.title = "Budget"
    ws["A1"] = "Item"
    ws["A1"].font = Font(bold=True, color="FFC00000")
    ws["B1"] = "Amount"
    ws["B1"].fill = PatternFill(fill_type="solid", fgColor="FFFFFF00")
    ws["A2"] = "Rent"
    ws["B2"] = 1200.5
    ws["B2"].number_format = "0.00"
    ws["A3"] = "Total"
    ws["B3"] = "=SUM(B2:B2)"
    ws.merge_cells("A5:C5")
    ws["A5"] = "Merged note"
    ws.column_dimensions["A"].width = 20
    ws.row_dimensions[1].height = 30
    wb.create_sheet("Second")["A1"] = 7
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def open_sample(c: AtriumClient, name: str = "budget.xlsx") -> tuple[int, dict[str, Any]]:
    file_id = uploaded(c, name, sample_xlsx(), XLSX)["fileId"]
    return file_id, c.ok("GET", OPEN, params={"id": file_id})


def test_xlsx_opens_as_workbook_data_with_values_styles_merges_and_sizes(user_client: AtriumClient) -> None:
    file_id, data = open_sample(user_client)
    assert data["fileId"] == file_id and data["fileName"] == "budget.xlsx" and data["kind"] == "sheet"
    wb = data["data"]
    assert [wb["sheets"][s]["name"] for s in wb["sheetOrder"]] == ["Budget", "Second"]
    sheet = wb["sheets"][wb["sheetOrder"][0]]
    cells = sheet["cellData"]
    assert cells["0"]["0"]["v"] == "Item"
    assert cells["0"]["0"]["s"]["bl"] == 1 and cells["0"]["0"]["s"]["cl"] == {"rgb": "#c00000"}
    assert cells["0"]["1"]["s"]["bg"] == {"rgb": "#ffff00"}
    assert cells["1"]["1"]["v"] == 1200.5 and cells["1"]["1"]["s"]["n"] == {"pattern": "0.00"}
    assert cells["2"]["1"]["f"] == "=SUM(B2:B2)"
    assert cells["4"]["0"]["v"] == "Merged note"
    assert sheet["mergeData"] == [{"startRow": 4, "endRow": 4, "startColumn": 0, "endColumn": 2}]
    assert sheet["columnData"]["0"]["w"] == 145
    assert sheet["rowData"]["0"]["h"] == 40


def test_edited_workbook_is_saved_as_a_new_version_of_the_file(user_client: AtriumClient) -> None:
    file_id, data = open_sample(user_client)
    wb = data["data"]
    sheet = wb["sheets"][wb["sheetOrder"][0]]
    sheet["cellData"]["1"]["1"] = {"v": 999, "t": 2, "s": {"it": 1}}
    sheet["cellData"].setdefault("6", {})["3"] = {"v": "added", "t": 1, "s": "st1"}
    wb["styles"] = {"st1": {"bl": 1, "bg": {"rgb": "rgb(0, 128, 255)"}}}
    saved = user_client.ok("POST", SAVE, json={"params": {"id": file_id, "workbook": wb}})
    assert saved["fileId"] != file_id and saved["previousId"] == file_id
    assert saved["sourceFileName"] == "budget.xlsx" and saved["editorKind"] == "sheet"
    resp = user_client.http.get(saved["filePath"], headers=user_client.headers)
    book = load_workbook(io.BytesIO(resp.content))
    assert book.sheetnames == ["Budget", "Second"]
    ws = book["Budget"]
    assert ws["B2"].value == 999 and ws["B2"].font.i
    assert ws["D7"].value == "added" and ws["D7"].font.b and ws["D7"].fill.fgColor.rgb == "FF0080FF"
    assert ws["A1"].value == "Item" and ws["A1"].font.b
    assert ws["B3"].value == "=SUM(B2:B2)"
    assert "A5:C5" in {str(r) for r in ws.merged_cells.ranges}
    assert book["Second"]["A1"].value == 7
    # the original is kept as it was, and both are listed
    rows = user_client.ok("GET", f"{BASE}/find-list", params={"keyword": "budget"})["list"]
    listed = [(r["fileId"], r["previousId"]) for r in rows]
    assert (file_id, None) in listed and (saved["fileId"], file_id) in listed
    kept = user_client.http.get(data_path(rows, file_id), headers=user_client.headers)
    assert load_workbook(io.BytesIO(kept.content))["Budget"]["B2"].value == 1200.5


def data_path(rows: list[dict[str, Any]], file_id: int) -> str:
    path: str = next(r["filePath"] for r in rows if r["fileId"] == file_id)
    return path


def test_another_tenants_file_is_not_found_like_a_missing_one(
    user_client: AtriumClient, client: AtriumClient
) -> None:
    file_id, data = open_sample(user_client)
    bob = client.signed_in("bob")
    theirs = bob.get(OPEN, params={"id": file_id})
    missing = bob.get(OPEN, params={"id": 987654321})
    assert theirs["code"] == missing["code"] == 404 and theirs["msg"] == missing["msg"]
    saved = bob.post(SAVE, json={"params": {"id": file_id, "workbook": data["data"]}})
    assert saved["code"] == 404


def test_only_xlsx_and_docx_files_open(user_client: AtriumClient) -> None:
    file_id = uploaded(user_client, "notes.txt", b"hello", "text/plain")["fileId"]
    body = user_client.get(OPEN, params={"id": file_id})
    assert body["code"] == 400 and "xlsx" in body["msg"]
    fake = uploaded(user_client, "fake.xlsx", b"not a zip", XLSX)["fileId"]
    body = user_client.get(OPEN, params={"id": fake})
    assert body["code"] == 400
    assert body["msg"].startswith("The file cannot be opened: it is not a valid Excel workbook (.xlsx)")


@pytest.fixture
def small_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = files_settings()
    monkeypatch.setattr(settings, "editor_max_rows", 3)
    monkeypatch.setattr(settings, "editor_max_cells", 6)


def test_a_workbook_past_the_limits_is_refused_with_a_clear_message(
    user_client: AtriumClient, client: AtriumClient, small_limits: None
) -> None:
    file_id = uploaded(user_client, "big.xlsx", sample_xlsx(), XLSX)["fileId"]
    body = user_client.get(OPEN, params={"id": file_id})
    assert body["code"] == 400
    assert body["msg"] == 'Sheet "Budget" has more than 3 rows, more than the editor opens'
    zh = client.signed_in("alice")
    zh.headers["language"] = "zh#cn"
    assert zh.get(OPEN, params={"id": file_id})["msg"] == "工作表“Budget”超过 3 行，超出编辑器可打开的范围"
    too_far = {"sheets": {"s": {"name": "S", "cellData": {"5": {"0": {"v": 1}}}}}}
    body = user_client.post(SAVE, json={"params": {"id": file_id, "workbook": too_far}})
    assert body["code"] == 400 and "more than 3 rows" in body["msg"]
    many = {"sheets": {"s": {"name": "S", "cellData": {"0": {str(c): {"v": c} for c in range(7)}}}}}
    body = user_client.post(SAVE, json={"params": {"id": file_id, "workbook": many}})
    assert (
        body["code"] == 400
        and body["msg"] == "The workbook has more than 6 filled cells, more than the editor opens"
    )


def test_a_file_past_the_size_cap_is_refused(
    user_client: AtriumClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    file_id = uploaded(user_client, "budget.xlsx", sample_xlsx(), XLSX)["fileId"]
    monkeypatch.setattr(files_settings(), "editor_max_bytes", 1024)
    body = user_client.get(OPEN, params={"id": file_id})
    assert body["code"] == 400 and body["msg"] == "Files larger than 1KB cannot be opened in the editor"


def test_saved_workbook_data_is_validated(user_client: AtriumClient) -> None:
    file_id, _ = open_sample(user_client)
    for bad in (
        {"sheets": {}},
        {"sheets": {"s": {"cellData": {"0": {"0": {"v": "x" * 40000}}}}}},
        {"sheets": {"s": {"cellData": {"-1": {"0": {"v": 1}}}}}},
    ):
        body = user_client.post(SAVE, json={"params": {"id": file_id, "workbook": bad}})
        assert body["code"] == 400, bad


def test_the_document_list_marks_files_the_editor_opens(user_client: AtriumClient) -> None:
    file_id, _ = open_sample(user_client)
    rows = user_client.ok("GET", f"{BASE}/find-list", params={"keyword": "budget"})["list"]
    row = next(r for r in rows if r["fileId"] == file_id)
    assert row["editorKind"] == "sheet"
    txt = uploaded(user_client, "plain.txt", b"x", "text/plain")["fileId"]
    rows = user_client.ok("GET", f"{BASE}/find-list", params={"keyword": "plain"})["list"]
    assert next(r for r in rows if r["fileId"] == txt)["editorKind"] is None


def test_a_workbook_with_too_many_filled_cells_is_refused_before_it_is_loaded(
    user_client: AtriumClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    file_id = uploaded(user_client, "cells.xlsx", sample_xlsx(), XLSX)["fileId"]
    monkeypatch.setattr(files_settings(), "editor_max_cells", 4)
    body = user_client.get(OPEN, params={"id": file_id})
    assert body["code"] == 400
    assert body["msg"] == "The workbook has more than 4 filled cells, more than the editor opens"


def sample_docx() -> bytes:
    doc = Document()
    first = doc.add_paragraph("Plain start, ")
    first.add_run("bold part").bold = True
    first.add_run(" and ")
    first.add_run("italic part").italic = True
    doc.add_paragraph("Second paragraph")
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def test_docx_opens_as_paragraphs_with_bold_and_italic_runs(user_client: AtriumClient) -> None:
    file_id = uploaded(user_client, "letter.docx", sample_docx(), DOCX)["fileId"]
    data = user_client.ok("GET", OPEN, params={"id": file_id})
    assert data["kind"] == "doc" and data["fileName"] == "letter.docx"
    body = data["data"]["body"]
    text = body["dataStream"]
    assert text == "Plain start, bold part and italic part\rSecond paragraph\r\n"
    assert [p["startIndex"] for p in body["paragraphs"]] == [38, 55]
    assert body["sectionBreaks"] == [{"startIndex": 56}]
    bold = text.index("bold part")
    italic = text.index("italic part")
    assert {"st": bold, "ed": bold + 9, "ts": {"bl": 1}} in body["textRuns"]
    assert {"st": italic, "ed": italic + 11, "ts": {"it": 1}} in body["textRuns"]


def test_edited_document_is_saved_as_a_new_docx_version(user_client: AtriumClient) -> None:
    file_id = uploaded(user_client, "letter.docx", sample_docx(), DOCX)["fileId"]
    body = user_client.ok("GET", OPEN, params={"id": file_id})["data"]["body"]
    edited = {
        "dataStream": "New title\r" + body["dataStream"],
        "textRuns": [{"st": 0, "ed": 9, "ts": {"bl": 1, "it": 1}}],
        "paragraphs": [
            {"startIndex": 9},
            *({"startIndex": p["startIndex"] + 10} for p in body["paragraphs"]),
        ],
    }
    saved = user_client.ok("POST", SAVE, json={"params": {"id": file_id, "document": {"body": edited}}})
    assert saved["previousId"] == file_id and saved["sourceFileName"] == "letter.docx"
    resp = user_client.http.get(saved["filePath"], headers=user_client.headers)
    doc = Document(io.BytesIO(resp.content))
    assert [p.text for p in doc.paragraphs] == [
        "New title",
        "Plain start, bold part and italic part",
        "Second paragraph",
    ]
    title = doc.paragraphs[0].runs[0]
    assert title.bold and title.italic
    # a workbook sent for a Word document saves nothing
    wrong = user_client.post(SAVE, json={"params": {"id": file_id, "workbook": {"sheets": {"s": {}}}}})
    assert wrong["code"] == 400
