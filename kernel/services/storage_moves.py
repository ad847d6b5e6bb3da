"""Moving a node's files into a bucket, and finding records whose objects are missing.

The move is resumable: an object already in the bucket with the same size and checksum is skipped, so a
run that stopped half-way is simply started again. Each copied object is checked against the bytes read
from disk: its size, and its ETag against the MD5 S3 computes (of the whole object for one part, of the
parts' MD5s for a multipart upload), with the SHA-256 kept in the object's metadata as well.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from atrium.sdk.errors import NotFound
from atrium.sdk.services import FileStorage, StoredObject

from .storage_base import KEY, content_type_of
from .storage_local import LocalStorage
from .storage_s3 import S3Storage, expected_etag

Say = Callable[[str], None]


@dataclass(frozen=True)
class LocalChecksums:
    size: int
    sha256: str
    etag: str  # as the bucket will report it for this part size


def checksums(path: Path, part_size: int) -> LocalChecksums:
    """One pass over a file: its size, SHA-256, and the ETag an upload in ``part_size`` parts gets."""
    digest = hashlib.sha256()
    part_md5s: list[bytes] = []
    size = 0
    with path.open("rb") as f:
        while True:
            part = f.read(part_size)
            if not part and part_md5s:
                break
            digest.update(part)
            part_md5s.append(hashlib.md5(part, usedforsecurity=False).digest())
            size += len(part)
            if len(part) < part_size:
                break
    return LocalChecksums(size, digest.hexdigest(), expected_etag(part_md5s))


def same_object(found: StoredObject, local: LocalChecksums) -> bool:
    """The bucket's copy holds the local bytes: same size, and the ETag or the kept SHA-256 agree."""
    return found.size == local.size and (found.etag == local.etag or found.sha256 == local.sha256)


@dataclass
class MoveReport:
    copied: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def local_objects(source: LocalStorage) -> Iterator[tuple[int, StoredObject]]:
    for tenant_id in source.tenants():
        for obj in source.list(tenant_id):
            yield tenant_id, obj


def move_to_bucket(source: LocalStorage, target: S3Storage, *, dry_run: bool, say: Say) -> MoveReport:
    """Copy every object of ``source`` missing from ``target`` (or different there), verifying each."""
    report = MoveReport()
    for tenant_id, obj in local_objects(source):
        label = f"{tenant_id}/{obj.key}"
        if not KEY.match(obj.key):
            say(f"FAILED {label}: not a storable key (letters, digits, ._- segments)")
            report.failed.append(label)
            continue
        path = source.root / str(tenant_id) / obj.key
        local = checksums(path, target.part_size)
        try:
            found: StoredObject | None = target.stat(tenant_id, obj.key)
        except NotFound:
            found = None
        if found is not None and same_object(found, local):
            report.skipped.append(label)
            continue
        if dry_run:
            say(f"would copy {label} ({local.size} bytes)")
            report.copied.append(label)
            continue
        with path.open("rb") as f:
            target.put(tenant_id, obj.key, f, content_type_of(obj.key), sha256=local.sha256)
        stored = target.stat(tenant_id, obj.key)
        if stored.size == local.size and stored.etag == local.etag:
            say(f"copied {label} ({local.size} bytes)")
            report.copied.append(label)
        else:
            say(f"FAILED {label}: the bucket holds {stored.size} bytes, ETag {stored.etag}")
            report.failed.append(label)
    return report


def missing_references(
    storage: FileStorage, references: Iterable[tuple[int, str, str]]
) -> Iterator[tuple[int, str, str]]:
    """The references whose object the store does not have (an unreachable store stops the check)."""
    for tenant_id, key, description in references:
        if not storage.exists(tenant_id, key):
            yield tenant_id, key, description
