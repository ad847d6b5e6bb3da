"""The operators' view of the platform (the SDK's `Operations`): nodes, readiness, queues, storage, jobs.

Each server process writes a heartbeat every `HEARTBEAT_SECONDS`: a Redis hash that expires when Redis is
configured, else its row of `node_heartbeat`. A node seen within `NODE_SEEN_SECONDS` is listed.

A job run by an operator ("run now") goes through the task queue, so whichever node's worker takes it
runs it; it claims a slot of its own in `scheduled_job_run` first (a fire time with sub-second digits,
which no scheduled slot has), so a task the queue hands out twice still runs once. A paused job (a row
of `scheduled_job_state`, seen by every node) is skipped by the scheduler's claim until it is resumed.
"""

from __future__ import annotations

import json
import os
import platform
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from importlib import metadata
from typing import TYPE_CHECKING, Any, cast

import redis
import structlog
from sqlalchemy import Engine, Table, delete, select
from sqlalchemy.dialects import postgresql, sqlite

from atrium.kernel import jobruns
from atrium.kernel.health import CHECK_TIMEOUT_SECONDS, NotReady, Readiness, redis_probe
from atrium.kernel.metrics import record_job_outcome
from atrium.kernel.models import NodeHeartbeat, ScheduledJobState
from atrium.sdk.db import utcnow
from atrium.sdk.services import services
from atrium.sdk.types import JobSpec

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

log = structlog.get_logger("atrium.ops")

#: how often a server process writes its heartbeat (seconds)
HEARTBEAT_SECONDS = 15.0
#: a node whose last heartbeat is older than this is no longer listed (seconds)
NODE_SEEN_SECONDS = 60
#: heartbeat rows older than this are deleted (a node that stopped long ago)
FORGET_NODES_AFTER = timedelta(days=1)
#: the options of `add_job` that are not the trigger's
JOB_OPTIONS = frozenset(
    {"next_run_time", "misfire_grace_time", "coalesce", "max_instances", "jobstore", "executor", "name", "id"}
)
TRIGGERS = {"interval": "IntervalTrigger", "cron": "CronTrigger", "date": "DateTrigger"}
NODES = cast(Table, NodeHeartbeat.__table__)
STATES = cast(Table, ScheduledJobState.__table__)
_INSERTS: dict[str, Any] = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}


def atrium_version() -> str:
    try:
        return metadata.version("atrium")
    except metadata.PackageNotFoundError:  # pragma: no cover - a checkout that is not installed
        return "0+unknown"


def iso(value: datetime | None) -> str | None:
    """ISO 8601 in UTC with its offset (naive values are UTC, as the database keeps them)."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def manual_slot(now: datetime | None = None) -> datetime:
    """A slot for an operator's run: now, to the microsecond, never on a whole second (scheduled slots
    always are), so it never takes a scheduled period's place."""
    now = (now or datetime.now(UTC)).astimezone(UTC).replace(tzinfo=None)
    return now if now.microsecond else now.replace(microsecond=1)


def is_manual(slot: datetime) -> bool:
    return slot.microsecond != 0


def run_now(job_id: str, slot: str) -> str:
    """The task behind "run now": run the job in the process whose worker took it, once for `slot`."""
    ops = services().operations
    if not isinstance(ops, KernelOperations):  # pragma: no cover - another platform's services
        raise TypeError("the operations service is not the kernel's")
    return ops.execute(job_id, datetime.fromisoformat(slot))


@dataclass(frozen=True)
class ScheduledJob:
    id: str
    plugin: str
    spec: JobSpec


def _trigger(spec: JobSpec) -> tuple[str, float | None]:
    """The trigger as APScheduler prints it, and an interval trigger's period in seconds."""
    import apscheduler.triggers.cron
    import apscheduler.triggers.date
    import apscheduler.triggers.interval

    args = {k: v for k, v in spec.trigger_args.items() if k not in JOB_OPTIONS}
    name = TRIGGERS.get(spec.trigger)
    if name is None:
        return spec.trigger, None
    module = getattr(apscheduler.triggers, spec.trigger)
    make: Callable[..., Any] = getattr(module, name)
    try:
        trigger = make(**args)
    except (TypeError, ValueError):
        return spec.trigger, None
    interval = apscheduler.triggers.interval.IntervalTrigger
    seconds = float(trigger.interval_length) if isinstance(trigger, interval) else None
    return str(trigger), seconds


class _DatabaseBeats:
    """Heartbeats as rows of `node_heartbeat`."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def write(self, row: dict[str, Any]) -> None:
        now = row["last_seen"]
        with self.engine.begin() as conn:
            insert = _INSERTS[conn.dialect.name]
            stmt = insert(NODES).values(row)
            stmt = stmt.on_conflict_do_update(
                index_elements=["node"],
                set_={
                    k: stmt.excluded[k]
                    for k in ("hostname", "pid", "version", "started_at", "last_seen", "info")
                },
            )
            conn.execute(stmt)
            conn.execute(delete(NODES).where(NODES.c.last_seen < now - FORGET_NODES_AFTER))

    def read(self, since: datetime) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(NODES).where(NODES.c.last_seen >= since).order_by(NODES.c.node))
            return [dict(row) for row in rows.mappings()]

    def forget(self, node: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(NODES).where(NODES.c.node == node))


class _RedisBeats:
    """Heartbeats as Redis hashes that expire once the node stops writing them."""

    def __init__(self, url: str, prefix: str) -> None:
        self.client = redis_probe(url)
        self.prefix = f"{prefix}ops:node:"

    def write(self, row: dict[str, Any]) -> None:
        fields: dict[Any, str] = {
            "node": row["node"],
            "hostname": row["hostname"],
            "pid": str(row["pid"]),
            "version": row["version"],
            "started_at": row["started_at"].isoformat(),
            "last_seen": row["last_seen"].isoformat(),
            "info": json.dumps(row["info"]),
        }
        key = self.prefix + row["node"]
        pipe = self.client.pipeline()
        pipe.hset(key, mapping=fields)
        pipe.expire(key, NODE_SEEN_SECONDS)
        pipe.execute()

    def read(self, since: datetime) -> list[dict[str, Any]]:
        keys = sorted(self.client.scan_iter(match=self.prefix + "*", count=200))
        if not keys:
            return []
        pipe = self.client.pipeline()
        for key in keys:
            pipe.hgetall(key)
        out = []
        for raw in pipe.execute():
            if not raw:
                continue
            h = {k.decode(): v.decode() for k, v in raw.items()}
            last_seen = datetime.fromisoformat(h["last_seen"])
            if last_seen < since:
                continue
            out.append(
                {
                    "node": h["node"],
                    "hostname": h.get("hostname", ""),
                    "pid": int(h.get("pid", "0")),
                    "version": h.get("version", ""),
                    "started_at": datetime.fromisoformat(h["started_at"]),
                    "last_seen": last_seen,
                    "info": json.loads(h.get("info") or "{}"),
                }
            )
        return out

    def forget(self, node: str) -> None:
        self.client.delete(self.prefix + node)


class KernelOperations:
    """The kernel's `Operations`, and this process's heartbeat (started and stopped with the kernel)."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        settings = kernel.settings
        self.node = jobruns.node_name()
        self.hostname = socket.gethostname()
        self.pid = os.getpid()
        self.version = atrium_version()
        self.started_at = utcnow()
        self.beats: _DatabaseBeats | _RedisBeats = (
            _RedisBeats(settings.redis_url, settings.redis_prefix)
            if settings.redis_url
            else _DatabaseBeats(kernel.engine)
        )
        self._readiness: Readiness | None = None
        self._jobs: dict[str, ScheduledJob] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._beat_failing = False

    # -- heartbeat -----------------------------------------------------------

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._beat_loop, name="atrium-heartbeat", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=2)
        try:
            self.beats.forget(self.node)
        except Exception as exc:  # the database or Redis may already be gone: the row ages out
            log.debug("heartbeat not removed", error=str(exc))

    def _beat_loop(self) -> None:
        while not self._stop.is_set():
            self.beat()
            self._stop.wait(HEARTBEAT_SECONDS)

    def beat(self) -> bool:
        """Write this process's heartbeat; answers whether it was written (failures are logged once)."""
        try:
            load = [round(x, 2) for x in os.getloadavg()]
        except OSError:  # pragma: no cover - platforms without a load average
            load = []
        row = {
            "node": self.node,
            "hostname": self.hostname,
            "pid": self.pid,
            "version": self.version,
            "started_at": self.started_at,
            "last_seen": utcnow(),
            "info": {
                "load": load,
                "cpus": os.cpu_count() or 0,
                "scheduler": self.kernel.scheduler is not None,
                "tasks": self.kernel.tasks.mode,
                "python": platform.python_version(),
            },
        }
        try:
            self.beats.write(row)
        except Exception as exc:
            if not self._beat_failing:
                log.warning("heartbeat not written", error=f"{type(exc).__name__}: {exc}")
            self._beat_failing = True
            return False
        if self._beat_failing:
            log.info("heartbeat written again")
        self._beat_failing = False
        return True

    # -- Operations ------------------------------------------------------------

    def nodes(self) -> list[dict[str, Any]]:
        now = utcnow()
        since = now - timedelta(seconds=NODE_SEEN_SECONDS)
        rows = self.beats.read(since)
        if not any(r["node"] == self.node for r in rows) and self.beat():
            rows = self.beats.read(since)
        out = []
        for r in rows:
            info = r.get("info") or {}
            out.append(
                {
                    "node": r["node"],
                    "hostname": r["hostname"],
                    "pid": r["pid"],
                    "version": r["version"],
                    "startedAt": iso(r["started_at"]),
                    "uptimeSeconds": max(0, int((now - r["started_at"]).total_seconds())),
                    "lastSeen": iso(r["last_seen"]),
                    "lastSeenSeconds": max(0, int((now - r["last_seen"]).total_seconds())),
                    "load": info.get("load") or [],
                    "cpus": info.get("cpus") or 0,
                    "scheduler": bool(info.get("scheduler")),
                    "tasks": info.get("tasks") or "",
                    "python": info.get("python") or "",
                    "current": r["node"] == self.node,
                }
            )
        out.sort(key=lambda n: (not n["current"], n["node"]))
        return out

    def readiness(self) -> list[dict[str, Any]]:
        if self._readiness is None:
            self._readiness = Readiness(self.kernel)
        checks = self._readiness.checks()
        results: list[dict[str, Any]] = []
        pool = ThreadPoolExecutor(max_workers=max(1, len(checks)), thread_name_prefix="atrium-ops-check")
        try:
            started = {
                name: (time.monotonic(), pool.submit(check))
                for name, check in checks.items()
                if check is not None
            }
            for name, check in checks.items():
                if check is None:
                    results.append({"name": name, "state": "skipped", "error": "", "ms": None})
                    continue
                began, future = started[name]
                left = max(0.0, CHECK_TIMEOUT_SECONDS - (time.monotonic() - began))
                try:
                    future.result(timeout=left)
                    state, error = "ok", ""
                except FutureTimeout:
                    state, error = "failing", f"no answer within {CHECK_TIMEOUT_SECONDS:g} s"
                except NotReady as exc:
                    state, error = "failing", str(exc)
                except Exception as exc:
                    state, error = "failing", f"{type(exc).__name__}: {exc}"[:500]
                ms = round((time.monotonic() - began) * 1000)
                results.append({"name": name, "state": state, "error": error, "ms": ms})
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
        return results

    def queues(self) -> dict[str, Any]:
        tasks = self.kernel.tasks
        out: dict[str, Any] = {"mode": tasks.mode, "name": getattr(getattr(tasks, "queue", None), "name", "")}
        try:
            out.update(tasks.counts())
            out["error"] = ""
        except redis.RedisError as exc:
            out.update({"queued": None, "running": None, "failed": None, "workers": None})
            out["error"] = f"{type(exc).__name__}: {exc}"[:500]
        return out

    def storage(self) -> dict[str, Any]:
        store: Any = self.kernel.storage
        kind = str(getattr(store, "kind", "local"))
        location = getattr(store, "location", None)
        began = time.monotonic()
        ready = bool(store.ready())
        return {
            "kind": kind,
            "bucket": getattr(store, "bucket", "") if kind == "s3" else "",
            "prefix": getattr(location, "prefix", "") if location is not None else "",
            "endpoint": (getattr(location, "endpoint", None) or "") if location is not None else "",
            "folder": str(getattr(store, "root", "")) if kind == "local" else "",
            "reachable": ready,
            "ms": round((time.monotonic() - began) * 1000),
        }

    def catalogue(self) -> dict[str, ScheduledJob]:
        """The platform's scheduled jobs by id, as the scheduler registers them (read once)."""
        if self._jobs is None:
            from atrium.kernel.scheduler import HOUSEKEEPING_ID

            found: dict[str, ScheduledJob] = {}
            for plugin, specs in self.kernel.plugins.call("atrium_scheduled_jobs").items():
                for spec in specs or []:
                    job_id = f"{plugin}:{spec.id}"
                    found[job_id] = ScheduledJob(job_id, plugin, spec)
            housekeeping = partial(jobruns.housekeep, self.kernel.engine)
            found[HOUSEKEEPING_ID] = ScheduledJob(
                HOUSEKEEPING_ID,
                "kernel",
                JobSpec(id=HOUSEKEEPING_ID, func=housekeeping, trigger_args={"hours": 1}),
            )
            self._jobs = found
        return self._jobs

    def _job(self, job_id: str) -> ScheduledJob:
        job = self.catalogue().get(job_id)
        if job is None:
            raise LookupError(job_id)
        return job

    def jobs(self) -> dict[str, Any]:
        sched = self.kernel.scheduler
        with self.kernel.engine.connect() as conn:
            last = jobruns.last_runs(conn)
            states = jobruns.job_states(conn)
        out = []
        for job in sorted(self.catalogue().values(), key=lambda j: j.id):
            text, seconds = _trigger(job.spec)
            scheduled = sched.get_job(job.id) if sched is not None else None
            paused, changed_at, changed_by = states.get(job.id, (False, utcnow(), ""))
            run = last.get(job.id)
            out.append(
                {
                    "id": job.id,
                    "plugin": job.plugin,
                    "trigger": job.spec.trigger,
                    "triggerText": text,
                    "intervalSeconds": seconds,
                    "nextRunAt": iso(getattr(scheduled, "next_run_time", None)),
                    "paused": paused,
                    "pausedAt": iso(changed_at) if paused else None,
                    "pausedBy": changed_by if paused else "",
                    "lastRun": None
                    if run is None
                    else {
                        "outcome": run.outcome,
                        "node": run.node,
                        "startedAt": iso(run.started_at),
                        "endedAt": iso(run.ended_at),
                        "durationMs": run.duration_ms,
                        "error": run.error,
                        "manual": is_manual(run.slot),
                    },
                }
            )
        return {"node": self.node, "scheduler": sched is not None, "jobs": out}

    def run_job(self, job_id: str) -> dict[str, Any]:
        self._job(job_id)
        slot = manual_slot()
        task_id = self.kernel.tasks.submit(run_now, job_id, slot.isoformat())
        log.info("scheduled job run by an operator", job=job_id, task=task_id)
        return {"jobId": job_id, "taskId": task_id, "slot": iso(slot)}

    def execute(self, job_id: str, slot: datetime) -> str:
        """Run a job for an operator's slot, where the claim of that slot lands; answers the outcome."""
        job = self._job(job_id)
        engine = self.kernel.engine
        if not jobruns.claim(engine, job_id, slot):
            return "skipped"
        began = time.monotonic()
        error: str | None = None
        try:
            with self.kernel.db():
                job.spec.func()
        except Exception as exc:
            log.exception("scheduled job failed (run by an operator)", job=job_id)
            error = f"{type(exc).__name__}: {exc}"
        record_job_outcome(job_id, "failed" if error else "ok")
        jobruns.finish(
            engine, job_id, slot, error=error, duration_ms=round((time.monotonic() - began) * 1000)
        )
        return "failed" if error else "ok"

    def _set_paused(self, job_id: str, paused: bool, by: str) -> dict[str, Any]:
        self._job(job_id)
        values = {"paused": paused, "changed_at": utcnow(), "changed_by": by[:64]}
        with self.kernel.engine.begin() as conn:
            insert = _INSERTS[conn.dialect.name]
            stmt = insert(STATES).values(job_id=job_id, **values)
            conn.execute(stmt.on_conflict_do_update(index_elements=["job_id"], set_=values))
        log.info("scheduled job paused" if paused else "scheduled job resumed", job=job_id, by=by)
        return {"jobId": job_id, "paused": paused}

    def pause_job(self, job_id: str, by: str = "") -> dict[str, Any]:
        return self._set_paused(job_id, True, by)

    def resume_job(self, job_id: str, by: str = "") -> dict[str, Any]:
        return self._set_paused(job_id, False, by)

    def tasks(self, state: str | None = None) -> list[dict[str, Any]]:
        return [
            {
                "id": r.id,
                "func": r.func,
                "state": r.state,
                "enqueuedAt": iso(r.enqueued_at),
                "startedAt": iso(r.started_at),
                "endedAt": iso(r.ended_at),
                "error": r.error,
            }
            for r in self.kernel.tasks.recent(state)
        ]

    def retry_task(self, task_id: str) -> dict[str, Any]:
        new_id = self.kernel.tasks.retry(task_id)
        return {"taskId": new_id, "retriedFrom": task_id}
