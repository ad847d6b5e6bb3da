"""Background work in the server process's own pool of threads."""

from __future__ import annotations

import contextvars
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import structlog

log = structlog.get_logger("atrium.tasks")


class ThreadTaskRunner:
    def __init__(self, workers: int = 4) -> None:
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="atrium-task")
        self.futures: dict[str, Future[Any]] = {}

    def submit(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
        task_id = uuid.uuid4().hex
        ctx = contextvars.Context()
        fut = self.pool.submit(ctx.run, self._run, func, args, kwargs)
        self.futures[task_id] = fut
        fut.add_done_callback(lambda _f: self.futures.pop(task_id, None))
        return task_id

    @staticmethod
    def _run(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        try:
            return func(*args, **kwargs)
        except Exception:
            log.exception("background task failed", func=getattr(func, "__qualname__", str(func)))
            raise

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
