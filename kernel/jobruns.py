"""Runs of scheduled jobs: each period of a job runs once among every process sharing the database.

A run first inserts its row for (job, slot); the unique constraint lets one process, on whichever node,
win the slot, and the others skip it. A slot is the same in every process whatever its start time: for
an interval trigger, the start of the epoch-aligned interval that holds the scheduled fire time; for
other triggers, the fire time to the second. The nodes' clocks are taken to agree (NTP) to well within
a period.

A process that dies while running a job leaves its row without `ended_at`. The next period is another
slot, so another process runs it then. Such a row reads as "lost" once it started more than
`LOST_AFTER` ago, and housekeeping writes that outcome down (a run that does end after all records its
real outcome over it). Runs are kept for `KEEP`.
"""

from __future__ import annotations

import math
import os
import socket
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import Connection, Engine, Table, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from atrium.kernel.models import ScheduledJobRun, ScheduledJobState
from atrium.sdk.db import utcnow

KEEP = timedelta(days=7)
LOST_AFTER = timedelta(hours=1)
ERROR_CHARS = 2000
RUNS = cast(Table, ScheduledJobRun.__table__)
STATES = cast(Table, ScheduledJobState.__table__)
_INSERTS: dict[str, Any] = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}


@dataclass(frozen=True)
class JobRun:
    job_id: str
    slot: datetime
    node: str
    started_at: datetime
    ended_at: datetime | None
    outcome: str
    error: str
    duration_ms: int | None


def node_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def interval_slot(fired: datetime, seconds: float) -> datetime:
    start = math.floor(fired.timestamp() / seconds) * seconds
    return datetime.fromtimestamp(start, UTC).replace(tzinfo=None)


def fire_slot(fired: datetime) -> datetime:
    return fired.astimezone(UTC).replace(tzinfo=None, microsecond=0)


def claim(engine: Engine, job_id: str, slot: datetime, node: str | None = None) -> bool:
    """Insert the run of `job_id` for `slot`; answers whether this call did (and so runs it)."""
    values = {
        "job_id": job_id,
        "slot": slot,
        "node": node or node_name(),
        "started_at": utcnow(),
        "outcome": "running",
        "error": "",
    }
    with engine.begin() as conn:
        insert = _INSERTS[conn.dialect.name]
        stmt = (
            insert(RUNS)
            .values(values)
            .on_conflict_do_nothing(index_elements=["job_id", "slot"])
            .returning(RUNS.c.id)
        )
        return conn.execute(stmt).first() is not None


def finish(engine: Engine, job_id: str, slot: datetime, *, error: str | None, duration_ms: int) -> None:
    with engine.begin() as conn:
        conn.execute(
            update(RUNS)
            .where(RUNS.c.job_id == job_id, RUNS.c.slot == slot)
            .values(
                ended_at=utcnow(),
                outcome="ok" if error is None else "failed",
                error=(error or "")[:ERROR_CHARS],
                duration_ms=duration_ms,
            )
        )


def housekeep(engine: Engine) -> None:
    """Forget runs older than `KEEP`; mark as lost the runs that never ended."""
    now = utcnow()
    with engine.begin() as conn:
        conn.execute(delete(RUNS).where(RUNS.c.started_at < now - KEEP))
        conn.execute(
            update(RUNS)
            .where(
                RUNS.c.ended_at.is_(None),
                RUNS.c.outcome == "running",
                RUNS.c.started_at < now - LOST_AFTER,
            )
            .values(outcome="lost")
        )


def recent_runs(db: Session | Connection, job_id: str | None = None, limit: int = 50) -> list[JobRun]:
    """The latest runs, newest first; of one job when `job_id` is given."""
    stmt = select(RUNS).order_by(RUNS.c.slot.desc(), RUNS.c.id.desc()).limit(limit)
    if job_id is not None:
        stmt = stmt.where(RUNS.c.job_id == job_id)
    return _runs(db.execute(stmt).mappings())


def last_runs(db: Session | Connection) -> dict[str, JobRun]:
    """Each job's latest run, by job id."""
    latest = select(RUNS.c.job_id, func.max(RUNS.c.slot).label("slot")).group_by(RUNS.c.job_id).subquery()
    stmt = select(RUNS).join(latest, (RUNS.c.job_id == latest.c.job_id) & (RUNS.c.slot == latest.c.slot))
    return {run.job_id: run for run in _runs(db.execute(stmt).mappings())}


def is_paused(engine: Engine, job_id: str) -> bool:
    """Whether an operator paused `job_id` (on any node): its periods are then skipped."""
    with engine.connect() as conn:
        found = conn.execute(select(STATES.c.paused).where(STATES.c.job_id == job_id)).scalar()
    return bool(found)


def job_states(db: Session | Connection) -> dict[str, tuple[bool, datetime, str]]:
    """Each job an operator paused or resumed: (paused, changed at, changed by), by job id."""
    rows = db.execute(select(STATES.c.job_id, STATES.c.paused, STATES.c.changed_at, STATES.c.changed_by))
    return {row.job_id: (bool(row.paused), row.changed_at, row.changed_by) for row in rows}


def _runs(rows: Any) -> list[JobRun]:
    lost_before = utcnow() - LOST_AFTER
    out = []
    for row in rows:
        outcome = row["outcome"]
        if outcome == "running" and row["started_at"] < lost_before:
            outcome = "lost"
        out.append(
            JobRun(
                job_id=row["job_id"],
                slot=row["slot"],
                node=row["node"],
                started_at=row["started_at"],
                ended_at=row["ended_at"],
                outcome=outcome,
                error=row["error"],
                duration_ms=row["duration_ms"],
            )
        )
    return out
