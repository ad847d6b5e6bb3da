"""Live pushes to the web through the kernel's WebSocket hub, sent only once the data is committed.

A recipient's browser reloads its unread list when a push arrives; sending before the commit would
let it read the list before the new letter is visible (in this or another server process).
"""

from __future__ import annotations

from typing import Any

import structlog

from atrium.sdk.services import services

log = structlog.get_logger("atrium.message")

SUB_KEY = "systemNotify"
SUCCESS = 800


def notify_key(tenant_id: int, user_id: int, system_code: str) -> str:
    """The hub key a browser subscribes to with `{"type": "subscribe", "subKey": "systemNotify", ...}`."""
    return f"{SUB_KEY}:{tenant_id}:{user_id}:{system_code}"


def frame(data: dict[str, Any]) -> dict[str, Any]:
    return {"code": SUCCESS, "subKey": SUB_KEY, "data": data}


def send(keys_and_data: list[tuple[str, dict[str, Any]]]) -> None:
    """Push each frame to its key, all in one message through the hub."""
    try:
        services().ws.send_many([(key, frame(data)) for key, data in keys_and_data])
    except Exception:  # a failed push must not turn a committed change into an error
        log.exception("push failed", recipients=len(keys_and_data))
