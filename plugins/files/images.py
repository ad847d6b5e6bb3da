"""Image checks: name, declared type, magic bytes, then a full decode and re-encode with Pillow.

The stored file is always the re-encoded image, so metadata, trailing data and polyglot payloads are gone.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

from atrium.sdk.errors import BadRequest

MAGIC = {
    "jpeg": (b"\xff\xd8\xff",),
    "png": (b"\x89PNG\r\n\x1a\n",),
    "gif": (b"GIF87a", b"GIF89a"),
    "webp": (b"RIFF",),
}
EXT_FORMAT = {"jpg": "jpeg", "jpeg": "jpeg", "png": "png", "gif": "gif", "webp": "webp"}
MIME = {"jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp"}
#: declared types browsers send for each format
DECLARED = {
    "jpeg": {"image/jpeg", "image/jpg", "image/pjpeg"},
    "png": {"image/png", "image/x-png"},
    "gif": {"image/gif"},
    "webp": {"image/webp"},
}
PIL_FORMAT = {"jpeg": "JPEG", "png": "PNG", "gif": "GIF", "webp": "WEBP"}


@dataclass
class CheckedImage:
    data: bytes
    fmt: str
    width: int
    height: int

    @property
    def mime(self) -> str:
        return MIME[self.fmt]

    @property
    def suffix(self) -> str:
        return "jpg" if self.fmt == "jpeg" else self.fmt


def sniff(head: bytes) -> str | None:
    """The image format the first bytes announce, or None."""
    for fmt, prefixes in MAGIC.items():
        if any(head.startswith(p) for p in prefixes):
            if fmt == "webp" and head[8:12] != b"WEBP":
                continue
            return fmt
    return None


def check_image(
    data: bytes,
    filename_ext: str,
    declared: str,
    allowed: set[str],
    *,
    max_pixels: int,
    type_error: BadRequest,
    too_big_error: BadRequest,
) -> CheckedImage:
    """Check an uploaded image four ways and answer it re-encoded; raise ``type_error`` on any mismatch."""
    fmt = EXT_FORMAT.get(filename_ext)
    if fmt is None or fmt not in allowed:
        raise type_error
    if declared and declared != "application/octet-stream" and declared not in DECLARED[fmt]:
        raise type_error
    if sniff(data[:16]) != fmt:
        raise type_error
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(data), formats=[PIL_FORMAT[fmt]])
            width, height = img.size
            if width * height > max_pixels:
                raise too_big_error
            img.load()
            return CheckedImage(_reencode(img, fmt), fmt, width, height)
    except (Image.DecompressionBombWarning, Image.DecompressionBombError) as exc:
        raise too_big_error from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError) as exc:
        raise type_error from exc


def _reencode(img: Image.Image, fmt: str) -> bytes:
    out = io.BytesIO()
    if fmt == "jpeg":
        img = ImageOps.exif_transpose(img)
        if img.mode not in ("RGB", "L"):
            img = img.convert("RGB")
        img.save(out, "JPEG", quality=90, optimize=False)
    elif fmt == "png":
        if img.mode not in ("1", "L", "LA", "P", "RGB", "RGBA", "I", "I;16"):
            img = img.convert("RGBA")
        img.save(out, "PNG")
    elif fmt == "gif":
        img.save(out, "GIF", save_all=getattr(img, "is_animated", False))
    else:
        img.save(out, "WEBP", save_all=getattr(img, "is_animated", False), lossless=False, quality=90)
    return out.getvalue()
