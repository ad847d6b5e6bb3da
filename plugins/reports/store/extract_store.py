"""Extract files kept in the platform's object storage and read through a bounded cache on each node's disk.

A sync writes its Parquet file once to the store, under ``reports/extracts/<dataset>/<name>`` in the
dataset's tenant (the storage service keeps tenants apart), and only then records the name on the dataset
row: a dataset is ready when its file is in the store, whichever node asks.

Queries never read the store. Each node answers from its own copy under
``var/reports/extracts/<tenant>/<dataset>/<name>``, fetched on first use (streamed to a temporary file,
then renamed into place, so a reader never sees half a file). Charts over extracts a node already holds keep
answering while the store is unreachable. The cache keeps the two newest versions of each dataset and stays
under ``ATRIUM_REPORTS_EXTRACT_CACHE_MB`` by dropping the least recently used files (never the one a query
is about to read). Each look-up counts as a hit (the file is on this node's disk) or a miss (fetched from the
store) of the cache ``reports.extracts`` in ``/metrics``.
"""

from __future__ import annotations

import os
import re
import secrets
import threading
import time
from pathlib import Path

import structlog

from atrium.plugins.reports.models import Dataset
from atrium.plugins.reports.settings import report_settings
from atrium.sdk.metrics import count_cache
from atrium.sdk.services import services

log = structlog.get_logger("atrium.reports.extract")
PREFIX = "reports/extracts"
#: this node's disk cache of extract files, as `/metrics` names it
CACHE_NAME = "reports.extracts"
CONTENT_TYPE = "application/vnd.apache.parquet"
CHUNK = 1 << 20
#: versions of a dataset kept in the store and in each node's cache: the current one, and the one before
#: for queries that started before the swap
KEEP = 2
_VERSION = re.compile(r"^v(\d+)-[0-9a-f]+\.parquet$")

#: cached files this process has seen on disk, with when a query last used them (no disk look-up per query)
_present: dict[str, float] = {}
_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


def root() -> Path:
    return Path(services().settings.var_dir) / "reports" / "extracts"


def folder(ds: Dataset) -> Path:
    return root() / str(ds.tenant_id) / ds.id


def local_path(ds: Dataset) -> Path:
    """Where this node keeps (or will keep) the dataset's current file."""
    return folder(ds) / ds.extract_file


def key(ds: Dataset, name: str) -> str:
    """The file's key in the dataset's tenant of the store."""
    return f"{PREFIX}/{ds.id}/{name}"


def new_name(ds: Dataset) -> str:
    return f"v{ds.version + 1}-{secrets.token_hex(6)}.parquet"


def _version(name: str) -> int:
    found = _VERSION.match(name)
    return int(found.group(1)) if found else -1


def _lock(path: Path) -> threading.Lock:
    with _locks_guard:
        lock = _locks.get(str(path))
        if lock is None:
            lock = _locks[str(path)] = threading.Lock()
        return lock


# ---------------------------------------------------------------------------
# the store
# ---------------------------------------------------------------------------


def upload(ds: Dataset, name: str, source: Path) -> None:
    """Write a finished file to the store (StorageUnavailable when it cannot be reached)."""
    with source.open("rb") as fh:
        services().storage.put(ds.tenant_id, key(ds, name), fh, CONTENT_TYPE)


def prune_store(ds: Dataset) -> None:
    """Delete the dataset's stored files older than the current one and the one before it (a failing store
    is logged: the next sync tries again)."""
    storage = services().storage
    try:
        names = [o.key.rsplit("/", 1)[-1] for o in storage.list(ds.tenant_id, f"{PREFIX}/{ds.id}/")]
        newest_first = sorted(names, key=_version, reverse=True)
        for name in newest_first[KEEP:]:
            if name != ds.extract_file:
                storage.delete(ds.tenant_id, key(ds, name))
    except Exception as exc:  # noqa: BLE001 - old versions are only space: the next sync prunes them
        log.warning("old extract files stay in the store", dataset=ds.id, error=str(exc)[:200])


def remove(ds: Dataset) -> None:
    """Delete every stored file of the dataset (the store's errors propagate: nothing is left orphaned
    silently), then this node's cached copies."""
    storage = services().storage
    for obj in list(storage.list(ds.tenant_id, f"{PREFIX}/{ds.id}/")):
        storage.delete(ds.tenant_id, obj.key)
    for path in folder(ds).glob("*.parquet"):
        _drop(path)


# ---------------------------------------------------------------------------
# this node's cache
# ---------------------------------------------------------------------------


def cached(ds: Dataset) -> Path:
    """The dataset's current file on this node's disk, fetched from the store when missing.

    NotFound when the store does not hold it either; StorageUnavailable when the store cannot be reached
    for a file this node does not hold."""
    path = local_path(ds)
    name = str(path)
    hit = name in _present or path.is_file()
    count_cache(CACHE_NAME, hit)
    if not hit:
        fetch(ds)
    _present[name] = time.time()
    return path


def forget(path: Path) -> None:
    """The file is no longer where this process saw it (removed under the platform)."""
    _present.pop(str(path), None)


def fetch(ds: Dataset) -> Path:
    """Copy the dataset's current file from the store into this node's cache (one copy at a time per file)."""
    path = local_path(ds)
    with _lock(path):
        if path.is_file():
            return path
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            with services().storage.get(ds.tenant_id, key(ds, ds.extract_file)) as src, tmp.open("wb") as out:
                while chunk := src.read(CHUNK):
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        log.info("extract fetched from the store", dataset=ds.id, file=ds.extract_file)
    trim(ds, path)
    return path


def adopt(ds: Dataset, name: str, written: Path) -> Path:
    """Move a file this node just wrote (and stored) into its cache as the dataset's file `name`."""
    path = folder(ds) / name
    os.replace(written, path)
    _present[str(path)] = time.time()
    trim(ds, path)
    return path


def trim(ds: Dataset, keep: Path) -> None:
    """Drop the dataset's cached versions older than the newest two, then the least recently used files of
    every dataset while the cache is over its size limit; `keep` always stays."""
    versions = sorted(folder(ds).glob("v*.parquet"), key=lambda p: _version(p.name), reverse=True)
    for old in versions[KEEP:]:
        if old != keep:
            _drop(old)
    limit = report_settings().extract_cache_mb * 1024 * 1024
    files: list[tuple[float, int, Path]] = []
    total = 0
    for path in root().glob("*/*/*.parquet"):
        try:
            st = path.stat()
        except OSError:
            continue
        total += st.st_size
        files.append((max(st.st_mtime, _present.get(str(path), 0.0)), st.st_size, path))
    if total <= limit:
        return
    for _used, size, path in sorted(files, key=lambda f: f[0]):
        if total <= limit:
            break
        if path != keep:
            _drop(path)
            total -= size


def _drop(path: Path) -> None:
    forget(path)
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def evict(ds: Dataset) -> None:
    """Forget this node's cached copies of the dataset (they are fetched again when next queried)."""
    _drop(local_path(ds))
    if folder(ds).is_dir():
        for path in folder(ds).glob("*.parquet"):
            _drop(path)
