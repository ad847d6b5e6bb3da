"""What a stamp draws: the text and its look, taken from a watermark setting, and the font files to draw it.

The settings screen draws the same look in the browser (`web-plugins/watermark/src/draw.ts`): a 250-unit
tile repeated over the page, the text centred in it, wrapped to the tile's width (at most 6 lines),
rotated by `fwRotationAngle` (negative: rising to the right), with the colour's own alpha times
``1 - fwTransparent / 100``.
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

TILE = 250
MAX_LINES = 6
LINE_HEIGHT = 1.4
#: a change here changes every cached stamp's key, so stamps drawn the old way are not served
RENDERING = 1

#: fonts tried in order: the first one found that covers Chinese, then Latin-only fallbacks
FONT_FILES = (
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 0),
    ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0),
    ("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf", 0),
)

_RGB = re.compile(r"^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*([0-9.]+)\s*)?\)$")


@dataclass(frozen=True)
class Mark:
    """The text to stamp and how it looks (the setting's fields)."""

    text: str
    font_size: int = 18
    color: str = "#000000"
    rotation: int = -20
    transparent: int = 85

    @classmethod
    def of_setting(cls, setting: dict[str, Any], text: str) -> Mark:
        return cls(
            text=text,
            font_size=int(setting["fwFontSize"]),
            color=str(setting["fwColor"]),
            rotation=int(setting["fwRotationAngle"]),
            transparent=int(setting["fwTransparent"]),
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


@lru_cache(maxsize=1)
def font_file() -> tuple[str, int] | None:
    """The first installed font of `FONT_FILES` (path and index in a collection), or None."""
    for path, index in FONT_FILES:
        if Path(path).is_file():
            return path, index
    return None


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
