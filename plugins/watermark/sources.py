"""The file a preview shows: an attachment of the caller's tenant, named by its id or by its own address.

Nothing is ever fetched over the network: an address is only read for the stored name in it, and it must
be this platform's file address (a path, or a full URL on the host the request came to). The files
plugin's service decides what the caller may read (its tenant's attachments: another tenant's file answers
exactly like a missing one).
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from atrium.sdk.context import current_context, current_tenant
from atrium.sdk.errors import AtriumError, BadRequest, NotFound
from atrium.sdk.files import Attachments
from atrium.sdk.services import services

#: where the files plugin serves an attachment (its `filePath`), followed by the stored name
FILE_ROUTE = "/api/file/iot-base-attachment/file/"
#: the server-generated names of stored attachments
STORED_NAME = re.compile(r"^[A-Za-z0-9_-]{16,64}(\.[a-z0-9]{1,8})?$")
CHUNK = 1 << 16


@dataclass(frozen=True)
class Source:
    """An attachment the caller may read."""

    tenant_id: int
    #: its stored name: unique within the tenant, names the bytes (cache keys start from it)
    key: str
    #: the name to show and to save under
    name: str
    size: int
    chunks: Callable[[], Iterator[bytes]]

    @property
    def suffix(self) -> str:
        stem, dot, ext = self.name.rpartition(".")
        return ext.lower() if dot and stem else ""

    def read(self, max_bytes: int) -> bytes:
        """The whole file; `too_big` as soon as it passes `max_bytes` (whatever its record said)."""
        if self.size > max_bytes:
            raise too_big(max_bytes)
        parts: list[bytes] = []
        total = 0
        stream = self.chunks()
        try:
            for chunk in stream:
                total += len(chunk)
                if total > max_bytes:
                    raise too_big(max_bytes)
                parts.append(chunk)
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
        return b"".join(parts)


def too_big(max_bytes: int) -> BadRequest:
    return BadRequest("watermark:preview.too_big", limit=_attachments().human_size(max_bytes))


def missing() -> NotFound:
    return NotFound("watermark:preview.file_not_found")


def _attachments() -> Attachments:
    try:
        return services().attachments
    except RuntimeError:
        raise AtriumError("watermark:preview.files_unavailable", code=503) from None


def by_id(file_id: int) -> Source:
    """An attachment of the current tenant by id."""
    files = _attachments()
    try:
        att = files.get(file_id)
    except NotFound:
        raise missing() from None
    return Source(att.tenant_id, att.stored_name, att.name, att.size, lambda: files.open(att.id))


def stored_name(url: str) -> str:
    """The stored name in a file address of this platform; BadRequest for any other address."""
    try:
        parts = urllib.parse.urlsplit(url.strip())
    except ValueError:  # a malformed address (an unclosed IPv6 bracket)
        raise BadRequest("watermark:preview.url_foreign") from None
    if parts.scheme or parts.netloc:
        hosts = {h.strip().lower() for h in _request_hosts() if h.strip()}
        if parts.scheme not in ("http", "https") or parts.netloc.lower() not in hosts:
            raise BadRequest("watermark:preview.url_foreign")
    path = urllib.parse.unquote(parts.path)
    if not path.startswith(FILE_ROUTE):
        raise BadRequest("watermark:preview.url_foreign")
    name = path[len(FILE_ROUTE) :]
    if not STORED_NAME.match(name):
        raise missing()
    return name


def _request_hosts() -> list[str]:
    headers = current_context().headers
    return [headers.get("host", ""), *headers.get("x-forwarded-host", "").split(",")]


def by_url(url: str) -> Source:
    """An attachment of the current tenant by its address (`filePath`, or a signed address of it)."""
    name = stored_name(url)
    tenant_id = current_tenant()
    if tenant_id not in _attachments().tenants_of(name):
        raise missing()
    storage = services().storage
    try:
        size = storage.size(tenant_id, name)
    except NotFound:
        raise missing() from None

    def chunks() -> Iterator[bytes]:
        with storage.get(tenant_id, name) as f:
            while chunk := f.read(CHUNK):
                yield chunk

    return Source(tenant_id, name, name, size, chunks)
