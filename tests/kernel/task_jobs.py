"""Background tasks for the task-runner tests: module-level, so a worker process can import them."""

from __future__ import annotations

import os

from atrium.sdk.services import services


def remember(key: str, value: str) -> None:
    """Write what ran, and where, into the shared cache of the platform that runs the task."""
    services().cache.set(key, {"value": value, "pid": os.getpid()}, ttl=300)


def fail(message: str) -> None:
    raise RuntimeError(message)


def linger(key: str, seconds: float) -> None:
    """Run for a while in small steps (a stop request lands between two); say whether it was interrupted."""
    import time

    from atrium.sdk.services import TaskInterrupted

    cache = services().cache
    cache.set(key, "running", ttl=300)
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            time.sleep(0.02)
    except TaskInterrupted:
        cache.set(key, "interrupted", ttl=300)
        raise
    cache.set(key, "finished", ttl=300)
