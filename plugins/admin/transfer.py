"""Users through the transfer plugin: an import target (the import wizard creates users in the importing
administrator's tenant) and an export source (the tenant's users), offered through the SDK's transfer
hooks (`atrium_import_targets`, `atrium_export_sources`); without the transfer plugin nobody asks and the
console simply has no import and export."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from atrium.plugins.admin import service
from atrium.sdk.context import current_context
from atrium.sdk.services import services
from atrium.sdk.transfer import ExportColumn, ExportRequest, ExportSource, ImportField, ImportTarget

IMPORT_ID = "admin-users"
EXPORT_URL = "api/admin/users/export"
NAME = {"zh-cn": "用户", "zh-tw": "使用者", "en-us": "Users", "vi-vn": "Người dùng", "hu-hu": "Felhasználók"}
ACCOUNT = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")
PHONE = re.compile(r"^\+?[0-9][0-9 -]{4,30}$")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
# (key, zh-cn, zh-tw, en-us, vi-vn, hu-hu)
COLUMNS = [
    ("account", "账号", "帳號", "Account", "Tài khoản", "Fiók"),
    ("userFullName", "姓名", "姓名", "Name", "Họ tên", "Név"),
    ("mobile", "手机", "手機", "Mobile", "Di động", "Mobil"),
    ("email", "邮箱", "信箱", "Email", "Email", "E-mail"),
    ("staffNo", "工号", "工號", "Staff number", "Mã nhân viên", "Törzsszám"),
    ("department", "部门", "部門", "Department", "Phòng ban", "Osztály"),
]
LOCALES = ("zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu")


def _label(row: tuple[str, ...]) -> dict[str, str]:
    return dict(zip(LOCALES, row[1:], strict=True))


def validate(row: dict[str, Any]) -> str | None:
    t = services().t
    account = str(row.get("account") or "").strip()
    if not ACCOUNT.match(account):
        return t("admin:import_account_invalid")
    with services().db():  # rows are checked outside the import's own transaction
        taken = services().identity.find_user(account) is not None
    if taken:
        return t("user.exists")
    if row.get("mobile") and not PHONE.match(str(row["mobile"]).strip()):
        return t("admin:phone_invalid")
    if row.get("email") and not EMAIL.match(str(row["email"]).strip()):
        return t("admin:email_invalid")
    return None


def write(rows: list[dict[str, Any]]) -> None:
    """Create each user in the tenant in scope; they have no password until an administrator resets it."""
    tenant_id = current_context().tenant_id
    assert tenant_id is not None
    for row in rows:
        fields = {
            "mobile": str(row.get("mobile") or "").strip(),
            "email": str(row.get("email") or "").strip(),
            "staff_no": str(row.get("staffNo") or "").strip()[:32],
            "department": str(row.get("department") or "").strip()[:64],
            "must_change_pwd": True,
        }
        uid = services().identity.create_user(
            str(row["account"]).strip(), str(row["userFullName"]).strip(), tenant_id, **fields
        )
        service.record(
            "user.import",
            tenant_id,
            uid,
            after={"account": row["account"], **fields},
            target_type="user",
            target_name=f"{str(row['userFullName']).strip()} ({str(row['account']).strip()})",
        )


def export_rows(req: ExportRequest) -> list[list[str]]:
    people = services().directory.members(req.tenant_id)
    keys = [c.key for c in req.columns] or [c[0] for c in COLUMNS]
    values = {
        "account": lambda p: p.account,
        "userFullName": lambda p: p.full_name,
        "mobile": lambda p: p.mobile,
        "email": lambda p: p.email,
        "staffNo": lambda p: p.staff_no,
        "department": lambda p: p.department,
    }
    return [[values[k](p) if k in values else "" for k in keys] for p in people]


@cache
def import_targets() -> list[ImportTarget]:
    fields = [
        ImportField("account", _label(COLUMNS[0]), required=True, max_length=64),
        ImportField("userFullName", _label(COLUMNS[1]), required=True, max_length=64),
        *(ImportField(c[0], _label(c), max_length=128) for c in COLUMNS[2:]),
    ]
    return [
        ImportTarget(
            code=IMPORT_ID,
            name=NAME,
            fields=fields,
            write=write,
            validate_row=validate,
            permission="admin",
        )
    ]


@cache
def export_sources() -> list[ExportSource]:
    return [
        ExportSource(
            url=EXPORT_URL,
            name=NAME,
            rows=export_rows,
            permission="admin",
            columns=lambda req: [
                ExportColumn(c[0], _label(c).get(current_context().locale, c[3])) for c in COLUMNS
            ],
        )
    ]
