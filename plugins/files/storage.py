"""Where attachment bytes live: the kernel's local disk storage by default, or an S3-compatible bucket.

Both keep one namespace per tenant and only ever use names the server generated, so no client-sent path
can reach outside the storage root.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from atrium.sdk.errors import NotFound
from atrium.sdk.services import services

from .settings import FilesSettings, files_settings

NAME = re.compile(r"^[A-Za-z0-9_-]{16,64}(\.[a-z0-9]{1,8})?$")
CHUNK = 1 << 16


class BlobStore(Protocol):
    """Tenant-owned blobs under server-generated names."""

    name: str

    def put(self, tenant_id: int, stream: BinaryIO, suffix: str, content_type: str) -> str: ...
    def iter_bytes(self, tenant_id: int, name: str) -> Iterator[bytes]: ...
    def local_path(self, tenant_id: int, name: str) -> Path | None: ...
    def delete(self, tenant_id: int, name: str) -> None: ...


def valid_name(name: str) -> bool:
    return bool(NAME.match(name))


class LocalBlobStore:
    """The kernel's ``services().storage`` (one folder per tenant under the var directory)."""

    name = "local"

    def __init__(self, storage: Any = None) -> None:
        self._storage = storage

    @property
    def storage(self) -> Any:
        return self._storage or services().storage

    def put(self, tenant_id: int, stream: BinaryIO, suffix: str, content_type: str) -> str:
        name: str = self.storage.save(tenant_id, stream, suffix)
        return name

    def local_path(self, tenant_id: int, name: str) -> Path | None:
        if not valid_name(name):
            raise NotFound()
        path = Path(self.storage.path(tenant_id, name))
        if not path.is_file():
            raise NotFound()
        return path

    def iter_bytes(self, tenant_id: int, name: str) -> Iterator[bytes]:
        with self.storage.open(tenant_id, name) as f:
            while chunk := f.read(CHUNK):
                yield chunk

    def delete(self, tenant_id: int, name: str) -> None:
        if valid_name(name):
            self.storage.delete(tenant_id, name)


class S3BlobStore:
    """An S3-compatible bucket through the MinIO client (package ``minio``); keys are ``<tenant>/<name>``."""

    name = "s3"

    def __init__(self, settings: FilesSettings | None = None, client: Any = None) -> None:
        self.settings = settings or files_settings()
        self.bucket = self.settings.s3_bucket
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            try:
                from minio import Minio
            except ImportError as exc:  # pragma: no cover - depends on the installation
                raise RuntimeError("ATRIUM_FILES_STORAGE=s3 needs the 'minio' package") from exc
            s = self.settings
            self._client = Minio(
                s.s3_endpoint,
                access_key=s.s3_access_key,
                secret_key=s.s3_secret_key,
                secure=s.s3_secure,
                region=s.s3_region or None,
            )
        return self._client

    @staticmethod
    def _key(tenant_id: int, name: str) -> str:
        if not valid_name(name):
            raise NotFound()
        return f"{int(tenant_id)}/{name}"

    def put(self, tenant_id: int, stream: BinaryIO, suffix: str, content_type: str) -> str:
        suffix = suffix.lower().lstrip(".")
        if suffix and not re.fullmatch(r"[a-z0-9]{1,8}", suffix):
            suffix = "bin"
        name = secrets.token_urlsafe(24) + (f".{suffix}" if suffix else "")
        self.client.put_object(
            self.bucket,
            self._key(tenant_id, name),
            stream,
            length=-1,
            part_size=10 * 1024 * 1024,
            content_type=content_type,
        )
        return name

    def local_path(self, tenant_id: int, name: str) -> Path | None:
        return None

    def iter_bytes(self, tenant_id: int, name: str) -> Iterator[bytes]:
        try:
            resp = self.client.get_object(self.bucket, self._key(tenant_id, name))
        except Exception as exc:
            if type(exc).__name__ in ("S3Error", "KeyError", "FileNotFoundError"):
                raise NotFound() from exc
            raise
        try:
            yield from resp.stream(CHUNK)
        finally:
            resp.close()
            release = getattr(resp, "release_conn", None)
            if release:
                release()

    def delete(self, tenant_id: int, name: str) -> None:
        self.client.remove_object(self.bucket, self._key(tenant_id, name))


_stores: dict[str, BlobStore] = {}


def store_for(backend: str | None = None) -> BlobStore:
    """The store of a backend ('local' or 's3'); the configured one when not given."""
    backend = backend or files_settings().storage
    if backend not in _stores:
        _stores[backend] = S3BlobStore() if backend == "s3" else LocalBlobStore()
    return _stores[backend]


def use_store(backend: str, store: BlobStore | None) -> None:
    """Install (or remove, with None) a store for a backend: for tests and embedding."""
    if store is None:
        _stores.pop(backend, None)
    else:
        _stores[backend] = store
