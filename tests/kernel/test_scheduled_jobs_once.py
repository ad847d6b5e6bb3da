"""Scheduled jobs run once per period among several server processes sharing one database.

Each node is a real process (`python -m tests.kernel.test_scheduled_jobs_once ...`) running the kernel's
scheduler with one job every second. The database is a SQLite file the nodes share, or a fresh
PostgreSQL schema when ATRIUM_TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import sqlalchemy as sa

from atrium.kernel import jobruns
from atrium.kernel.db import make_engine, make_session_factory, session_scope
from atrium.kernel.jobruns import JobRun
from atrium.kernel.scheduler import build_scheduler, slot_of
from atrium.sdk.db import utcnow
from atrium.sdk.types import JobSpec

ROOT = Path(__file__).resolve().parents[2]
PG = os.environ.get("ATRIUM_TEST_DATABASE_URL", "")
JOB = "test:tick"
HANG = "hang"
WITHIN = 12.0


@pytest.fixture
def database(tmp_path: Path) -> Iterator[str]:
    """A database with the kernel's tables, migrated as `atrium db upgrade` does."""
    from atrium.kernel.migrate import upgrade  # not imported by the nodes, which import this module

    schema = f"t_{secrets.token_hex(6)}"
    if PG:
        base = PG.replace("postgresql://", "postgresql+psycopg://", 1)
        admin = sa.create_engine(base)
        with admin.begin() as conn:
            conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
        url = f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}"
    else:
        url = f"sqlite:///{tmp_path / 'atrium.db'}"
    engine = make_engine(url)
    upgrade(SimpleNamespace(engine=engine, plugins=SimpleNamespace(call=lambda _hook: {})))
    engine.dispose()
    yield url
    if PG:
        with admin.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        admin.dispose()


@pytest.fixture
def engine(database: str) -> Iterator[sa.Engine]:
    eng = make_engine(database)
    yield eng
    eng.dispose()


class Node:
    """A server process running the scheduler with the test job."""

    def __init__(self, url: str, folder: Path) -> None:
        name = secrets.token_hex(4)
        self.ready = folder / f"ready-{name}"
        self.output = folder / f"node-{name}.txt"
        self.log = folder / "runs.log"
        with self.output.open("wb") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.kernel.test_scheduled_jobs_once",
                    url,
                    str(self.log),
                    str(self.ready),
                ],
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    @property
    def pid(self) -> int:
        return self.proc.pid

    def wait_ready(self) -> None:
        until(lambda: self.ready.exists() or self.proc.poll() is not None, "the node to start")
        assert self.proc.poll() is None, self.output.read_text()[-2000:]

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def nodes(database: str, tmp_path: Path) -> Iterator[Callable[..., Node]]:
    started: list[Node] = []

    def start() -> Node:
        node = Node(database, tmp_path)
        started.append(node)
        return node

    yield start
    stop_all(started)


def stop_all(team: list[Node]) -> None:
    for node in team:
        if node.proc.poll() is None:
            node.proc.send_signal(signal.SIGTERM)
    for node in team:
        node.stop()


def until(check: Callable[[], Any], what: str, within: float = WITHIN) -> Any:
    deadline = time.monotonic() + within
    while not (found := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
    return found


def runs(engine: sa.Engine, job_id: str = JOB) -> list[JobRun]:
    """The job's runs, oldest first."""
    with engine.connect() as conn:
        return sorted(jobruns.recent_runs(conn, job_id, limit=500), key=lambda r: r.slot)


def pid_of(run: JobRun) -> int:
    return int(run.node.rsplit(":", 1)[1])


def executions(log: Path) -> list[int]:
    """The process ids of the job's runs, as the nodes wrote them."""
    return [int(line) for line in log.read_text().split()] if log.exists() else []


def test_the_migration_makes_the_table_with_its_claim(engine: sa.Engine) -> None:
    found = sa.inspect(engine)
    assert "scheduled_job_run" in found.get_table_names()
    unique = [set(u["column_names"]) for u in found.get_unique_constraints("scheduled_job_run")]
    assert {"job_id", "slot"} in unique


def test_each_period_runs_once_and_a_killed_node_is_replaced(
    engine: sa.Engine, nodes: Callable[..., Node], tmp_path: Path
) -> None:
    team = [nodes() for _ in range(3)]
    for node in team:
        node.wait_ready()
    all_up = jobruns.interval_slot(datetime.now(UTC), 1) + timedelta(seconds=1)

    def ended_since(slot: datetime, count: int) -> list[JobRun]:
        done = [r for r in runs(engine) if r.slot >= slot and r.ended_at is not None]
        return done if len(done) >= count else []

    until(lambda: ended_since(all_up, 3), "three periods run with every node up")
    (tmp_path / HANG).touch()
    hung = until(lambda: next(tmp_path.glob(f"{HANG}.*"), None), "a node to take the run that hangs")
    victim = next(node for node in team if node.pid == int(hung.suffix[1:]))
    held = next(r for r in runs(engine) if r.ended_at is None and pid_of(r) == victim.pid)
    victim.stop(signal.SIGKILL)
    killed = jobruns.interval_slot(datetime.now(UTC), 1)
    later = until(lambda: ended_since(killed + timedelta(seconds=1), 2), "the next periods run elsewhere")
    stop_all(team)

    recorded = runs(engine)
    slots = [r.slot for r in recorded]
    assert len(slots) == len(set(slots))
    window = [s for s in slots if s >= all_up]
    assert window == [all_up + timedelta(seconds=i) for i in range(len(window))], "a period did not run"
    ran = executions(victim.log)
    assert len(ran) == len(recorded), "a run happened without its claim, or a claim without its run"
    for node in team:
        assert ran.count(node.pid) == sum(1 for r in recorded if pid_of(r) == node.pid)

    dead = next(r for r in recorded if r.slot == held.slot)
    assert dead.ended_at is None and dead.outcome == "running"
    assert victim.pid not in {pid_of(r) for r in later}
    finished = [r for r in recorded if r is not dead]
    assert {r.outcome for r in finished} == {"ok"}
    assert all(r.ended_at is not None and r.duration_ms is not None for r in finished)


def test_a_failed_run_is_recorded_with_its_error(engine: sa.Engine, database: str) -> None:
    job_id = "test:fails"

    def fails() -> None:
        raise RuntimeError("the source is unreachable")

    sessions = make_session_factory(engine)
    spec = JobSpec(id=job_id, func=fails, trigger_args={"seconds": 1, "next_run_time": datetime.now()})
    sched = build_scheduler(engine, lambda: session_scope(sessions), [(job_id, spec)])
    sched.start()
    try:
        until(lambda: [r for r in runs(engine, job_id) if r.ended_at is not None], "the failed run")
    finally:
        sched.shutdown(wait=True)
    run = runs(engine, job_id)[0]
    assert run.outcome == "failed"
    assert run.error == "RuntimeError: the source is unreachable"
    assert run.duration_ms is not None and run.node == jobruns.node_name()
    with engine.connect() as conn:
        assert jobruns.last_runs(conn)[job_id].outcome == "failed"


def test_housekeeping_forgets_old_runs_and_marks_lost_ones(engine: sa.Engine) -> None:
    now = utcnow().replace(microsecond=0)
    ages = {"test:old": timedelta(days=8), "test:recent": timedelta(days=6), "test:died": timedelta(hours=2)}
    for job_id, age in ages.items():
        assert jobruns.claim(engine, job_id, now - age)
        if job_id != "test:died":
            jobruns.finish(engine, job_id, now - age, error=None, duration_ms=5)
        with engine.begin() as conn:
            conn.execute(
                sa.update(jobruns.RUNS).where(jobruns.RUNS.c.job_id == job_id).values(started_at=now - age)
            )
    assert not jobruns.claim(engine, "test:recent", now - ages["test:recent"]), "a slot is claimed once"
    assert jobruns.claim(engine, "test:died", now), "a later period is claimed again"
    with engine.connect() as conn:
        assert [r.outcome for r in jobruns.recent_runs(conn, "test:died")] == ["running", "lost"]

    jobruns.housekeep(engine)
    with engine.connect() as conn:
        last = jobruns.last_runs(conn)
        stored = conn.execute(
            sa.select(jobruns.RUNS.c.outcome).where(jobruns.RUNS.c.job_id == "test:died").order_by("slot")
        ).scalars()
        assert list(stored) == ["lost", "running"]
    assert "test:old" not in last
    assert last["test:recent"].outcome == "ok" and last["test:recent"].duration_ms == 5
    assert last["test:died"].outcome == "running" and last["test:died"].slot == now


def test_slots_agree_between_processes_started_at_different_times() -> None:
    from apscheduler.triggers.cron import CronTrigger
    from apscheduler.triggers.interval import IntervalTrigger

    every_minute = IntervalTrigger(minutes=1)
    early = datetime(2026, 3, 1, 10, 15, 2, 250_000, tzinfo=UTC)
    late = datetime(2026, 3, 1, 10, 15, 59, 990_000, tzinfo=UTC)
    assert slot_of(every_minute, early) == slot_of(every_minute, late) == datetime(2026, 3, 1, 10, 15)
    assert slot_of(every_minute, late + timedelta(seconds=1)) == datetime(2026, 3, 1, 10, 16)
    nightly = CronTrigger(hour=2)
    assert slot_of(nightly, datetime(2026, 3, 1, 2, 0, 0, 1, tzinfo=UTC)) == datetime(2026, 3, 1, 2)


def _node(url: str, log: str, ready: str) -> None:
    """A node: runs the scheduler until SIGTERM, then lets a running job end. The one run that takes the
    file `HANG` (renamed `HANG.<pid>`) next to the log never ends."""
    engine = make_engine(url)
    sessions = make_session_factory(engine)
    hang = Path(log).parent / HANG

    def tick() -> None:
        with open(log, "a") as fh:
            fh.write(f"{os.getpid()}\n")
        try:
            hang.rename(hang.with_name(f"{HANG}.{os.getpid()}"))
        except FileNotFoundError:
            return
        time.sleep(3600)

    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    spec = JobSpec(id=JOB, func=tick, trigger_args={"seconds": 1, "misfire_grace_time": 30})
    sched = build_scheduler(engine, lambda: session_scope(sessions), [(JOB, spec)])
    sched.start()
    Path(ready).touch()
    while not stopping.wait(0.1):
        pass
    sched.shutdown(wait=True)


if __name__ == "__main__":
    _node(*sys.argv[1:4])
