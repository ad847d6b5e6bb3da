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


def test_a_value_read_before_its_key_was_dropped_is_not_kept(kernel: Any) -> None:
    """`put(..., since=generation)` refuses a value read before a drop that reached its key (its own drop, its
    namespace's, a clear); drops of other keys leave it alone."""
    from atrium.kernel.services.local_cache import LocalCache

    cache = LocalCache(kernel.pubsub, max_items=2)
    a, b = cache.generation("s", "a"), cache.generation("s", "b")
    cache.drop("s", "a")
    cache.put("s", "a", 1, since=a)
    cache.put("s", "b", 2, since=b)
    assert cache.get("s", "a") is None and cache.get("s", "b") == 2

    a = cache.generation("s", "a")
    cache.put("s", "a", 1, since=a)
    assert cache.get("s", "a") == 1

    c = cache.generation("s", "c")
    cache.drop("s")
    cache.put("s", "c", 3, since=c)
    assert cache.get("s", "c") is None
    c = cache.generation("s", "c")
    cache.clear()
    cache.put("s", "c", 3, since=c)
    assert cache.get("s", "c") is None

    d = cache.generation("s", "d")
    for key in ("x", "y", "z"):  # more dropped keys than it remembers: every older read counts as raced
        cache.drop("s", key)
    cache.put("s", "d", 4, since=d)
    assert cache.get("s", "d") is None
    cache.put("s", "d", 4, since=cache.generation("s", "d"))
    assert cache.get("s", "d") == 4
