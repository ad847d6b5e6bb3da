"""What Excel and Univer's workbook data agree on: the xlsx media type, Excel's limits, the default sizes
and Univer's numbers for alignment, wrapping and value types."""

from __future__ import annotations

import re

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
#: Excel's own limits
MAX_TEXT = 32767
SHEET_NAME_BAD = re.compile(r"[\[\]:*?/\\]")
DEFAULT_COLUMN_PX = 88
DEFAULT_ROW_PX = 24
# Univer's enums (core/types/enum/text-style): HorizontalAlign, VerticalAlign, WrapStrategy, CellValueType
H_ALIGN = {"left": 1, "center": 2, "right": 3, "justify": 4, "distributed": 6}
V_ALIGN = {"top": 1, "center": 2, "bottom": 3}
WRAP = 3
T_STRING, T_NUMBER, T_BOOLEAN = 1, 2, 3
