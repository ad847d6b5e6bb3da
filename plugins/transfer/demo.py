"""Demo content for Acme: contacts, an import history, and a finished export with its file.

Demo data is loaded before the platform starts (no storage service yet): the export's file is written at
start-up when it is missing.
"""

from __future__ import annotations

import tempfile
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import structlog

from atrium.sdk.context import tenant_scope
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import StorageUnavailable
from atrium.sdk.services import services as platform

from .contacts import COLUMNS
from .exporting.writer import XlsxRowWriter
from .models import DONE, Contact, ExportTask, ImportBatch

EXPORT_FILE = "demo-acme-contacts-export-0001.xlsx"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
log = structlog.get_logger("atrium.transfer")
CONTACTS = [
    ("王芳", "13800010001", "wang.fang@acme.example", "Acme", "财务部", 3, date(2021, 3, 1)),
    ("李强", "13800010002", "li.qiang@acme.example", "Acme", "信息部", 5, date(2020, 7, 15)),
    ("Alice Zhang", "+86 138 0000 0001", "alice@acme.example", "Acme", "Finance", 4, date(2019, 5, 20)),
    ("Tom Baker", "+44 20 7946 0018", "tom@partner.example", "Partner Ltd", "Sales", 2, date(2022, 1, 10)),
    (
        "Nguyễn Văn An",
        "+84 24 3826 1234",
        "an.nguyen@vn.example",
        "Saigon Trading",
        "Purchasing",
        6,
        date(2023, 9, 4),
    ),
    (
        "Kovács Anna",
        "+36 1 234 5678",
        "anna.kovacs@hu.example",
        "Budapest Kft",
        "Logistics",
        7,
        date(2018, 11, 30),
    ),
    ("陈晨", "13800010007", "chen.chen@acme.example", "Acme", "人事部", 1, date(2024, 2, 29)),
    ('=HYPERLINK("http://x")', "", "", "Formula Test Co", "QA", None, None),
]


def load(tenants: dict[str, int]) -> None:
    acme = tenants["acme"]
    now = utcnow()
    with tenant_scope(acme):
        db = session()
        first = ImportBatch(
            batch="IMP20260301093000001",
            import_id="contacts",
            file_name="contacts-march.xlsx",
            header_row=1,
            status=DONE,
            data_count=len(CONTACTS),
            processed=len(CONTACTS),
            success_count=len(CONTACTS),
            created_user_name="王主管",
            created_at=now - timedelta(days=9),
            finished_at=now - timedelta(days=9),
        )
        second = ImportBatch(
            batch="IMP20260305141500002",
            import_id="contacts",
            file_name="partners.xlsx",
            header_row=2,
            status=DONE,
            data_count=5,
            processed=5,
            success_count=3,
            fail_count=2,
            created_user_name="Alice Zhang",
            created_at=now - timedelta(days=5),
            finished_at=now - timedelta(days=5),
        )
        db.add_all([first, second])
        db.flush()
        for name, phone, email, company, dept, level, joined in CONTACTS:
            db.add(
                Contact(
                    name=name,
                    phone=phone,
                    email=email,
                    company=company,
                    department=dept,
                    level=level,
                    joined_on=joined,
                    batch_id=first.id,
                )
            )
        # the workbook itself is written at start-up (materialise)
        att = platform().attachments.record(
            acme,
            EXPORT_FILE,
            "contacts.xlsx",
            XLSX,
            func_code="dataexport",
            policy="export",
            creation_name="王主管",
        )
        db.add(
            ExportTask(
                action="excel",
                request_url="transfer/contacts/exportData",
                function_name="联系人导出",
                file_name="contacts",
                excel_type="xlsx",
                status=DONE,
                progress=100,
                row_count=len(CONTACTS),
                columns=[{"key": c.key, "title": c.title} for c in COLUMNS],
                file_id=att.id,
                file_url=f"/api/file/iot-base-attachment/file/{EXPORT_FILE}",
                user_name="王主管",
                created_at=now - timedelta(days=2),
                finished_at=now - timedelta(days=2),
                attempts=1,
            )
        )
        db.flush()


def materialise(services: Any) -> None:
    """Put the demo export's workbook in the object storage if its record exists and the object does not.

    xlsxwriter needs a file path, so the workbook is written to a temporary file first. An unreachable
    store is logged and left: the platform still starts."""
    with services.db():
        tenants = services.attachments.tenants_of(EXPORT_FILE)
    storage = services.storage
    try:
        for tenant_id in tenants:
            if storage.exists(tenant_id, EXPORT_FILE):
                continue
            with tempfile.TemporaryDirectory(prefix="atrium-demo-") as tmp:
                path = Path(tmp) / EXPORT_FILE
                with XlsxRowWriter(path, [c.title for c in COLUMNS], title="contacts") as w:
                    w.write_rows(CONTACTS)
                with path.open("rb") as f:
                    storage.put(tenant_id, EXPORT_FILE, f, XLSX)
    except StorageUnavailable:
        log.warning("demo export not written: the object storage is unreachable")
