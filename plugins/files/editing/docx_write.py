"""The editor's document data written into the stored Word document (`write_document`).

Saving writes into the stored file, not a blank one: styles, numbering, page layout, empty headers and the
file's properties stay as they were. Each paragraph sent is matched (by its text) with the original it came
from, whose paragraph and run properties are copied and changed only where the editor's data differs from
what opening produced; formatting the editor does not show (a Quote or Heading 6 style, character spacing,
...) stays on the text it belonged to, and new text takes what the text it follows has. Headings and lists
the file lacks are added as the editor shows them.
"""

from __future__ import annotations

import copy
import io
import re
from dataclasses import fields
from typing import Any, BinaryIO

from docx.opc.constants import CONTENT_TYPE as CT
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.oxml.ns import nsdecls
from docx.oxml.parser import OxmlElement, parse_xml
from docx.parts.numbering import NumberingPart

from .document_data import DocumentIn, Edited, edited
from .docx_check import CannotKeep, find_blockers, unsupported
from .docx_read import Original, load, originals
from .docx_styles import (
    ALIGN_OUT,
    HIGHLIGHT_OUT,
    NAMED_LOOK,
    NAMED_STYLES,
    SPACING_RULE_OUT,
    VERT_OUT,
    ListMark,
    ParagraphLook,
    RunLook,
    WordStyles,
)
from .docx_xml import val, w
from .limits import Limits, WorkbookTooLarge
from .matching import pairs

DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


#: schema order of run and paragraph properties (a property is added before any that comes later)
RPR_ORDER = [
    *("rStyle", "rFonts", "b", "bCs", "i", "iCs", "caps", "smallCaps", "strike", "dstrike", "outline"),
    *("shadow", "emboss", "imprint", "noProof", "snapToGrid", "vanish", "webHidden", "color", "spacing"),
    *("w", "kern", "position", "sz", "szCs", "highlight", "u", "effect", "bdr", "shd", "fitText"),
    *("vertAlign", "rtl", "cs", "em", "lang", "eastAsianLayout", "specVanish", "oMath"),
]
PPR_ORDER = [
    *("pStyle", "keepNext", "keepLines", "pageBreakBefore", "framePr", "widowControl", "numPr"),
    *("suppressLineNumbers", "pBdr", "shd", "tabs", "suppressAutoHyphens", "kinsoku", "wordWrap"),
    *("overflowPunct", "topLinePunct", "autoSpaceDE", "autoSpaceDN", "bidi", "adjustRightInd"),
    *("snapToGrid", "spacing", "ind", "contextualSpacing", "mirrorIndents", "suppressOverlap", "jc"),
    *("textDirection", "textAlignment", "textboxTightWrap", "outlineLvl", "divId", "cnfStyle", "rPr"),
    *("sectPr", "pPrChange"),
]
_TOGGLES = {"bl": "b", "it": "i", "st": "strike"}
_PIECES = {"\t": "w:tab", "\u2011": "w:noBreakHyphen", "\u00ad": "w:softHyphen", "\f": "w:br", "\v": "w:br"}


def _put(parent: Any, tag: str, order: list[str], **attrs: str | None) -> Any:
    """The parent's `w:<tag>` (added in its place in the schema's order when there is none), with
    `attrs` set (None: removed)."""
    el = parent.find(w(tag))
    if el is None:
        el = OxmlElement(f"w:{tag}")
        later = {w(t) for t in order[order.index(tag) + 1 :]}
        after = next((c for c in parent if c.tag in later), None)
        (after.addprevious if after is not None else parent.append)(el)
    for attr, value in attrs.items():
        if value is None:
            el.attrib.pop(w(attr), None)
        else:
            el.set(w(attr), value)
    return el


def _drop(parent: Any, *tags: str) -> None:
    for el in [c for c in parent if c.tag in {w(t) for t in tags}]:
        parent.remove(el)


def _twips(points: float | None) -> str | None:
    return None if points is None else str(round(points * 20))


def set_run_property(rpr: Any, key: str, value: Any) -> None:
    """Writes one property of a run's look into its `w:rPr` (None: the run no longer sets it)."""
    if key in _TOGGLES:
        _drop(rpr, _TOGGLES[key])
        if value is not None:
            _put(rpr, _TOGGLES[key], RPR_ORDER, val=None if value else "0")
    elif key == "ul":
        _drop(rpr, "u")
        if value is not None:
            _put(rpr, "u", RPR_ORDER, val="single" if value else "none")
    elif key == "fs":
        _drop(rpr, "sz", "szCs")
        if value is not None:
            for tag in ("sz", "szCs"):
                _put(rpr, tag, RPR_ORDER, val=str(round(value * 2)))
    elif key == "ff":
        # a font chosen in the editor is for every script, as the editor shows it; none leaves Latin text
        # to the style's font (a theme font, named in the file, wins over a name)
        names = ("ascii", "hAnsi", "eastAsia", "cs")[: 4 if value else 2]
        themes = ("asciiTheme", "hAnsiTheme", "eastAsiaTheme", "cstheme")[: 4 if value else 2]
        fonts = _put(rpr, "rFonts", RPR_ORDER, **dict.fromkeys(themes), **dict.fromkeys(names, value))
        if not fonts.attrib:
            rpr.remove(fonts)
    elif key == "cl":
        _drop(rpr, "color")
        if value is not None:
            _put(rpr, "color", RPR_ORDER, val=value[1:].upper())
    elif key == "bg":
        _drop(rpr, "highlight", "shd")
        if value in HIGHLIGHT_OUT:
            _put(rpr, "highlight", RPR_ORDER, val=HIGHLIGHT_OUT[value])
        elif value is not None:
            _put(rpr, "shd", RPR_ORDER, val="clear", color="auto", fill=value[1:].upper())
    elif key == "va":
        _drop(rpr, "vertAlign")
        if value is not None:
            _put(rpr, "vertAlign", RPR_ORDER, val=VERT_OUT[value])


def set_paragraph_look(ppr: Any, look: ParagraphLook, shown: ParagraphLook) -> None:
    """Writes into a `w:pPr` where the editor's look of a paragraph differs from the one it shows now
    (its named style and list are already written)."""
    if look.align != shown.align:
        _drop(ppr, "jc")
        if look.align in ALIGN_OUT:
            _put(ppr, "jc", PPR_ORDER, val=ALIGN_OUT[look.align])
    spacing: dict[str, str | None] = {}
    if look.above != shown.above:
        spacing.update(before=_twips(look.above), beforeLines=None, beforeAutospacing=None)
    if look.below != shown.below:
        spacing.update(after=_twips(look.below), afterLines=None, afterAutospacing=None)
    if (look.line, look.rule) != (shown.line, shown.rule):
        line = None if look.line is None else look.line * (1 if look.rule else 12)
        spacing.update(line=_twips(line), lineRule=None if line is None else SPACING_RULE_OUT[look.rule or 0])
    indents: dict[str, str | None] = {}
    if look.start != shown.start:
        indents.update(left=_twips(look.start), start=None)
    if look.end != shown.end:
        indents.update(right=_twips(look.end), end=None)
    if (look.first, look.hanging) != (shown.first, shown.hanging):
        first, hanging = _twips(look.first), _twips(look.hanging)
        indents.update(firstLine=first, hanging=hanging, firstLineChars=None, hangingChars=None)
    for tag, attrs in (("spacing", spacing), ("ind", indents)):
        if attrs and not _put(ppr, tag, PPR_ORDER, **attrs).attrib:
            _drop(ppr, tag)


class Writer:
    """Builds the stored document's new body from the editor's paragraphs."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc
        self.words = WordStyles(doc)
        self.lists: dict[tuple[str, str], int] = {}
        self.looks: dict[int, RunLook] = {}

    def style_id(self, named: int) -> str:
        """The file's style for one of the editor's named styles; added, looking as the editor shows it,
        when the file has none."""
        name = next(k for k, v in NAMED_STYLES.items() if v == named)
        if name in self.words.by_name:
            return self.words.by_name[name]
        sid = name.title().replace(" ", "")
        while sid in self.words.styles:
            sid += "1"
        size, colour, above, below = NAMED_LOOK[named]
        base = f'<w:basedOn w:val="{self.words.default}"/>' if self.words.default else ""
        outline = f'<w:outlineLvl w:val="{named - 4}"/>' if named >= 4 else ""
        run = ("" if named == 3 else "<w:b/>") + (f'<w:color w:val="{colour}"/>' if colour else "")
        style = parse_xml(
            f'<w:style {nsdecls("w")} w:type="paragraph" w:styleId="{sid}"><w:name w:val="{name}"/>{base}'
            f'<w:qFormat/><w:pPr><w:keepNext/><w:spacing w:before="{above * 20}" w:after="{below * 20}"/>'
            f'{outline}</w:pPr><w:rPr>{run}<w:sz w:val="{size * 2}"/></w:rPr></w:style>'
        )
        self.words.root.append(style)
        self.words.styles[sid] = style
        self.words.by_name[name] = sid
        return sid

    def _numbering(self) -> Any:
        if self.words.numbering is None:
            package = self.doc.part.package
            name = package.next_partname("/word/numbering%d.xml")
            if not any(part.partname == "/word/numbering.xml" for part in package.iter_parts()):
                name = PackURI("/word/numbering.xml")
            self.words.numbering = parse_xml(f"<w:numbering {nsdecls('w')}/>")
            part = NumberingPart(name, CT.WML_NUMBERING, self.words.numbering, package)
            self.doc.part.relate_to(part, RT.NUMBERING)
        return self.words.numbering

    def num_id(self, mark: ListMark) -> int:
        """The file's list for one of the editor's: the one it came from while it is of the same kind,
        else one added (bullets or numbers as the editor shows them, nine levels)."""
        m = re.fullmatch(r"word-(\d+)", mark.list_id)
        if m and self.words.list_kind(int(m[1]), mark.level) == mark.kind:
            return int(m[1])
        if (mark.list_id, mark.kind) in self.lists:
            return self.lists[mark.list_id, mark.kind]
        numbering = self._numbering()
        abstract = 1 + max(
            (int(val(a, "abstractNumId") or 0) for a in numbering.iter(w("abstractNum"))), default=0
        )
        num_id = 1 + max((int(val(n, "numId") or 0) for n in numbering.iter(w("num"))), default=0)
        levels = []
        for lvl in range(9):
            fmt = "bullet" if mark.kind == "bullet" else ("decimal", "lowerLetter", "lowerRoman")[lvl % 3]
            text = "●○■"[lvl % 3] if mark.kind == "bullet" else f"%{lvl + 1}."
            levels.append(
                f'<w:lvl w:ilvl="{lvl}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/>'
                f'<w:lvlText w:val="{text}"/><w:lvlJc w:val="left"/>'
                f'<w:pPr><w:ind w:left="{720 * (lvl + 1)}" w:hanging="360"/></w:pPr></w:lvl>'
            )
        definition = parse_xml(
            f'<w:abstractNum {nsdecls("w")} w:abstractNumId="{abstract}">'
            f'<w:multiLevelType w:val="hybridMultilevel"/>{"".join(levels)}</w:abstractNum>'
        )
        first = numbering.find(w("num"))
        (first.addprevious if first is not None else numbering.append)(definition)
        num = parse_xml(
            f'<w:num {nsdecls("w")} w:numId="{num_id}"><w:abstractNumId w:val="{abstract}"/></w:num>'
        )
        nums = numbering.findall(w("num"))
        (nums[-1].addnext if nums else numbering.append)(num)
        self.lists[mark.list_id, mark.kind] = num_id
        return num_id

    def _set_list(self, ppr: Any, mark: ListMark | None) -> None:
        _drop(ppr, "numPr")
        if mark is not None:
            numpr = _put(ppr, "numPr", PPR_ORDER)
            numpr.append(parse_xml(f'<w:ilvl {nsdecls("w")} w:val="{mark.level}"/>'))
            numpr.append(parse_xml(f'<w:numId {nsdecls("w")} w:val="{self.num_id(mark)}"/>'))
        elif self.words.list_mark(ppr) is not None:  # a list through the paragraph's style: left
            _put(ppr, "numPr", PPR_ORDER).append(parse_xml(f'<w:numId {nsdecls("w")} w:val="0"/>'))

    def paragraph(self, new: Edited, base: Original | None, same: bool) -> Any:
        """A `w:p` for one of the editor's paragraphs: the properties of `base` (the original it is when
        `same`, else the one it follows) changed where the editor's look differs from theirs."""
        p = OxmlElement("w:p")
        ppr = copy.deepcopy(base.ppr) if base is not None and base.ppr is not None else OxmlElement("w:pPr")
        style = self.words.styles.get(val(ppr.find(w("pStyle"))) or "")
        follower = val(style.find(w("next"))) if style is not None and not same else None
        if follower is not None:  # a paragraph typed after another takes its style's next, as in Word
            _drop(ppr, "pStyle")
            if follower != self.words.default:
                _put(ppr, "pStyle", PPR_ORDER, val=follower)
        shown, mark = self.words.paragraph(ppr)
        if new.look.named != shown.named:
            _drop(ppr, "pStyle")
            if new.look.named is not None:
                _put(ppr, "pStyle", PPR_ORDER, val=self.style_id(new.look.named))
        if new.mark != mark:
            self._set_list(ppr, new.mark)
        set_paragraph_look(ppr, new.look, self.words.paragraph(ppr)[0])
        if len(ppr) or ppr.attrib:
            p.append(ppr)
        chars = base.chars if base is not None else []
        mapping = (
            pairs(list(base.text), list(new.text)) if base is not None and same else [None] * len(new.text)
        )
        fallback = next((chars[i][1] for i in mapping if i is not None), chars[-1][1] if chars else None)
        bases: list[Any] = []
        for i in mapping:
            bases.append(chars[i][1] if i is not None else bases[-1] if bases else fallback)
        start = 0
        for end in range(1, len(new.text) + 1):
            if end == len(new.text) or bases[end] is not bases[start] or new.looks[end] != new.looks[start]:
                p.append(self.run(bases[start], new.looks[start], new.text[start:end]))
                start = end
        return p

    def run(self, base: Any, look: RunLook, text: str) -> Any:
        """A `w:r` of `text`: the run properties of `base`, changed where the editor's look differs."""
        r = OxmlElement("w:r")
        rpr = copy.deepcopy(base) if base is not None else OxmlElement("w:rPr")
        if id(base) not in self.looks:
            self.looks[id(base)] = self.words.run(base)
        shown = self.looks[id(base)]
        for f in fields(RunLook):
            if getattr(look, f.name) != getattr(shown, f.name):
                set_run_property(rpr, f.name, getattr(look, f.name))
        if len(rpr) or rpr.attrib:
            r.append(rpr)
        for piece in re.split(r"([\t\f\v\u2011\u00ad])", text):
            if piece in _PIECES:
                el = OxmlElement(_PIECES[piece])
                if piece in ("\f", "\v"):
                    el.set(w("type"), "page" if piece == "\f" else "column")
                r.append(el)
            elif piece:
                t = OxmlElement("w:t")
                t.text = piece
                t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
                r.append(t)
        return r


def write_document(original: BinaryIO, data: DocumentIn, limits: Limits) -> bytes:
    """The stored docx with the editor's data as its body. CannotKeep when the stored file holds what the
    editor cannot keep, or the data what a save cannot write; WorkbookTooLarge when the data has more
    characters than the limit, or the stored file is not a docx file."""
    if len(data.body.dataStream) > limits.max_characters:
        raise WorkbookTooLarge("files:editor.too_long", limit=limits.max_characters)
    refused = unsupported(data)
    if refused:
        raise CannotKeep(refused, sent=True)
    doc = load(original)
    blockers = find_blockers(doc)
    if blockers:
        raise CannotKeep(blockers)
    old, new = originals(doc), edited(data)
    matched = pairs([o.text for o in old], [n.text for n in new], by_likeness=True)
    writer = Writer(doc)
    body = doc.element.body
    sect = body[-1] if len(body) and body[-1].tag == w("sectPr") else None
    for child in [c for c in body if c is not sect]:
        body.remove(child)
    base: Original | None = None
    for paragraph, index in zip(new, matched, strict=True):
        base = old[index] if index is not None else base
        p = writer.paragraph(paragraph, base, same=index is not None)
        (sect.addprevious if sect is not None else body.append)(p)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()
