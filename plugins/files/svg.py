"""SVG icons: parsed with defusedxml (no DTD, entities or external references), rebuilt from an allow-list.

Only drawing elements and presentation attributes survive; scripts, event handlers, foreign objects,
external references (``href`` to anything but ``#id``, ``url(...)`` to anything but ``#id``) are dropped.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from atrium.sdk.errors import BadRequest

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
MAX_ELEMENTS = 5000

ELEMENTS = {
    "svg",
    "g",
    "path",
    "rect",
    "circle",
    "ellipse",
    "line",
    "polyline",
    "polygon",
    "text",
    "tspan",
    "defs",
    "lineargradient",
    "radialgradient",
    "stop",
    "clippath",
    "mask",
    "title",
    "desc",
    "symbol",
    "use",
    "pattern",
}
ATTRIBUTES = {
    "id",
    "class",
    "viewbox",
    "width",
    "height",
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "d",
    "points",
    "fill",
    "fill-opacity",
    "fill-rule",
    "stroke",
    "stroke-width",
    "stroke-linecap",
    "stroke-linejoin",
    "stroke-miterlimit",
    "stroke-dasharray",
    "stroke-dashoffset",
    "stroke-opacity",
    "opacity",
    "transform",
    "offset",
    "stop-color",
    "stop-opacity",
    "gradientunits",
    "gradienttransform",
    "spreadmethod",
    "fx",
    "fy",
    "clip-path",
    "clip-rule",
    "clippathunits",
    "mask",
    "maskunits",
    "maskcontentunits",
    "patternunits",
    "patterncontentunits",
    "patterntransform",
    "preserveaspectratio",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "text-anchor",
    "dominant-baseline",
    "dx",
    "dy",
    "letter-spacing",
    "display",
    "visibility",
    "color",
    "style",
    "version",
    "href",
}
_URL = re.compile(r"url\s*\(\s*(['\"]?)(.*?)\1\s*\)", re.I)
_BAD_STYLE = re.compile(r"(expression|javascript:|@import|behavior\s*:|-moz-binding)", re.I)


def _local(tag: str) -> tuple[str, str]:
    if tag.startswith("{"):
        ns, _, name = tag[1:].partition("}")
        return ns, name
    return "", tag


def _safe_value(name: str, value: str) -> bool:
    if name == "href":
        return value.startswith("#")
    if _BAD_STYLE.search(value):
        return False
    return all(m.group(2).strip().startswith("#") for m in _URL.finditer(value))


def sanitise_svg(data: bytes, error: BadRequest) -> bytes:
    """Answer a clean copy of an SVG document, or raise ``error`` when it is not a usable SVG."""
    try:
        root = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except (DefusedXmlException, ET.ParseError, ValueError) as exc:
        raise error from exc
    ns, name = _local(root.tag)
    if name != "svg" or ns not in ("", SVG_NS):
        raise error
    count = 0

    def copy(src: ET.Element) -> ET.Element | None:
        nonlocal count
        ens, ename = _local(src.tag) if isinstance(src.tag, str) else ("", "")
        if ens not in ("", SVG_NS) or ename.lower() not in ELEMENTS:
            return None
        count += 1
        if count > MAX_ELEMENTS:
            raise error
        dst = ET.Element(f"{{{SVG_NS}}}{ename}")
        for key, value in src.attrib.items():
            ans, aname = _local(key)
            if ans not in ("", XLINK_NS) or aname.lower() not in ATTRIBUTES or aname.lower().startswith("on"):
                continue
            if not _safe_value(aname.lower(), value):
                continue
            dst.set(f"{{{XLINK_NS}}}href" if ans == XLINK_NS else aname, value)
        if ename in ("title", "desc", "text", "tspan") and src.text:
            dst.text = src.text
        for child in src:
            c = copy(child)
            if c is not None:
                c.tail = child.tail if ename in ("text", "tspan") else None
                dst.append(c)
        return dst

    clean = copy(root)
    if clean is None:
        raise error
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", XLINK_NS)
    out: bytes = ET.tostring(clean, encoding="utf-8", xml_declaration=False)
    return out
