"""A real 100,000-row workbook, generated here, imported through import-data."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from atrium.plugins.transfer.models import Contact
from atrium.sdk.context import tenant_scope
from atrium.sdk.testing import AtriumClient

from .util import IMPORT, wait_import, write_xlsx

ROWS = 100_000


def test_import_of_100000_rows(user_client: AtriumClient, kernel: Any, tmp_path: Path) -> None:
    path = tmp_path / "contacts-100k.xlsx"
    start = date(2020, 1, 1)
    write_xlsx(
        path,
        ["Name", "Phone", "Email", "Company", "Department", "Level", "Joined on"],
        (
            [
                f"Person {i}",
                f"1390000{i:05d}"[:11],
                f"p{i}@corp.example",
                f"Company {i % 97}",
                f"Dept {i % 13}",
                i % 10 + 1,
                (start + timedelta(days=i % 2000)).isoformat(),
            ]
            for i in range(ROWS)
        ),
    )
    with path.open("rb") as f:
        body = user_client.post(
            f"{IMPORT}/import-data",
            data={"importId": "contacts"},
            files={"file": ("contacts-100k.xlsx", f, "application/octet-stream")},
        )
    assert body["code"] == 800, body
    res = wait_import(user_client, body["data"]["batchId"])
    assert (res["status"], res["totalCount"], res["successCount"], res["failCount"]) == (2, ROWS, ROWS, 0)
    with tenant_scope(1001), kernel.db() as db:
        count = db.execute(
            select(func.count()).select_from(Contact).where(Contact.batch_id == res["batchId"])
        ).scalar_one()
        last = db.execute(
            select(Contact).where(Contact.batch_id == res["batchId"]).order_by(Contact.id.desc()).limit(1)
        ).scalar_one()
    assert count == ROWS
    assert (last.name, last.level, last.joined_on) == (
        f"Person {ROWS - 1}",
        10,
        start + timedelta(days=(ROWS - 1) % 2000),
    )
