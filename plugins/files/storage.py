"""Where attachment bytes live: the platform's object storage (``services().storage``), local disk by
default or an S3-compatible bucket with ``ATRIUM_STORAGE_URL``, so every node serves every upload.

Attachments only ever use names the server generated, so no client-sent path can reach another tenant's
objects or outside the store.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import BinaryIO

from atrium.sdk.errors import NotFound
from atrium.sdk.services import FileStorage, ObjectWriter, StoredObject, services

NAME = re.compile(r"^[A-Za-z0-9_-]{16,64}(\.[a-z0-9]{1,8})?$")
CHUNK = 1 << 16


def valid_name(name: str) -> bool:
    return bool(NAME.match(name))


def store() -> FileStorage:
    return services().storage


def new_name(suffix: str) -> str:
    suffix = suffix.lower().lstrip(".")
    if suffix and not re.fullmatch(r"[a-z0-9]{1,8}", suffix):
        suffix = "bin"
    return secrets.token_urlsafe(24) + (f".{suffix}" if suffix else "")


def put(tenant_id: int, stream: BinaryIO, suffix: str, content_type: str) -> StoredObject:
    """Store a stream under a new name; the answer carries the name (``key``) and the size."""
    return store().put(tenant_id, new_name(suffix), stream, content_type)


def writer(tenant_id: int, suffix: str, content_type: str) -> ObjectWriter:
    """A writer of a new object under a new name (its ``key``, once committed), which sends the bytes on
    while more are written where the store can."""
    return store().writer(tenant_id, new_name(suffix), content_type)


def iter_bytes(tenant_id: int, name: str, offset: int = 0, length: int | None = None) -> Iterator[bytes]:
    """The attachment's bytes (or ``length`` of them from ``offset``), opened now (NotFound or
    StorageUnavailable raise here, before an answer starts), read as the answer is sent."""
    if not valid_name(name):
        raise NotFound()
    f = store().get(tenant_id, name, offset, length)

    def chunks() -> Iterator[bytes]:
        with f:
            while chunk := f.read(CHUNK):
                yield chunk

    return chunks()


def delete(tenant_id: int, name: str) -> None:
    if valid_name(name):
        store().delete(tenant_id, name)


def size(tenant_id: int, name: str) -> int:
    if not valid_name(name):
        raise NotFound()
    return store().size(tenant_id, name)
