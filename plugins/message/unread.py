"""Unread counts per user and system, cached in process and dropped in every process through the pub/sub.

The unread total is asked for on every page (the bell and the menu badge), so it must not cost a
database round trip each time. A count is stored only if no invalidation happened while it was being
read (the epoch check), and it expires after a minute in case an invalidation message was lost.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, select

from atrium.plugins.message.models import UNREAD, Inbox
from atrium.sdk.db import session
from atrium.sdk.services import services

CHANNEL = "message.unread"
TTL = 60.0
MAX_USERS = 100_000

Key = tuple[int, int]


class UnreadCache:
    def __init__(self) -> None:
        self._data: OrderedDict[Key, tuple[float, dict[str, int]]] = OrderedDict()
        self._lock = threading.Lock()
        self._epoch = 0

    @property
    def epoch(self) -> int:
        return self._epoch

    def get(self, key: Key) -> dict[str, int] | None:
        item = self._data.get(key)
        if item is None or item[0] < time.monotonic():
            return None
        return item[1]

    def put(self, key: Key, counts: dict[str, int], epoch: int) -> None:
        with self._lock:
            if epoch != self._epoch:
                return
            self._data[key] = (time.monotonic() + TTL, counts)
            if len(self._data) > MAX_USERS:
                self._data.popitem(last=False)

    def drop(self, keys: Iterable[Key]) -> None:
        with self._lock:
            self._epoch += 1
            for key in keys:
                self._data.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._epoch += 1
            self._data.clear()


cache = UnreadCache()


def count_by_system(user_id: int) -> dict[str, int]:
    """Unread counts of the user in the current tenant, by system code (database)."""
    rows = session().execute(
        select(Inbox.system_code, func.count())
        .where(Inbox.user_id == user_id, Inbox.read_status == UNREAD)
        .group_by(Inbox.system_code)
    ).all()
    return {code: int(n) for code, n in rows}


def counts(tenant_id: int, user_id: int) -> dict[str, int]:
    """Cached unread counts by system (call with a session open, in the user's tenant)."""
    key = (tenant_id, user_id)
    found = cache.get(key)
    if found is None:
        epoch = cache.epoch
        found = count_by_system(user_id)
        cache.put(key, found, epoch)
    return found


def total(by_system: dict[str, int], system_codes: list[str]) -> int:
    if not system_codes:
        return sum(by_system.values())
    return sum(by_system.get(code, 0) for code in set(system_codes))


def invalidate(tenant_id: int, user_ids: Iterable[int]) -> None:
    """Drop the users' counts here at once and in every other process (call after the commit)."""
    ids = sorted(set(user_ids))
    cache.drop((tenant_id, u) for u in ids)
    services().pubsub.publish(CHANNEL, {"tenantId": tenant_id, "userIds": ids})


async def on_invalidate(message: dict[str, Any]) -> None:
    tid = int(message.get("tenantId", 0))
    cache.drop((tid, int(u)) for u in message.get("userIds", ()))
