"""A bounded in-process map that forgets the entry used least recently.

For what a process keeps of things that never change once made (a compiled statement or schema, a dataset
version's fields, a hashed file): their keys name one version, so nothing needs invalidating, only bounding.
`take` hands an entry over to a caller that goes on to change it (a process step's workflow, kept beside
the state it was stored as and checked against it).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


def _one(_value: object) -> int:
    return 1


class Kept(Generic[V]):
    """At most `limit` in total of the entries' weights (by default each weighs 1, so a count); an entry
    heavier than the whole limit is not kept."""

    def __init__(self, limit: int, weigh: Callable[[V], int] = _one) -> None:
        self.limit = limit
        self.weigh = weigh
        self.size = 0
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def take(self, key: Hashable) -> V | None:
        """The entry, no longer kept: for a value its taker goes on to change."""
        with self._lock:
            found = self._items.pop(key, None)
            if found is not None:
                self.size -= self.weigh(found)
            return found

    def put(self, key: Hashable, value: V) -> None:
        weight = self.weigh(value)
        with self._lock:
            old = self._items.pop(key, None)
            self.size -= self.weigh(old) if old is not None else 0
            if weight > self.limit:
                return
            self._items[key] = value
            self.size += weight
            while self.size > self.limit:
                _, dropped = self._items.popitem(last=False)
                self.size -= self.weigh(dropped)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.size = 0
