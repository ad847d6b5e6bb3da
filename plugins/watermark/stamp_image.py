"""Stamping a raster image: the watermark tile drawn with Pillow and repeated over the whole picture."""

from __future__ import annotations

import io
import warnings
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont, ImageOps

from atrium.plugins.watermark.mark import LINE_HEIGHT, TILE, FontFile, Mark, wrap

#: formats read (checked on the bytes, not the name); JPEG stays JPEG, everything else becomes PNG
FORMATS = ("PNG", "JPEG", "GIF", "WEBP", "BMP", "TIFF")
#: the longer side, in pixels, at which a picture is taken to be shown at its natural size: larger pictures
#: get a proportionally larger tile, so the text keeps its size relative to the picture on screen
NATURAL_SIDE = 1200

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


class TooManyPixels(ValueError):
    """The picture's width times height is above the limit (its pixels were not decoded)."""


def sniff(data: bytes) -> str | None:
    """The image format of the bytes when Pillow reads it as one of `FORMATS`, else None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=FORMATS) as im:
                return str(im.format)
    except (OSError, ValueError, Image.DecompressionBombError):
        return None


@lru_cache(maxsize=32)
def _font(found: FontFile | None, px: int) -> Font:
    """A font file (`Mark.font_file`) at a size in pixels; Pillow's own font when none is installed."""
    if found is None:
        return ImageFont.load_default(px)
    path, index = found
    return ImageFont.truetype(path, px, index=index)


def tile(mark: Mark, scale: float = 1.0) -> Image.Image:
    """One square tile with the text centred and rotated in it (transparent elsewhere)."""
    size = max(1, round(TILE * scale))
    px = max(1, round(mark.font_size * scale))
    font = _font(mark.font_file(), px)
    layer = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    lines = wrap(mark.text, size - 20 * scale, lambda s: float(draw.textlength(s, font=font)))
    step = px * LINE_HEIGHT
    for i, line in enumerate(lines):
        y = size / 2 + (i - (len(lines) - 1) / 2) * step
        draw.text((size / 2, y), line, font=font, fill=mark.rgba(), anchor="mm")
    return layer.rotate(-mark.rotation, resample=Image.Resampling.BICUBIC, center=(size / 2, size / 2))


def stamp_image(data: bytes, mark: Mark, max_pixels: int) -> tuple[bytes, str]:
    """The picture with the watermark drawn into its pixels, and its media type (`image/jpeg` for a JPEG,
    `image/png` otherwise; the first frame of an animation). Raises TooManyPixels before decoding a picture
    above `max_pixels`, ValueError for bytes that are not a picture."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            src = Image.open(io.BytesIO(data), formats=FORMATS)
            width, height = src.size
            if width * height > max_pixels:
                raise TooManyPixels(f"{width}x{height}")
            fmt = src.format
            src.load()
            picture = ImageOps.exif_transpose(src) or src
    except (OSError, Image.DecompressionBombError) as exc:
        raise ValueError(str(exc)) from exc
    base = picture.convert("RGBA")
    scale = max(1.0, max(base.size) / NATURAL_SIDE)
    one = tile(mark, scale)
    for y in range(0, base.height, one.height):
        for x in range(0, base.width, one.width):
            base.alpha_composite(one, (x, y))  # in place: no second picture-sized layer in memory
    out = io.BytesIO()
    if fmt == "JPEG":
        base.convert("RGB").save(out, "JPEG", quality=90)
        return out.getvalue(), "image/jpeg"
    base.save(out, "PNG")
    return out.getvalue(), "image/png"
