"""The editor's document data (Univer's `IDocumentData`) sent back to be saved: validated (`DocumentIn`,
pydantic), then read as paragraphs (`edited`), each with its text, each character's look, its paragraph look
and its list.

Univer keeps a document's text in one `dataStream`: each paragraph ends with `\\r` (its `startIndex` is that
character's place) and the document with `\\n`; `textRuns` give styles to `[st, ed)` ranges.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .colours import Flag, Rgb
from .docx_styles import NAMED_LOOK, SPACING_RULE_OUT, VERT_OUT, ListMark, ParagraphLook, RunLook, hex_colour

PARAGRAPH_END, DOCUMENT_END = "\r", "\n"
#: Univer's control characters (custom blocks, ranges, tables), anything else below a space but a tab, a
#: column break (\v) and a page break (\f), and what XML cannot hold (lone surrogates, U+FFFE, U+FFFF)
CONTROL = re.compile("[\x00-\x08\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _round(value: float | None) -> float | None:
    return None if value is None else round(float(value), 2)


class Unit(BaseModel):
    model_config = ConfigDict(extra="ignore")
    v: float = Field(ge=-2000, le=2000)


def _points_of(unit: Unit | None) -> float | None:
    return None if unit is None else _round(unit.v)


def _flag(value: int | Flag | None) -> int | None:
    value = value.s if isinstance(value, Flag) else value
    return None if value is None else int(bool(value))


class TextStyle(BaseModel):
    model_config = ConfigDict(extra="ignore")
    bl: int | None = None
    it: int | None = None
    ul: Flag | None = None
    st: Flag | None = None
    fs: float | None = Field(default=None, ge=1, le=1638)
    ff: str | None = Field(default=None, max_length=100)
    cl: Rgb | None = None
    bg: Rgb | None = None
    va: int | None = None

    def look(self) -> RunLook:
        return RunLook(
            bl=_flag(self.bl),
            it=_flag(self.it),
            ul=_flag(self.ul),
            st=_flag(self.st),
            fs=_round(self.fs),
            ff=NOT_XML.sub("", self.ff or "").strip() or None,
            cl=hex_colour(self.cl.rgb) if self.cl else None,
            bg=hex_colour(self.bg.rgb) if self.bg else None,
            va=self.va if self.va in VERT_OUT else None,
        )


class TextRun(BaseModel):
    model_config = ConfigDict(extra="ignore")
    st: int = Field(ge=0)
    ed: int = Field(ge=0)
    ts: TextStyle | None = None


class ParagraphStyle(BaseModel):
    model_config = ConfigDict(extra="ignore")
    namedStyleType: int | None = None
    horizontalAlign: int | None = None
    spaceAbove: Unit | None = None
    spaceBelow: Unit | None = None
    lineSpacing: float | None = Field(default=None, ge=0, le=1000)
    spacingRule: int | None = None
    indentStart: Unit | None = None
    indentEnd: Unit | None = None
    indentFirstLine: Unit | None = None
    hanging: Unit | None = None

    def look(self) -> ParagraphLook:
        line = _round(self.lineSpacing) or None
        return ParagraphLook(
            named=self.namedStyleType if self.namedStyleType in NAMED_LOOK else None,
            align={5: 4}.get(self.horizontalAlign or 0, self.horizontalAlign) or None,
            above=_points_of(self.spaceAbove),
            below=_points_of(self.spaceBelow),
            line=line,
            rule=None if line is None else self.spacingRule if self.spacingRule in SPACING_RULE_OUT else 0,
            start=_points_of(self.indentStart),
            end=_points_of(self.indentEnd),
            first=_points_of(self.indentFirstLine),
            hanging=_points_of(self.hanging),
        )


class Bullet(BaseModel):
    model_config = ConfigDict(extra="ignore")
    listType: str = Field(max_length=100)
    listId: str = Field(max_length=100)
    nestingLevel: int = Field(default=0, ge=0, le=50)

    def mark(self) -> ListMark:
        kind = "number" if self.listType.startswith("ORDER_LIST") else "bullet"
        return ListMark(kind, self.listId, min(self.nestingLevel, 8))


class Paragraph(BaseModel):
    model_config = ConfigDict(extra="ignore")
    startIndex: int = Field(ge=0)
    paragraphStyle: ParagraphStyle | None = None
    bullet: Bullet | None = None


class Body(BaseModel):
    model_config = ConfigDict(extra="ignore")
    dataStream: str = Field(max_length=1_000_000)
    textRuns: list[TextRun] = Field(default_factory=list, max_length=100_000)
    paragraphs: list[Paragraph] = Field(default_factory=list, max_length=100_000)
    #: what the editor could hold but a save cannot write (its menus offer none of it; a paste might)
    tables: list[Any] = Field(default_factory=list, max_length=10_000)
    customBlocks: list[Any] = Field(default_factory=list, max_length=10_000)
    customRanges: list[Any] = Field(default_factory=list, max_length=10_000)


class Segment(BaseModel):
    model_config = ConfigDict(extra="ignore")
    body: Body | None = None


class DocumentIn(BaseModel):
    """The editor's document data sent back to be saved: the body's text, runs and paragraphs are
    written; tables, drawings, headers and footers are refused."""

    model_config = ConfigDict(extra="ignore")
    body: Body
    tableSource: dict[str, Any] = Field(default_factory=dict, max_length=10_000)
    drawings: dict[str, Any] = Field(default_factory=dict, max_length=10_000)
    headers: dict[str, Segment] = Field(default_factory=dict, max_length=100)
    footers: dict[str, Segment] = Field(default_factory=dict, max_length=100)


@dataclass
class Edited:
    """A paragraph of the editor's data: its text, each character's look, the paragraph's look and list."""

    text: str
    looks: list[RunLook]
    look: ParagraphLook
    mark: ListMark | None


def edited(data: DocumentIn) -> list[Edited]:
    stream = data.body.dataStream
    looks: list[RunLook] = [RunLook()] * len(stream)
    for run in data.body.textRuns:
        end = min(run.ed, len(stream))
        if run.ts is not None and run.st < end:
            looks[run.st : end] = [run.ts.look()] * (end - run.st)
    by_end = {p.startIndex: p for p in data.body.paragraphs}
    out: list[Edited] = []
    start = 0
    for end, char in enumerate(stream):
        if char != PARAGRAPH_END:
            continue
        kept = [i for i in range(start, end) if not CONTROL.match(stream[i]) and stream[i] != DOCUMENT_END]
        p = by_end.get(end)
        look = p.paragraphStyle.look() if p and p.paragraphStyle else ParagraphLook()
        mark = p.bullet.mark() if p and p.bullet else None
        out.append(Edited("".join(stream[i] for i in kept), [looks[i] for i in kept], look, mark))
        start = end + 1
    return out
