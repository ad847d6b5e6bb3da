"""Background tasks for the ops tests (module level: the task runner imports them by name)."""

from __future__ import annotations

ATTEMPTS: list[int] = []


def fail_first() -> None:
    ATTEMPTS.append(1)
    if len(ATTEMPTS) == 1:
        raise RuntimeError("first attempt fails")
