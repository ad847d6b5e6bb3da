"""Forms with the transfer plugin (export of the list, each form an import target) and the process hooks."""

from __future__ import annotations

import io
from typing import Any

import python_calamine as pc

from atrium.sdk.context import tenant_scope
from atrium.sdk.testing import AtriumClient
from tests.forms.conftest import SUB, published_form
from tests.transfer.util import EXPORT, IMPORT, download, wait_export, wait_import, wizard_upload, xlsx_bytes


def test_the_list_exports_through_the_async_export(boss: AtriumClient) -> None:
    published_form(boss)
    for title in ("Taxi", "Hotel"):
        boss.ok(
            "POST",
            f"{SUB}/save",
            json={"formId": "expense", "data": {"title": title, "amount": 9, "kind": "a"}},
        )
    created = boss.ok(
        "POST",
        f"{EXPORT}/export/",
        json={
            "url": "api/form/submission/exportData",
            "fileName": "expense",
            "excelType": "xlsx",
            "method": "POST",
            "singleSheetMaxRows": 100000,
            "pageIndex": 1,
            "pageRows": 1000,
            "columnList": [],
            "params": {"formId": "expense", "filters": {"title": "Hotel"}},
        },
    )
    res = wait_export(boss, created["exportId"], 60)
    assert res["status"] == 2, res
    sheet = pc.CalamineWorkbook.from_filelike(io.BytesIO(download(boss, res["url"], res["fileName"])))
    rows = sheet.get_sheet_by_index(0).to_python()
    assert rows[0][:3] == ["Title", "备注", "Amount"] and len(rows) == 2
    assert rows[1][0] == "Hotel" and rows[1][2] == 9
    # who, when and the state in words of the reader's language, not field names and codes
    assert rows[0][-3:] == ["Submitted by", "Submitted at", "Status"]
    assert rows[1][-1] == "Submitted"


def test_a_published_form_is_an_import_target(boss: AtriumClient) -> None:
    published_form(boss)
    targets = {
        t["importId"] if "importId" in t else t.get("code"): t for t in boss.ok("GET", f"{IMPORT}/targets")
    }
    assert "form-expense" in targets
    rows: list[list[Any]] = [["title", "amount", "kind"]]
    rows += [[f"Row {i}", i % 50 + 1, "a"] for i in range(1000)]
    rows.append(["x", 5000, "c"])
    up = wizard_upload(boss, xlsx_bytes(rows), "rows.xlsx", "form-expense")
    assert up["code"] == 800, up
    batch = up["data"]["batchId"]
    boss.ok(
        "POST",
        f"{IMPORT}/start",
        json={"batchId": batch, "headerRow": 1, "mapping": {"title": 0, "amount": 1, "kind": 2}},
    )
    res = wait_import(boss, batch, 120)
    assert res["successCount"] == 1000 and res["totalCount"] == 1001, str(res)[:1500]
    listed = boss.ok("POST", f"{SUB}/list", json={"formId": "expense", "filters": {"title": "Row 7"}})
    assert listed["total"] == 1 and listed["list"][0]["data"] == {"title": "Row 7", "amount": 8, "kind": "a"}


def test_process_hooks_offer_forms_and_store_what_is_filled(boss: AtriumClient, kernel: Any) -> None:
    published_form(boss)
    with tenant_scope(boss.tenant_id), kernel.db():
        offered = kernel.plugins.call("atrium_process_forms", tenant_id=boss.tenant_id)["forms"]
        assert [f["code"] for f in offered] == ["expense"] and offered[0]["version"] == 1
        hook = kernel.plugins.pm.hook.atrium_process_form_submit
        refused = hook(
            tenant_id=boss.tenant_id,
            form_code="expense",
            data={"amount": 1, "kind": "a"},
            user_id=None,
            process={"processId": "p1", "kind": "start"},
        )
        assert refused["errors"][0]["field"] == "title"
        stored = hook(
            tenant_id=boss.tenant_id,
            form_code="expense",
            data={"title": "By process", "amount": 3},
            user_id=None,
            process={"processId": "p1", "kind": "start"},
        )
        assert stored["submissionId"] and stored["version"] == 1
    listed = boss.ok("POST", f"{SUB}/list", json={"formId": "expense", "keyword": "By process"})
    assert listed["total"] == 1
    # the refused one left nothing behind, though the transaction went on: no submission, no index rows
    assert boss.ok("POST", f"{SUB}/list", json={"formId": "expense"})["total"] == 1
    assert boss.ok("POST", f"{SUB}/list", json={"formId": "expense", "filters": {"kind": "a"}})["total"] == 0


def test_an_import_checks_dictionary_fields_against_their_dictionary(
    boss: AtriumClient, admin_client: AtriumClient
) -> None:
    for code in ("north", "south"):
        admin_client.ok(
            "POST",
            "/api/base/admin/dictionaries",
            json={
                "dicType": "FORMS_REGIONS",
                "dicCode": code,
                "names": {"zh-cn": code, "en-us": code.title()},
            },
        )
    schema = {
        "type": "object",
        "required": ["title"],
        "properties": {
            "title": {"type": "string", "title": "Title", "x-kind": "text"},
            "region": {"type": "string", "title": "Region", "x-kind": "select", "x-dict": "FORMS_REGIONS"},
        },
    }
    published_form(boss, "regions", schema=schema)
    rows: list[list[Any]] = [["title", "region"], ["A", "north"], ["B", "east"], ["C", "south"], ["D", ""]]
    up = wizard_upload(boss, xlsx_bytes(rows), "regions.xlsx", "form-regions")
    assert up["code"] == 800, up
    batch = up["data"]["batchId"]
    boss.ok(
        "POST",
        f"{IMPORT}/start",
        json={"batchId": batch, "headerRow": 1, "mapping": {"title": 0, "region": 1}},
    )
    res = wait_import(boss, batch, 60)
    assert (res["totalCount"], res["successCount"]) == (4, 3), str(res)[:1500]
    listed = boss.ok("POST", f"{SUB}/list", json={"formId": "regions"})
    assert sorted(s["data"]["title"] for s in listed["list"]) == ["A", "C", "D"]


def test_an_import_takes_numbers_written_as_text_and_empty_optional_cells(boss: AtriumClient) -> None:
    """A number field refuses words, but an Excel cell holding a number as text is still a number and an empty
    optional cell is left out: only the word is refused."""
    schema = {
        "type": "object",
        "required": ["title"],
        "properties": {
            "title": {"type": "string", "title": "Title", "x-kind": "text"},
            "score": {"type": "number", "title": "Score", "x-kind": "number", "minimum": 0, "maximum": 100},
            "copies": {"type": "integer", "title": "Copies", "x-kind": "number"},
        },
    }
    published_form(boss, "scores", schema=schema)
    rows: list[list[Any]] = [
        ["title", "score", "copies"],
        ["A", "12", "3"],
        ["B", " 12.0 ", 4],
        ["C", None, None],
        ["D", "", "5"],
        ["E", "many", 1],
    ]
    up = wizard_upload(boss, xlsx_bytes(rows), "scores.xlsx", "form-scores")
    assert up["code"] == 800, up
    batch = up["data"]["batchId"]
    boss.ok(
        "POST",
        f"{IMPORT}/start",
        json={"batchId": batch, "headerRow": 1, "mapping": {"title": 0, "score": 1, "copies": 2}},
    )
    res = wait_import(boss, batch, 60)
    assert (res["totalCount"], res["successCount"]) == (5, 4), str(res)[:1500]
    listed = boss.ok("POST", f"{SUB}/list", json={"formId": "scores", "pageSize": 10})
    data = {s["data"]["title"]: s["data"] for s in listed["list"]}
    assert data == {
        "A": {"title": "A", "score": 12, "copies": 3},
        "B": {"title": "B", "score": 12, "copies": 4},
        "C": {"title": "C"},
        "D": {"title": "D", "copies": 5},
    }
