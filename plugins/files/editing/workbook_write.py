"""The spreadsheet editor's workbook data written back as an xlsx file: saving writes a new file from what
the editor holds (values, formulas, the styles the reader carries over, merges, sizes)."""

from __future__ import annotations

import io

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from pydantic import BaseModel, ConfigDict, Field, field_validator

from .colours import Flag, Rgb, argb
from .limits import Limits, WorkbookTooLarge
from .workbook_format import (
    DEFAULT_ROW_PX,
    H_ALIGN,
    MAX_TEXT,
    SHEET_NAME_BAD,
    T_BOOLEAN,
    T_NUMBER,
    V_ALIGN,
    WRAP,
)


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


def _apply_style(cell: Cell, style: Style) -> None:
    colour = argb(style.cl)
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
    bg = argb(style.bg)
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
