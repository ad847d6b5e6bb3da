"""What every object store shares: the key rules, server-generated names, the operations built on the
backend's own (``save``/``open`` on ``put``/``get``, ``size``/``exists`` on ``stat``), and writers that
take an object piece by piece as it arrives (``writer``)."""

from __future__ import annotations

import builtins
import re
import secrets
import tempfile
from collections.abc import Iterator
from types import TracebackType
from typing import BinaryIO, Self, cast

from atrium.sdk.errors import NotFound
from atrium.sdk.services import StoredObject

#: one segment: letters, digits, ``._-``, never starting with a dot (no ``..``, no hidden names)
_SEGMENT = r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}"
KEY = re.compile(rf"^{_SEGMENT}(/{_SEGMENT}){{0,7}}$")
#: the names ``save`` generates (and the files plugin has always stored)
NAME = re.compile(r"^[A-Za-z0-9_-]{16,64}(\.[a-z0-9]{1,8})?$")
SUFFIX = re.compile(r"^[a-z0-9]{1,8}$")
CHUNK = 1 << 20
MB = 1024 * 1024

__all__ = [
    "CHUNK",
    "KEY",
    "NAME",
    "ObjectStorage",
    "ObjectWriter",
    "StoredObject",
    "checked_key",
    "new_name",
    "readonly_bytes",
]


def checked_key(key: str) -> str:
    """The key when it follows the rules; NotFound otherwise (a client-sent name reads as missing)."""
    if not isinstance(key, str) or not KEY.match(key):
        raise NotFound()
    return key


def new_name(suffix: str) -> str:
    """A random, unguessable name keeping a short lower-case suffix (``bin`` for a strange one)."""
    suffix = suffix.lower().lstrip(".")
    if suffix and not SUFFIX.match(suffix):
        suffix = "bin"
    return secrets.token_urlsafe(24) + (f".{suffix}" if suffix else "")


def content_type_of(name: str) -> str:
    import mimetypes

    return mimetypes.guess_type(name)[0] or "application/octet-stream"


def readonly_bytes(data: bytes | bytearray | memoryview) -> bytes | memoryview:
    """``data`` when nobody can change it any more (bytes, or a view of bytes), else a copy of it."""
    if isinstance(data, bytes):
        return data
    view = memoryview(data)
    return view if view.readonly else view.tobytes()


class ObjectWriter:
    """An object written piece by piece as its bytes arrive: ``write`` each piece, then ``commit`` (the
    object becomes visible and the answer tells its size and checksums) or ``abort`` (nothing is left).
    A ``with`` block left on an exception aborts. A writer is used by one thread at a time; the pieces
    written must not be changed afterwards (a writer may keep them until they are sent)."""

    def write(self, data: bytes | bytearray | memoryview) -> None:
        raise NotImplementedError

    def commit(self) -> StoredObject:
        raise NotImplementedError

    def abort(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc_type is not None:
            self.abort()


class SpooledWriter(ObjectWriter):
    """For a store without a writer of its own: the pieces go to a temporary file (in memory while
    small), handed to the store's ``put`` on commit."""

    def __init__(self, store: ObjectStorage, tenant_id: int, key: str, content_type: str) -> None:
        self.store, self.tenant_id, self.key, self.content_type = store, tenant_id, key, content_type
        self._spool = tempfile.SpooledTemporaryFile(max_size=CHUNK, prefix="put-")  # noqa: SIM115 - closed by commit or abort

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._spool.write(data)

    def commit(self) -> StoredObject:
        try:
            self._spool.seek(0)
            return self.store.put(self.tenant_id, self.key, cast(BinaryIO, self._spool), self.content_type)
        finally:
            self._spool.close()

    def abort(self) -> None:
        self._spool.close()


class ObjectStorage:
    """The operations of the SDK's ``FileStorage`` that follow from a backend's ``put``, ``get``,
    ``stat``, ``delete``, ``list`` and ``ready``."""

    kind = "abstract"

    def put(
        self, tenant_id: int, key: str, stream: BinaryIO, content_type: str = "application/octet-stream"
    ) -> StoredObject:
        raise NotImplementedError

    def get(self, tenant_id: int, key: str, offset: int = 0, length: int | None = None) -> BinaryIO:
        raise NotImplementedError

    def stat(self, tenant_id: int, key: str) -> StoredObject:
        raise NotImplementedError

    def delete(self, tenant_id: int, key: str) -> None:
        raise NotImplementedError

    def list(self, tenant_id: int, prefix: str = "") -> Iterator[StoredObject]:
        raise NotImplementedError

    def writer(
        self, tenant_id: int, key: str, content_type: str = "application/octet-stream"
    ) -> ObjectWriter:
        """A writer of the object ``key``, for bytes that arrive piece by piece (an upload's body); a
        key outside the rules raises NotFound here, before any byte is taken."""
        checked_key(key)
        return SpooledWriter(self, tenant_id, key, content_type)

    def read_range(self, tenant_id: int, key: str, offset: int, length: int) -> bytes:
        """Up to ``length`` bytes from ``offset`` (fewer at the end of the object)."""
        if offset < 0 or length < 0:
            raise ValueError("offset and length must not be negative")
        with self.get(tenant_id, key, offset, length) as f:
            chunks: builtins.list[bytes] = []
            left = length
            while left > 0 and (chunk := f.read(min(left, CHUNK))):
                chunks.append(chunk)
                left -= len(chunk)
            return b"".join(chunks)

    def exists(self, tenant_id: int, key: str) -> bool:
        try:
            self.stat(tenant_id, key)
        except NotFound:
            return False
        return True

    def size(self, tenant_id: int, key: str) -> int:
        return self.stat(tenant_id, key).size

    def signed_url(self, tenant_id: int, key: str, expires_in: int = 300) -> str | None:
        return None

    def ready(self) -> bool:
        raise NotImplementedError

    def iter_chunks(self, tenant_id: int, key: str) -> Iterator[bytes]:
        """The object's bytes in chunks, opened before the first chunk is asked for (so a missing object
        or an unreachable store raises here, not half-way through an answer)."""
        f = self.get(tenant_id, key)

        def chunks() -> Iterator[bytes]:
            with f:
                while chunk := f.read(CHUNK):
                    yield chunk

        return chunks()

    # -- names the server generates ---------------------------------------------------------------------

    def save(self, tenant_id: int, stream: BinaryIO, suffix: str) -> str:
        name = new_name(suffix)
        self.put(tenant_id, name, stream, content_type_of(name))
        return name

    def open(self, tenant_id: int, name: str) -> BinaryIO:
        return self.get(tenant_id, name)
