"""The transfer plugin's own import target and export source: a tenant's business contacts."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import Select, func, select

from atrium.sdk.db import session

from .models import Contact
from .registry import (
    ExportColumn,
    ExportRequest,
    ExportSource,
    ImportField,
    ImportTarget,
    WordTemplate,
    bulk_insert,
    current_batch_id,
    query_rows,
)
from .settings import transfer_settings

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
PHONE = re.compile(r"^\+?[0-9 ()-]{5,20}$")

FIELDS = [
    ImportField(
        "name",
        {"zh-cn": "姓名", "zh-tw": "姓名", "en-us": "Name", "vi-vn": "Họ tên", "hu-hu": "Név"},
        required=True,
        max_length=64,
        aliases=("full name", "contact", "联系人"),
    ),
    ImportField(
        "phone",
        {"zh-cn": "电话", "zh-tw": "電話", "en-us": "Phone", "vi-vn": "Điện thoại", "hu-hu": "Telefon"},
        max_length=32,
        aliases=("mobile", "手机", "联系电话"),
    ),
    ImportField(
        "email",
        {"zh-cn": "邮箱", "zh-tw": "郵箱", "en-us": "Email", "vi-vn": "Email", "hu-hu": "E-mail"},
        max_length=128,
        aliases=("e-mail", "mail", "电子邮箱"),
    ),
    ImportField(
        "company",
        {"zh-cn": "公司", "zh-tw": "公司", "en-us": "Company", "vi-vn": "Công ty", "hu-hu": "Cég"},
        max_length=128,
        aliases=("公司名称", "company name"),
    ),
    ImportField(
        "department",
        {"zh-cn": "部门", "zh-tw": "部門", "en-us": "Department", "vi-vn": "Phòng ban", "hu-hu": "Osztály"},
        max_length=64,
    ),
    ImportField(
        "level",
        {"zh-cn": "级别", "zh-tw": "級別", "en-us": "Level", "vi-vn": "Cấp độ", "hu-hu": "Szint"},
        type="int",
        min_value=1,
        max_value=10,
    ),
    ImportField(
        "joined_on",
        {
            "zh-cn": "加入日期",
            "zh-tw": "加入日期",
            "en-us": "Joined on",
            "vi-vn": "Ngày tham gia",
            "hu-hu": "Csatlakozás",
        },
        type="date",
        aliases=("joined", "date"),
    ),
]


def validate(row: dict[str, Any]) -> str | None:
    if row.get("email") and not EMAIL.match(row["email"]):
        return "transfer:contacts.bad_email"
    if row.get("phone") and not PHONE.match(row["phone"]):
        return "transfer:contacts.bad_phone"
    return None


def write(rows: list[dict[str, Any]]) -> None:
    batch = current_batch_id()
    bulk_insert(
        Contact,
        [
            {
                **r,
                "phone": r["phone"] or "",
                "email": r["email"] or "",
                "company": r["company"] or "",
                "department": r["department"] or "",
                "batch_id": batch,
            }
            for r in rows
        ],
    )


TARGET = ImportTarget(
    code="contacts",
    name={
        "zh-cn": "联系人",
        "zh-tw": "聯絡人",
        "en-us": "Contacts",
        "vi-vn": "Danh bạ",
        "hu-hu": "Kapcsolatok",
    },
    fields=FIELDS,
    write=write,
    validate_row=validate,
)

COLUMNS = [ExportColumn(f.key, f.label if isinstance(f.label, str) else f.label["en-us"]) for f in FIELDS]


def _select(req: ExportRequest) -> Select[Any]:
    wanted = [c.key for c in req.columns] or [c.key for c in COLUMNS]
    cols = [getattr(Contact, k) for k in wanted if k in Contact.__table__.c]
    q = select(*cols).order_by(Contact.id)
    keyword = str(req.params.get("keyword", "") or "")
    if keyword:
        q = q.where(Contact.name.contains(keyword, autoescape=True))
    return q


def _count(req: ExportRequest) -> int:
    q = _select(req)
    return int(session().execute(select(func.count()).select_from(q.order_by(None).subquery())).scalar_one())


SOURCE = ExportSource(
    url="api/transfer/contacts/exportData",
    name={
        "zh-cn": "联系人导出",
        "zh-tw": "聯絡人匯出",
        "en-us": "Contacts export",
        "vi-vn": "Xuất danh bạ",
        "hu-hu": "Kapcsolatok exportja",
    },
    rows=query_rows(_select),
    count=_count,
    columns=lambda req: COLUMNS,
)


def _summary(params: dict[str, Any]) -> dict[str, Any]:
    contacts = session().execute(select(Contact).order_by(Contact.id).limit(200)).scalars().all()
    return {
        "title": str(params.get("title") or "Contacts"),
        "rows": [
            {"name": c.name, "company": c.company, "phone": c.phone, "email": c.email} for c in contacts
        ],
        "total": len(contacts),
    }


def word_template() -> WordTemplate:
    return WordTemplate(
        code="contacts-summary",
        path=transfer_settings().templates_dir / "contacts-summary.docx",
        context=_summary,
        file_name={"zh-cn": "联系人汇总", "en-us": "Contacts summary"},
    )
