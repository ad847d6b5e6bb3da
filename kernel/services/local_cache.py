"""In-process caches for the hot paths, dropped in every process through the pub/sub.

A namespace kept from some tables can be dropped by the writes themselves (`drop_on_writes`): every
statement passes the engine, so no writer has to remember to drop it.

A process whose pub/sub subscription was lost may have missed drops: it empties its caches when the
subscription is back (`RESUMED`), so nothing stale outlives a Redis outage.

Every `get` counts as a hit or a miss of its namespace for `/metrics` (cache `local.<namespace>`).
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from sqlalchemy import Engine, event
from starlette.concurrency import run_in_threadpool

from atrium.kernel.metrics import count_cache
from atrium.kernel.services.pubsub import RESUMED
from atrium.sdk.flight import Flight
from atrium.sdk.services import PubSub

CHANNEL = "kernel.invalidate"
#: the namespaces a connection's transaction wrote to, kept on its pool record until it is returned
_WRITTEN = "atrium_local_cache_written"


def _written_table(context: Any) -> str | None:
    """The table an INSERT, UPDATE or DELETE statement writes to (None for any other statement)."""
    compiled = getattr(context, "compiled", None)
    if compiled is None or not (context.isinsert or context.isupdate or context.isdelete):
        return None
    return getattr(getattr(compiled.statement, "table", None), "name", None)


class LocalCache:
    """A bounded in-process map per namespace; `invalidate` reaches every server process.

    Every drop is stamped with a tick, for its key or its whole namespace; `generation(space, key)` is the
    tick of the last drop that reached that key. A value read from the database is kept with
    `put(..., since=generation)` only if nothing dropped its key while it was being read, so a read that
    raced a change cannot put the old value back, while drops of other keys leave it alone."""

    def __init__(self, pubsub: PubSub, max_items: int = 50_000) -> None:
        self._spaces: dict[str, OrderedDict[Any, Any]] = {}
        self._tick = 0
        self._key_drops: OrderedDict[tuple[str, Any], int] = OrderedDict()
        self._space_drops: dict[str, int] = {}
        #: the tick of the last clear, or of the newest key drop no longer remembered (conservatively, every
        #: key counts as dropped then)
        self._floor = 0
        self._fills: Flight[Any] = Flight()
        self._lock = threading.Lock()
        self._max = max_items
        self._pubsub = pubsub
        #: names this process in its drops, so it does not drop again (a value kept since) when its own
        #: message comes back
        self._origin = secrets.token_hex(8)
        pubsub.subscribe(CHANNEL, self._on_invalidate)
        pubsub.subscribe(RESUMED, self._on_resumed)

    def get(self, space: str, key: Any) -> Any:
        """The kept value, or None (a miss: the caller builds it, then `put`s or `fill`s)."""
        d = self._spaces.get(space)
        value = None if d is None else d.get(key)
        count_cache(f"local.{space}", value is not None)
        return value

    def generation(self, space: str, key: Any) -> int:
        return max(self._key_drops.get((space, key), 0), self._space_drops.get(space, 0), self._floor)

    def put(self, space: str, key: Any, value: Any, since: int | None = None) -> None:
        with self._lock:
            if since is not None and since != self.generation(space, key):
                return
            d = self._spaces.setdefault(space, OrderedDict())
            d[key] = value
            if len(d) > self._max:
                d.popitem(last=False)

    def keep(self, space: str, key: Any, read: Callable[[], Any]) -> Any:
        """The kept value, else `read()`'s answer, kept unless the key was dropped while it was read."""
        found = self.get(space, key)
        if found is None:
            since = self.generation(space, key)
            found = read()
            self.put(space, key, found, since)
        return found

    async def fill(self, space: str, key: Any, build: Callable[[], Any]) -> Any:
        """After a miss: `build()` on a worker thread, once for every request that misses the key meanwhile,
        its answer kept (unless None) only if the key was not dropped while it ran. A request that comes after
        such a drop never joins a build begun before it."""
        since = self.generation(space, key)
        keep = partial(self._build_and_keep, space, key, build, since)
        return await self._fills.run((space, key, since), keep)

    async def _build_and_keep(self, space: str, key: Any, build: Callable[[], Any], since: int) -> Any:
        value = await run_in_threadpool(build)
        if value is not None:
            self.put(space, key, value, since=since)
        return value

    def drop(self, space: str, key: Any = None) -> None:
        with self._lock:
            self._tick += 1
            if key is None:
                self._space_drops[space] = self._tick
                self._spaces.pop(space, None)
                return
            self._key_drops[(space, key)] = self._tick
            self._key_drops.move_to_end((space, key))
            if len(self._key_drops) > self._max:
                self._floor = max(self._floor, self._key_drops.popitem(last=False)[1])
            d = self._spaces.get(space)
            if d is not None:
                d.pop(key, None)

    def invalidate(self, space: str, key: Any = None) -> None:
        """Drop here at once, and in every other process when the pub/sub message arrives."""
        self.drop(space, key)
        self._pubsub.publish(CHANNEL, {"space": space, "key": key, "from": self._origin})

    def invalidate_on_commit(self, db: Any, space: str, key: Any = None) -> None:
        """Drop now and again once the session commits, so no process caches the old row in between."""
        self.invalidate(space, key)
        event.listen(db, "after_commit", lambda _s: self.invalidate(space, key), once=True)

    def drop_on_writes(self, engine: Engine, spaces: dict[str, Iterable[str]]) -> None:
        """Drop each namespace in every process after a transaction that wrote to one of its tables: at the
        write (nothing read meanwhile in this process is kept) and again when the connection goes back to
        the pool, after its commit or rollback, so an answer read before the commit cannot outlive it."""
        by_table: dict[str, set[str]] = {}
        for space, tables in spaces.items():
            for table in tables:
                by_table.setdefault(table, set()).add(space)

        def after_execute(
            conn: Any, _cursor: Any, _sql: str, _params: Any, context: Any, _many: bool
        ) -> None:
            written = by_table.get(_written_table(context) or "")
            if written:
                conn.info.setdefault(_WRITTEN, set()).update(written)
                for space in written:
                    self.drop(space)

        def checkin(_dbapi: Any, record: Any) -> None:
            for space in record.info.pop(_WRITTEN, ()) if record is not None else ():
                self.invalidate(space)

        event.listen(engine, "after_cursor_execute", after_execute)
        event.listen(engine, "checkin", checkin)  # on the engine: kept across a `dispose()` of its pool

    def clear(self) -> None:
        with self._lock:
            self._tick += 1
            self._floor = self._tick
            self._spaces.clear()

    async def _on_resumed(self, _message: dict[str, Any]) -> None:
        self.clear()

    async def _on_invalidate(self, message: dict[str, Any]) -> None:
        if message.get("from") == self._origin:
            return
        key = message.get("key")
        self.drop(message["space"], tuple(key) if isinstance(key, list) else key)
