"""Reaching data: one read-only engine per source, every query in a read-only transaction with a time limit.

PostgreSQL runs `SET TRANSACTION READ ONLY` and `SET LOCAL statement_timeout`; SQLite connections are
opened with `PRAGMA query_only` and interrupted by a progress handler past the deadline; MySQL gets
`SET TRANSACTION READ ONLY` and `max_execution_time`. A failing or slow source becomes a clear error
(codes 502 and 504), never a hung request.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
import structlog
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, SQLAlchemyError

from atrium.plugins.reports.models import DataSource
from atrium.plugins.reports.settings import report_settings
from atrium.plugins.reports.store import crypto
from atrium.sdk.db import session
from atrium.sdk.errors import AtriumError, BadRequest

log = structlog.get_logger("atrium.reports.sources")
PLATFORM = "platform"
FILE_DRIVERS = ("sqlite", "duckdb")

_engines: dict[str, Engine] = {}
_lock = threading.Lock()


class SourceFailed(AtriumError):
    code = 502
    key = "reports:source.failed"


class SourceTimeout(AtriumError):
    code = 504
    key = "reports:source.timeout"


@dataclass(frozen=True)
class Source:
    """A resolved data source: where to run a dataset's queries and how long they may take."""

    key: str
    engine: Engine
    timeout: float

    @property
    def flavour(self) -> str:
        return self.engine.dialect.name


def normalise_url(raw: str) -> URL:
    """Parse a SQLAlchemy URL; plain `postgresql://` uses psycopg 3, the driver installed here."""
    try:
        url = make_url(raw.strip())
    except (ArgumentError, ValueError) as exc:
        raise BadRequest("reports:source.bad_url") from exc
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    return url


def driver_of(url: URL) -> str:
    return url.get_backend_name()


def _new_engine(url: URL) -> Engine:
    backend = url.get_backend_name()
    try:
        if backend == "sqlite":
            engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 10})

            @sa.event.listens_for(engine, "connect")
            def _read_only(dbapi_conn: Any, _rec: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA query_only = ON")
                cur.close()

            return engine
        kw: dict[str, Any] = {"pool_size": 5, "max_overflow": 10, "pool_pre_ping": True, "pool_recycle": 1800}
        if backend in ("postgresql", "mysql", "mariadb"):
            kw["connect_args"] = {"connect_timeout": 10}
        if backend == "duckdb":
            return sa.create_engine(url, connect_args={"read_only": True})
        return sa.create_engine(url, **kw)
    except (NoSuchModuleError, ImportError) as exc:
        raise BadRequest("reports:source.no_driver", driver=url.drivername) from exc
    except (ArgumentError, ValueError) as exc:
        raise BadRequest("reports:source.bad_url") from exc


def engine_for(key: str, url: URL) -> Engine:
    with _lock:
        engine = _engines.get(key)
        if engine is None:
            engine = _engines[key] = _new_engine(url)
        return engine


def forget(prefix: str) -> None:
    """Dispose the engines of a data source after it changed or was deleted."""
    with _lock:
        for key in [k for k in _engines if k.startswith(prefix)]:
            _engines.pop(key).dispose()


def dispose_all() -> None:
    with _lock:
        for engine in _engines.values():
            engine.dispose()
        _engines.clear()


def platform_source() -> Source:
    """The platform's own database, through a separate read-only engine."""
    bind = session().get_bind()
    url = bind.url if isinstance(bind, Engine) else bind.engine.url
    key = f"{PLATFORM}:{url.render_as_string(hide_password=False)}"
    return Source(key, engine_for(key, url), report_settings().query_timeout)


def source_of(ds: DataSource | None) -> Source:
    if ds is None:
        return platform_source()
    raw = crypto.decrypt(ds.url_enc)
    if not raw:
        raise SourceFailed("reports:source.lost_credentials")
    url = normalise_url(raw)
    stamp = ds.updated_at.isoformat() if ds.updated_at else ""
    timeout = (
        float(ds.query_timeout)
        if ds.query_timeout and ds.query_timeout > 0
        else report_settings().query_timeout
    )
    timeout = min(timeout, report_settings().query_timeout)
    return Source(f"ds:{ds.id}:{stamp}", engine_for(f"ds:{ds.id}:{stamp}", url), timeout)


def short_reason(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    return text[:240]


def _is_timeout(exc: BaseException) -> bool:
    text = str(getattr(exc, "orig", exc)).lower()
    return (
        "interrupted" in text
        or "statement timeout" in text
        or "canceling statement" in text
        or "max_execution_time" in text
        or "max_statement_time" in text
    )


@contextmanager
def read_only(source: Source, timeout: float | None = None) -> Iterator[Connection]:
    """A connection in a read-only transaction that is cut off after the time limit; rolled back after."""
    limit = max(0.05, timeout if timeout is not None else source.timeout)
    flavour = source.flavour
    try:
        conn = source.engine.connect()
    except DBAPIError as exc:
        raise SourceFailed("reports:source.unreachable", reason=short_reason(exc)) from exc
    raw: Any = None
    timer: threading.Timer | None = None
    try:
        if flavour == "postgresql":
            conn.exec_driver_sql("SET TRANSACTION READ ONLY")
            conn.exec_driver_sql(f"SET LOCAL statement_timeout = {int(limit * 1000)}")
        elif flavour == "sqlite":
            raw = conn.connection.driver_connection
            deadline = time.monotonic() + limit
            raw.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, 2000)
        elif flavour == "duckdb":
            # DuckDB has no statement time limit: interrupt the connection once the limit has passed
            duck = conn.connection.driver_connection
            if duck is not None:
                timer = threading.Timer(limit, duck.interrupt)
                timer.daemon = True
                timer.start()
        elif flavour in ("mysql", "mariadb"):
            conn.exec_driver_sql("SET TRANSACTION READ ONLY")
            if getattr(conn.dialect, "is_mariadb", False):
                conn.exec_driver_sql(f"SET SESSION max_statement_time = {limit:.3f}")
            else:
                conn.exec_driver_sql(f"SET SESSION max_execution_time = {int(limit * 1000)}")
        yield conn
    except AtriumError:
        raise
    except DBAPIError as exc:
        if _is_timeout(exc):
            raise SourceTimeout(seconds=round(limit, 1)) from exc
        raise SourceFailed(reason=short_reason(exc)) from exc
    except SQLAlchemyError as exc:
        raise SourceFailed(reason=short_reason(exc)) from exc
    finally:
        if timer is not None:
            timer.cancel()
        try:
            if raw is not None:
                raw.set_progress_handler(None, 0)
            conn.rollback()
        except Exception:  # noqa: BLE001 - the connection is discarded below anyway
            conn.invalidate()
        conn.close()


def fetch(source: Source, stmt: Any, timeout: float | None = None) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run one statement read-only; answers column names and rows."""
    with read_only(source, timeout) as conn:
        result = conn.execute(stmt)
        keys = list(result.keys())
        rows = [tuple(r) for r in result.fetchall()]
    return keys, rows
