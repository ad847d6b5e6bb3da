"""The operators' calls without HTTP: the platform's `Operations` service, its errors in the ops namespace."""

from __future__ import annotations

from typing import Any

from atrium.sdk.context import current_context
from atrium.sdk.errors import Conflict, NotFound
from atrium.sdk.services import Operations, services

TASK_STATES = ("queued", "running", "failed", "done")


def ops() -> Operations:
    return services().operations


def _operator() -> str:
    user = current_context().user
    return user.account if user is not None else ""


def run_job(job_id: str) -> dict[str, Any]:
    try:
        return ops().run_job(job_id)
    except LookupError:
        raise NotFound("ops:job_not_found", jobId=job_id) from None


def pause_job(job_id: str) -> dict[str, Any]:
    try:
        return ops().pause_job(job_id, by=_operator())
    except LookupError:
        raise NotFound("ops:job_not_found", jobId=job_id) from None


def resume_job(job_id: str) -> dict[str, Any]:
    try:
        return ops().resume_job(job_id, by=_operator())
    except LookupError:
        raise NotFound("ops:job_not_found", jobId=job_id) from None


def retry_task(task_id: str) -> dict[str, Any]:
    try:
        return ops().retry_task(task_id)
    except LookupError:
        raise NotFound("ops:task_not_found", taskId=task_id) from None
    except ValueError:
        raise Conflict("ops:task_not_failed", taskId=task_id) from None
