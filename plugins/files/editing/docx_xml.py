"""WordprocessingML's names for every docx module: the namespaces, `w(tag)` for a qualified tag and `val`
for an element's attribute."""

from __future__ import annotations

from typing import Any

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
M_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def w(tag: str) -> str:
    return f"{{{W_NS}}}{tag}"


def val(el: Any, attr: str = "val") -> str | None:
    """An element's `w:<attr>` (`w:val` by default) as text; None when it or the element is missing."""
    value = el.get(w(attr)) if el is not None else None
    return str(value) if value is not None else None
