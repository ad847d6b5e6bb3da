"""Helpers for the transfer tests: workbooks made on the fly, polling, reading results back."""

from __future__ import annotations

import io
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import xlsxwriter

from atrium.sdk.testing import AtriumClient

IMPORT = "/api/import/import-header"
EXPORT = "/api/dataexport/data-export/v2"
FILES = "/api/file/iot-base-attachment"


def xlsx_bytes(
    rows: Sequence[Sequence[Any]], *, formulas: dict[tuple[int, int], tuple[str, Any]] | None = None
) -> bytes:
    buf = io.BytesIO()
    wb = xlsxwriter.Workbook(buf, {"in_memory": True, "strings_to_formulas": False})
    ws = wb.add_worksheet()
    date_fmt = wb.add_format({"num_format": "yyyy-mm-dd"})
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            if hasattr(v, "year"):
                ws.write_datetime(r, c, v, date_fmt)
            elif v is not None:
                ws.write(r, c, v)
    for (r, c), (formula, value) in (formulas or {}).items():
        ws.write_formula(r, c, formula, None, value)
    wb.close()
    return buf.getvalue()


def write_xlsx(path: Path, header: Sequence[str], rows: Any) -> None:
    wb = xlsxwriter.Workbook(str(path), {"constant_memory": True})
    ws = wb.add_worksheet()
    ws.write_row(0, 0, header)
    for r, row in enumerate(rows, start=1):
        ws.write_row(r, 0, row)
    wb.close()


def rezip(data: bytes, replace: dict[str, bytes] | None = None, add: dict[str, bytes] | None = None) -> bytes:
    """A copy of a zip with some entries replaced or added."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, (replace or {}).get(info.filename, src.read(info.filename)))
        for name, body in (add or {}).items():
            dst.writestr(name, body)
    return out.getvalue()


def import_data(
    c: AtriumClient, data: bytes, name: str = "contacts.xlsx", import_id: str = "contacts"
) -> dict[str, Any]:
    return c.post(
        f"{IMPORT}/import-data",
        data={"importId": import_id},
        files={"file": (name, data, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")},
    )


def wizard_upload(
    c: AtriumClient, data: bytes, name: str = "contacts.xlsx", import_id: str = "contacts"
) -> dict[str, Any]:
    return c.post(
        f"{IMPORT}/upload",
        data={"importId": import_id},
        files={"file": (name, data, "application/octet-stream")},
    )


def wait_import(c: AtriumClient, batch_id: int, limit: float = 600) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while True:
        res: dict[str, Any] = c.ok("GET", f"{IMPORT}/result", params={"batchId": batch_id})
        if res["status"] in (2, 3) or time.monotonic() > deadline:
            return res
        time.sleep(0.3)


def wait_export(c: AtriumClient, export_id: int, limit: float = 600) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while True:
        res: dict[str, Any] = c.ok("POST", f"{EXPORT}/get-export-result?exportId={export_id}")
        if res["status"] in (2, 3, 4) or time.monotonic() > deadline:
            return res
        time.sleep(0.3)


def download(c: AtriumClient, url: str, file_name: str = "") -> bytes:
    """Fetch a stored file the way the web does: a signed address from getDownUrlByName, then a plain GET."""
    signed = c.ok("GET", f"{FILES}/getDownUrlByName", params={"fileName": file_name, "oldUrl": url})
    resp = c.http.get(signed)
    assert resp.status_code == 200, resp.text[:200]
    return resp.content
