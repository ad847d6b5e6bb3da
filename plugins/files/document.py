"""Word documents as the document editor's data (Univer's `IDocumentData`), and back: the paragraphs' text
with bold, italic, underline and strike-through runs. Tables, pictures, headers, lists and page layout are
not carried over; saving writes a new plain document from what the editor holds.

Univer keeps a document's text in one `dataStream`: each paragraph ends with `\\r` (its `startIndex` is that
character's place) and the document with `\\n`; `textRuns` give styles to `[st, ed)` ranges.
"""

from __future__ import annotations

import io
import re
from typing import Any, BinaryIO

from docx import Document
from pydantic import BaseModel, ConfigDict, Field

from .workbook import Limits, WorkbookTooLarge

DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
PARAGRAPH_END, DOCUMENT_END = "\r", "\n"
#: Univer's control characters (custom blocks, ranges, tables) and anything else below a space but a tab
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f]")
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
PARAGRAPH_STYLE: dict[str, Any] = {"spaceAbove": {"v": 0}, "lineSpacing": 1.2, "spaceBelow": {"v": 8}}


def _run_style(run: Any) -> dict[str, Any]:
    style: dict[str, Any] = {}
    if run.bold:
        style["bl"] = 1
    if run.italic:
        style["it"] = 1
    if run.underline:
        style["ul"] = {"s": 1}
    if run.font.strike:
        style["st"] = {"s": 1}
    return style


def read_document(data: BinaryIO, limits: Limits) -> dict[str, Any]:
    """The document data of a docx file; WorkbookTooLarge (``files:editor.bad_file``) when it is not one,
    or past the limit on characters."""
    try:
        doc = Document(data)
    except Exception:  # python-docx raises many kinds for a file that is not a Word document
        raise WorkbookTooLarge("files:editor.bad_file") from None
    text: list[str] = []
    runs: list[dict[str, Any]] = []
    paragraphs: list[dict[str, Any]] = []
    at = 0
    for paragraph in doc.paragraphs:
        for run in paragraph.runs:
            chunk = CONTROL.sub("", run.text.replace("\n", " ").replace("\r", " "))
            if not chunk:
                continue
            style = _run_style(run)
            if style:
                runs.append({"st": at, "ed": at + len(chunk), "ts": style})
            text.append(chunk)
            at += len(chunk)
        paragraphs.append({"startIndex": at, "paragraphStyle": PARAGRAPH_STYLE})
        text.append(PARAGRAPH_END)
        at += 1
        if at > limits.max_characters:
            raise WorkbookTooLarge("files:editor.too_long", limit=limits.max_characters)
    if not paragraphs:
        paragraphs.append({"startIndex": 0, "paragraphStyle": PARAGRAPH_STYLE})
        text.append(PARAGRAPH_END)
        at = 1
    return {
        "id": "document",
        "tableSource": {},
        "drawings": {},
        "drawingsOrder": [],
        "headers": {},
        "footers": {},
        "documentStyle": DOCUMENT_STYLE,
        "body": {
            "dataStream": "".join(text) + DOCUMENT_END,
            "textRuns": runs,
            "customBlocks": [],
            "tables": [],
            "paragraphs": paragraphs,
            "sectionBreaks": [{"startIndex": at}],
        },
    }


class Flag(BaseModel):
    model_config = ConfigDict(extra="ignore")
    s: int | None = None


class TextStyle(BaseModel):
    model_config = ConfigDict(extra="ignore")
    bl: int | None = None
    it: int | None = None
    ul: Flag | None = None
    st: Flag | None = None


class TextRun(BaseModel):
    model_config = ConfigDict(extra="ignore")
    st: int = Field(ge=0)
    ed: int = Field(ge=0)
    ts: TextStyle | None = None


class Paragraph(BaseModel):
    model_config = ConfigDict(extra="ignore")
    startIndex: int = Field(ge=0)


class Body(BaseModel):
    model_config = ConfigDict(extra="ignore")
    dataStream: str = Field(max_length=1_000_000)
    textRuns: list[TextRun] = Field(default_factory=list, max_length=100_000)
    paragraphs: list[Paragraph] = Field(default_factory=list, max_length=100_000)


class DocumentIn(BaseModel):
    """The editor's document data sent back to be saved (only the body's text and run styles are read)."""

    model_config = ConfigDict(extra="ignore")
    body: Body


def _styles_at(runs: list[TextRun], length: int) -> list[TextStyle | None]:
    styles: list[TextStyle | None] = [None] * length
    for run in runs:
        for i in range(run.st, min(run.ed, length)):
            styles[i] = run.ts
    return styles


def _same(a: TextStyle | None, b: TextStyle | None) -> bool:
    return (a.model_dump() if a else None) == (b.model_dump() if b else None)


def write_document(data: DocumentIn, limits: Limits) -> bytes:
    """A docx file of the editor's document data; WorkbookTooLarge past the limit on characters."""
    stream = data.body.dataStream
    if len(stream) > limits.max_characters:
        raise WorkbookTooLarge("files:editor.too_long", limit=limits.max_characters)
    styles = _styles_at(data.body.textRuns, len(stream))
    doc = Document()
    start = 0
    for end, char in enumerate(stream):
        if char != PARAGRAPH_END:
            continue
        paragraph = doc.add_paragraph()
        i = start
        while i < end:
            j = i
            while j < end and _same(styles[j], styles[i]):
                j += 1
            text = CONTROL.sub("", stream[i:j])
            if text:
                run = paragraph.add_run(text)
                style = styles[i]
                if style is not None:
                    run.bold = bool(style.bl) or None
                    run.italic = bool(style.it) or None
                    run.underline = bool(style.ul and style.ul.s) or None
                    run.font.strike = bool(style.st and style.st.s) or None
            i = j
        start = end + 1
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()
