"""Stamping a PDF: one stamp page drawn with reportlab (real text, so it stays searchable and sharp) and
merged over every page with pypdf."""

from __future__ import annotations

import io
import math
from functools import lru_cache
from pathlib import Path

from pypdf import PageObject, PdfReader, PdfWriter
from pypdf.errors import PdfReadError
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from atrium.plugins.watermark.mark import LINE_HEIGHT, TILE, FontFile, Mark, wrap

FONT_NAME = "AtriumWatermark"
#: where a line's baseline sits below its centre, in font sizes (centres the text like the browser tile)
BASELINE = 0.35


class TooManyPages(ValueError):
    def __init__(self, pages: int) -> None:
        super().__init__(f"{pages} pages")
        self.pages = pages


class Encrypted(ValueError):
    """A PDF that needs a password to open."""


@lru_cache(maxsize=32)
def _font(found: FontFile | None) -> str:
    """The registered name of a font file (`Mark.font_file`), else Helvetica (Latin only)."""
    if found is None:
        return "Helvetica"
    path, index = found
    file = Path(path)
    name = f"{FONT_NAME}-{file.parent.name}-{file.stem}-{index}"  # one name per file: registered once
    try:
        pdfmetrics.registerFont(TTFont(name, path, subfontIndex=index))
    except Exception:  # noqa: BLE001 - a font reportlab cannot embed (PostScript outlines): use the built-in one
        return "Helvetica"
    return name


def stamp_page(width: float, height: float, mark: Mark) -> PageObject:
    """A transparent page of the given size with the watermark repeated over it, from its top left corner."""
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=(width, height), pageCompression=1)
    r, g, b, a = mark.rgba()
    c.setFillColorRGB(r / 255, g / 255, b / 255)
    c.setFillAlpha(a / 255)
    font = _font(mark.font_file())
    size = mark.font_size
    c.setFont(font, size)
    lines = wrap(mark.text, TILE - 20, lambda s: float(pdfmetrics.stringWidth(s, font, size)))
    step = size * LINE_HEIGHT
    for row in range(math.ceil(height / TILE)):
        for col in range(math.ceil(width / TILE)):
            c.saveState()
            c.translate(col * TILE + TILE / 2, height - (row * TILE + TILE / 2))
            c.rotate(-mark.rotation)
            for i, line in enumerate(lines):
                c.drawCentredString(0, -(i - (len(lines) - 1) / 2) * step - size * BASELINE, line)
            c.restoreState()
    c.showPage()
    c.save()
    return PdfReader(io.BytesIO(out.getvalue())).pages[0]


def page_count(data: bytes) -> int:
    """The pages of a PDF; ValueError when it is not one, Encrypted when it needs a password."""
    return len(_open(data).pages)


def _open(data: bytes) -> PdfReader:
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise Encrypted()
        return reader
    except (PdfReadError, OSError, KeyError, TypeError) as exc:
        raise ValueError(str(exc)) from exc


def stamp_pdf(data: bytes, mark: Mark, max_pages: int) -> bytes:
    """The PDF with the stamp merged over each page (page rotation applied first, so the text stands as the
    page is seen). Only the pages are kept: document-level scripts and actions are not copied."""
    reader = _open(data)
    try:
        pages = list(reader.pages)
        if len(pages) > max_pages:
            raise TooManyPages(len(pages))
        writer = PdfWriter()
        stamps: dict[tuple[float, float], PageObject] = {}
        for source in pages:
            page = writer.add_page(source)
            if page.get("/Rotate"):
                page.transfer_rotation_to_content()
            box = page.mediabox
            width, height = float(box.width), float(box.height)
            key = (round(width, 2), round(height, 2))
            if key not in stamps:
                stamps[key] = stamp_page(width, height, mark)
            page.merge_translated_page(stamps[key], float(box.left), float(box.bottom))
        out = io.BytesIO()
        writer.write(out)
        return out.getvalue()
    except (PdfReadError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(str(exc)) from exc
