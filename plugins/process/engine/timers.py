"""The scheduler's scan: instances whose ``wake_at`` has passed fire their due timers, hand overdue HTTP
attempts to the queue again, and run on.

The scan is one indexed query across tenants; each instance is then woken in its own tenant and its own
transaction, so one that breaks leaves the others alone. ``now`` is a parameter so tests (and a catch-up
after downtime) choose the clock.
"""

from __future__ import annotations

from datetime import datetime

import structlog
from sqlalchemy import select

from atrium.plugins.process import service
from atrium.plugins.process.engine import spiff, waiting
from atrium.plugins.process.models import RUNNING, HistoryEntry, ProcessInstance
from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.db import session, utcnow
from atrium.sdk.services import services
from atrium.sdk.types import JobSpec

log = structlog.get_logger("atrium.process.timers")

SCAN_SECONDS = 30
BATCH = 500


def scheduled_jobs() -> list[JobSpec]:
    """The scan every ``SCAN_SECONDS``, and once at start-up (timers that fell due while the platform was
    down fire at once)."""
    return [
        JobSpec(
            id="wake-due",
            func=wake_due,
            trigger="interval",
            trigger_args={"seconds": SCAN_SECONDS, "next_run_time": datetime.now()},
        )
    ]


def due_instances(now: datetime, limit: int = BATCH) -> list[tuple[int, int]]:
    """(tenant, instance) of every instance due at ``now``, earliest first."""
    with unscoped(), services().db() as db:
        rows = db.execute(
            select(ProcessInstance.tenant_id, ProcessInstance.id)
            .where(ProcessInstance.wake_at <= now)
            .order_by(ProcessInstance.wake_at)
            .limit(limit)
        ).all()
    return [(int(t), int(i)) for t, i in rows]


def wake_due(now: datetime | None = None) -> int:
    """Wake every instance due at ``now`` (naive UTC, default the current time); answers how many moved."""
    now = now or utcnow()
    moved = 0
    for tenant_id, instance_id in due_instances(now):
        try:
            with tenant_scope(tenant_id), services().db():
                moved += int(wake(instance_id, now))
        except Exception:  # one broken instance must not stop the others
            log.exception("process instance not woken", instance=instance_id, tenant=tenant_id)
    return moved


def wake(instance_id: int, now: datetime) -> bool:
    """Fire the instance's due timers, hand its due HTTP attempts over, and run it on (in the current
    tenant and transaction); False when another process got there first or nothing was due."""
    db = session()
    inst = db.execute(
        select(ProcessInstance).where(ProcessInstance.id == instance_id).with_for_update()
    ).scalar_one_or_none()
    if inst is None or inst.status != RUNNING or inst.wake_at is None or inst.wake_at > now:
        return False
    lo = service.load(inst)
    for task in spiff.fire_due_timers(lo.workflow, now):
        node = lo.comp.nodes.get(task.task_spec.bpmn_id or "")
        db.add(
            HistoryEntry(
                instance_id=inst.id,
                node_id=task.task_spec.bpmn_id or "",
                name=node.name if node else "",
                action="timer",
            )
        )
    for task in waiting.due_http(lo.workflow, now):
        waiting.submit_attempt(inst, task, now)
    service.step(lo)
    return True
