"""Background work: a pool of threads in the server process, or an RQ queue in Redis.

A task is a module-level function and arguments that pickle (ids, not objects): the queue stores the
function's import path, and whichever process takes the job imports it there. Both runners run the
task with the platform's services bound, so `services()` inside it answers the platform that asked.
"""

from __future__ import annotations

import contextvars
import importlib
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import redis
import structlog
from rq import Queue, SimpleWorker
from rq.timeouts import TimerDeathPenalty

from atrium.sdk.services import Services, bind, unbind

log = structlog.get_logger("atrium.tasks")


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


def _run_bound(services: Services, func: Callable[..., Any], args: tuple[Any, ...],
               kwargs: dict[str, Any]) -> Any:
    token = bind(services)
    try:
        return func(*args, **kwargs)
    except Exception:
        log.exception("background task failed", func=getattr(func, "__qualname__", str(func)))
        raise
    finally:
        unbind(token)


class ThreadTaskRunner:
    """The embedded default: tasks run in this process's threads and end with it."""

    def __init__(self, services: Services, workers: int = 4) -> None:
        self.services = services
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="atrium-task")
        self.futures: dict[str, Future[Any]] = {}

    def submit(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
        check_task(func)
        task_id = uuid.uuid4().hex
        ctx = contextvars.Context()
        fut = self.pool.submit(ctx.run, _run_bound, self.services, func, args, kwargs)
        self.futures[task_id] = fut
        fut.add_done_callback(lambda _f: self.futures.pop(task_id, None))
        return task_id

    def start(self) -> None:
        """Nothing to start: the pool makes its threads on demand."""

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


class _ThreadWorker(SimpleWorker):
    """An RQ worker in a thread of a server process: no signal handlers (only the main thread may set
    them) and job time limits by timer instead of SIGALRM."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self) -> None:
        return None


class QueueTaskRunner:
    """Tasks in an RQ queue in Redis: they outlive the process that asked, and any server process's
    worker threads or an `atrium worker` process take them."""

    #: How long a blocked worker waits for a job before checking whether it should stop (seconds).
    POLL_SECONDS = 5

    def __init__(self, services: Services, redis_url: str, queue_name: str, threads: int = 2,
                 job_timeout: int = 3600) -> None:
        self.services = services
        self.connection = redis.Redis.from_url(redis_url)
        self.queue = Queue(queue_name, connection=self.connection)
        self.threads = threads
        self.job_timeout = job_timeout
        self._workers: list[SimpleWorker] = []

    def submit(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
        check_task(func)
        job = self.queue.enqueue(
            func, args=args, kwargs=kwargs, job_timeout=self.job_timeout,
            result_ttl=3600, failure_ttl=7 * 24 * 3600,
        )
        return str(job.id)

    def _worker(self, cls: type[SimpleWorker]) -> SimpleWorker:
        return cls([self.queue], connection=self.connection, worker_ttl=self.POLL_SECONDS + 15)

    def start(self) -> None:
        """Start this process's worker threads (none when `task_threads` is 0)."""
        for n in range(self.threads):
            worker = self._worker(_ThreadWorker)
            self._workers.append(worker)
            threading.Thread(
                target=self._work_in_thread, args=(worker,), name=f"atrium-rq-{n}", daemon=True
            ).start()

    def _work_in_thread(self, worker: SimpleWorker) -> None:
        token = bind(self.services)
        try:
            worker.work(logging_level="WARNING")
        except Exception:
            log.exception("task worker stopped", worker=worker.name)
        finally:
            unbind(token)

    def work(self, burst: bool = False) -> bool:
        """Run a worker in the calling (main) thread until stopped by a signal, or the queue is empty
        with `burst`; True when it ran any job. Jobs run in this process (no fork per job), so the
        platform it started (database pool, plugins) serves every one."""
        return bool(self._worker(SimpleWorker).work(burst=burst, logging_level="INFO"))

    def shutdown(self) -> None:
        for worker in self._workers:
            worker._stop_requested = True
        self._workers.clear()
