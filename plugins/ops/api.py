"""The ops service's HTTP API (`/api/ops`): platform (super) administrators only."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from atrium.plugins.ops import service
from atrium.sdk.routing import Router

router = Router("/api/ops")

JobId = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=160)]
TaskId = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]
Stamp = Annotated[str | None, Field(description="ISO 8601, UTC")]


class NodeOut(BaseModel):
    node: str = Field(description="host:pid")
    hostname: str
    pid: int
    version: str
    startedAt: Stamp
    uptimeSeconds: int
    lastSeen: Stamp
    lastSeenSeconds: int
    load: list[float] = Field(description="load average over 1, 5 and 15 minutes")
    cpus: int
    scheduler: bool = Field(description="whether the process runs the scheduler")
    tasks: str = Field(description="the task runner: in-process or redis")
    python: str
    current: bool = Field(description="the process that answered")


class CheckOut(BaseModel):
    name: str
    state: Literal["ok", "failing", "skipped"]
    error: str
    ms: int | None


class QueuesOut(BaseModel):
    mode: Literal["in-process", "redis"]
    name: str
    queued: int | None
    running: int | None
    failed: int | None
    workers: int | None
    error: str


class StorageOut(BaseModel):
    kind: str
    bucket: str
    prefix: str
    endpoint: str
    folder: str
    reachable: bool
    ms: int


class LastRunOut(BaseModel):
    outcome: str = Field(description="running, ok, failed or lost")
    node: str
    startedAt: Stamp
    endedAt: Stamp
    durationMs: int | None
    error: str
    manual: bool = Field(description="run by an operator (run now)")


class JobOut(BaseModel):
    id: str
    plugin: str
    trigger: str
    triggerText: str
    intervalSeconds: float | None
    nextRunAt: Stamp = Field(description="the next run on this node; null when its scheduler is off")
    paused: bool
    pausedAt: Stamp
    pausedBy: str
    lastRun: LastRunOut | None


class JobsOut(BaseModel):
    node: str
    scheduler: bool = Field(description="whether this node runs the scheduler")
    jobs: list[JobOut]


class JobIdIn(BaseModel):
    jobId: JobId


class RunOut(BaseModel):
    jobId: str
    taskId: str
    slot: Stamp


class PausedOut(BaseModel):
    jobId: str
    paused: bool


class TasksQuery(BaseModel):
    state: Literal["queued", "running", "failed", "done"] | None = None


class TaskOut(BaseModel):
    id: str
    func: str
    state: str
    enqueuedAt: Stamp
    startedAt: Stamp
    endedAt: Stamp
    error: str


class TaskIdIn(BaseModel):
    taskId: TaskId


class RetryOut(BaseModel):
    taskId: str
    retriedFrom: str


@router.get("/nodes", permission="super-admin", response=list[NodeOut])
def nodes() -> list[dict[str, Any]]:
    """The server processes seen in the last minute, the one answering first."""
    return service.ops().nodes()


@router.get("/readiness", permission="super-admin", response=list[CheckOut])
def readiness() -> list[dict[str, Any]]:
    """This node's readiness checks (database, redis, storage, migrations), with their errors in full."""
    return service.ops().readiness()


@router.get("/queues", permission="super-admin", response=QueuesOut)
def queues() -> dict[str, Any]:
    """The task queue: waiting, running and failed tasks, and the workers."""
    return service.ops().queues()


@router.get("/storage", permission="super-admin", response=StorageOut)
def storage() -> dict[str, Any]:
    """The file store's kind and location, and whether it answers."""
    return service.ops().storage()


@router.get("/jobs", permission="super-admin", response=JobsOut)
def jobs() -> dict[str, Any]:
    """Every scheduled job: trigger, next run on this node, paused, and its last run."""
    return service.ops().jobs()


@router.post("/jobs/run", permission="super-admin", body=JobIdIn, response=RunOut)
def run_job(body: JobIdIn) -> dict[str, Any]:
    """Run a job now, once (through the task queue); its run is recorded like a scheduled one."""
    return service.run_job(body.jobId)


@router.post("/jobs/pause", permission="super-admin", body=JobIdIn, response=PausedOut)
def pause_job(body: JobIdIn) -> dict[str, Any]:
    """Pause a job on every node until it is resumed."""
    return service.pause_job(body.jobId)


@router.post("/jobs/resume", permission="super-admin", body=JobIdIn, response=PausedOut)
def resume_job(body: JobIdIn) -> dict[str, Any]:
    """Resume a paused job."""
    return service.resume_job(body.jobId)


@router.get("/tasks", permission="super-admin", query=TasksQuery, response=list[TaskOut])
def tasks(query: TasksQuery) -> list[dict[str, Any]]:
    """Recent background tasks, newest first; of one state when asked."""
    return service.ops().tasks(query.state)


@router.post("/tasks/retry", permission="super-admin", body=TaskIdIn, response=RetryOut)
def retry_task(body: TaskIdIn) -> dict[str, Any]:
    """Run a failed task again (with Redis: put the failed job back in the queue)."""
    return service.retry_task(body.taskId)
