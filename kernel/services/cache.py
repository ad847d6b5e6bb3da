"""Shared key-value cache with TTL: in-process by default, Redis when configured.

Every `get` and `pop` counts as a hit or a miss for `/metrics`, under the key's family: the part before its
first colon (cache `shared.sso` for `sso:flow:...`). A key without such a family word, and families beyond
the first `MAX_FAMILIES`, count as `shared.other`, so the series stay few.
"""

from __future__ import annotations

import pickle
import re
import threading
import time
from typing import Any, cast

import redis

from atrium.kernel.metrics import count_cache

MAX_FAMILIES = 64
_FAMILY = re.compile(r"[a-z][a-z_-]{0,31}")
#: the cache name of each key family seen (`shared.code` for `code`)
_families: dict[str, str] = {}


def cache_name(key: str) -> str:
    """The name `/metrics` counts a key's look-ups under: its family's, or `shared.other`."""
    family, colon, _rest = key.partition(":")
    found = _families.get(family) if colon else None
    if found is not None:
        return found
    if not colon or len(_families) >= MAX_FAMILIES or not _FAMILY.fullmatch(family):
        return "shared.other"
    return _families.setdefault(family, f"shared.{family}")


def counted(key: str, value: Any) -> Any:
    """`value`, a look-up's answer, counted as a hit unless it is None."""
    count_cache(cache_name(key), value is not None)
    return value


class MemoryCache:
    def __init__(self) -> None:
        self._data: dict[str, tuple[float | None, Any]] = {}
        self._lock = threading.Lock()

    def _live(self, key: str) -> Any:
        item = self._data.get(key)
        if item is None:
            return None
        exp, value = item
        if exp is not None and exp < time.monotonic():
            self._data.pop(key, None)
            return None
        return value

    def get(self, key: str) -> Any:
        with self._lock:
            value = self._live(key)
        return counted(key, value)

    def set(self, key: str, value: Any, ttl: float | None = None) -> None:
        with self._lock:
            self._data[key] = (time.monotonic() + ttl if ttl else None, value)

    def delete(self, key: str) -> None:
        with self._lock:
            self._data.pop(key, None)

    def pop(self, key: str) -> Any:
        with self._lock:
            value = self._live(key)
            self._data.pop(key, None)
        return counted(key, value)

    def incr(self, key: str, ttl: float | None = None) -> int:
        with self._lock:
            value = int(self._live(key) or 0) + 1
            exp = self._data.get(key, (None, None))[0] if key in self._data else None
            if exp is None and ttl:
                exp = time.monotonic() + ttl
            self._data[key] = (exp, value)
            return value


class RedisCache:
    def __init__(self, url: str, prefix: str = "atrium:") -> None:
        self.client = redis.Redis.from_url(url)
        self.prefix = prefix

    # Counters live beside the pickled values (`n:` keys, so INCR works on them); get, pop and delete
    # see both, as the in-memory cache does.

    def get(self, key: str) -> Any:
        return counted(key, self._get(key))

    def _get(self, key: str) -> Any:
        raw, count = self.client.mget(self.prefix + key, self.prefix + "n:" + key)
        if raw is None:
            return None if count is None else int(count)
        return pickle.loads(cast(bytes, raw))  # noqa: S301 - written only by this class

    def set(self, key: str, value: Any, ttl: float | None = None) -> None:
        self.client.set(self.prefix + key, pickle.dumps(value), px=int(ttl * 1000) if ttl else None)

    def delete(self, key: str) -> None:
        self.client.delete(self.prefix + key, self.prefix + "n:" + key)

    def pop(self, key: str) -> Any:
        return counted(key, self._pop(key))

    def _pop(self, key: str) -> Any:
        raw = self.client.getdel(self.prefix + key)
        if raw is None:
            count = self.client.getdel(self.prefix + "n:" + key)
            return None if count is None else int(cast(bytes, count))
        return pickle.loads(cast(bytes, raw))  # noqa: S301

    def incr(self, key: str, ttl: float | None = None) -> int:
        k = self.prefix + "n:" + key
        pipe = self.client.pipeline()
        pipe.incr(k)
        pipe.pttl(k)
        value, pttl = pipe.execute()
        if ttl and pttl < 0:
            self.client.pexpire(k, int(ttl * 1000))
        return int(value)
