"""Counts a plugin adds to the platform's Prometheus metrics (`GET /metrics`).

A cache's look-ups are counted as hits and misses under the cache's name, so its hit rate shows beside
the kernel's caches (``atrium_cache_hits_total`` and ``atrium_cache_misses_total``, by ``cache``).

Example::

    from atrium.sdk.metrics import count_cache

    found = thumbnails.get(key)
    count_cache("gallery.thumbnails", hit=found is not None)

The name is a short fixed word, the plugin's id first: every name is a series of its own, so never build
one from a record's id or a user's input. Until the platform starts (a script, a unit test without the
kernel) counts go nowhere.
"""

from __future__ import annotations

from collections.abc import Callable

#: counts one look-up: (cache name, whether it hit)
CacheCounter = Callable[[str, bool], None]


def _uncounted(_name: str, _hit: bool) -> None:
    return None


_counter: CacheCounter = _uncounted


def install_cache_counter(counter: CacheCounter | None) -> None:
    """For the kernel: where `count_cache` counts (None: nowhere)."""
    global _counter
    _counter = counter or _uncounted


def count_cache(name: str, hit: bool) -> None:
    """Count one look-up of the cache called `name`: `hit` when it found its entry."""
    _counter(name, hit)
