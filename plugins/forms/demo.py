"""Demo forms: a leave request (bound to the kernel's DYNAMIC_FORM demo menu) and a visitor registration,
published, with submissions dated relative to today."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from atrium.plugins.forms.models import SUBMITTED, Form, FormVersion, Submission
from atrium.plugins.forms.service import _index_rows, _write_index
from atrium.sdk.context import tenant_scope
from atrium.sdk.db import session, utcnow


def leave_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "title": "请假申请",
        "required": ["applicant", "leaveType", "days", "period"],
        "properties": {
            "applicant": {
                "type": "string",
                "title": "申请人",
                "x-kind": "text",
                "maxLength": 50,
                "x-i18n": {
                    "en-us": "Applicant",
                    "zh-tw": "申請人",
                    "vi-vn": "Người nộp đơn",
                    "hu-hu": "Kérelmező",
                },
            },
            "leaveType": {
                "type": "string",
                "title": "请假类型",
                "x-kind": "select",
                "enum": ["annual", "sick", "personal"],
                "x-enumNames": {"zh-cn": ["年假", "病假", "事假"], "en-us": ["Annual", "Sick", "Personal"]},
                "x-i18n": {
                    "en-us": "Leave type",
                    "zh-tw": "請假類型",
                    "vi-vn": "Loại nghỉ",
                    "hu-hu": "Szabadság típusa",
                },
            },
            "days": {
                "type": "number",
                "title": "天数",
                "x-kind": "number",
                "minimum": 0.5,
                "maximum": 30,
                "x-i18n": {"en-us": "Days", "zh-tw": "天數", "vi-vn": "Số ngày", "hu-hu": "Napok"},
            },
            "period": {
                "type": "array",
                "title": "起止日期",
                "x-kind": "daterange",
                "minItems": 2,
                "maxItems": 2,
                "items": {"type": "string", "format": "date"},
                "x-i18n": {"en-us": "Period", "zh-tw": "起止日期", "vi-vn": "Thời gian", "hu-hu": "Időszak"},
            },
            "reason": {
                "type": "string",
                "title": "事由",
                "x-kind": "textarea",
                "maxLength": 500,
                "x-i18n": {"en-us": "Reason", "zh-tw": "事由", "vi-vn": "Lý do", "hu-hu": "Indok"},
            },
            "doctorNote": {
                "type": "string",
                "title": "医生证明编号",
                "x-kind": "text",
                "maxLength": 40,
                "x-visibleIf": {"field": "leaveType", "value": "sick"},
                "x-i18n": {
                    "en-us": "Doctor's note no.",
                    "zh-tw": "醫生證明編號",
                    "vi-vn": "Số giấy bác sĩ",
                    "hu-hu": "Orvosi igazolás száma",
                },
            },
        },
        "allOf": [
            {
                "if": {"properties": {"leaveType": {"const": "sick"}}, "required": ["leaveType"]},
                "then": {"required": ["doctorNote"]},
            }
        ],
    }


def visitor_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "title": "访客登记",
        "required": ["visitor", "company", "visitDate"],
        "properties": {
            "visitor": {
                "type": "string",
                "title": "访客姓名",
                "x-kind": "text",
                "minLength": 2,
                "maxLength": 40,
                "x-i18n": {
                    "en-us": "Visitor",
                    "zh-tw": "訪客姓名",
                    "vi-vn": "Tên khách",
                    "hu-hu": "Látogató",
                },
            },
            "company": {
                "type": "string",
                "title": "单位",
                "x-kind": "text",
                "maxLength": 80,
                "x-i18n": {"en-us": "Company", "zh-tw": "單位", "vi-vn": "Công ty", "hu-hu": "Cég"},
            },
            "phone": {
                "type": "string",
                "title": "电话",
                "x-kind": "text",
                "pattern": "^[0-9+ -]{6,20}$",
                "x-i18n": {"en-us": "Phone", "zh-tw": "電話", "vi-vn": "Điện thoại", "hu-hu": "Telefon"},
            },
            "visitDate": {
                "type": "string",
                "format": "date",
                "title": "来访日期",
                "x-kind": "date",
                "x-i18n": {
                    "en-us": "Visit date",
                    "zh-tw": "來訪日期",
                    "vi-vn": "Ngày đến",
                    "hu-hu": "Látogatás napja",
                },
            },
            "guests": {
                "type": "integer",
                "title": "随行人数",
                "x-kind": "number",
                "minimum": 0,
                "maximum": 20,
                "x-i18n": {
                    "en-us": "Guests",
                    "zh-tw": "隨行人數",
                    "vi-vn": "Số người đi cùng",
                    "hu-hu": "Kísérők",
                },
            },
        },
    }


LAYOUTS = {"L1": {"columns": 2}, "L2": {"columns": 2}, "L3": {"columns": 3}}


def _publish(code: str, name: dict[str, str], schema: dict[str, Any]) -> tuple[Form, FormVersion]:
    db = session()
    form = Form(code=code, name=name, latest_version=1, published_version=1, allow_edit=True)
    db.add(form)
    db.flush()
    row = FormVersion(form_id=form.id, version=1, schema=schema, ui_schema={}, layouts=LAYOUTS)
    db.add(row)
    db.flush()
    return form, row


def _submit(form: Form, row: FormVersion, data: dict[str, Any], days_ago: int, who: str) -> None:
    at = utcnow() - timedelta(days=days_ago, hours=days_ago % 5)
    sub = Submission(
        form_id=form.id,
        version=row.version,
        data=data,
        status=SUBMITTED,
        created_by_name=who,
        created_at=at,
        updated_at=at,
    )
    session().add(sub)
    session().flush()
    _write_index(_index_rows(row.schema, sub.tenant_id, form.id, sub.id, data))


def load(tenants: dict[str, int]) -> None:
    today = utcnow().date()
    for tenant, people in (("acme", ["Alice", "Bob", "Carol"]), ("globex", ["Gina", "Hank"])):
        if tenant not in tenants:
            continue
        with tenant_scope(tenants[tenant]):
            leave, leave_v = _publish(
                "leave-request",
                {
                    "zh-cn": "请假申请",
                    "en-us": "Leave request",
                    "zh-tw": "請假申請",
                    "vi-vn": "Đơn xin nghỉ",
                    "hu-hu": "Szabadságkérelem",
                },
                leave_schema(),
            )
            visit, visit_v = _publish(
                "visitor-registration",
                {
                    "zh-cn": "访客登记",
                    "en-us": "Visitor registration",
                    "zh-tw": "訪客登記",
                    "vi-vn": "Đăng ký khách",
                    "hu-hu": "Látogatói regisztráció",
                },
                visitor_schema(),
            )
            for i in range(8):
                who = people[i % len(people)]
                start = today - timedelta(days=20 - i * 2)
                _submit(
                    leave,
                    leave_v,
                    {
                        "applicant": who,
                        "leaveType": ["annual", "personal", "annual", "sick"][i % 4],
                        "days": 1 + i % 3,
                        "period": [start.isoformat(), (start + timedelta(days=i % 3)).isoformat()],
                        "reason": f"{tenant} demo request {i + 1}",
                        **({"doctorNote": f"DN-{100 + i}"} if i % 4 == 3 else {}),
                    },
                    days_ago=20 - i * 2,
                    who=who,
                )
            for i in range(5):
                _submit(
                    visit,
                    visit_v,
                    {
                        "visitor": f"Guest {i + 1}",
                        "company": ["Initech", "Umbrella", "Hooli"][i % 3],
                        "visitDate": (today - timedelta(days=i * 3)).isoformat(),
                        "guests": i % 3,
                    },
                    days_ago=i * 3,
                    who=people[0],
                )
