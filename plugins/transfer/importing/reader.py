"""Reading workbooks with python-calamine: the first worksheet, its size checked, rows streamed.

Calamine reads the cached value of a formula cell and never evaluates anything or follows an external
link, so whatever a cell holds arrives as a plain value.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import date, datetime, time, timedelta
from pathlib import Path
from time import monotonic
from typing import Any

import python_calamine as pc

from atrium.sdk.errors import BadRequest

from ..settings import transfer_settings

CALAMINE_ERRORS = (
    pc.CalamineError,
    pc.PasswordError,
    pc.XmlError,
    pc.ZipError,
    pc.WorksheetNotFound,
    ValueError,
    OSError,
)


class Sheet:
    """The first visible worksheet of a workbook."""

    def __init__(self, path: Path) -> None:
        s = transfer_settings()
        try:
            self._wb = pc.CalamineWorkbook.from_path(str(path))
            index = next(
                (
                    i
                    for i, m in enumerate(self._wb.sheets_metadata)
                    if m.typ == pc.SheetTypeEnum.WorkSheet and m.visible == pc.SheetVisibleEnum.Visible
                ),
                0,
            )
            self._sheet = self._wb.get_sheet_by_index(index)
        except pc.PasswordError as exc:
            raise BadRequest("transfer:import.encrypted") from exc
        except CALAMINE_ERRORS as exc:
            raise BadRequest("transfer:import.unreadable") from exc
        self.name = self._sheet.name
        self.height = int(self._sheet.height)
        self.width = int(self._sheet.width)
        if self.height > s.import_max_rows + 1:
            raise BadRequest("transfer:import.too_many_rows", limit=s.import_max_rows)
        if self.width > s.import_max_columns:
            raise BadRequest("transfer:import.too_many_columns", limit=s.import_max_columns)

    def rows(self) -> Iterator[list[Any]]:
        try:
            yield from self._sheet.iter_rows()
        except CALAMINE_ERRORS as exc:
            raise BadRequest("transfer:import.unreadable") from exc

    def close(self) -> None:
        try:
            self._wb.close()
        except Exception:
            pass


def display(value: Any) -> str:
    """A cell as the wizard shows it."""
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, datetime):
        return (
            value.strftime("%Y-%m-%d %H:%M:%S")
            if (value.hour or value.minute or value.second)
            else value.strftime("%Y-%m-%d")
        )
    if isinstance(value, date | time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return str(value)
    return str(value)


def preview_of(sheet: Sheet, rows: int | None = None) -> dict[str, Any]:
    """The first rows (50 by default) as text, with the sheet's size."""
    limit = rows or transfer_settings().preview_rows
    out = []
    for i, row in enumerate(sheet.rows()):
        if i >= limit:
            break
        out.append([display(v) for v in row])
    return {"sheetName": sheet.name, "totalRows": sheet.height, "totalColumns": sheet.width, "rows": out}


def preview(path: Path, rows: int | None = None) -> dict[str, Any]:
    sheet = Sheet(path)
    try:
        return preview_of(sheet, rows)
    finally:
        sheet.close()


class SheetCache:
    """Sheets read at upload, kept a short while in this process so the import does not read them again.

    Calamine reads a whole sheet at once; a sheet found here saves the second read. A miss (another
    process, or too late) only means reading the file again.
    """

    def __init__(self, size: int = 2, ttl: float = 300.0) -> None:
        self.size, self.ttl = size, ttl
        self._lock = threading.Lock()
        self._items: dict[int, tuple[Sheet, float]] = {}

    def put(self, key: int, sheet: Sheet) -> None:
        with self._lock:
            now = monotonic()
            for k, (old, at) in list(self._items.items()):
                if now - at > self.ttl:
                    del self._items[k]
                    old.close()
            while len(self._items) >= self.size:
                k = next(iter(self._items))
                self._items.pop(k)[0].close()
            self._items[key] = (sheet, now)

    def take(self, key: int) -> Sheet | None:
        with self._lock:
            item = self._items.pop(key, None)
        if item is None or monotonic() - item[1] > self.ttl:
            return None
        return item[0]


sheets = SheetCache()
