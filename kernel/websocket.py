"""The `/ws` endpoint: authenticated at the handshake, Origin checked, subscriptions bound to the
socket's own tenant and user, messages of at most 64 KB, closed with a reason on misuse."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketDisconnect

from atrium.kernel.identity.sessions import token_hash
from atrium.kernel.services.ws import ws_key
from atrium.sdk.context import current_context

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

MAX_MESSAGE = 64 * 1024
SUB_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
HEARTBEAT_TIMEOUT = 100.0


def origin_allowed(ws: WebSocket, public_origin: str) -> bool:
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # non-browser clients send no Origin; the token still has to be valid
    host = ws.headers.get("host", "")
    o = urlsplit(origin)
    if public_origin and origin.rstrip("/") == public_origin.rstrip("/"):
        return True
    return o.netloc == host


def make_ws_endpoint(kernel: Kernel) -> Callable[[WebSocket], Awaitable[None]]:
    async def endpoint(ws: WebSocket) -> None:
        if not origin_allowed(ws, kernel.settings.public_origin):
            await ws.close(code=4003, reason="origin not allowed")
            return
        token = ws.query_params.get("token", "") or ws.headers.get("authorization", "")
        sess = await kernel.auth.session_for(token)
        if sess is None:
            await ws.close(code=4001, reason="not logged in")
            return
        user = sess.user
        current_context().user = user
        await ws.accept()
        kernel.ws.add(ws, user.user_id, token_hash(token))
        try:
            while True:
                try:
                    raw = await asyncio.wait_for(ws.receive(), HEARTBEAT_TIMEOUT)
                except TimeoutError:
                    await ws.close(code=4008, reason="heartbeat timeout")
                    return
                if raw["type"] == "websocket.disconnect":
                    return
                text = raw.get("text") or (raw.get("bytes") or b"").decode("utf-8", "replace")
                if len(text.encode("utf-8")) > MAX_MESSAGE:
                    await ws.close(code=1009, reason="message too large")
                    return
                if await kernel.auth.session_for(token) is None:
                    await ws.close(code=4001, reason="session ended")
                    return
                try:
                    msg = json.loads(text)
                    if not isinstance(msg, dict):
                        raise ValueError
                except ValueError:
                    await ws.close(code=4400, reason="malformed message")
                    return
                kind = msg.get("type")
                if kind == "ping":
                    await ws.send_json({"type": "pong"})
                elif kind == "subscribe":
                    sub_key = str(msg.get("subKey", ""))
                    uid = msg.get("userId", user.user_id)
                    system = str(msg.get("systemCode") or user.system_code)
                    if not SUB_KEY.match(sub_key) or str(uid) != str(user.user_id) or len(system) > 64:
                        await ws.close(code=4403, reason="subscription not allowed")
                        return
                    kernel.ws.subscribe(ws, ws_key(sub_key, user.tenant_id, user.user_id, system))
                    await ws.send_json({"type": "subscribed", "subKey": sub_key, "systemCode": system})
                else:
                    await ws.close(code=4400, reason="unknown message type")
                    return
        except WebSocketDisconnect:
            return
        finally:
            kernel.ws.remove(ws, user.user_id)

    return endpoint
