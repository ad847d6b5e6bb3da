"""Excel workbooks as the spreadsheet editor's workbook data (Univer's `IWorkbookData`).

The browser editor cannot read xlsx itself, so the server converts: values, formulas, basic styles (bold,
italic, underline, strike-through, font size and family, colours, number format, alignment, wrapping),
merges, column widths and row heights. Anything else in the file (charts, pictures, conditional formats,
validations) is not carried over.
"""

from __future__ import annotations

import datetime as dt
import zipfile
from typing import Any, BinaryIO

from openpyxl import load_workbook
from openpyxl.cell.cell import Cell
from openpyxl.utils.datetime import to_excel
from openpyxl.worksheet.worksheet import Worksheet

from .limits import Limits, WorkbookTooLarge, check_unzipped
from .workbook_format import (
    DEFAULT_COLUMN_PX,
    DEFAULT_ROW_PX,
    H_ALIGN,
    T_BOOLEAN,
    T_NUMBER,
    T_STRING,
    V_ALIGN,
    WRAP,
)


def _hex(colour: Any) -> str | None:
    """An openpyxl colour as '#rrggbb' when it is a plain ARGB value (theme and indexed colours are left
    out: their values depend on the file's theme)."""
    if colour is None or getattr(colour, "type", None) != "rgb":
        return None
    value = colour.rgb
    if not isinstance(value, str) or len(value) not in (6, 8):
        return None
    if len(value) == 8 and value[:2] == "00" and value[2:] == "000000":
        return None
    return "#" + value[-6:].lower()


def cell_style(cell: Cell) -> dict[str, Any]:
    style: dict[str, Any] = {}
    font = cell.font
    if font is not None:
        if font.b:
            style["bl"] = 1
        if font.i:
            style["it"] = 1
        if font.u:
            style["ul"] = {"s": 1}
        if font.strike:
            style["st"] = {"s": 1}
        if font.sz and float(font.sz) != 11:
            style["fs"] = float(font.sz)
        if font.name and font.name != "Calibri":
            style["ff"] = font.name
        colour = _hex(font.color)
        if colour and colour != "#000000":
            style["cl"] = {"rgb": colour}
    fill = cell.fill
    if getattr(fill, "fill_type", None) == "solid":
        bg = _hex(fill.fgColor)
        if bg:
            style["bg"] = {"rgb": bg}
    if cell.number_format and cell.number_format != "General":
        style["n"] = {"pattern": cell.number_format}
    align = cell.alignment
    if align is not None:
        if align.horizontal in H_ALIGN:
            style["ht"] = H_ALIGN[align.horizontal]
        if align.vertical in V_ALIGN:
            style["vt"] = V_ALIGN[align.vertical]
        if align.wrap_text:
            style["tb"] = WRAP
    return style


def cell_data(cell: Cell, date_epoch: dt.datetime) -> dict[str, Any] | None:
    value = cell.value
    out: dict[str, Any] = {}
    if isinstance(value, str) and value.startswith("=") and cell.data_type == "f":
        out["f"] = value
    elif isinstance(value, bool):
        out["v"], out["t"] = (1 if value else 0), T_BOOLEAN
    elif isinstance(value, int | float):
        out["v"], out["t"] = value, T_NUMBER
    elif isinstance(value, dt.datetime | dt.date | dt.time):
        out["v"], out["t"] = to_excel(value, date_epoch), T_NUMBER
    elif value is not None:
        out["v"], out["t"] = str(value), T_STRING
    style = cell_style(cell)
    if style:
        out["s"] = style
    return out or None


def _sheet_data(ws: Worksheet, index: int, limits: Limits, cells_left: int) -> tuple[dict[str, Any], int]:
    rows, cols = ws.max_row, ws.max_column
    if rows > limits.max_rows:
        raise WorkbookTooLarge("files:editor.too_many_rows", sheet=ws.title, limit=limits.max_rows)
    if cols > limits.max_columns:
        raise WorkbookTooLarge("files:editor.too_many_columns", sheet=ws.title, limit=limits.max_columns)
    epoch = ws.parent.epoch
    matrix: dict[str, dict[str, Any]] = {}
    count = 0
    for row in ws.iter_rows():
        for cell in row:
            if cell.value is None and not cell.has_style:
                continue
            data = cell_data(cell, epoch)
            if data is None:
                continue
            count += 1
            if count > cells_left:
                raise WorkbookTooLarge("files:editor.too_many_cells", limit=limits.max_cells)
            matrix.setdefault(str(cell.row - 1), {})[str(cell.column - 1)] = data
    merges = [
        {
            "startRow": r.min_row - 1,
            "endRow": r.max_row - 1,
            "startColumn": r.min_col - 1,
            "endColumn": r.max_col - 1,
        }
        for r in ws.merged_cells.ranges
    ]
    column_data: dict[str, dict[str, Any]] = {}
    for dim in ws.column_dimensions.values():
        if dim.min is None:
            continue
        width = round(dim.width * 7 + 5) if dim.customWidth and dim.width else None
        for col in range(dim.min, min(dim.max or dim.min, cols + 1) + 1):
            entry: dict[str, Any] = {}
            if width:
                entry["w"] = width
            if dim.hidden:
                entry["hd"] = 1
            if entry:
                column_data[str(col - 1)] = entry
    row_data: dict[str, dict[str, Any]] = {}
    for r, rdim in ws.row_dimensions.items():
        entry = {}
        if rdim.ht:
            entry["h"] = round(rdim.ht * 4 / 3)
        if rdim.hidden:
            entry["hd"] = 1
        if entry:
            row_data[str(r - 1)] = entry
    sheet_id = f"sheet-{index + 1}"
    return {
        "id": sheet_id,
        "name": ws.title,
        "hidden": 1 if ws.sheet_state != "visible" else 0,
        # a little room to type past the last used cell
        "rowCount": min(max(rows + 20, 100), limits.max_rows),
        "columnCount": min(max(cols + 5, 26), limits.max_columns),
        "defaultColumnWidth": DEFAULT_COLUMN_PX,
        "defaultRowHeight": DEFAULT_ROW_PX,
        "mergeData": merges,
        "cellData": matrix,
        "rowData": row_data,
        "columnData": column_data,
        "showGridlines": 1 if ws.sheet_view.showGridLines is not False else 0,
    }, count


def _check_size(data: BinaryIO, limits: Limits) -> None:
    """Counts rows and filled cells streaming (openpyxl's read-only mode), so that a workbook past the limits
    is refused before it is loaded whole, which takes far more memory per cell."""
    wb = load_workbook(data, read_only=True, data_only=False)
    try:
        if len(wb.worksheets) > limits.max_sheets:
            raise WorkbookTooLarge("files:editor.too_many_sheets", limit=limits.max_sheets)
        filled = 0
        for ws in wb.worksheets:
            for index, row in enumerate(ws.iter_rows(values_only=True)):
                if index >= limits.max_rows:
                    key = "files:editor.too_many_rows"
                    raise WorkbookTooLarge(key, sheet=ws.title, limit=limits.max_rows)
                filled += sum(1 for v in row if v is not None)
                if filled > limits.max_cells:
                    raise WorkbookTooLarge("files:editor.too_many_cells", limit=limits.max_cells)
    finally:
        wb.close()
    data.seek(0)


def read_workbook(data: BinaryIO, name: str, limits: Limits) -> dict[str, Any]:
    """The workbook data of an xlsx file (``name`` is the workbook's title); WorkbookTooLarge past a limit,
    or with the key ``files:editor.bad_file`` when it is not an xlsx file."""
    check_unzipped(data, limits)
    try:
        _check_size(data, limits)
        wb = load_workbook(data, data_only=False, rich_text=False)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError):
        raise WorkbookTooLarge("files:editor.bad_file") from None
    if len(wb.worksheets) > limits.max_sheets:
        raise WorkbookTooLarge("files:editor.too_many_sheets", limit=limits.max_sheets)
    sheets: dict[str, Any] = {}
    left = limits.max_cells
    for i, ws in enumerate(wb.worksheets):
        sheet, used = _sheet_data(ws, i, limits, left)
        left -= used
        sheets[sheet["id"]] = sheet
    return {
        "id": "workbook",
        "name": name,
        "appVersion": "",
        "locale": "enUS",
        "styles": {},
        "sheetOrder": list(sheets),
        "sheets": sheets,
    }
