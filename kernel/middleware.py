"""One middleware reads the request headers into the request context, stamps every answer with the
request id and its security headers, and counts it for `/metrics` (one layer, not several: each layer
costs every request)."""

from __future__ import annotations

import base64
import binascii
import time
from typing import Any

import structlog
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from atrium.kernel.http import new_request_id
from atrium.kernel.i18n import normalise_locale
from atrium.kernel.metrics import RequestMetrics
from atrium.kernel.security_headers import add_security_headers
from atrium.sdk import services as sdk_services
from atrium.sdk.context import RequestContext, reset_context, set_context

log = structlog.get_logger("atrium.access")
BASE64_HEADERS = ("pagename", "pageenname")


def b64_text(value: str) -> str:
    """Headers the web sends base64-encoded (titles in any script); plain values pass through."""
    if not value:
        return ""
    try:
        return base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return value


def context_from_headers(headers: dict[str, str], client: str = "") -> RequestContext:
    return RequestContext(
        request_id=headers.get("x-request-id", "")[:64] or new_request_id(),
        locale=normalise_locale(headers.get("language") or headers.get("accept-language", "").split(",")[0]),
        system_code=headers.get("systemcode", "")[:64],
        menu_id=headers.get("menuid", "")[:64],
        request_menu_url=headers.get("requestmenuurl", "")[:512],
        page_name=b64_text(headers.get("pagename", ""))[:256],
        page_en_name=b64_text(headers.get("pageenname", ""))[:256],
        login_form=headers.get("loginform", "")[:16],
        client_ip=headers.get("x-forwarded-for", client).split(",")[0].strip()[:64],
        user_agent=headers.get("user-agent", "")[:256],
        headers=headers,
    )


class ContextMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        access_log: bool = False,
        services: Any = None,
        metrics: RequestMetrics | None = None,
    ) -> None:
        self.app = app
        self.access_log = access_log
        self.services = services
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        client = scope.get("client")
        ctx = context_from_headers(headers, client[0] if client else "")
        token = set_context(ctx)
        bound = sdk_services.bind(self.services)
        start = time.perf_counter()
        status = 0

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                add_security_headers(scope, message)
                message["headers"].append((b"x-request-id", ctx.request_id.encode()))
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            if self.metrics is not None and scope["type"] == "http":
                self.metrics.observe(scope.get("route"), status, start)
            if self.access_log and scope["type"] == "http" and scope["path"].startswith("/api/"):
                log.info(
                    "request",
                    method=scope["method"],
                    path=scope["path"],
                    status=status,
                    ms=round((time.perf_counter() - start) * 1000, 1),
                    tenant=ctx.tenant_id,
                    user=ctx.user.user_id if ctx.user else None,
                )
            sdk_services.unbind(bound)
            reset_context(token)
