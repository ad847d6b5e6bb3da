"""APScheduler with the jobs plugins declare."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import structlog
from apscheduler.schedulers.background import BackgroundScheduler

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

log = structlog.get_logger("atrium.scheduler")


def start_scheduler(kernel: Kernel) -> BackgroundScheduler:
    sched = BackgroundScheduler(daemon=True)
    for plugin, jobs in kernel.plugins.call("atrium_scheduled_jobs").items():
        for job in jobs or []:
            sched.add_job(
                _guarded(kernel, job.func),
                job.trigger,
                id=f"{plugin}:{job.id}",
                replace_existing=True,
                **job.trigger_args,
            )
    sched.start()
    return sched


def _guarded(kernel: Kernel, func: Any) -> Any:
    def run() -> None:
        try:
            with kernel.db():
                func()
        except Exception:
            log.exception("scheduled job failed", job=getattr(func, "__qualname__", str(func)))

    return run
