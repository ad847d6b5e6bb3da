"""What a stamp draws: the text and its look, taken from a watermark setting, and the font files to draw it.

The settings screen draws the same look in the browser (`web-plugins/watermark/src/draw.ts`): a 250-unit
tile repeated over the page, the text centred in it, wrapped to the tile's width (at most 6 lines),
rotated by `fwRotationAngle` (negative: rising to the right), with the colour's own alpha times
``1 - fwTransparent / 100``.

Fonts: `fwFont` names browser fonts (a CSS family list such as ``"Microsoft YaHei", Arial``). The server
draws with the installed file of the same kind (`FAMILIES`: Latin sans, serif or monospace, Chinese sans or
serif, e.g. Arial -> Liberation Sans, Times New Roman -> Liberation Serif, Microsoft YaHei -> WenQuanYi Micro
Hei), the first file of that kind that has every character of the text; past those, the `FONT_FILES` that do
(so Chinese text always gets a font with Chinese in it). A table, not fontconfig: the choice is the same on
every node and costs no process per preview.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab.pdfbase.ttfonts import TTFontFile

TILE = 250
MAX_LINES = 6
LINE_HEIGHT = 1.4
#: a change here changes every cached stamp's key, so stamps drawn the old way are not served
RENDERING = 2

FontFile = tuple[str, int]
"""A font file and the index of the face in it (a collection holds several)."""

_TT = "/usr/share/fonts/truetype"
WQY_MICROHEI = (f"{_TT}/wqy/wqy-microhei.ttc", 0)
WQY_ZENHEI = (f"{_TT}/wqy/wqy-zenhei.ttc", 0)
AR_PL_UMING = (f"{_TT}/arphic/uming.ttc", 0)
DEJAVU_SANS = (f"{_TT}/dejavu/DejaVuSans.ttf", 0)
DEJAVU_SERIF = (f"{_TT}/dejavu/DejaVuSerif.ttf", 0)
DEJAVU_MONO = (f"{_TT}/dejavu/DejaVuSansMono.ttf", 0)
#: Liberation 2 (fonts-liberation2) covers more scripts than 1.x (fonts-liberation): tried first
LIBERATION_SANS = (
    (f"{_TT}/liberation2/LiberationSans-Regular.ttf", 0),
    (f"{_TT}/liberation/LiberationSans-Regular.ttf", 0),
)
LIBERATION_SERIF = (
    (f"{_TT}/liberation2/LiberationSerif-Regular.ttf", 0),
    (f"{_TT}/liberation/LiberationSerif-Regular.ttf", 0),
)
LIBERATION_MONO = (
    (f"{_TT}/liberation2/LiberationMono-Regular.ttf", 0),
    (f"{_TT}/liberation/LiberationMono-Regular.ttf", 0),
)

#: fonts tried in order when the setting names no known family, and after the family's own files: the first
#: one found that covers Chinese, then Latin-only fallbacks
FONT_FILES: tuple[FontFile, ...] = (WQY_MICROHEI, WQY_ZENHEI, AR_PL_UMING, DEJAVU_SANS, *LIBERATION_SANS)

#: the installed files drawn for each kind of family, best first
KINDS: dict[str, tuple[FontFile, ...]] = {
    "sans": (*LIBERATION_SANS, DEJAVU_SANS),
    "serif": (*LIBERATION_SERIF, DEJAVU_SERIF),
    "mono": (*LIBERATION_MONO, DEJAVU_MONO),
    "cjk-sans": (WQY_MICROHEI, WQY_ZENHEI),
    # Song/Ming faces: a Chinese serif when installed; Latin text then looks as their Latin letters do
    "cjk-serif": (AR_PL_UMING, *LIBERATION_SERIF, DEJAVU_SERIF),
}

#: browser font families (lower case, `|` between them) of each kind; generic CSS families too
_FAMILY_NAMES = {
    "sans": "arial|helvetica|helvetica neue|verdana|tahoma|segoe ui|calibri|trebuchet ms|roboto|open sans|"
    "noto sans|liberation sans|dejavu sans|sans-serif|system-ui",
    "serif": "times new roman|times|georgia|cambria|garamond|palatino|book antiqua|noto serif|"
    "liberation serif|dejavu serif|serif",
    "mono": "courier new|courier|consolas|monaco|menlo|liberation mono|dejavu sans mono|monospace",
    "cjk-sans": "microsoft yahei|微软雅黑|simhei|黑体|microsoft jhenghei|微軟正黑體|pingfang sc|pingfang tc|"
    "hiragino sans gb|heiti sc|stheiti|noto sans sc|noto sans cjk sc|source han sans sc|思源黑体|"
    "wenquanyi micro hei|文泉驿微米黑|wenquanyi zen hei",
    "cjk-serif": "simsun|宋体|nsimsun|新宋体|songti sc|stsong|华文宋体|fangsong|仿宋|kaiti|楷体|stkaiti|"
    "mingliu|pmingliu|新細明體|noto serif sc|noto serif cjk sc|source han serif sc|思源宋体|ar pl uming",
}
#: a browser font family (lower case) -> its kind (a key of `KINDS`)
FAMILIES = {name: kind for kind, names in _FAMILY_NAMES.items() for name in names.split("|")}

_RGB = re.compile(r"^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*([0-9.]+)\s*)?\)$")


@dataclass(frozen=True)
class Mark:
    """The text to stamp and how it looks (the setting's fields)."""

    text: str
    font_size: int = 18
    color: str = "#000000"
    rotation: int = -20
    transparent: int = 85
    #: the setting's `fwFont` (browser families; see `font_file`)
    font: str = ""

    @classmethod
    def of_setting(cls, setting: dict[str, Any], text: str) -> Mark:
        return cls(
            text=text,
            font_size=int(setting["fwFontSize"]),
            color=str(setting["fwColor"]),
            rotation=int(setting["fwRotationAngle"]),
            transparent=int(setting["fwTransparent"]),
            font=str(setting.get("fwFont") or ""),
        )

    def rgba(self) -> tuple[int, int, int, int]:
        """The colour with the transparency applied, as 0-255 channels."""
        r, g, b, a = parse_color(self.color)
        opacity = max(0.0, min(1.0, 1 - self.transparent / 100))
        return r, g, b, round(a * opacity)

    def digest(self) -> str:
        """A short stable name of what the stamp looks like (for cache keys)."""
        raw = json.dumps({**asdict(self), "rendering": RENDERING}, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(raw.encode()).hexdigest()[:40]

    def font_file(self) -> FontFile | None:
        """The installed font file this stamp is drawn with (see `font_file`)."""
        return font_file(self.font, self.text)


def parse_color(css: str) -> tuple[int, int, int, int]:
    """`#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb()` or `rgba()` as 0-255 channels; black when unreadable."""
    text = css.strip().lower()
    if text.startswith("#"):
        digits = text[1:]
        if len(digits) == 3:
            digits = "".join(c * 2 for c in digits)
        if len(digits) in (6, 8) and re.fullmatch(r"[0-9a-f]+", digits):
            channels = [int(digits[i : i + 2], 16) for i in range(0, len(digits), 2)]
            return channels[0], channels[1], channels[2], channels[3] if len(channels) == 4 else 255
        return 0, 0, 0, 255
    m = _RGB.match(text)
    if not m:
        return 0, 0, 0, 255
    r, g, b = (min(255, int(m.group(i))) for i in (1, 2, 3))
    alpha = 1.0 if m.group(4) is None else max(0.0, min(1.0, float(m.group(4))))
    return r, g, b, round(alpha * 255)


def kind_of_font(families: str) -> str:
    """The kind (a key of `KINDS`) of the first family of a CSS family list that `FAMILIES` knows; "" when
    it knows none."""
    for family in families.split(","):
        kind = FAMILIES.get(" ".join(family.strip().strip("'\"").lower().split()))
        if kind:
            return kind
    return ""


def font_file(families: str = "", text: str = "") -> FontFile | None:
    """The installed font to draw `text` with for the setting's `fwFont` (`families`): the first file of the
    family's kind, then of `FONT_FILES`, that has every character of the text; when none has them all, the
    one that has most. None when no font is installed."""
    return _pick(kind_of_font(families), frozenset(ch for ch in text if not ch.isspace()))


@lru_cache(maxsize=256)
def _pick(kind: str, chars: frozenset[str]) -> FontFile | None:
    candidates = dict.fromkeys((*KINDS.get(kind, ()), *FONT_FILES))  # in order, once each
    installed = [f for f in candidates if Path(f[0]).is_file()]
    if not installed:
        return None

    def covered(f: FontFile) -> int:
        cmap = _characters(f)
        return -1 if cmap is None else sum(1 for ch in chars if ord(ch) in cmap)

    return max(installed, key=covered)  # the first of the best


@lru_cache(maxsize=32)
def _characters(f: FontFile) -> frozenset[int] | None:
    """The code points a font file has glyphs for; None when it cannot be read (nor embedded in a PDF)."""
    try:
        face = TTFontFile(f[0], charInfo=1, subfontIndex=f[1])
    except Exception:  # noqa: BLE001 - reportlab raises TTFError, struct and OS errors for files it cannot use
        return None
    return frozenset(face.charToGlyph or ())


def wrap(text: str, width: float, measure: Callable[[str], float]) -> list[str]:
    """The text split into lines no wider than `width` (by character, as the browser tile does)."""
    out: list[str] = []
    line = ""
    for ch in text:
        if line and measure(line + ch) > width:
            out.append(line)
            line = ch if ch.strip() else ""
        else:
            line += ch
    if line:
        out.append(line)
    return out[:MAX_LINES]
