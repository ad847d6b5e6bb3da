"""Extract mode: a dataset copied into Parquet files and queried in-process with DuckDB.

Each sync writes a new immutable file (`v<version>-<random>.parquet`), stores it in the platform's object
storage, then points the dataset at it in the database: the swap is one committed update, and readers on
any node keep reading the file they started with. Every node reads through its own cache of the stored
files (see `extract_store`), so a node that never ran a sync answers charts over it. The two newest
versions are kept.
"""

from __future__ import annotations

import itertools
import os
import secrets
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import sqlalchemy as sa
import structlog
from sqlalchemy import select
from sqlalchemy.dialects import postgresql

from atrium.plugins.reports.engine import sources
from atrium.plugins.reports.engine.fields import FieldInfo
from atrium.plugins.reports.engine.query import Relation
from atrium.plugins.reports.models import Dataset
from atrium.plugins.reports.settings import report_settings
from atrium.plugins.reports.store import datasets, extract_store
from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import AtriumError, Conflict, NotFound
from atrium.sdk.kept import Kept
from atrium.sdk.services import services

log = structlog.get_logger("atrium.reports.extract")
DIALECT = postgresql.dialect(paramstyle="qmark")  # type: ignore[no-untyped-call]  # unannotated in SQLAlchemy
BATCH = 50_000
ARROW_TYPES = {"text": pa.string(), "integer": pa.int64(), "float": pa.float64(), "time": pa.timestamp("us")}
_db: duckdb.DuckDBPyConnection | None = None
_db_lock = threading.Lock()
_statements: Kept[tuple[str, tuple[Any, ...]]] = Kept(512)


class ExtractNotReady(AtriumError):
    code = 409
    key = "reports:extract.not_ready"


def root() -> Path:
    """This node's cache of extract files."""
    return extract_store.root()


def folder(ds: Dataset) -> Path:
    return extract_store.folder(ds)


def current_file(ds: Dataset) -> Path | None:
    """The dataset's current file in this node's cache, if it is there."""
    if not ds.extract_file:
        return None
    path = extract_store.local_path(ds)
    return path if path.exists() else None


def _database() -> duckdb.DuckDBPyConnection:
    """One in-process DuckDB database per server process, so threads share Parquet metadata."""
    global _db
    with _db_lock:
        if _db is None:
            _db = duckdb.connect(":memory:", config={"threads": 2, "memory_limit": "1GB"})
        return _db


class _ThreadCursor(threading.local):
    database: duckdb.DuckDBPyConnection | None = None
    cursor: duckdb.DuckDBPyConnection | None = None


_thread_cursor = _ThreadCursor()


def _cursor() -> duckdb.DuckDBPyConnection:
    """This thread's cursor on the database: a query only ever runs on its own thread's cursor, so the
    watchdog's interrupt reaches that query alone (DuckDB clears an interrupt when the next query starts)."""
    db = _db if _db is not None else _database()
    mine = _thread_cursor
    if mine.database is not db or mine.cursor is None:
        mine.cursor, mine.database = db.cursor(), db
    return mine.cursor


def close() -> None:
    global _db
    with _db_lock:
        if _db is not None:
            _db.close()
            _db = None


class Watchdog:
    """Interrupts queries that run past their time limit: one thread for every query of the process, where a
    timer per query would start (and stop) a thread each time.

    The thread is woken only when a new deadline comes before the moment it already sleeps until; with no
    query running it sleeps one query time limit, so a query with the usual limit starts without waking it."""

    def __init__(self, idle_seconds: Callable[[], float] = lambda: 60.0) -> None:
        self._due: dict[int, tuple[float, Callable[[], None]]] = {}
        self._tickets = itertools.count()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._wakes_at = 0.0
        self._idle_seconds = idle_seconds

    def watch(self, seconds: float, interrupt: Callable[[], None]) -> int:
        ticket = next(self._tickets)
        at = time.monotonic() + seconds
        with self._changed:
            self._due[ticket] = (at, interrupt)
            if self._thread is None or not self._thread.is_alive():
                self._wakes_at = at
                self._thread = threading.Thread(target=self._run, name="duckdb-watchdog", daemon=True)
                self._thread.start()
            elif at < self._wakes_at:
                self._wakes_at = at
                self._changed.notify()
        return ticket

    def release(self, ticket: int) -> None:
        with self._changed:
            self._due.pop(ticket, None)

    def _run(self) -> None:
        with self._changed:
            while True:
                now = time.monotonic()
                for ticket, (at, interrupt) in list(self._due.items()):
                    if at <= now:
                        del self._due[ticket]
                        interrupt()
                idle = now + max(self._idle_seconds(), 0.001)
                self._wakes_at = min((at for at, _ in self._due.values()), default=idle)
                self._changed.wait(max(self._wakes_at - now, 0.001))


_watchdog = Watchdog(lambda: report_settings().query_timeout)


def compile_duckdb(stmt: Any) -> tuple[str, list[Any]]:
    compiled = stmt.compile(dialect=DIALECT, compile_kwargs={"render_postcompile": True})
    return compiled.string, [compiled.params[k] for k in compiled.positiontup or []]


def _statement(
    path: Path,
    ds: Dataset,
    fields: list[FieldInfo],
    make: Callable[[Relation], Any],
    statement_key: Hashable | None,
) -> tuple[str, tuple[Any, ...]]:
    """The SQL and parameters `make` builds over the dataset's current file at `path`, compiled once per
    distinct statement.

    `statement_key` is the caller's complete description of what `make` builds (None: not kept). With the
    file and the dataset's version (bumped by every change of the dataset or its fields) it names exactly one
    statement, so a kept one is never stale."""
    key = (str(path), ds.version, statement_key)
    found = _statements.get(key) if statement_key is not None else None
    if found is not None:
        return found
    literal = str(path).replace("'", "''")  # a server-made path, as an SQL string
    rel = Relation("duckdb", datasets.extract_fields(fields), sql=f"SELECT * FROM read_parquet('{literal}')")
    sql, params = compile_duckdb(make(rel))
    found = (sql, tuple(params))
    if statement_key is not None:
        _statements.put(key, found)
    return found


def query(
    ds: Dataset,
    fields: list[FieldInfo],
    make: Callable[[Relation], Any],
    timeout: float | None = None,
    statement_key: Hashable | None = None,
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run the statement `make` builds over the dataset's current file, from this node's cache (fetched from
    the store on first use; the file's existence is checked again only when DuckDB cannot read it)."""
    if not ds.extract_file:
        raise ExtractNotReady()
    path = _cached(ds)
    sql, params = _statement(path, ds, fields, make, statement_key)
    limit = timeout or report_settings().query_timeout
    try:
        return _run(sql, params, limit)
    except duckdb.IOException as exc:
        if path.exists():
            raise sources.SourceFailed(reason=str(exc).splitlines()[0][:240]) from exc
    # the cached copy was taken away under the platform (a cleaned disk, another process's trim): fetch again
    extract_store.forget(path)
    path = _cached(ds)
    try:
        return _run(sql, params, limit)
    except duckdb.IOException as exc:
        raise sources.SourceFailed(reason=str(exc).splitlines()[0][:240]) from exc


def _cached(ds: Dataset) -> Path:
    try:
        return extract_store.cached(ds)
    except NotFound as exc:  # recorded as synced, yet not in the store (removed under the platform)
        raise ExtractNotReady() from exc


def _run(sql: str, params: tuple[Any, ...], limit: float) -> tuple[list[str], list[tuple[Any, ...]]]:
    con = _cursor()
    ticket = _watchdog.watch(limit, con.interrupt)
    try:
        cur = con.execute(sql, list(params))
        keys = [d[0] for d in cur.description or []]
        rows = cur.fetchall()
    except duckdb.InterruptException as exc:
        raise sources.SourceTimeout(seconds=round(limit, 1)) from exc
    except duckdb.IOException:
        raise
    except duckdb.Error as exc:
        raise sources.SourceFailed(reason=str(exc).splitlines()[0][:240]) from exc
    finally:
        _watchdog.release(ticket)
    return keys, rows


# ---------------------------------------------------------------------------
# sync
# ---------------------------------------------------------------------------


def _lock_key(ds: Dataset) -> str:
    return f"rpt:sync-lock:{ds.tenant_id}:{ds.id}"


def sync(ds: Dataset) -> dict[str, Any]:
    """Copy the dataset's rows into a new Parquet file, store it and swap it in; answers the sync status.

    Runs in the caller's session (the dataset row is updated and flushed); a second sync of the same
    dataset while one runs in any process is refused. A store that cannot be reached fails the sync with
    its error recorded, and the dataset keeps its previous file.
    """
    cache = services().cache
    if cache.incr(_lock_key(ds), ttl=3600) > 1:
        raise Conflict("reports:extract.running")
    db = session()
    try:
        ds.sync_status, ds.sync_started_at, ds.sync_error = "running", utcnow(), ""
        db.flush()
        db.commit()
        try:
            name, rows = _write(ds)
        except AtriumError as exc:
            ds.sync_status, ds.sync_error = "error", services().t(exc.key, **exc.params)
            db.commit()
            raise
        except Exception as exc:  # noqa: BLE001 - recorded as the visible sync error
            log.exception("extract sync failed", dataset=ds.id)
            ds.sync_status, ds.sync_error = (
                "error",
                str(exc).splitlines()[0][:500] if str(exc) else type(exc).__name__,
            )
            db.commit()
            raise sources.SourceFailed(reason=ds.sync_error) from exc
        ds.extract_file, ds.extract_rows = name, rows
        ds.sync_status, ds.last_sync_at, ds.sync_error = "ok", utcnow(), ""
        datasets.bump(ds)
        db.commit()
        extract_store.prune_store(ds)
        return datasets.sync_status(ds)
    finally:
        cache.delete(f"n:{_lock_key(ds)}")
        cache.delete(_lock_key(ds))


def _write(ds: Dataset) -> tuple[str, int]:
    # calculated fields are computed when the extract is queried, from the copied columns
    fields = [f for f in datasets.fields_of(ds.id) if not f.is_calculated]
    src = datasets.source_for(ds)
    rel = datasets.relation(ds, fields, src.flavour)
    cols = [(rel.time(f) if f.type == "time" else rel.value(f)).label(f"c{i}") for i, f in enumerate(fields)]
    stmt = sa.select(*cols).select_from(rel.base)
    schema = pa.schema([pa.field(f.origin_name, ARROW_TYPES[f.type]) for f in fields])
    target = folder(ds)
    target.mkdir(parents=True, exist_ok=True)
    name = extract_store.new_name(ds)
    tmp = target / f".{name}.{secrets.token_hex(4)}.tmp"
    total = 0
    try:
        with sources.read_only(src, timeout=max(600.0, src.timeout)) as conn:
            result = conn.execution_options(stream_results=True, yield_per=BATCH).execute(stmt)
            with pq.ParquetWriter(tmp, schema, compression="zstd") as writer:
                for part in result.partitions(BATCH):
                    columns: list[Sequence[Any]] = (
                        list(zip(*part, strict=True)) if part else [[] for _ in fields]
                    )
                    arrays = [_array(list(col), f) for col, f in zip(columns, fields, strict=True)]
                    writer.write_table(pa.Table.from_arrays(arrays, schema=schema))
                    total += len(part)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        extract_store.upload(ds, name, tmp)
        extract_store.adopt(ds, name, tmp)
    finally:
        if tmp.exists():
            tmp.unlink()
    return name, total


def _array(values: list[Any], f: FieldInfo) -> pa.Array:
    """A column of the declared type; drivers' native values convert in C, others one by one."""
    kind = ARROW_TYPES[f.type]
    try:
        return pa.array(values, kind)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError, OverflowError):
        pass
    if f.type == "time":
        strings = [None if v is None else (v if isinstance(v, str) else v.isoformat(sep=" ")) for v in values]
        return pa.array(strings, pa.string()).cast(kind)
    if f.type == "integer":
        return pa.array([None if v is None else int(v) for v in values], kind)
    if f.type == "float":
        return pa.array([None if v is None else float(v) for v in values], kind)
    return pa.array([None if v is None else str(v) for v in values], kind)


def remove_files(ds: Dataset) -> None:
    """Delete the dataset's stored files and this node's cached copies (StorageUnavailable when the store
    cannot be reached: the dataset is then kept, so nothing is left behind unseen)."""
    extract_store.remove(ds)


def due_datasets() -> list[tuple[int, str]]:
    """(tenant, dataset) of extract datasets whose sync interval has passed, across tenants."""
    now = utcnow()
    with unscoped():
        rows = (
            session()
            .execute(select(Dataset).where(Dataset.mode == "extract", Dataset.sync_interval > 0))
            .scalars()
        )
        return [(ds.tenant_id, ds.id) for ds in rows if _is_due(ds, now)]


def _is_due(ds: Dataset, now: datetime) -> bool:
    started = ds.sync_started_at
    if ds.sync_status == "running" and started and (now - started).total_seconds() < 3600:
        return False
    last = ds.last_sync_at
    return last is None or (now - last).total_seconds() >= ds.sync_interval * 60


def submit_due() -> None:
    """The scheduled job: hand each due sync to the task queue, so no sync holds the scheduler's thread."""
    for tenant_id, dataset_id in due_datasets():
        services().tasks.submit(sync_due, tenant_id, dataset_id)


def run_due() -> None:
    """Sync every extract dataset that is due, one after the other in this thread."""
    for tenant_id, dataset_id in due_datasets():
        _sync_if_due(tenant_id, dataset_id)


def sync_due(tenant_id: int, dataset_id: str) -> None:
    """The background task of one scheduled sync, in its own session."""
    with services().db():
        _sync_if_due(tenant_id, dataset_id)


def _sync_if_due(tenant_id: int, dataset_id: str) -> None:
    """Sync the dataset in its tenant unless it is no longer due: a sync queued earlier, or one running in
    another process, may have done it since."""
    with tenant_scope(tenant_id):
        try:
            ds = datasets.get_dataset(dataset_id)
            if _is_due(ds, utcnow()):
                sync(ds)
        except Conflict:
            log.info("scheduled extract sync already running", dataset=dataset_id, tenant=tenant_id)
        except Exception:  # noqa: BLE001 - one failing dataset must not stop the others
            log.warning("scheduled extract sync failed", dataset=dataset_id, tenant=tenant_id)
