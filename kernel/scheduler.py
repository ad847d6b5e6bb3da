"""APScheduler with the jobs plugins declare, each period of a job run by one process of the platform.

Every server process runs a scheduler; a job's run claims its slot first (`atrium.kernel.jobruns`), and
only the process whose claim lands runs it. A run that takes longer than its period may therefore
overlap the next period's run on another process: long work belongs in the task queue.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from contextlib import AbstractContextManager
from contextvars import ContextVar
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any

import structlog
from apscheduler.executors.base import run_job
from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.interval import IntervalTrigger
from sqlalchemy import Engine

from atrium.kernel import jobruns
from atrium.kernel.metrics import record_job_outcome
from atrium.sdk.types import JobSpec

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

log = structlog.get_logger("atrium.scheduler")
HOUSEKEEPING_ID = "kernel:scheduled-job-runs"
_slot: ContextVar[datetime | None] = ContextVar("atrium_job_slot", default=None)


def start_scheduler(kernel: Kernel) -> BackgroundScheduler:
    jobs = [
        (f"{plugin}:{job.id}", job)
        for plugin, specs in kernel.plugins.call("atrium_scheduled_jobs").items()
        for job in specs or []
    ]
    housekeeping = partial(jobruns.housekeep, kernel.engine)
    jobs.append((HOUSEKEEPING_ID, JobSpec(id=HOUSEKEEPING_ID, func=housekeeping, trigger_args={"hours": 1})))
    sched = build_scheduler(kernel.engine, kernel.db, jobs)
    sched.start()
    return sched


def build_scheduler(
    engine: Engine,
    session: Callable[[], AbstractContextManager[Any]],
    jobs: Iterable[tuple[str, JobSpec]],
) -> BackgroundScheduler:
    """A scheduler, not yet started, whose jobs (by id) each run once per slot among all the processes
    sharing `engine`'s database, inside a `session()` block."""
    sched = BackgroundScheduler(daemon=True, executors={"default": _SlotExecutor()})
    for job_id, spec in jobs:
        sched.add_job(
            _Claimed(engine, session, job_id, spec.func),
            spec.trigger,
            id=job_id,
            name=job_id,
            replace_existing=True,
            **spec.trigger_args,
        )
    return sched


def slot_of(trigger: Any, fired: datetime) -> datetime:
    if isinstance(trigger, IntervalTrigger):
        return jobruns.interval_slot(fired, trigger.interval_length)
    return jobruns.fire_slot(fired)


class _SlotExecutor(ThreadPoolExecutor):  # type: ignore[misc]
    """A thread pool that runs each job with the slot of its scheduled time at hand (APScheduler 3 does
    not hand that time to the job)."""

    def _do_submit_job(self, job: Any, run_times: list[datetime]) -> None:
        def run() -> list[Any]:
            events: list[Any] = []
            for fired in run_times:
                token = _slot.set(slot_of(job.trigger, fired))
                try:
                    events += run_job(job, job._jobstore_alias, [fired], self._logger.name)
                finally:
                    _slot.reset(token)
            return events

        def done(f: Future[list[Any]]) -> None:
            exc = f.exception()
            if exc is None:
                self._run_job_success(job.id, f.result())
            else:
                self._run_job_error(job.id, exc, exc.__traceback__)

        self._pool.submit(run).add_done_callback(done)


class _Claimed:
    """A job's function, run only where the claim of the slot lands, its outcome recorded."""

    def __init__(
        self,
        engine: Engine,
        session: Callable[[], AbstractContextManager[Any]],
        job_id: str,
        func: Callable[[], Any],
    ) -> None:
        self.engine = engine
        self.session = session
        self.job_id = job_id
        self.func = func

    def __call__(self) -> None:
        slot = _slot.get() or jobruns.fire_slot(datetime.now(UTC))
        try:
            if jobruns.is_paused(self.engine, self.job_id):
                record_job_outcome(self.job_id, "paused")
                return
            if not jobruns.claim(self.engine, self.job_id, slot):
                record_job_outcome(self.job_id, "skipped")
                return
        except Exception:
            log.exception("scheduled job not claimed, skipped", job=self.job_id)
            record_job_outcome(self.job_id, "unclaimed")
            return
        began = time.monotonic()
        error: str | None = None
        try:
            with self.session():
                self.func()
        except Exception as exc:
            log.exception("scheduled job failed", job=self.job_id)
            error = f"{type(exc).__name__}: {exc}"
        record_job_outcome(self.job_id, "failed" if error else "ok")
        try:
            jobruns.finish(
                self.engine,
                self.job_id,
                slot,
                error=error,
                duration_ms=round((time.monotonic() - began) * 1000),
            )
        except Exception:
            log.exception("scheduled job run not recorded", job=self.job_id)
