"""How a Word document looks to the editor: Word's styles, numbering and theme resolved into Univer's run
and paragraph looks (`RunLook`, `ParagraphLook`, `ListMark`), and the tables that name both sides (named
styles: Title, Subtitle and Heading 1-5, as Univer has no sixth level; alignment, highlight, baseline
offset, line spacing rules)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.oxml.parser import parse_xml

from .colours import COLOUR, RGB_FUNC
from .docx_xml import A_NS, val, w

#: Word's paragraph style names (as `w:name` holds them, lower case) <-> Univer's `NamedStyleType`
NAMED_STYLES = {"title": 2, "subtitle": 3, **{f"heading {n}": n + 3 for n in range(1, 6)}}
#: how Univer shows each named style (size, colour, space above and below), for a style the file lacks
NAMED_LOOK: dict[int, tuple[int, str | None, int, int]] = {
    2: (26, None, 0, 7),
    3: (15, "999999", 0, 16),
    4: (20, None, 20, 10),
    5: (18, None, 18, 10),
    6: (16, None, 16, 10),
    7: (14, None, 14, 8),
    8: (12, None, 12, 8),
}
#: Word's `w:jc` <-> Univer's `HorizontalAlign` (Univer's JUSTIFIED 4 and BOTH 5 are both Word's "both")
ALIGN = {"left": 1, "start": 1, "center": 2, "right": 3, "end": 3, "both": 4, "distribute": 6}
ALIGN_OUT = {1: "left", 2: "center", 3: "right", 4: "both", 6: "distribute"}
HIGHLIGHT = {
    **{"black": "#000000", "blue": "#0000ff", "cyan": "#00ffff", "green": "#00ff00", "magenta": "#ff00ff"},
    **{"red": "#ff0000", "yellow": "#ffff00", "white": "#ffffff", "darkBlue": "#000080"},
    **{"darkCyan": "#008080", "darkGreen": "#008000", "darkMagenta": "#800080", "darkRed": "#800000"},
    **{"darkYellow": "#808000", "darkGray": "#808080", "lightGray": "#c0c0c0"},
}
HIGHLIGHT_OUT = {v: k for k, v in HIGHLIGHT.items()}
#: Word's `w:vertAlign` <-> Univer's `BaselineOffset`
VERT = {"subscript": 2, "superscript": 3}
VERT_OUT = {v: k for k, v in VERT.items()}
SPACING_RULE = {"auto": 0, "atLeast": 1, "exact": 2}
SPACING_RULE_OUT = {v: k for k, v in SPACING_RULE.items()}


def points(twips: str | None) -> float | None:
    """Points of a length Word writes in twips (twentieths of a point); None when there is none."""
    try:
        return None if twips is None else round(int(twips) / 20, 2)
    except ValueError:
        return None


def hex_colour(value: str | None) -> str | None:
    """'#rrggbb' of a colour written '#RRGGBB', 'RRGGBB' or 'rgb(r, g, b)'; None for any other."""
    text = (value or "").strip()
    if m := COLOUR.match(text):
        return "#" + m[1].lower()
    if (m := RGB_FUNC.match(text)) and all(int(x) <= 255 for x in m.groups()):
        return "#" + "".join(f"{int(x):02x}" for x in m.groups())
    return None


@dataclass(frozen=True)
class RunLook:
    """What the editor shows of a run: Univer's `ITextStyle` in one canonical form (colours '#rrggbb')."""

    bl: int | None = None
    it: int | None = None
    ul: int | None = None
    st: int | None = None
    fs: float | None = None
    ff: str | None = None
    cl: str | None = None
    bg: str | None = None
    va: int | None = None

    def ts(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None:
                wrap = {"ul": "s", "st": "s", "cl": "rgb", "bg": "rgb"}.get(f.name)
                out[f.name] = {wrap: value} if wrap else value
        return out


@dataclass(frozen=True)
class ParagraphLook:
    """What the editor shows of a paragraph: Univer's `IParagraphStyle` in one canonical form (sizes in
    points; a line spacing in lines when `rule` is 0, else in points)."""

    named: int | None = None
    align: int | None = None
    above: float | None = None
    below: float | None = None
    line: float | None = None
    rule: int | None = None
    start: float | None = None
    end: float | None = None
    first: float | None = None
    hanging: float | None = None

    def paragraph_style(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.named is not None:
            out["namedStyleType"] = self.named
        if self.align is not None:
            out["horizontalAlign"] = self.align
        units = {
            "spaceAbove": self.above,
            "spaceBelow": self.below,
            "indentStart": self.start,
            "indentEnd": self.end,
            "indentFirstLine": self.first,
            "hanging": self.hanging,
        }
        out.update({key: {"v": v} for key, v in units.items() if v is not None})
        if self.line is not None:
            out.update(lineSpacing=self.line, spacingRule=self.rule or 0)
        return out


@dataclass(frozen=True)
class ListMark:
    """A paragraph's place in a list: `kind` 'bullet' or 'number', the list it continues, its level."""

    kind: str
    list_id: str
    level: int

    def bullet(self) -> dict[str, Any]:
        kind = "BULLET_LIST" if self.kind == "bullet" else "ORDER_LIST"
        return {"listType": kind, "listId": self.list_id, "nestingLevel": self.level}


def _on(el: Any) -> int:
    """A toggle property (`w:b`, `w:i`, ...): 1 unless its value turns it off."""
    return 0 if val(el) in ("0", "false", "off") else 1


def _first(sources: list[Any], tag: str, *attrs: str) -> tuple[str, str] | None:
    """The nearest source's `w:<tag>` holding one of `attrs`: which one, and its value."""
    for src in sources:
        el = src.find(w(tag))
        for attr in attrs if el is not None else ():
            if el.get(w(attr)) is not None:
                return attr, str(el.get(w(attr)))
    return None


class WordStyles:
    """What a paragraph or run of a file shows, through its styles, numbering and theme."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc
        self.root = doc.styles.element
        self.styles: dict[str, Any] = {}
        self.by_name: dict[str, str] = {}
        self.default: str | None = None
        for st in self.root.iter(w("style")):
            sid = val(st, "styleId")
            if sid is None:
                continue
            self.styles[sid] = st
            if val(st, "type") == "paragraph":
                self.by_name.setdefault((val(st.find(w("name"))) or "").lower(), sid)
                if st.get(w("default")) in ("1", "true", "on"):
                    self.default = sid
        self.ppr_default = self.root.find(f"{w('docDefaults')}/{w('pPrDefault')}/{w('pPr')}")
        self.rpr_default = self.root.find(f"{w('docDefaults')}/{w('rPrDefault')}/{w('rPr')}")
        self.numbering = self._related(RT.NUMBERING)
        theme = self._related(RT.THEME)
        self.theme_fonts: dict[str, str] = {}
        for kind in ("major", "minor") if theme is not None else ():
            latin = theme.find(f".//{{{A_NS}}}{kind}Font/{{{A_NS}}}latin")
            if latin is not None and latin.get("typeface"):
                self.theme_fonts[kind] = str(latin.get("typeface"))

    def _related(self, reltype: str) -> Any:
        try:
            part = self.doc.part.part_related_by(reltype)
            return part.element if hasattr(part, "element") else parse_xml(part.blob)
        except Exception:  # none, or one that is not XML: then it is not used
            return None

    def chain(self, style_id: str | None) -> list[Any]:
        """The style and those it is based on, nearest first."""
        out: list[Any] = []
        while style_id in self.styles and self.styles[style_id] not in out and len(out) < 20:
            out.append(self.styles[style_id])
            style_id = val(self.styles[style_id].find(w("basedOn")))
        return out

    def _sources(self, ppr: Any, defaults: bool = True) -> list[Any]:
        sid = val(ppr.find(w("pStyle"))) if ppr is not None else None
        styles = [st.find(w("pPr")) for st in self.chain(sid if sid in self.styles else self.default)]
        return [s for s in (ppr, *styles, self.ppr_default if defaults else None) if s is not None]

    def named(self, ppr: Any) -> int | None:
        st = self.styles.get(val(ppr.find(w("pStyle"))) or "") if ppr is not None else None
        return NAMED_STYLES.get((val(st.find(w("name"))) or "").lower()) if st is not None else None

    def paragraph(self, ppr: Any) -> tuple[ParagraphLook, ListMark | None]:
        src = self._sources(ppr)

        def value(tag: str, *attrs: str) -> str | None:
            found = _first(src, tag, *attrs)
            return found[1] if found else None

        rule = SPACING_RULE.get(value("spacing", "lineRule") or "auto", 0)
        line = points(value("spacing", "line"))
        mark = self.list_mark(ppr)
        first = None if mark else _first(src, "ind", "hanging", "firstLine")  # a list indents itself
        look = ParagraphLook(
            named=self.named(ppr),
            align=ALIGN.get(value("jc", "val") or ""),
            above=points(value("spacing", "before")),
            below=points(value("spacing", "after")),
            line=round(line / 12, 2) if line is not None and rule == 0 else line,  # 240ths of a line
            rule=rule if line is not None else None,
            start=None if mark else points(value("ind", "left", "start")),
            end=None if mark else points(value("ind", "right", "end")),
            first=points(first[1]) if first and first[0] == "firstLine" else None,
            hanging=points(first[1]) if first and first[0] == "hanging" else None,
        )
        return look, mark

    def list_mark(self, ppr: Any) -> ListMark | None:
        numbered = [s.find(w("numPr")) for s in self._sources(ppr, defaults=False)]
        numbered = [n for n in numbered if n is not None]
        num, lvl = _first(numbered, "numId", "val"), _first(numbered, "ilvl", "val")
        if num is None or not num[1].isdigit() or num[1] == "0":
            return None
        level = min(8, int(lvl[1])) if lvl and lvl[1].isdigit() else 0
        kind = self.list_kind(int(num[1]), level)
        return ListMark(kind, f"word-{num[1]}", level) if kind else None

    def list_kind(self, num_id: int, level: int) -> str | None:
        """'bullet' or 'number' for a list of the file at a level; None when there is no such list."""
        nums = self.numbering.iter(w("num")) if self.numbering is not None else ()
        num = next((n for n in nums if val(n, "numId") == str(num_id)), None)
        if num is None:
            return None
        abstract = val(num.find(w("abstractNumId")))
        for definition in self.numbering.iter(w("abstractNum")):
            if val(definition, "abstractNumId") == abstract:
                lvl = next((x for x in definition.iter(w("lvl")) if val(x, "ilvl") == str(level)), None)
                fmt = val(lvl.find(w("numFmt"))) if lvl is not None else None
                return {"none": None, "bullet": "bullet"}.get(fmt or "decimal", "number")
        return None

    def _font(self, sources: list[Any]) -> str | None:
        for fonts in (s.find(w("rFonts")) for s in sources):
            theme = val(fonts, "asciiTheme") or val(fonts, "hAnsiTheme")
            if theme:
                return self.theme_fonts.get("major" if theme.startswith("major") else "minor")
            name = val(fonts, "ascii") or val(fonts, "hAnsi")
            if name:
                return name
        return None

    def run(self, rpr: Any) -> RunLook:
        """A run's look: its own properties over those of its character style."""
        if rpr is None:
            return RunLook()
        sources = [rpr, *(st.find(w("rPr")) for st in self.chain(val(rpr.find(w("rStyle")))))]
        sources = [s for s in sources if s is not None]

        def first(tag: str) -> Any:
            return next((s.find(w(tag)) for s in sources if s.find(w(tag)) is not None), None)

        bold, italic, strike, underline = first("b"), first("i"), first("strike"), first("u")
        size = val(first("sz"))
        shading = hex_colour(val(first("shd"), "fill"))
        return RunLook(
            bl=None if bold is None else _on(bold),
            it=None if italic is None else _on(italic),
            ul=None if underline is None else int(val(underline) != "none"),
            st=None if strike is None else _on(strike),
            fs=int(size) / 2 if size and size.isdigit() else None,
            ff=self._font(sources),
            cl=hex_colour(val(first("color"))),
            bg=HIGHLIGHT.get(val(first("highlight")) or "") or shading,
            va=VERT.get(val(first("vertAlign")) or ""),
        )

    def body_text(self) -> dict[str, Any]:
        """The font and size of body text: the default paragraph style's, over the file's defaults."""
        sources = [st.find(w("rPr")) for st in self.chain(self.default)] + [self.rpr_default]
        sources = [s for s in sources if s is not None]
        size = val(next((s.find(w("sz")) for s in sources if s.find(w("sz")) is not None), None))
        font = self._font(sources)
        return {**({"ff": font} if font else {}), "fs": int(size) / 2 if size and size.isdigit() else 10}
