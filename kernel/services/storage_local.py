"""Objects on local disk: one folder per tenant under the storage root (``var/files`` by default).

A write (``put``, or a ``writer`` fed piece by piece) goes to a temporary file under ``<root>/.partial``
and is renamed into place once complete, so a reader never sees half an object. This store serves one
node only: several nodes share objects through an S3-compatible bucket (``ATRIUM_STORAGE_URL``).
"""

from __future__ import annotations

import builtins
import hashlib
import io
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import structlog

from atrium.sdk.errors import NotFound, StorageUnavailable
from atrium.sdk.services import StoredObject

from .storage_base import CHUNK, ObjectStorage, ObjectWriter, checked_key

log = structlog.get_logger("atrium.storage")
PARTIAL = ".partial"


class _Window(io.RawIOBase):
    """At most ``length`` bytes of an open file, from where it stands."""

    def __init__(self, inner: BinaryIO, length: int) -> None:
        self.inner = inner
        self.left = length

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self.left <= 0:
            return 0
        data = self.inner.read(min(len(buffer), self.left))
        buffer[: len(data)] = data
        self.left -= len(data)
        return len(data)

    def close(self) -> None:
        self.inner.close()
        super().close()


def _unwritable(exc: BaseException) -> None:
    """A disk that refuses a write (full, read-only, gone) makes the store unavailable, as S3's would."""
    if isinstance(exc, OSError):
        log.warning("local storage cannot be written", error=str(exc))
        raise StorageUnavailable() from exc


class _LocalWriter(ObjectWriter):
    """Writes to a temporary file; the object appears (renamed into place) only on commit."""

    def __init__(self, key: str, target: Path, tmp: Path, out: BinaryIO) -> None:
        self.key, self.target, self.tmp, self.out = key, target, tmp, out
        self._digest = hashlib.sha256()
        self._md5 = hashlib.md5(usedforsecurity=False)
        self._size = 0
        self._finished = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._finished:
            raise ValueError("this object was already committed or aborted")
        try:
            self.out.write(data)
        except BaseException as exc:
            self.abort()
            _unwritable(exc)
            raise
        self._digest.update(data)
        self._md5.update(data)
        self._size += len(data)

    def commit(self) -> StoredObject:
        if self._finished:
            raise ValueError("this object was already committed or aborted")
        try:
            self.out.close()
            os.replace(self.tmp, self.target)
        except BaseException as exc:  # an interrupted task too: nothing half-written is left behind
            self.abort()
            _unwritable(exc)
            raise
        self._finished = True
        return StoredObject(self.key, self._size, self._md5.hexdigest(), self._digest.hexdigest())

    def abort(self) -> None:
        if self._finished:
            return
        self._finished = True
        self.out.close()
        self.tmp.unlink(missing_ok=True)


class LocalStorage(ObjectStorage):
    """The default store: files under ``root/<tenant>/<key>``."""

    kind = "local"

    def __init__(self, root: Path) -> None:
        self.root = Path(root).resolve()

    def _file(self, tenant_id: int, key: str) -> Path:
        return self.root / str(int(tenant_id)) / checked_key(key)

    def put(
        self, tenant_id: int, key: str, stream: BinaryIO, content_type: str = "application/octet-stream"
    ) -> StoredObject:
        with self.writer(tenant_id, key, content_type) as w:
            while chunk := stream.read(CHUNK):
                w.write(chunk)
            return w.commit()

    def writer(
        self, tenant_id: int, key: str, content_type: str = "application/octet-stream"
    ) -> ObjectWriter:
        """A writer to a temporary file under ``.partial``, renamed into place on commit."""
        target = self._file(tenant_id, key)
        partial = self.root / PARTIAL
        try:
            partial.mkdir(parents=True, exist_ok=True)
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp_name = tempfile.mkstemp(dir=partial, prefix="put-")
        except OSError as exc:
            log.warning("local storage cannot be written", root=str(self.root), error=str(exc))
            raise StorageUnavailable() from exc
        return _LocalWriter(key, target, Path(tmp_name), os.fdopen(fd, "wb"))

    def get(self, tenant_id: int, key: str, offset: int = 0, length: int | None = None) -> BinaryIO:
        if offset < 0 or (length is not None and length < 0):
            raise ValueError("offset and length must not be negative")
        path = self._file(tenant_id, key)
        try:
            f = path.open("rb")
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            raise NotFound() from None
        if offset:
            f.seek(offset)
        if length is None:
            return f
        return io.BufferedReader(_Window(f, length), CHUNK)

    def stat(self, tenant_id: int, key: str) -> StoredObject:
        path = self._file(tenant_id, key)
        if not path.is_file():
            raise NotFound()
        return StoredObject(key, path.stat().st_size)

    def delete(self, tenant_id: int, key: str) -> None:
        try:
            self._file(tenant_id, key).unlink(missing_ok=True)
        except NotFound:
            return

    def list(self, tenant_id: int, prefix: str = "") -> Iterator[StoredObject]:
        base = self.root / str(int(tenant_id))
        if not base.is_dir():
            return iter(())
        found = []
        for path in base.rglob("*"):
            key = path.relative_to(base).as_posix()
            if key.startswith(prefix) and path.is_file():
                found.append(StoredObject(key, path.stat().st_size))
        return iter(sorted(found, key=lambda o: o.key))

    def tenants(self) -> builtins.list[int]:
        """The tenants that have a folder here (for moving a node's files elsewhere)."""
        if not self.root.is_dir():
            return []
        return sorted(int(p.name) for p in self.root.iterdir() if p.is_dir() and p.name.lstrip("-").isdigit())

    def ready(self) -> bool:
        """Whether a file can be written here now (a full or read-only disk is not ready)."""
        try:
            partial = self.root / PARTIAL
            partial.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=partial, prefix="ready-"):
                pass
        except OSError:
            return False
        return True
