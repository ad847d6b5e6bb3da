"""A Word document as the document editor's data (Univer's `IDocumentData`): each paragraph's text (tabs,
page and column breaks, non-breaking and soft hyphens), its runs' looks, its paragraph look, heading and
list; the page size, margins and body font for display; with what in the file the editor cannot keep
(`read_document`). `originals` gives the stored paragraphs a save matches the editor's against."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from docx import Document

from .document_data import CONTROL, DOCUMENT_END, PARAGRAPH_END
from .docx_check import find_blockers
from .docx_styles import WordStyles, points
from .docx_xml import val, w
from .limits import Limits, WorkbookTooLarge

#: A4 in points as pages (Univer's "traditional" flavour), with its usual rendering settings
DOCUMENT_STYLE: dict[str, Any] = {
    "pageSize": {"width": 595, "height": 842},
    "documentFlavor": 1,
    "marginTop": 72,
    "marginBottom": 72,
    "marginLeft": 90,
    "marginRight": 90,
    "renderConfig": {"zeroWidthParagraphBreak": 0, "vertexAngle": 0, "centerAngle": 0},
}
MARGINS = {"top": "marginTop", "bottom": "marginBottom", "left": "marginLeft", "right": "marginRight"}
#: what holds runs a read-only view shows (deleted text is left out), and what holds paragraphs
_RUN_HOLDERS = {w(t) for t in ("hyperlink", "ins", "moveTo", "smartTag", "customXml", "fldSimple", "sdt")}
_RUN_HOLDERS |= {w("sdtContent"), w("dir"), w("bdo")}
_BLOCK_HOLDERS = {w("sdt"), w("sdtContent"), w("customXml")}
_TEXT = {
    w("tab"): "\t",
    w("ptab"): "\t",
    w("cr"): " ",
    w("noBreakHyphen"): "\u2011",
    w("softHyphen"): "\u00ad",
}
_BREAKS = {"page": "\f", "column": "\v"}


def _paragraphs(parent: Any) -> Iterator[Any]:
    """The paragraphs in reading order; for a read-only view also those in tables and controls."""
    for child in parent:
        if child.tag == w("p"):
            yield child
        elif child.tag == w("tbl"):
            for cell in (c for row in child.iter(w("tr")) for c in row.findall(w("tc"))):
                yield from _paragraphs(cell)
        elif child.tag in _BLOCK_HOLDERS:
            yield from _paragraphs(child)


def _runs(parent: Any) -> Iterator[Any]:
    for child in parent:
        if child.tag == w("r"):
            yield child
        elif child.tag in _RUN_HOLDERS:
            yield from _runs(child)


def _characters(run: Any) -> Iterator[str]:
    """A run's text as the editor's data stream has it (a manual line break, read-only, as a space)."""
    for child in run:
        if child.tag == w("t"):
            yield CONTROL.sub("", re.sub(r"[\n\r\v\f]", " ", child.text or ""))
        elif child.tag == w("br"):
            yield _BREAKS.get(val(child, "type") or "", " ")
        elif child.tag in _TEXT:
            yield _TEXT[child.tag]


@dataclass
class Original:
    """A paragraph of the stored file: its properties, and each character with its run's properties."""

    ppr: Any
    chars: list[tuple[str, Any]]

    @property
    def text(self) -> str:
        return "".join(c for c, _ in self.chars)


def originals(doc: Any) -> list[Original]:
    out = []
    for p in _paragraphs(doc.element.body):
        chars = [(c, r.find(w("rPr"))) for r in _runs(p) for piece in _characters(r) for c in piece]
        out.append(Original(p.find(w("pPr")), chars))
    return out


def load(data: BinaryIO) -> Any:
    """The python-docx document of a docx file; WorkbookTooLarge (``files:editor.bad_file``) when it is
    not one."""
    try:
        return Document(data)
    except Exception:  # python-docx raises many kinds for a file that is not a Word document
        raise WorkbookTooLarge("files:editor.bad_file") from None


def _document_style(doc: Any, words: WordStyles) -> dict[str, Any]:
    style = copy.deepcopy(DOCUMENT_STYLE)
    sect = doc.element.body.find(w("sectPr"))
    size = sect.find(w("pgSz")) if sect is not None else None
    width, height = points(val(size, "w")), points(val(size, "h"))
    if width and height:
        style["pageSize"] = {"width": width, "height": height}
    margins = sect.find(w("pgMar")) if sect is not None else None
    for attr, key in MARGINS.items():
        value = points(val(margins, attr))
        if value is not None:
            style[key] = abs(value)
    style["textStyle"] = words.body_text()
    return style


def read_document(data: BinaryIO, limits: Limits) -> tuple[dict[str, Any], list[str]]:
    """The document data of a docx file, and what in it the editor cannot keep (`find_blockers`: when it
    is not empty, the document is for reading only); WorkbookTooLarge when the file is not a docx file or
    has more characters than the limit."""
    doc = load(data)
    words = WordStyles(doc)
    looks: dict[int, dict[str, Any]] = {}
    text: list[str] = []
    runs: list[dict[str, Any]] = []
    paragraphs: list[dict[str, Any]] = []
    for original in originals(doc):
        for char, rpr in original.chars:
            if id(rpr) not in looks:
                looks[id(rpr)] = words.run(rpr).ts()
            ts, at = looks[id(rpr)], len(text)
            if ts and runs and runs[-1]["ed"] == at and runs[-1]["ts"] is ts:
                runs[-1]["ed"] = at + 1
            elif ts:
                runs.append({"st": at, "ed": at + 1, "ts": ts})
            text.append(char)
        look, mark = words.paragraph(original.ppr)
        paragraph: dict[str, Any] = {"startIndex": len(text), "paragraphStyle": look.paragraph_style()}
        if look.named is not None:
            paragraph["paragraphStyle"]["headingId"] = f"h{len(paragraphs)}"
        if mark is not None:
            paragraph["bullet"] = mark.bullet()
        paragraphs.append(paragraph)
        text.append(PARAGRAPH_END)
        if len(text) > limits.max_characters:
            raise WorkbookTooLarge("files:editor.too_long", limit=limits.max_characters)
    if not paragraphs:
        paragraphs.append({"startIndex": 0, "paragraphStyle": {}})
        text.append(PARAGRAPH_END)
    document = {
        "id": "document",
        "tableSource": {},
        "drawings": {},
        "drawingsOrder": [],
        "headers": {},
        "footers": {},
        "documentStyle": _document_style(doc, words),
        "body": {
            "dataStream": "".join(text) + DOCUMENT_END,
            "textRuns": runs,
            "customBlocks": [],
            "tables": [],
            "paragraphs": paragraphs,
            "sectionBreaks": [{"startIndex": len(text)}],
        },
    }
    return document, find_blockers(doc)
