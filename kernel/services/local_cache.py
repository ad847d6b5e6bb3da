"""In-process caches for the hot paths, dropped in every process through the pub/sub.

A process whose pub/sub subscription was lost may have missed drops: it empties its caches when the
subscription is back (`RESUMED`), so nothing stale outlives a Redis outage.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from sqlalchemy import event

from atrium.kernel.services.pubsub import RESUMED
from atrium.sdk.services import PubSub

CHANNEL = "kernel.invalidate"


class LocalCache:
    """A bounded in-process map per namespace; `invalidate` reaches every server process."""

    def __init__(self, pubsub: PubSub, max_items: int = 50_000) -> None:
        self._spaces: dict[str, OrderedDict[Any, Any]] = {}
        self._lock = threading.Lock()
        self._max = max_items
        self._pubsub = pubsub
        pubsub.subscribe(CHANNEL, self._on_invalidate)
        pubsub.subscribe(RESUMED, self._on_resumed)

    def get(self, space: str, key: Any) -> Any:
        d = self._spaces.get(space)
        return None if d is None else d.get(key)

    def put(self, space: str, key: Any, value: Any) -> None:
        with self._lock:
            d = self._spaces.setdefault(space, OrderedDict())
            d[key] = value
            if len(d) > self._max:
                d.popitem(last=False)

    def drop(self, space: str, key: Any = None) -> None:
        with self._lock:
            if key is None:
                self._spaces.pop(space, None)
            else:
                d = self._spaces.get(space)
                if d is not None:
                    d.pop(key, None)

    def invalidate(self, space: str, key: Any = None) -> None:
        """Drop here at once, and in every other process when the pub/sub message arrives."""
        self.drop(space, key)
        self._pubsub.publish(CHANNEL, {"space": space, "key": key})

    def invalidate_on_commit(self, db: Any, space: str, key: Any = None) -> None:
        """Drop now and again once the session commits, so no process caches the old row in between."""
        self.invalidate(space, key)
        event.listen(db, "after_commit", lambda _s: self.invalidate(space, key), once=True)

    def clear(self) -> None:
        with self._lock:
            self._spaces.clear()

    async def _on_resumed(self, _message: dict[str, Any]) -> None:
        self.clear()

    async def _on_invalidate(self, message: dict[str, Any]) -> None:
        key = message.get("key")
        self.drop(message["space"], tuple(key) if isinstance(key, list) else key)
