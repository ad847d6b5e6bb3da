"""Helpers for the message plugin's tests: sending, reading the inbox, WebSocket frames."""

from __future__ import annotations

import concurrent.futures
import secrets
from typing import Any

from atrium.sdk.testing import AtriumClient

INBOX = "/api/message/iotBaseMessageLogController"
ACME = 1001
GLOBEX = 1002


def send(sender: AtriumClient, **body: Any) -> dict[str, Any]:
    """Send a letter through the admin API; answers the envelope."""
    body.setdefault("content", f"<p>Letter {secrets.token_hex(3)}</p>")
    return sender.post("/api/message/admin/send", json=body)


def send_ok(sender: AtriumClient, **body: Any) -> dict[str, Any]:
    env = send(sender, **body)
    assert env["code"] == 800, env
    data: dict[str, Any] = env["data"]
    return data


def inbox(
    c: AtriumClient,
    read_status: int | None = None,
    system_codes: list[str] | None = None,
    page: int = 1,
    rows: int = 10,
) -> dict[str, Any]:
    params: dict[str, Any] = {"systemCodes": system_codes or []}
    if read_status is not None:
        params["readStatus"] = read_status
    data: dict[str, Any] = c.ok(
        "POST", f"{INBOX}/message-find", json={"pageIndex": page, "pageRows": rows, "params": params}
    )
    return data


def unread_total(c: AtriumClient, system_codes: list[str] | None = None) -> int:
    body = {"params": {"systemCodes": system_codes or []}}
    total: int = c.ok("POST", f"{INBOX}/unread-message-total", json=body)
    return total


def token(c: AtriumClient) -> str:
    return c.headers["authorization"]


def receive(ws: Any, timeout: float = 10.0) -> Any:
    """`ws.receive_json()` that gives up (failing the test) instead of waiting forever."""
    pool = concurrent.futures.ThreadPoolExecutor(1)
    try:
        return pool.submit(ws.receive_json).result(timeout=timeout)
    finally:
        pool.shutdown(wait=False)


def subscribe(ws: Any, user_id: Any, system_code: str = "iotAutho") -> None:
    ws.send_json(
        {"type": "subscribe", "subKey": "systemNotify", "userId": user_id, "systemCode": system_code}
    )
    ack = receive(ws)
    assert ack == {"type": "subscribed", "subKey": "systemNotify", "systemCode": system_code}
