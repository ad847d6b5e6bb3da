"""The shared cache handed to plugins behaves the same in memory and on Redis."""

from __future__ import annotations

import secrets
from typing import Any


def key() -> str:
    return f"test:{secrets.token_hex(6)}"


def test_set_get_pop_delete(kernel: Any) -> None:
    cache = kernel.cache
    k = key()
    assert cache.get(k) is None
    cache.set(k, {"a": [1, "二"]}, ttl=60)
    assert cache.get(k) == {"a": [1, "二"]}
    assert cache.pop(k) == {"a": [1, "二"]}
    assert cache.pop(k) is None and cache.get(k) is None
    cache.set(k, "v")
    cache.delete(k)
    assert cache.get(k) is None


def test_counters_read_and_delete_like_other_keys(kernel: Any) -> None:
    cache = kernel.cache
    k = key()
    assert cache.incr(k, ttl=60) == 1
    assert cache.incr(k, ttl=60) == 2
    assert cache.get(k) == 2
    cache.delete(k)
    assert cache.get(k) is None
    assert cache.incr(k, ttl=60) == 1
    assert cache.pop(k) == 1
    assert cache.incr(k) == 1
