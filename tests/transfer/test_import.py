"""Import: import-data, the four-step wizard, row rules, failed-rows Excel, history, tenant isolation."""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import date
from typing import Any

import openpyxl
import pytest
from sqlalchemy import func, select

from atrium.plugins.transfer.models import Contact
from atrium.plugins.transfer.registry import ImportField, ImportTarget, bulk_insert, registry
from atrium.sdk.context import tenant_scope
from atrium.sdk.testing import AtriumClient

from .util import IMPORT, download, import_data, wait_import, wizard_upload, xlsx_bytes

HEADER = ["Name", "Phone", "Email", "Company", "Department", "Level", "Joined on"]


def contacts_of_batch(kernel: Any, batch_id: int, tenant: int = 1001) -> list[Contact]:
    with tenant_scope(tenant), kernel.db() as db:
        return list(
            db.execute(select(Contact).where(Contact.batch_id == batch_id).order_by(Contact.id)).scalars()
        )


def test_targets_list_the_demo_contacts_target(user_client: AtriumClient) -> None:
    targets = {t["importId"]: t for t in user_client.ok("GET", f"{IMPORT}/targets")}
    fields = {f["key"]: f for f in targets["contacts"]["fields"]}
    assert fields["name"]["required"] is True and fields["level"]["type"] == "int"
    assert fields["joined_on"]["label"] == "Joined on"


def test_import_data_imports_good_rows_and_reports_bad_ones(user_client: AtriumClient, kernel: Any) -> None:
    rows = [
        HEADER,
        ["Ann", "13800000009", "ann@acme.example", "Acme", "Ops", 3, date(2024, 5, 1)],
        ["Ben", "+44 20 7946 0000", "", "", "", "", ""],
        ["", "123456", "x@y.zz", "", "", 2, ""],  # name missing
        ["Cid", "123456", "not-an-email", "", "", 11, "soon"],  # three problems
        [None, None, None, None, None, None, None],  # blank rows are skipped
        ["=1+2", "", "", "", "", "", ""],  # text that looks like a formula stays text
    ]
    body = import_data(user_client, xlsx_bytes(rows))
    assert body["code"] == 800, body
    res = body["data"]
    assert (res["status"], res["totalCount"], res["successCount"], res["failCount"]) == (2, 5, 3, 2)
    assert res["hasExcel"] is True and res["errorMsg"] == ""
    assert res["checkMsg"] == "2 rows failed, please check the data format and try again"
    saved = contacts_of_batch(kernel, res["batchId"])
    assert [c.name for c in saved] == ["Ann", "Ben", "=1+2"]
    assert saved[0].level == 3 and saved[0].joined_on == date(2024, 5, 1) and saved[1].level is None
    failed = openpyxl.load_workbook(io.BytesIO(download(user_client, res["excelUrl"], "failed.xlsx")))
    ws = failed.active
    assert [c.value for c in ws[1]] == [*HEADER, "Reason"]
    reasons = [r[-1] for r in ws.iter_rows(min_row=2, values_only=True)]
    assert reasons[0] == "Name is required"
    assert "email address is not valid" not in reasons[1]  # type errors come first, then the row rule
    assert "Level must be at most 10" in reasons[1] and "Joined on must be a date (YYYY-MM-DD)" in reasons[1]


def test_row_rule_of_the_target_gives_the_reason(user_client: AtriumClient) -> None:
    res = import_data(user_client, xlsx_bytes([HEADER, ["Dee", "12", "bad@", "", "", 1, ""]]))["data"]
    assert res["failCount"] == 1
    failed = openpyxl.load_workbook(io.BytesIO(download(user_client, res["excelUrl"])))
    assert (
        list(failed.active.iter_rows(min_row=2, values_only=True))[0][-1] == "The email address is not valid"
    )


def test_messages_follow_the_language_of_the_request(user_client: AtriumClient) -> None:
    user_client.headers["language"] = "zh#cn"
    try:
        res = import_data(
            user_client, xlsx_bytes([HEADER, ["", "", "", "", "", "", ""], ["", "1", "", "", "", "", ""]])
        )
        assert res["data"]["checkMsg"] == "1 行导入失败，请检查数据格式后重试"
        body = import_data(user_client, b"a,b\n1,2\n", name="data.csv")
        assert body["msg"] == "只能导入 xls 或 xlsx 文件（不支持 zip 等其他类型）"
    finally:
        user_client.headers["language"] = "en#us"


def test_formula_cells_are_read_as_their_plain_value(user_client: AtriumClient, kernel: Any) -> None:
    data = xlsx_bytes(
        [HEADER, ["Eve", "", "", "", "", "", ""], ["Fay", "", "", "", "", "", ""]],
        formulas={(1, 3): ("=1+2", 3), (2, 3): ("='http://evil.example/[x.xlsx]S'!A1", "linked")},
    )
    res = import_data(user_client, data)["data"]
    assert res["successCount"] == 2
    saved = contacts_of_batch(kernel, res["batchId"])
    assert [c.company for c in saved] == ["3", "linked"]


def test_history_lists_the_callers_imports(user_client: AtriumClient, admin_client: AtriumClient) -> None:
    res = import_data(user_client, xlsx_bytes([HEADER, ["Gus", "", "", "", "", "", ""]]))["data"]
    page = user_client.ok(
        "POST", f"{IMPORT}/history", json={"importId": "contacts", "pageNum": 1, "pageSize": 50}
    )
    row = next(r for r in page["list"] if r["batchId"] == res["batchId"])
    for key in ("batch", "status", "dataCount", "successCount", "creationDate", "createdUserName"):
        assert key in row
    assert row["createdUserName"] == "Alice Zhang" and row["dataCount"] == 1 and row["successCount"] == 1
    assert all(r["createdUserName"] == "Alice Zhang" for r in page["list"])
    everyone = admin_client.ok("POST", f"{IMPORT}/history", json={"pageSize": 200})
    assert {"王主管", "Alice Zhang"} <= {r["createdUserName"] for r in everyone["list"]}  # demo history too


# -- the wizard ------------------------------------------------------------------------------------------


def titled_sheet(n: int = 80) -> bytes:
    rows: list[list[Any]] = [
        ["Contacts of the sales team"],
        ["exported 2026-03-01"],
        ["联系人", "手机", "E-mail", "Notes", "Level"],
    ]
    rows += [[f"P{i}", f"1380000{i:04d}", f"p{i}@acme.example", "", (i % 10) + 1] for i in range(n)]
    return xlsx_bytes(rows)


def test_wizard_four_steps(user_client: AtriumClient, kernel: Any) -> None:
    up = wizard_upload(user_client, titled_sheet())["data"]
    assert up["totalRows"] == 83 and len(up["rows"]) == 50  # only the first 50 rows are previewed
    assert up["rows"][2][:2] == ["联系人", "手机"]
    cols = user_client.ok("POST", f"{IMPORT}/columns", json={"batchId": up["batchId"], "headerRow": 3})
    assert [c["title"] for c in cols["columns"]] == ["联系人", "手机", "E-mail", "Notes", "Level"]
    auto = {m["field"]: m["column"] for m in cols["autoMatch"]}
    assert auto == {"name": 0, "phone": 1, "email": 2, "level": 4}
    dup = user_client.post(
        f"{IMPORT}/start",
        json={"batchId": up["batchId"], "headerRow": 3, "mapping": {"name": 0, "company": 0}},
    )
    assert dup["code"] == 400
    assert dup["msg"] == "Company and Name are matched to the same column; each column can be matched once"
    missing = user_client.post(
        f"{IMPORT}/start", json={"batchId": up["batchId"], "headerRow": 3, "mapping": {"phone": 1}}
    )
    assert missing == {"code": 400, "msg": "The required field Name is not matched", "data": None}
    res = user_client.ok(
        "POST",
        f"{IMPORT}/start",
        json={"batchId": up["batchId"], "headerRow": 3, "mapping": {**auto, "company": 3, "level": None}},
    )
    res = wait_import(user_client, res["batchId"])
    assert (res["status"], res["totalCount"], res["successCount"], res["failCount"]) == (2, 80, 80, 0)
    assert res["hasExcel"] is False
    saved = contacts_of_batch(kernel, up["batchId"])
    assert len(saved) == 80 and saved[5].phone == "13800000005" and saved[5].level is None
    again = user_client.post(
        f"{IMPORT}/start", json={"batchId": up["batchId"], "headerRow": 3, "mapping": auto}
    )
    assert again["code"] == 400


def test_header_row_past_the_end(user_client: AtriumClient) -> None:
    up = wizard_upload(user_client, xlsx_bytes([HEADER, ["a"]]))["data"]
    body = user_client.post(f"{IMPORT}/columns", json={"batchId": up["batchId"], "headerRow": 5})
    assert body["code"] == 400 and "past the end" in body["msg"]


def test_batches_of_others_are_not_found(
    user_client: AtriumClient, client: AtriumClient, user_factory
) -> None:
    up = wizard_upload(user_client, xlsx_bytes([HEADER, ["a"]]))["data"]
    bob = client.signed_in("bob")
    account, password, _ = user_factory(1001)
    carol = client.signed_in(account, password)
    for other in (bob, carol):
        for method, path, kw in (
            ("POST", f"{IMPORT}/columns", {"json": {"batchId": up["batchId"]}}),
            ("POST", f"{IMPORT}/start", {"json": {"batchId": up["batchId"]}}),
            ("GET", f"{IMPORT}/result", {"params": {"batchId": up["batchId"]}}),
        ):
            theirs = other._call(method, path, **kw)
            kw2 = {k: ({**v, "batchId": 99999999}) for k, v in kw.items()}
            missing = other._call(method, path, **kw2)
            assert theirs == missing and theirs["code"] == 404


def test_unknown_import_target(user_client: AtriumClient) -> None:
    body = import_data(user_client, xlsx_bytes([HEADER]), import_id="nope")
    assert body["code"] == 404 and body["msg"] == "The import type does not exist"
    body = user_client.post(f"{IMPORT}/import-data", files={"file": ("a.xlsx", xlsx_bytes([HEADER]), "x")})
    assert body["code"] == 400 and "importId" in body["msg"]
    body = user_client.post(f"{IMPORT}/import-data", data={"importId": "contacts"})
    assert body["code"] == 400


def test_template_has_the_field_titles(user_client: AtriumClient) -> None:
    resp = user_client.http.get(
        f"{IMPORT}/template", params={"importId": "contacts"}, headers=user_client.headers
    )
    assert resp.status_code == 200
    ws = openpyxl.load_workbook(io.BytesIO(resp.content)).active
    assert [c.value for c in ws[1]][:2] == ["*Name", "Phone"]


def test_import_takes_too_long_answers_and_runs_on(
    user_client: AtriumClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from atrium.plugins.transfer.settings import transfer_settings

    monkeypatch.setattr(transfer_settings(), "import_wait_seconds", 0.0)
    rows = [HEADER] + [[f"Slow {i}", "", "", "", "", "", ""] for i in range(3000)]
    res = import_data(user_client, xlsx_bytes(rows))["data"]
    if res["status"] != 2:  # the answer came before the end of the run
        assert res["checkMsg"] == (
            "The import is taking a long time. Please refresh later and check the import records."
        )
    done = wait_import(user_client, res["batchId"])
    assert done["status"] == 2 and done["successCount"] == 3000


# -- all or nothing per row ------------------------------------------------------------------------------


@pytest.fixture
def picky_target() -> Iterator[None]:
    """A target that writes each row as two records and refuses rows named 'boom' after the first record."""

    def write(rows: list[dict[str, Any]]) -> None:
        for r in rows:
            bulk_insert(Contact, [{"name": r["name"], "company": "first half"}])
            if r["name"].startswith("boom"):
                raise ValueError("the database refused this row")
            bulk_insert(Contact, [{"name": r["name"], "company": "second half"}])

    registry.targets["picky"] = ImportTarget(
        code="picky", name="Picky", fields=[ImportField("name", "Name", required=True)], write=write
    )
    yield
    registry.targets.pop("picky", None)


def test_a_row_is_written_whole_or_not_at_all(
    user_client: AtriumClient, kernel: Any, picky_target: None
) -> None:
    names = [f"r{i}" for i in range(40)]
    names[7] = "boom-1"
    names[31] = "boom-2"
    res = import_data(user_client, xlsx_bytes([["Name"], *[[n] for n in names]]), import_id="picky")["data"]
    assert (res["successCount"], res["failCount"]) == (38, 2)
    with tenant_scope(1001), kernel.db() as db:
        halves = db.execute(
            select(Contact.name, func.count()).where(Contact.name.in_(names)).group_by(Contact.name)
        ).all()
    counts = dict(halves)
    assert "boom-1" not in counts and "boom-2" not in counts
    assert all(counts[n] == 2 for n in names if not n.startswith("boom"))
    failed = openpyxl.load_workbook(io.BytesIO(download(user_client, res["excelUrl"])))
    rows = list(failed.active.iter_rows(min_row=2, values_only=True))
    assert sorted(r[0] for r in rows) == ["boom-1", "boom-2"]
    assert rows[0][1] == "The row could not be saved (duplicate or invalid value)"
