"""One run of a piece of work for every caller that asks for the same key while it runs.

A value kept in a cache is asked for by many requests at once exactly when it is missing: a page's parallel
first calls, every open connection after a restart, all of them again when the entry expires. Each would
otherwise load it itself (a database round trip on a worker thread apiece, and threads started for them on
the event loop); with `Flight` the first caller loads it and the rest wait for that answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from functools import partial
from typing import Any, Generic, TypeVar

from starlette.concurrency import run_in_threadpool

V = TypeVar("V")


class Flight(Generic[V]):
    """Shared runs of async work by key, on the running event loop.

    The work runs as a task of its own, so a caller that goes away (a closed connection) does not cancel it
    for the others; its error reaches every caller still waiting."""

    def __init__(self) -> None:
        self._running: dict[Hashable, asyncio.Task[V]] = {}

    async def run(self, key: Hashable, work: Callable[[], Awaitable[V]]) -> V:
        loop = asyncio.get_running_loop()
        task = self._running.get(key)
        if task is None or task.get_loop() is not loop:
            task = loop.create_task(_awaited(work))
            self._running[key] = task
            task.add_done_callback(partial(self._forget, key))
        return await asyncio.shield(task)

    async def in_thread(self, key: Hashable, fn: Callable[..., V], *args: Any) -> V:
        """`fn(*args)` on a worker thread, once for all callers of `key` meanwhile."""
        return await self.run(key, partial(run_in_threadpool, fn, *args))

    def _forget(self, key: Hashable, done: asyncio.Task[V]) -> None:
        if self._running.get(key) is done:
            del self._running[key]
        if not done.cancelled():
            done.exception()  # retrieved here as well: every caller may have gone before it ended


async def _awaited(work: Callable[[], Awaitable[V]]) -> V:
    return await work()
