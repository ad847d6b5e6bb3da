"""What makes a Word document read-only in the editor, and why (keys of `BLOCKERS`).

What the editor cannot hold is looked for before anything else (`find_blockers`: tables, pictures and
shapes, text boxes, headers or footers with content, notes, fields, sections or columns, tracked changes,
comments, links, content controls, equations, manual line breaks, named bookmarks, anything unknown). Such a
document opens read-only, its text shown, and nothing is ever written over it from the editor. The editor's
data is checked too (`unsupported`): tables, drawings, links, headers or footers in it cannot be saved.
"""

from __future__ import annotations

from typing import Any

from .document_data import DocumentIn
from .docx_xml import M_NS, MC_NS, R_ID, val, w

#: why a document opens read-only, in the order a notice names them (`files:editor.parts.<key>`)
BLOCKERS = (
    *("tables", "pictures", "textBoxes", "headersFooters", "notes", "fields", "sections", "trackedChanges"),
    *("comments", "links", "contentControls", "equations", "lineBreaks", "bookmarks", "other"),
)
_TRACKED = [
    *("ins", "del", "moveFrom", "moveTo", "moveFromRangeStart", "moveToRangeStart", "delText"),
    *("delInstrText", "rPrChange", "pPrChange", "sectPrChange", "tblPrChange", "tblPrExChange"),
    *("trPrChange", "tcPrChange", "tblGridChange", "numberingChange", "cellIns", "cellDel", "cellMerge"),
]
_FIELDS = ["fldSimple", "fldChar", "instrText", "pgNum", "dayShort", "dayLong", "monthShort", "monthLong"]
#: elements that make a document read-only wherever they are
_ANYWHERE: dict[str, str] = {
    w("tbl"): "tables",
    w("footnoteReference"): "notes",
    w("endnoteReference"): "notes",
    w("commentRangeStart"): "comments",
    w("commentRangeEnd"): "comments",
    w("commentReference"): "comments",
    w("hyperlink"): "links",
    w("sdt"): "contentControls",
    f"{{{M_NS}}}oMath": "equations",
    f"{{{M_NS}}}oMathPara": "equations",
    w("cr"): "lineBreaks",
    **{w(tag): "trackedChanges" for tag in _TRACKED},
    **{w(tag): "fields" for tag in (*_FIELDS, "yearShort", "yearLong")},
}
#: pictures, shapes, charts, embedded objects (text boxes when they hold text)
_GRAPHICS = {w("drawing"), w("pict"), w("object"), w("contentPart"), f"{{{MC_NS}}}AlternateContent"}
_MARKS = {w("bookmarkStart"), w("bookmarkEnd"), w("proofErr")}
#: what the editor reads (or drops harmlessly: proofing marks, Word's own bookmarks, page-break hints)
_KNOWN = {
    w("body"): {w("p"), w("sectPr"), *_MARKS},
    w("p"): {w("pPr"), w("r"), *_MARKS},
    w("r"): {w(t) for t in ("rPr", "t", "tab", "br", "lastRenderedPageBreak", "noBreakHyphen", "softHyphen")},
}
_CONTENT = (w("t"), w("drawing"), w("pict"), w("object"), w("fldSimple"), w("fldChar"), w("tbl"), w("sdt"))


def _reason(el: Any) -> str | None:
    tag = el.tag
    if tag in _ANYWHERE:
        return _ANYWHERE[tag]
    if tag in _GRAPHICS:
        return "textBoxes" if next(el.iter(w("txbxContent")), None) is not None else "pictures"
    if tag == w("br") and val(el, "type") not in ("page", "column"):
        return "lineBreaks"
    if tag == w("sectPr") and el.getparent().tag == w("pPr"):
        return "sections"
    if tag == w("cols") and (val(el, "num") or "1") not in ("0", "1"):
        return "sections"
    if tag == w("bookmarkStart") and not (val(el, "name") or "_").startswith("_"):
        return "bookmarks"
    return None


def _odd(el: Any, parent: str) -> bool:
    """An element the editor neither reads nor has a reason for (a symbol, ruby text, ...)."""
    tag = el.tag
    return isinstance(tag, str) and not (tag in _KNOWN[parent] or tag in _ANYWHERE or tag in _GRAPHICS)


def _unknown(body: Any) -> bool:
    for child in body:
        if _odd(child, w("body")):
            return True
        for el in child if child.tag == w("p") else ():
            if _odd(el, w("p")) or el.tag == w("r") and any(_odd(x, w("r")) for x in el):
                return True
    return False


def _has_content(part: Any) -> bool:
    """Whether a header or footer shows anything (Word writes an empty paragraph into an unused one)."""
    return any(el.tag != w("t") or (el.text or "").strip() for el in part.iter(*_CONTENT))


def find_blockers(doc: Any) -> list[str]:
    """What in the document the editor cannot keep (keys of `BLOCKERS`, in their order); empty when the
    editor holds all of it."""
    body = doc.element.body
    found = {r for r in (_reason(el) for el in body.iter() if isinstance(el.tag, str)) if r}
    if _unknown(body):
        found.add("other")
    for ref in (*body.iter(w("headerReference")), *body.iter(w("footerReference"))):
        part = doc.part.related_parts.get(ref.get(R_ID))
        if getattr(part, "element", None) is not None and _has_content(part.element):
            found.add("headersFooters")
    return [key for key in BLOCKERS if key in found]


class CannotKeep(Exception):
    """A document, or the editor's data for one, holding what a save would lose: ``reasons`` are keys of
    `BLOCKERS`; ``sent`` when they came in the editor's data rather than the stored file."""

    def __init__(self, reasons: list[str], sent: bool = False) -> None:
        super().__init__(", ".join(reasons))
        self.reasons = reasons
        self.sent = sent


def unsupported(data: DocumentIn) -> list[str]:
    """What the editor's data holds that a save cannot write (keys of `BLOCKERS`)."""
    segments = (*data.headers.values(), *data.footers.values())
    found = {
        "tables": bool(data.body.tables or data.tableSource),
        "pictures": bool(data.body.customBlocks or data.drawings),
        "links": bool(data.body.customRanges),
        "headersFooters": any(s.body and s.body.dataStream.strip("\r\n ") for s in segments),
    }
    return [key for key in BLOCKERS if found.get(key)]
