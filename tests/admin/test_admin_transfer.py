"""Users imported through the import wizard's target and exported through the export flow (transfer)."""

from __future__ import annotations

import io
import secrets

import python_calamine as pc

from tests.admin.conftest import A, audit_of
from tests.transfer.util import EXPORT, download, import_data, wait_export, xlsx_bytes

HEADER = ["Account", "Name", "Mobile", "Email", "Staff number", "Department"]


def test_import_users_into_the_supervisors_tenant(boss, user_client):
    a, b = f"imp{secrets.token_hex(3)}", f"imp{secrets.token_hex(3)}"
    rows = [
        HEADER,
        [a, "Imported One", "13900000001", "one@imp.test", "S-1", "Ops"],
        [b, "Imported Two", "", "", "", ""],
        ["bad account!", "Nope", "", "", "", ""],
        [f"imp{secrets.token_hex(3)}", "Bad Mail", "", "not-mail", "", ""],
        ["alice", "Taken", "", "", "", ""],
    ]
    body = import_data(boss, xlsx_bytes(rows), name="users.xlsx", import_id="admin-users")
    assert body["code"] == 800, body
    res = body["data"]
    assert (res["totalCount"], res["successCount"], res["failCount"]) == (5, 2, 3), res
    users = boss.ok("GET", f"{A}/users/page?keyword=Imported")["list"]
    assert {u["account"] for u in users} == {a, b}
    one = next(u for u in users if u["account"] == a)
    assert (one["mobile"], one["email"], one["tenantId"]) == ("13900000001", "one@imp.test", boss.tenant_id)
    assert audit_of(boss, "user.import", one["userId"])
    refused = import_data(user_client, xlsx_bytes(rows[:2]), name="users.xlsx", import_id="admin-users")
    assert refused["code"] != 800


def test_export_the_tenants_users(boss):
    made = boss.ok(
        "POST",
        f"{A}/users",
        json={
            "account": f"exp{secrets.token_hex(3)}",
            "password": "Abc12345",
            "userFullName": "Exported Person",
            "email": "exp@x.test",
        },
    )
    payload = {
        "url": "api/admin/users/export",
        "fileName": "users",
        "excelType": "xlsx",
        "method": "POST",
        "pageIndex": 1,
        "pageRows": 1000,
        "params": {},
        "columnList": [
            {"title": "Account", "key": "account"},
            {"title": "Name", "key": "userFullName"},
            {"title": "Email", "key": "email"},
        ],
    }
    created = boss.post(f"{EXPORT}/export/", json=payload)
    assert created["code"] == 800, created
    res = wait_export(boss, created["data"]["exportId"])
    assert res["status"] == 2, res
    wb = pc.CalamineWorkbook.from_filelike(io.BytesIO(download(boss, res["url"], res["fileName"])))
    sheet = wb.get_sheet_by_index(0).to_python()
    assert sheet[0] == ["Account", "Name", "Email"]
    assert "Exported Person" in {row[1] for row in sheet[1:]} and len(sheet) == 3  # the boss and this one
    assert made["userId"]
