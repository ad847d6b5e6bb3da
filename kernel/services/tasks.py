"""Background work: a pool of threads in the server process, or an RQ queue in Redis.

A task is a module-level function and arguments that pickle (ids, not objects): the queue stores the
function's import path, and whichever process takes the job imports it there. Both runners run the
task with the platform's services bound, so `services()` inside it answers the platform that asked.

With the queue a running job holds a lease of `lease_seconds`, renewed while it runs. A job whose
worker died (`kill -9`, a lost machine) stops renewing it; once it has expired, the next idle worker puts
the job back in the queue (at most `MAX_REQUEUES` times, then it fails as abandoned), so it is never left
"started" for the job time limit. A worker asked to stop (SIGTERM, or the server shutting down) takes no
new job, lets the running one finish within `grace_seconds`, and otherwise interrupts it with
`TaskInterrupted` and hands it back to the queue. A worker that lost Redis waits for it and goes on.

A task queued during a request runs with the request's id bound for logging: its lines name that request.
"""

from __future__ import annotations

import contextvars
import ctypes
import importlib
import signal
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import redis
import structlog
from rq import Queue, SimpleWorker, Worker
from rq.exceptions import InvalidJobOperation, NoSuchJobError, StopRequested
from rq.job import Job, JobStatus
from rq.timeouts import TimerDeathPenalty
from rq.utils import current_timestamp

from atrium.sdk.context import current_context
from atrium.sdk.services import Services, TaskInterrupted, bind, unbind

log = structlog.get_logger("atrium.tasks")

#: how often a job whose worker died runs again before it counts as failed (abandoned)
MAX_REQUEUES = 2
REQUEUES = "atrium_requeues"
#: the job's meta entry with the id of the request that queued it
REQUEST_ID = "atrium_request_id"
#: how many tasks the in-process runner remembers for the operators' screen (the oldest ended go first)
TASK_RECORDS = 200
#: how much of a failed task's error a record keeps
ERROR_CHARS = 2000
#: the states a task's record reads as
TASK_STATES = ("queued", "running", "done", "failed")


def check_task(func: Callable[..., Any]) -> None:
    """Refuse what another process could not import: lambdas, nested functions, bound methods."""
    name = getattr(func, "__qualname__", "")
    module = getattr(func, "__module__", None)
    found: Any = None
    if module and name and "<" not in name:
        try:
            found = importlib.import_module(module)
            for part in name.split("."):
                found = getattr(found, part)
        except (ImportError, AttributeError):
            found = None
    if found is not func:
        raise TypeError(
            f"a background task must be a module-level function, not {func!r}: "
            "the process that runs it imports it by name"
        )


def _run_bound(
    services: Services,
    func: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    request_id: str = "",
) -> Any:
    token = bind(services)
    if request_id:  # the task runs in a context of its own: the binding ends with it
        structlog.contextvars.bind_contextvars(request_id=request_id)
    try:
        return func(*args, **kwargs)
    except Exception:
        log.exception("background task failed", func=getattr(func, "__qualname__", str(func)))
        raise
    finally:
        unbind(token)


def _func_name(func: Callable[..., Any]) -> str:
    return f"{getattr(func, '__module__', '')}.{getattr(func, '__qualname__', func)}"


def _error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:ERROR_CHARS]


@dataclass
class TaskRecord:
    """What the operators' screen shows of one background task."""

    id: str
    func: str
    state: str
    enqueued_at: datetime | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    error: str = ""
    #: the call itself, kept by the in-process runner so a failed task can be run again
    call: tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]] | None = field(default=None, repr=False)


class TaskRecords:
    """A bounded, thread-safe memory of the in-process runner's recent tasks."""

    def __init__(self, limit: int = TASK_RECORDS) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._records: OrderedDict[str, TaskRecord] = OrderedDict()

    def add(
        self, task_id: str, func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> None:
        record = TaskRecord(task_id, _func_name(func), "queued", datetime.now(UTC), call=(func, args, kwargs))
        with self._lock:
            self._records[task_id] = record
            while len(self._records) > self.limit:
                ended = next((k for k, r in self._records.items() if r.state in ("done", "failed")), None)
                self._records.pop(ended if ended is not None else next(iter(self._records)))

    def started(self, task_id: str) -> None:
        with self._lock:
            record = self._records.get(task_id)
            if record is not None:
                record.state, record.started_at = "running", datetime.now(UTC)

    def ended(self, task_id: str, error: BaseException | None) -> None:
        with self._lock:
            record = self._records.get(task_id)
            if record is None:
                return
            record.ended_at = datetime.now(UTC)
            if error is None:
                record.state, record.call = "done", None  # nothing to run again: let the arguments go
            else:
                record.state, record.error = "failed", _error_text(error)

    def get(self, task_id: str) -> TaskRecord | None:
        with self._lock:
            return self._records.get(task_id)

    def recent(self, state: str | None = None, limit: int = 100) -> list[TaskRecord]:
        """The latest records, newest first; of one state when `state` is given."""
        with self._lock:
            records = list(reversed(self._records.values()))
        return [r for r in records if state is None or r.state == state][:limit]

    def counts(self) -> dict[str, int]:
        with self._lock:
            states = [r.state for r in self._records.values()]
        return {state: states.count(state) for state in TASK_STATES}


def _run_recorded(
    records: TaskRecords,
    task_id: str,
    services: Services,
    func: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    request_id: str = "",
) -> Any:
    records.started(task_id)
    try:
        result = _run_bound(services, func, args, kwargs, request_id)
    except BaseException as exc:
        records.ended(task_id, exc)
        raise
    records.ended(task_id, None)
    return result


class ThreadTaskRunner:
    """The embedded default: tasks run in this process's threads and end with it."""

    mode = "in-process"

    def __init__(self, services: Services, workers: int = 4) -> None:
        self.services = services
        self.workers = workers
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="atrium-task")
        self.futures: dict[str, Future[Any]] = {}
        self.records = TaskRecords()

    def submit(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
        check_task(func)
        task_id = uuid.uuid4().hex
        ctx = contextvars.Context()
        request_id = current_context().request_id
        self.records.add(task_id, func, args, kwargs)
        fut = self.pool.submit(
            ctx.run, _run_recorded, self.records, task_id, self.services, func, args, kwargs, request_id
        )
        self.futures[task_id] = fut
        fut.add_done_callback(lambda _f: self.futures.pop(task_id, None))
        return task_id

    def start(self) -> None:
        """Nothing to start: the pool makes its threads on demand."""

    def counts(self) -> dict[str, int]:
        """Tasks waiting, running and failed among the remembered ones, and this process's threads."""
        counts = self.records.counts()
        return {
            "queued": counts["queued"],
            "running": counts["running"],
            "failed": counts["failed"],
            "workers": self.workers,
        }

    def recent(self, state: str | None = None, limit: int = 100) -> list[TaskRecord]:
        return self.records.recent(state, limit)

    def retry(self, task_id: str) -> str:
        """Run a failed task again (a new task); LookupError when it is unknown or forgotten, ValueError when
        it did not fail."""
        record = self.records.get(task_id)
        if record is None:
            raise LookupError(task_id)
        if record.state != "failed" or record.call is None:
            raise ValueError(f"task {task_id} is {record.state}, not failed")
        func, args, kwargs = record.call
        return self.submit(func, *args, **kwargs)

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def requeue_abandoned(queue: Queue, max_requeues: int = MAX_REQUEUES) -> list[str]:
    """Put back in the queue the started jobs whose lease expired (their worker died); answers their ids.
    A job already requeued `max_requeues` times is left to RQ's clean-up, which fails it as abandoned."""
    registry = queue.started_job_registry
    connection = queue.connection
    requeued: list[str] = []
    entries: list[bytes] = connection.zrangebyscore(registry.key, 0, current_timestamp())  # type: ignore[assignment]
    for entry in entries:
        job = queue.fetch_job(registry.parse_job_id(entry.decode()))
        if job is None or job.get_status(refresh=True) != JobStatus.STARTED:
            continue
        count = int(job.meta.get(REQUEUES, 0))
        if count >= max_requeues or not connection.zrem(registry.key, entry):
            continue  # failed by RQ's clean-up, or another worker took it first
        job.meta[REQUEUES] = count + 1
        job.save_meta()  # type: ignore[no-untyped-call]
        queue.enqueue_job(job, at_front=True)
        requeued.append(job.id)
        log.warning("abandoned task requeued", job=job.id, func=job.func_name, requeues=count + 1)
    return requeued


class _LeasedWorker(SimpleWorker):
    """Runs jobs in the calling thread under a renewed lease; hands the running job back when stopped."""

    def __init__(self, queues: list[Queue], *, lease_seconds: int, grace_seconds: float, **kw: Any) -> None:
        super().__init__(queues, maintenance_interval=lease_seconds, **kw)
        self.lease_seconds = lease_seconds
        self.grace_seconds = grace_seconds
        self.stopping = threading.Event()
        self.idle = threading.Event()
        self.idle.set()
        self._running: Job | None = None
        self._job_thread = 0
        self._handing_back = ""

    def get_heartbeat_ttl(self, job: Job, working_time: float = 0.0) -> int:
        return self.lease_seconds

    def clean_registries(self) -> None:
        for queue in self.queues:
            requeue_abandoned(queue)
        super().clean_registries()  # type: ignore[no-untyped-call]

    def execute_job(self, job: Job, queue: Queue) -> None:
        renewing = threading.Event()
        self._running, self._job_thread = job, threading.get_ident()
        self.idle.clear()
        renewer = threading.Thread(target=self._renew, args=(job, renewing), name="atrium-task-lease")
        renewer.daemon = True
        renewer.start()
        request_id = job.meta.get(REQUEST_ID)
        bound = {"request_id": request_id} if request_id else {}
        try:
            with structlog.contextvars.bound_contextvars(**bound):
                super().execute_job(job, queue)
        finally:
            renewing.set()
            self._running = None
            handed, self._handing_back = self._handing_back == job.id, ""
            if handed:
                self._hand_back(job, queue)
            self.idle.set()

    def _renew(self, job: Job, done: threading.Event) -> None:
        while not done.wait(self.lease_seconds / 3):
            execution = self.execution
            if execution is None:
                continue
            try:
                self.maintain_heartbeats(job, execution)
            except redis.RedisError as exc:
                log.warning("task lease not renewed", job=job.id, error=str(exc))

    def _hand_back(self, job: Job, queue: Queue) -> None:
        try:
            queue.failed_job_registry.requeue(job, at_front=True)
        except InvalidJobOperation:
            return  # it ended before the interruption reached it
        except redis.RedisError:
            log.exception("task not handed back (its lease will expire and requeue it)", job=job.id)
            return
        log.info("task handed back to the queue", job=job.id, func=job.func_name)

    def interrupt(self) -> None:
        """Raise `TaskInterrupted` in the thread running the job (delivered at its next Python step)."""
        job = self._running
        if job is None or self._handing_back:
            return
        self._handing_back = job.id
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_long(self._job_thread), ctypes.py_object(TaskInterrupted)
        )


class _ThreadWorker(_LeasedWorker):
    """A worker in a thread of a server process: no signal handlers (only the main thread may set
    them) and job time limits by timer instead of SIGALRM."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self) -> None:
        return None


class _MainWorker(_LeasedWorker):
    """`atrium worker`: SIGTERM or SIGINT stops it after the running task (interrupted and handed back
    once the grace period is over); a second signal hands the task back at once."""

    def _install_signal_handlers(self) -> None:
        signal.signal(signal.SIGTERM, self._on_stop_signal)
        signal.signal(signal.SIGINT, self._on_stop_signal)

    def _on_stop_signal(self, signum: int, _frame: Any) -> None:
        again = self.stopping.is_set()
        self.stopping.set()
        self._stop_requested = True
        job = self._running
        if job is None:
            raise StopRequested()
        log.info("stopping: the running task gets its grace period", job=job.id, seconds=self.grace_seconds)
        if again or self.grace_seconds <= 0:
            self.interrupt()
            return
        timer = threading.Timer(self.grace_seconds, self._interrupt_if_running, args=(job.id,))
        timer.daemon = True
        timer.start()

    def _interrupt_if_running(self, job_id: str) -> None:
        if self._running is not None and self._running.id == job_id:
            self.interrupt()


def _job_record(job: Job, state: str) -> TaskRecord:
    error = ""
    if state == "failed":
        result = job.latest_result()
        error = ((result.exc_string if result is not None else None) or job.exc_info or "").strip()
        error = error.splitlines()[-1][:ERROR_CHARS] if error else ""

    def aware(value: datetime | None) -> datetime | None:
        return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value

    return TaskRecord(
        id=str(job.id),
        func=str(job.func_name),
        state=state,
        enqueued_at=aware(job.enqueued_at),
        started_at=aware(job.started_at),
        ended_at=aware(job.ended_at),
        error=error,
    )


class QueueTaskRunner:
    """Tasks in an RQ queue in Redis: they outlive the process that asked, and any server process's
    worker threads or an `atrium worker` process take them."""

    mode = "redis"

    #: How long a blocked worker waits for a job before checking whether it should stop (seconds).
    POLL_SECONDS = 5
    #: The longest pause before a worker that lost Redis tries again (seconds).
    MAX_RETRY_SECONDS = 10.0

    def __init__(
        self,
        services: Services,
        redis_url: str,
        queue_name: str,
        threads: int = 2,
        job_timeout: int = 3600,
        lease_seconds: int = 30,
        grace_seconds: float = 10.0,
    ) -> None:
        self.services = services
        self.connection = redis.Redis.from_url(redis_url)
        self.queue = Queue(queue_name, connection=self.connection)
        self.threads = threads
        self.job_timeout = job_timeout
        self.lease_seconds = lease_seconds
        self.grace_seconds = grace_seconds
        self._workers: list[_LeasedWorker] = []
        self._stopping = threading.Event()

    def submit(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
        check_task(func)
        request_id = current_context().request_id
        job = self.queue.enqueue(
            func,
            args=args,
            kwargs=kwargs,
            job_timeout=self.job_timeout,
            result_ttl=3600,
            failure_ttl=7 * 24 * 3600,
            meta={REQUEST_ID: request_id} if request_id else None,
        )
        return str(job.id)

    def counts(self) -> dict[str, int]:
        """The queue's depth, the jobs running, the failed ones kept, and the workers serving the queue."""
        return {
            "queued": self.queue.count,
            "running": self.queue.started_job_registry.count,
            "failed": self.queue.failed_job_registry.count,
            "workers": Worker.count(connection=self.connection, queue=self.queue),
        }

    def recent(self, state: str | None = None, limit: int = 100) -> list[TaskRecord]:
        """Jobs waiting, running or failed (read from the queue and its registries), newest first."""
        found: list[TaskRecord] = []
        sources: dict[str, Callable[[], list[str]]] = {
            "running": lambda: self.queue.started_job_registry.get_job_ids(0, limit - 1, desc=True),
            "queued": lambda: list(reversed(self.queue.get_job_ids(0, limit)))[:limit],
            "failed": lambda: self.queue.failed_job_registry.get_job_ids(0, limit - 1, desc=True),
        }
        for name, ids in sources.items():
            if state is not None and state != name:
                continue
            jobs = Job.fetch_many(ids(), connection=self.connection)
            found += [_job_record(job, name) for job in jobs if job is not None]
        epoch = datetime.min.replace(tzinfo=UTC)
        found.sort(key=lambda r: r.ended_at or r.started_at or r.enqueued_at or epoch, reverse=True)
        return found[:limit]

    def retry(self, task_id: str) -> str:
        """Put a failed job back in the queue; LookupError when it is unknown, ValueError when it did not
        fail."""
        try:
            job = Job.fetch(task_id, connection=self.connection)
        except NoSuchJobError:
            raise LookupError(task_id) from None
        if task_id not in self.queue.failed_job_registry:
            raise ValueError(f"task {task_id} is {job.get_status()}, not failed")
        self.queue.failed_job_registry.requeue(job)
        return str(job.id)

    def _worker(self, cls: type[_LeasedWorker]) -> _LeasedWorker:
        return cls(
            [self.queue],
            connection=self.connection,
            worker_ttl=self.POLL_SECONDS + 15,
            lease_seconds=self.lease_seconds,
            grace_seconds=self.grace_seconds,
        )

    def start(self) -> None:
        """Start this process's worker threads (none when `task_threads` is 0)."""
        self._stopping.clear()
        for n in range(self.threads):
            threading.Thread(target=self._work_in_thread, name=f"atrium-rq-{n}", daemon=True).start()

    def _work_in_thread(self) -> None:
        token = bind(self.services)
        try:
            self._keep_working(_ThreadWorker, "WARNING")
        finally:
            unbind(token)

    def _keep_working(self, cls: type[_LeasedWorker], level: str, burst: bool = False) -> bool:
        """Run workers until asked to stop: a worker that quit on a lost Redis is replaced once it is back."""
        worked, pause = False, 1.0
        while not self._stopping.is_set():
            began, asked = time.monotonic(), False
            try:
                worker = self._worker(cls)
                self._workers.append(worker)
                try:
                    worked = bool(worker.work(burst=burst, logging_level=level)) or worked
                finally:
                    self._workers.remove(worker)
                    asked = worker.stopping.is_set()
            except StopRequested:
                break
            except redis.RedisError as exc:
                log.warning("task worker lost Redis", error=str(exc))
            except Exception:
                log.exception("task worker stopped")
            if burst or asked:
                break
            pause = 1.0 if time.monotonic() - began > 60 else min(pause * 2, self.MAX_RETRY_SECONDS)
            try:
                self._stopping.wait(pause)
            except StopRequested:
                break
        return worked

    def work(self, burst: bool = False) -> bool:
        """Run a worker in the calling (main) thread until stopped by a signal, or the queue is empty
        with `burst`; True when it ran any job. Jobs run in this process (no fork per job), so the
        platform it started (database pool, plugins) serves every one."""
        return self._keep_working(_MainWorker, "INFO", burst)

    def shutdown(self) -> None:
        """Stop this process's workers: running tasks get the grace period, then go back to the queue."""
        self._stopping.set()
        workers = list(self._workers)
        for worker in workers:
            worker.stopping.set()
            worker._stop_requested = True
        deadline = time.monotonic() + self.grace_seconds
        for worker in workers:
            if not worker.idle.wait(max(0.0, deadline - time.monotonic())):
                worker.interrupt()
        for worker in workers:
            worker.idle.wait(10)
