"""Colours as the editors send them (``#rrggbb`` or ``rgb(r, g, b)`` inside Univer's ``{"rgb": ...}``) and
as openpyxl writes them (``FFRRGGBB``), with the on/off flag Univer's text styles use."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

COLOUR = re.compile(r"^#?([0-9a-fA-F]{6})$")
RGB_FUNC = re.compile(r"^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*[\d.]+\s*)?\)$")


class Rgb(BaseModel):
    model_config = ConfigDict(extra="ignore")
    rgb: str | None = Field(default=None, max_length=40)


class Flag(BaseModel):
    model_config = ConfigDict(extra="ignore")
    s: int | None = None


def argb(value: Rgb | None) -> str | None:
    if value is None or not value.rgb:
        return None
    text = value.rgb.strip()
    m = COLOUR.match(text)
    if m:
        return "FF" + m[1].upper()
    m = RGB_FUNC.match(text)
    if m and all(int(x) <= 255 for x in m.groups()):
        return "FF" + "".join(f"{int(x):02X}" for x in m.groups())
    return None
