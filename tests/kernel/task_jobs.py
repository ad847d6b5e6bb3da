"""Background tasks for the task-runner tests: module-level, so a worker process can import them."""

from __future__ import annotations

import os

from atrium.sdk.services import services


def remember(key: str, value: str) -> None:
    """Write what ran, and where, into the shared cache of the platform that runs the task."""
    services().cache.set(key, {"value": value, "pid": os.getpid()}, ttl=300)


def fail(message: str) -> None:
    raise RuntimeError(message)
