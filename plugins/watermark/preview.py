"""A file previewed with the watermark stamped into it on the server, so a saved copy keeps it.

Images are stamped in their pixels, PDFs on every page, office documents converted to PDF first. The
stamped result is kept in the platform's object storage under the file's stored name and a digest of what
the stamp looks like, so a second preview (on any node) is a read. When no watermark applies, the file is
answered as it is (an office document still converted to PDF), marked as not stamped.

A preview runs in two steps so no database connection is held while LibreOffice works (seconds): `read`,
in the request's session (the setting, the user's fields, the attachment, its bytes or the stored copy), then
`render` with the session closed (convert, stamp, store the copy). The stored copies of a file are removed
with it (`forget`, when the files plugin announces `file_deleted`).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import structlog

from atrium.plugins.watermark import convert, limits, service
from atrium.plugins.watermark.mark import Mark
from atrium.plugins.watermark.sources import STORED_NAME, Source, too_big
from atrium.plugins.watermark.stamp_image import TooManyPixels, sniff, stamp_image
from atrium.plugins.watermark.stamp_pdf import Encrypted, TooManyPages, page_count, stamp_pdf
from atrium.sdk.context import current_context, current_user
from atrium.sdk.errors import AtriumError, BadRequest, TooManyRequests
from atrium.sdk.services import services

log = structlog.get_logger("atrium.watermark")

CACHE = "watermark-previews"
PDF_MAGIC = b"%PDF-"
IMAGE_TYPES = {
    "PNG": "image/png",
    "JPEG": "image/jpeg",
    "GIF": "image/gif",
    "WEBP": "image/webp",
    "BMP": "image/bmp",
    "TIFF": "image/tiff",
}
SUFFIX_TYPES = {"png": "image/png", "jpg": "image/jpeg", "pdf": "application/pdf"}
PLAIN = "plain"
#: stamped copies kept per file: past it the older ones are removed (a dynamic text such as `{time}` or
#: `{account}` makes a new copy per minute or per user)
KEPT_PER_FILE = 16


@dataclass(frozen=True)
class Preview:
    content: bytes
    media_type: str
    filename: str
    stamped: bool
    cached: bool


def watermark_for(function_code: str, system_code: str, override: str) -> Mark | None:
    """The stamp for the signed-in user: the function's watermark in effect (its text resolved as the shell
    shows it), or `override` drawn with that setting's look (defaults without one); None when nothing
    applies."""
    su = current_user()
    row = service.find(function_code, system_code or current_context().system_code or su.system_code)
    active = row is not None and bool(row.is_take_effect and row.is_view)
    if override:
        return Mark.of_setting(service.out(row), override) if row is not None else Mark(override)
    if row is None or not active:
        return None
    text = service.resolve(row.fw_type, row.fw_content, su.user_id, su.tenant_id)
    return Mark.of_setting(service.out(row), text)


def kind_of(data: bytes, suffix: str) -> tuple[str, str]:
    """What the bytes are (`image`, `pdf` or `office`) and, for an image, its media type."""
    if PDF_MAGIC in data[:1024]:
        return "pdf", "application/pdf"
    fmt = sniff(data)
    if fmt is not None:
        return "image", IMAGE_TYPES.get(fmt, "image/png")
    if convert.is_office(data, suffix):
        return "office", "application/pdf"
    raise BadRequest("watermark:preview.bad_type")


def _prefix(source: Source) -> str:
    """Where the stored copies of one file are kept: the same folder for every look and text."""
    return f"{CACHE}/{source.key}/"


def _cache_key(source: Source, mark: Mark | None) -> str:
    return f"{_prefix(source)}{mark.digest() if mark else PLAIN}"


def _cached(source: Source, prefix: str) -> tuple[bytes, str] | None:
    storage = services().storage
    for found in storage.list(source.tenant_id, prefix + "."):
        media = SUFFIX_TYPES.get(found.key.rsplit(".", 1)[-1])
        if media is None:
            continue
        with storage.get(source.tenant_id, found.key) as f:
            return f.read(), media
    return None


def _keep(source: Source, prefix: str, content: bytes, media_type: str) -> None:
    storage = services().storage
    suffix = {v: k for k, v in SUFFIX_TYPES.items()}[media_type]
    key = f"{prefix}.{suffix}"
    try:
        storage.put(source.tenant_id, key, io.BytesIO(content), media_type)
        kept = [o.key for o in storage.list(source.tenant_id, _prefix(source))]
        if len(kept) > KEPT_PER_FILE:
            for old in kept:
                if old != key:
                    storage.delete(source.tenant_id, old)
    except AtriumError as exc:  # the answer is still right, only the next one is slower
        log.warning("watermark.preview_not_cached", key=key, error=str(exc))


def forget(tenant_id: int, stored_name: str) -> int:
    """Remove the stored copies of a file (by its stored name) that was deleted; answers how many. Never
    raises for the store: a copy left behind is never served (the attachment is looked up first)."""
    if not STORED_NAME.match(stored_name):
        return 0
    storage = services().storage
    prefix = f"{CACHE}/{stored_name}/"
    removed = 0
    try:
        for found in list(storage.list(tenant_id, prefix)):
            storage.delete(tenant_id, found.key)
            removed += 1
    except AtriumError as exc:
        log.warning("watermark.previews_not_removed", tenant=tenant_id, prefix=prefix, error=str(exc))
    return removed


def _filename(name: str, media_type: str) -> str:
    stem = name.rsplit(".", 1)[0] if "." in name.strip(".") else name
    wanted = {"application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png"}.get(media_type)
    return f"{stem or 'preview'}.{wanted}" if wanted else name


@dataclass(frozen=True)
class Pending:
    """A preview still to be drawn: everything `render` needs, read while the session was open."""

    source: Source
    mark: Mark | None
    data: bytes


def read(source: Source, mark: Mark | None) -> Preview | Pending:
    """In a database session (closed before `render`): the stored copy when there is one, else the file's
    bytes to draw it from (the limits on its size checked)."""
    rules = limits.current()
    if source.size > rules.max_input_bytes:
        raise too_big(rules.max_input_bytes)
    hit = _cached(source, _cache_key(source, mark))
    if hit is not None:
        return Preview(hit[0], hit[1], _filename(source.name, hit[1]), mark is not None, True)
    return Pending(source, mark, source.read(rules.max_input_bytes))


def render(pending: Pending) -> Preview:
    """Without a database session: the file converted and stamped as its kind needs, then stored for the
    next preview."""
    source, mark, data = pending.source, pending.mark, pending.data
    kind, media_type = kind_of(data, source.suffix)
    if mark is None and kind in ("image", "pdf"):
        return Preview(data, media_type, source.name, False, False)
    content, media_type = _render(kind, data, source.suffix, mark)
    _keep(source, _cache_key(source, mark), content, media_type)
    return Preview(content, media_type, _filename(source.name, media_type), mark is not None, False)


def _render(kind: str, data: bytes, suffix: str, mark: Mark | None) -> tuple[bytes, str]:
    rules = limits.current()
    try:
        if kind == "image":
            assert mark is not None
            return stamp_image(data, mark, rules.max_pixels)
        if kind == "office":
            data = _convert(data, suffix)
        if mark is None:
            pages = page_count(data)
            if pages > rules.max_pages:
                raise TooManyPages(pages)
            return data, "application/pdf"
        return stamp_pdf(data, mark, rules.max_pages), "application/pdf"
    except TooManyPixels:
        raise BadRequest("watermark:preview.too_many_pixels", limit=rules.max_pixels // 1_000_000) from None
    except TooManyPages as exc:
        raise BadRequest("watermark:preview.too_many_pages", limit=rules.max_pages, pages=exc.pages) from None
    except Encrypted:
        raise BadRequest("watermark:preview.encrypted") from None
    except ValueError:
        raise BadRequest("watermark:preview.unreadable") from None


def _convert(data: bytes, suffix: str) -> bytes:
    rules = limits.current()
    try:
        return convert.to_pdf(data, suffix)
    except convert.ConverterMissing:
        raise AtriumError("watermark:preview.converter_missing", code=503) from None
    except convert.Busy:
        raise TooManyRequests("watermark:preview.busy") from None
    except convert.ConversionTimeout:
        raise AtriumError(
            "watermark:preview.convert_timeout", code=504, seconds=round(rules.convert_timeout)
        ) from None
    except convert.ConversionFailed as exc:
        log.warning("watermark.convert_failed", error=str(exc))
        raise BadRequest("watermark:preview.convert_failed") from None
