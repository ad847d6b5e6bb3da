"""What a running instance waits for besides people: its HTTP tasks' attempts and its timers.

Each HTTP task reached carries its attempt in the engine state (``HTTP_KEY`` in the Spiff task's internal
data: the attempt number, when it is due, the language its messages use). An attempt is handed to the
platform's task queue once the step that reached it commits; if its job never reports back (a lost
worker, a restart of the in-process runner), the attempt falls due again after ``LEASE`` and the
scheduler's scan hands it over once more. The instance's ``wake_at`` is the earliest of these dues and of
its timers, so the scan finds waiting instances through one index.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import structlog
from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.task import Task

from atrium.plugins.process.engine import bpmn, spiff
from atrium.plugins.process.models import ProcessInstance
from atrium.sdk import current_context
from atrium.sdk.db import after_commit, utcnow
from atrium.sdk.services import services

log = structlog.get_logger("atrium.process")

HTTP_KEY = "atrium_http"
#: how long an attempt handed to the queue may go without an answer before it is handed over again
LEASE = timedelta(seconds=120)


def _iso(value: datetime) -> str:
    return value.isoformat(timespec="seconds")


def attempts_of(node: bpmn.Node | None) -> int:
    text = node.http.get("attempts", "") if node is not None else ""
    return int(text) if text.isdigit() else bpmn.DEFAULT_HTTP_ATTEMPTS


def http_state(task: Task) -> dict[str, Any] | None:
    found = task._get_internal_data(HTTP_KEY)
    return found if isinstance(found, dict) else None


def http_due(task: Task) -> datetime | None:
    state = http_state(task)
    if state is None:
        return None
    try:
        return datetime.fromisoformat(str(state["due"]))
    except (KeyError, ValueError):
        return None


def schedule_attempt(task: Task, attempt: int, due: datetime, locale: str) -> None:
    task._set_internal_data(**{HTTP_KEY: {"attempt": attempt, "due": _iso(due), "locale": locale}})


def submit_attempt(inst: ProcessInstance, task: Task, now: datetime) -> None:
    """Hand the task's current attempt to the queue once this step commits; it is due again after LEASE."""
    from atrium.plugins.process.engine import http_task  # the job module runs steps through the service

    state = http_state(task) or {}
    attempt, locale = int(state.get("attempt", 1)), str(state.get("locale") or current_context().locale)
    schedule_attempt(task, attempt, now + LEASE, locale)
    args = (inst.tenant_id, inst.id, str(task.id), attempt)
    after_commit(lambda: services().tasks.submit(http_task.run, *args))


def sync(inst: ProcessInstance, http: list[Task], timers: list[Task], now: datetime | None = None) -> None:
    """After a step (given the waits it left): hand newly reached HTTP tasks to the queue and store when the
    instance is next due."""
    if not http and not timers:
        inst.wake_at = None
        return
    now = now or utcnow()
    for task in http:
        if http_state(task) is None:
            schedule_attempt(task, 1, now, current_context().locale)
            submit_attempt(inst, task, now)
    dues = [http_due(t) for t in http] + [spiff.timer_due(t) for t in timers]
    found = [d for d in dues if d is not None]
    inst.wake_at = min(found) if found else None


def due_http(workflow: BpmnWorkflow, now: datetime) -> list[Task]:
    """HTTP tasks whose next attempt is due, or whose job has not answered within LEASE."""
    out = []
    for task in spiff.http_tasks(workflow):
        due = http_due(task)
        if due is None or due <= now:
            out.append(task)
    return out


def _name(comp: spiff.Compiled, bpmn_id: str) -> str:
    node = comp.nodes.get(bpmn_id)
    return comp.name_of(bpmn_id, node.name) if node is not None else bpmn_id


def describe(workflow: BpmnWorkflow, comp: spiff.Compiled) -> list[dict[str, Any]]:
    """What the instance waits for, for its detail page: HTTP tasks with their attempt, timers with their
    time (both in UTC, as the other times of the API), named in the reader's language."""
    out: list[dict[str, Any]] = []
    http, timers = spiff.waits(workflow)
    for task in http:
        node = comp.nodes.get(task.task_spec.bpmn_id or "")
        state = http_state(task) or {}
        due = http_due(task)
        out.append(
            {
                "nodeId": task.task_spec.bpmn_id,
                "name": _name(comp, task.task_spec.bpmn_id or ""),
                "kind": "http",
                "attempt": int(state.get("attempt", 1)),
                "attempts": attempts_of(node),
                "dueAt": _iso(due) if due else None,
            }
        )
    for task in timers:
        due = spiff.timer_due(task)
        out.append(
            {
                "nodeId": task.task_spec.bpmn_id,
                "name": _name(comp, task.task_spec.bpmn_id or ""),
                "kind": "timer",
                "dueAt": _iso(due) if due else None,
            }
        )
    return out
