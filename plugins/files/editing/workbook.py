"""Excel workbooks as the spreadsheet editor's workbook data (Univer's `IWorkbookData`), and back.

The browser editor cannot read or write xlsx itself, so the server converts: values, formulas, basic
styles (bold, italic, underline, strike-through, font size and family, colours, number format, alignment,
wrapping), merges, column widths and row heights. Anything else in the file (charts, pictures, conditional
formats, validations) is not carried over; saving writes a new file from what the editor holds.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from dataclasses import dataclass
from typing import Any, BinaryIO

from openpyxl import Workbook, load_workbook
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import to_excel
from openpyxl.worksheet.worksheet import Worksheet
from pydantic import BaseModel, ConfigDict, Field, field_validator

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
#: Excel's own limits
MAX_TEXT = 32767
SHEET_NAME_BAD = re.compile(r"[\[\]:*?/\\]")
COLOUR = re.compile(r"^#?([0-9a-fA-F]{6})$")
RGB_FUNC = re.compile(r"^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*[\d.]+\s*)?\)$")
DEFAULT_COLUMN_PX = 88
DEFAULT_ROW_PX = 24
# Univer's enums (core/types/enum/text-style): HorizontalAlign, VerticalAlign, WrapStrategy, CellValueType
H_ALIGN = {"left": 1, "center": 2, "right": 3, "justify": 4, "distributed": 6}
V_ALIGN = {"top": 1, "center": 2, "bottom": 3}
WRAP = 3
T_STRING, T_NUMBER, T_BOOLEAN = 1, 2, 3


class WorkbookTooLarge(Exception):
    """A workbook past one of the limits; ``key`` names the message and ``params`` fill it."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class Limits:
    max_sheets: int
    max_rows: int
    max_columns: int
    max_cells: int
    #: bytes the file's parts may take once unzipped (a small file can expand a thousandfold)
    max_unzipped: int
    #: characters of a Word document
    max_characters: int


# -- xlsx -> workbook data -----------------------------------------------------------------------------


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


def check_unzipped(data: BinaryIO, limits: Limits) -> None:
    """Refuses a zip (xlsx, docx) whose parts take more than the limit once unzipped."""
    try:
        with zipfile.ZipFile(data) as z:
            unzipped = sum(i.file_size for i in z.infolist())
    except zipfile.BadZipFile:
        raise WorkbookTooLarge("files:editor.bad_file") from None
    if unzipped > limits.max_unzipped:
        raise WorkbookTooLarge("files:editor.too_many_cells", limit=limits.max_cells)
    data.seek(0)


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


# -- workbook data -> xlsx -----------------------------------------------------------------------------


class Rgb(BaseModel):
    model_config = ConfigDict(extra="ignore")
    rgb: str | None = Field(default=None, max_length=40)


class Flag(BaseModel):
    model_config = ConfigDict(extra="ignore")
    s: int | None = None


class NumberFormat(BaseModel):
    model_config = ConfigDict(extra="ignore")
    pattern: str | None = Field(default=None, max_length=255)


class Style(BaseModel):
    """The part of Univer's `IStyleData` that is written to the file."""

    model_config = ConfigDict(extra="ignore")
    bl: int | None = None
    it: int | None = None
    ul: Flag | None = None
    st: Flag | None = None
    fs: float | None = Field(default=None, ge=1, le=409)
    ff: str | None = Field(default=None, max_length=100)
    cl: Rgb | None = None
    bg: Rgb | None = None
    n: NumberFormat | None = None
    ht: int | None = None
    vt: int | None = None
    tb: int | None = None


class CellIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    v: str | float | bool | None = None
    t: int | None = None
    f: str | None = Field(default=None, max_length=8192)
    s: Style | str | None = None

    @field_validator("v")
    @classmethod
    def _text_fits(cls, v: str | float | bool | None) -> str | float | bool | None:
        if isinstance(v, str) and len(v) > MAX_TEXT:
            raise ValueError(f"a cell holds at most {MAX_TEXT} characters")
        return v


class Range(BaseModel):
    model_config = ConfigDict(extra="ignore")
    startRow: int = Field(ge=0)
    endRow: int = Field(ge=0)
    startColumn: int = Field(ge=0)
    endColumn: int = Field(ge=0)


class Size(BaseModel):
    model_config = ConfigDict(extra="ignore")
    w: float | None = Field(default=None, ge=0, le=5000)
    h: float | None = Field(default=None, ge=0, le=5000)
    hd: int | None = None


class SheetIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str = Field(default="", max_length=100)
    name: str = Field(default="", max_length=100)
    hidden: int | None = None
    cellData: dict[str, dict[str, CellIn | None]] = Field(default_factory=dict)
    mergeData: list[Range] = Field(default_factory=list, max_length=10_000)
    rowData: dict[str, Size | None] = Field(default_factory=dict)
    columnData: dict[str, Size | None] = Field(default_factory=dict)
    showGridlines: int | None = None


class WorkbookIn(BaseModel):
    """The editor's workbook data sent back to be saved (only what is written to the file is read)."""

    model_config = ConfigDict(extra="ignore")
    name: str = Field(default="", max_length=255)
    styles: dict[str, Style | None] = Field(default_factory=dict, max_length=50_000)
    sheetOrder: list[str] = Field(default_factory=list, max_length=1000)
    sheets: dict[str, SheetIn] = Field(min_length=1, max_length=1000)


def _index(key: str, limit: int, what: str, sheet: str) -> int:
    if not key.isdigit() or int(key) >= limit:
        raise WorkbookTooLarge(f"files:editor.too_many_{what}", sheet=sheet, limit=limit)
    return int(key)


def _colour(value: Rgb | None) -> str | None:
    if value is None or not value.rgb:
        return None
    text = value.rgb.strip()
    m = COLOUR.match(text)
    if m:
        return "FF" + m[1].upper()
    m = RGB_FUNC.match(text)
    if m and all(int(x) <= 255 for x in m.groups()):
        return "FF" + "".join(f"{int(x):02X}" for x in m.groups())
    return None


def _apply_style(cell: Cell, style: Style) -> None:
    colour = _colour(style.cl)
    if style.bl or style.it or style.ul or style.st or style.fs or style.ff or colour:
        cell.font = Font(
            name=style.ff or "Calibri",
            sz=style.fs or 11,
            b=bool(style.bl),
            i=bool(style.it),
            u="single" if style.ul and style.ul.s else None,
            strike=bool(style.st and style.st.s),
            color=colour,
        )
    bg = _colour(style.bg)
    if bg:
        cell.fill = PatternFill(fill_type="solid", fgColor=bg)
    if style.n and style.n.pattern:
        cell.number_format = style.n.pattern
    horizontal = {v: k for k, v in H_ALIGN.items()}.get(style.ht or 0)
    vertical = {v: k for k, v in V_ALIGN.items()}.get(style.vt or 0)
    if horizontal or vertical or style.tb == WRAP:
        wrap = style.tb == WRAP or None
        cell.alignment = Alignment(horizontal=horizontal, vertical=vertical, wrap_text=wrap)


def _sheet_title(name: str, taken: set[str], index: int) -> str:
    title = SHEET_NAME_BAD.sub("_", name).strip("'").strip()[:31] or f"Sheet{index + 1}"
    base, n = title, 2
    while title.lower() in taken:
        suffix = f" ({n})"
        title, n = base[: 31 - len(suffix)] + suffix, n + 1
    taken.add(title.lower())
    return title


def _write_value(cell: Cell, data: CellIn) -> None:
    if data.f and data.f.startswith("="):
        cell.value = data.f
        return
    v = data.v
    if v is None or v == "":
        return
    if data.t == T_BOOLEAN:
        cell.value = v in (1, True, "1", "TRUE", "true")
    elif isinstance(v, str) and data.t != T_NUMBER:
        # text that looks like a formula stays text
        cell.value = v
        if v.startswith("="):
            cell.data_type = "s"
    elif isinstance(v, bool):
        cell.value = v
    elif isinstance(v, int | float):
        cell.value = int(v) if float(v).is_integer() and abs(v) < 2**53 else v
    else:
        try:
            cell.value = float(v)
        except ValueError:
            cell.value = v


def count_cells(data: WorkbookIn) -> int:
    return sum(len(row) for sheet in data.sheets.values() for row in sheet.cellData.values())


def write_workbook(data: WorkbookIn, limits: Limits) -> bytes:
    """An xlsx file of the editor's workbook data; WorkbookTooLarge past a limit."""
    if len(data.sheets) > limits.max_sheets:
        raise WorkbookTooLarge("files:editor.too_many_sheets", limit=limits.max_sheets)
    if count_cells(data) > limits.max_cells:
        raise WorkbookTooLarge("files:editor.too_many_cells", limit=limits.max_cells)
    order = [s for s in data.sheetOrder if s in data.sheets]
    order += [s for s in data.sheets if s not in order]
    wb = Workbook()
    wb.remove(wb.active)
    taken: set[str] = set()
    for i, sheet_id in enumerate(dict.fromkeys(order)):
        sheet = data.sheets[sheet_id]
        ws = wb.create_sheet(_sheet_title(sheet.name, taken, i))
        if sheet.hidden:
            ws.sheet_state = "hidden"
        if sheet.showGridlines == 0:
            ws.sheet_view.showGridLines = False
        for r_key, row in sheet.cellData.items():
            r = _index(r_key, limits.max_rows, "rows", ws.title)
            for c_key, cell_in in row.items():
                c = _index(c_key, limits.max_columns, "columns", ws.title)
                if cell_in is None:
                    continue
                cell = ws.cell(row=r + 1, column=c + 1)
                _write_value(cell, cell_in)
                style = data.styles.get(cell_in.s) if isinstance(cell_in.s, str) else cell_in.s
                if style is not None:
                    _apply_style(cell, style)
        for m in sheet.mergeData:
            if m.endRow >= limits.max_rows or m.endColumn >= limits.max_columns:
                raise WorkbookTooLarge("files:editor.too_many_rows", sheet=ws.title, limit=limits.max_rows)
            ordered = m.endRow >= m.startRow and m.endColumn >= m.startColumn
            if ordered and (m.endRow, m.endColumn) != (m.startRow, m.startColumn):
                ws.merge_cells(
                    start_row=m.startRow + 1,
                    end_row=m.endRow + 1,
                    start_column=m.startColumn + 1,
                    end_column=m.endColumn + 1,
                )
        for c_key, size in sheet.columnData.items():
            c = _index(c_key, limits.max_columns, "columns", ws.title)
            if size is None:
                continue
            dim = ws.column_dimensions[get_column_letter(c + 1)]
            if size.w:
                dim.width = max(round((size.w - 5) / 7, 2), 0.5)
            if size.hd:
                dim.hidden = True
        for r_key, size in sheet.rowData.items():
            r = _index(r_key, limits.max_rows, "rows", ws.title)
            if size is None:
                continue
            if size.h and round(size.h) != DEFAULT_ROW_PX:
                ws.row_dimensions[r + 1].height = round(size.h * 3 / 4, 2)
            if size.hd:
                ws.row_dimensions[r + 1].hidden = True
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
