"""QR-code sign-in: `/qrcode/...` calls and the desktop's socket `/ws/qrcode`."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from atrium.kernel.api.deps import kernel
from atrium.kernel.identity import qrcode
from atrium.kernel.websocket import origin_allowed
from atrium.sdk.context import current_context
from atrium.sdk.routing import Router

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

router = Router("/api/base")


class CodeIn(BaseModel):
    qrCode: str = Field(min_length=1, max_length=64)


class WatchIn(CodeIn):
    secret: str = Field(min_length=1, max_length=64)


@router.post("/qrcode/create", public=True)
def create() -> dict[str, Any]:
    """A new one-time code for the desktop's QR code (two minutes) and the secret only the desktop keeps."""
    return qrcode.create(kernel())


@router.post("/qrcode/state", public=True, body=WatchIn)
def state(body: WatchIn) -> dict[str, str]:
    """waiting, scanned, confirmed, declined, expired or used (for a desktop whose socket dropped)."""
    return {"state": qrcode.watch(kernel(), body.qrCode, body.secret)}


@router.post("/qrcode/scan", body=CodeIn)
def scan(body: CodeIn) -> None:
    """The signed-in phone opened the code."""
    qrcode.scan(kernel(), body.qrCode, current_context().require_user())


@router.post("/qrcode/confirm", body=CodeIn)
def confirm(body: CodeIn) -> None:
    """The phone's user signs the desktop in (into the phone's tenant and system)."""
    qrcode.decide(kernel(), body.qrCode, current_context().require_user(), approve=True)


@router.post("/qrcode/decline", body=CodeIn)
def decline(body: CodeIn) -> None:
    """The phone's user refuses the desktop's sign-in."""
    qrcode.decide(kernel(), body.qrCode, current_context().require_user(), approve=False)


@router.post("/qrcode/login", public=True, body=WatchIn)
def login(body: WatchIn) -> dict[str, Any]:
    """The desktop's session once the phone confirmed: the sign-in answer and token headers."""
    result = qrcode.collect(kernel(), body.qrCode, body.secret)
    current_context().response_headers.update(result.pair.headers())
    return result.answer()


def make_qrcode_ws_endpoint(k: Kernel) -> Callable[[WebSocket], Awaitable[None]]:
    """The desktop's socket for one code: it hears scanned, confirmed, declined, then closes."""

    async def endpoint(ws: WebSocket) -> None:
        if not origin_allowed(ws, k.settings.public_origin):
            await ws.close(code=4003, reason="origin not allowed")
            return
        code, secret = ws.query_params.get("code", ""), ws.query_params.get("secret", "")
        first = await run_in_threadpool(qrcode.watch, k, code[:64], secret[:64])  # the cache may be Redis
        if first in ("expired", "used"):
            await ws.close(code=4410, reason=first)
            return
        await ws.accept()
        k.ws.subscribe(ws, qrcode.hub_key(code))
        try:
            await ws.send_json({"type": "qrcode", "state": first})
            while True:
                try:
                    raw = await asyncio.wait_for(ws.receive(), qrcode.QR_TTL + 10)
                except TimeoutError:
                    await ws.close(code=4408, reason="expired")
                    return
                if raw["type"] == "websocket.disconnect":
                    return
                try:
                    msg = json.loads(raw.get("text") or "{}")
                except ValueError:
                    msg = {}
                if isinstance(msg, dict) and msg.get("type") == "ping":
                    await ws.send_json({"type": "pong"})
        except WebSocketDisconnect:
            return
        finally:
            k.ws.remove(ws, 0)

    return endpoint
