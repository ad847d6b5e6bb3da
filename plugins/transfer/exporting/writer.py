"""Writing rows to Excel (xlsxwriter, constant memory) or CSV, safely and in a stream.

- No string is ever turned into a formula, a number or a link (``strings_to_*`` off): a cell holds exactly
  the text it was given.
- Text that starts with ``= + - @``, a tab or a carriage return is neutralised: in Excel it is a text cell
  with the quote prefix (shown as-is, never evaluated, not even after the user edits it); in CSV it gets a
  leading apostrophe, the usual defence against formula injection.
- Rows go to disk as they come (constant memory); past ``sheet_max`` data rows a new sheet starts.

Python API::

    with XlsxRowWriter(path, ["Name", "Phone"], sheet_max=100_000) as w:
        w.write_rows(rows)          # any iterable of sequences
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from types import TracebackType
from typing import Any

import xlsxwriter

DANGER = frozenset("=+-@\t\r")
EXCEL_MAX_ROWS = 1_048_576
_SHEET_BAD = re.compile(r"[\[\]:*?/\\]")


def neutralise(text: str) -> str:
    """CSV form: a leading apostrophe before text a spreadsheet would take as a formula."""
    return "'" + text if text and text[0] in DANGER else text


def sheet_title(base: str, index: int) -> str:
    base = _SHEET_BAD.sub("_", base).strip("'") or "Sheet"
    suffix = "" if index == 1 else f" ({index})"
    return base[: 31 - len(suffix)] + suffix


class XlsxRowWriter:
    """An .xlsx file written row by row; header repeated on every sheet.

    Rows go through xlsxwriter's own ``write_row``; write handlers give dangerous text the quote prefix and
    date-times their format, so the common cell costs nothing beyond what xlsxwriter itself spends.
    """

    def __init__(
        self,
        path: Path,
        headers: Sequence[str],
        *,
        sheet_max: int = 100_000,
        title: str = "Sheet1",
        widths: Sequence[float | None] | None = None,
        tmpdir: str | None = None,
    ) -> None:
        self.sheet_max = max(1, min(sheet_max, EXCEL_MAX_ROWS - 1))
        self.headers = list(headers)
        self.title = title
        self.widths = list(widths or [])
        self.wb = xlsxwriter.Workbook(
            str(path),
            {
                "constant_memory": True,
                "strings_to_formulas": False,
                "strings_to_numbers": False,
                "strings_to_urls": False,
                "nan_inf_to_errors": True,
                "use_zip64": True,
                "remove_timezone": True,
                "default_date_format": "yyyy-mm-dd",
                **({"tmpdir": tmpdir} if tmpdir else {}),
            },
        )
        self.head_fmt = self.wb.add_format({"bold": True, "bg_color": "#F2F4F8", "border": 1})
        self.quote_fmt = self.wb.add_format({"quote_prefix": True})
        self.datetime_fmt = self.wb.add_format({"num_format": "yyyy-mm-dd hh:mm:ss"})
        self.time_fmt = self.wb.add_format({"num_format": "hh:mm:ss"})
        self._on_str = _str_handler(self.quote_fmt)
        self.sheets = 0
        self.rows = 0
        self.ws: Any = None
        self.r = 0
        self._new_sheet()

    # -- write handlers (called by xlsxwriter for cells of these exact types) --

    def _on_datetime(self, ws: Any, row: int, col: int, token: datetime, fmt: Any = None) -> int:
        result: int = ws.write_datetime(row, col, token.replace(tzinfo=None), fmt or self.datetime_fmt)
        return result

    def _on_time(self, ws: Any, row: int, col: int, token: time, fmt: Any = None) -> int:
        result: int = ws.write_datetime(row, col, token.replace(tzinfo=None), fmt or self.time_fmt)
        return result

    def _on_bytes(self, ws: Any, row: int, col: int, token: bytes, fmt: Any = None) -> int:
        text = token.decode("utf-8", "replace")
        result: int = ws.write_string(row, col, text, self.quote_fmt if text[:1] in DANGER and text else fmt)
        return result

    def _new_sheet(self) -> None:
        self.sheets += 1
        ws = self.wb.add_worksheet(sheet_title(self.title, self.sheets))
        ws.add_write_handler(str, self._on_str)
        ws.add_write_handler(datetime, self._on_datetime)
        ws.add_write_handler(time, self._on_time)
        ws.add_write_handler(bytes, self._on_bytes)
        for i, w in enumerate(self.widths):
            if w:
                ws.set_column(i, i, w)
        for c, h in enumerate(self.headers):
            ws.write_string(0, c, str(h), self.head_fmt)
        self.ws = ws
        self.r = 1

    def write_rows(
        self, rows: Iterable[Sequence[Any]], every: int = 0, on_progress: Callable[[int], None] | None = None
    ) -> int:
        """Write rows; ``on_progress(total)`` is called every ``every`` rows. Answers the rows written."""
        write_row = self.ws.write_row
        r, sheet_max, count = self.r, self.sheet_max, self.rows
        tick = every or 0
        for row in rows:
            if r > sheet_max:
                self._new_sheet()
                write_row = self.ws.write_row
                r = self.r
            try:
                write_row(r, 0, row)
            except TypeError:
                self.ws.write_row(r, 0, [_plain(v) for v in row])
            r += 1
            count += 1
            if tick and count % tick == 0 and on_progress is not None:
                on_progress(count)
        self.r, self.rows = r, count
        return count

    def close(self) -> None:
        self.wb.close()

    def __enter__(self) -> XlsxRowWriter:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def _str_handler(quote: Any) -> Callable[..., int | None]:
    """xlsxwriter's handler for str cells: text a spreadsheet could take as a formula gets the quote prefix;
    any other text goes on to xlsxwriter's own string writer (None means "carry on")."""

    def on_str(
        ws: Any, row: int, col: int, token: str, fmt: Any = None, _danger: frozenset[str] = DANGER
    ) -> Any:
        if token and token[0] in _danger:
            return ws.write_string(row, col, token, quote)
        return None

    return on_str


def _plain(v: Any) -> Any:
    """A value xlsxwriter has no writer for, as text."""
    if v is None or isinstance(v, str | int | float | Decimal | bool | date | time | bytes):
        return v
    return str(v)


class CsvRowWriter:
    """A UTF-8 (with BOM, for Excel) CSV file with the same interface; one 'sheet' of any length."""

    def __init__(self, path: Path, headers: Sequence[str], **_: Any) -> None:
        self.f = path.open("w", encoding="utf-8-sig", newline="")
        self.w = csv.writer(self.f)
        self.w.writerow([neutralise(str(h)) for h in headers])
        self.rows = 0
        self.sheets = 1

    @staticmethod
    def _cell(v: Any) -> Any:
        if v is None:
            return ""
        if isinstance(v, str):
            return neutralise(v)
        if isinstance(v, bool | int | float | Decimal):
            return v
        if isinstance(v, datetime | date | time):
            return v.isoformat(sep=" ") if isinstance(v, datetime) else v.isoformat()
        return neutralise(str(v))

    def write_rows(
        self, rows: Iterable[Sequence[Any]], every: int = 0, on_progress: Callable[[int], None] | None = None
    ) -> int:
        cell = self._cell
        for row in rows:
            self.w.writerow([cell(v) for v in row])
            self.rows += 1
            if every and self.rows % every == 0 and on_progress is not None:
                on_progress(self.rows)
        return self.rows

    def close(self) -> None:
        self.f.close()

    def __enter__(self) -> CsvRowWriter:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
