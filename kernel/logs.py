"""structlog set up once: JSON lines with the request id, tenant and user of the running request."""

from __future__ import annotations

import logging
import sys
from collections.abc import MutableMapping
from typing import Any

import structlog

from atrium.sdk.context import RequestContext, current_context


def add_request(_logger: Any, _method: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """The running request's id, tenant and user, read from its context when a line is written (nothing
    is bound per request, so requests that log nothing pay nothing)."""
    ctx: RequestContext = current_context()
    if ctx.request_id:
        event.setdefault("request_id", ctx.request_id)
        if ctx.tenant_id is not None:
            event.setdefault("tenant", ctx.tenant_id)
        if ctx.user is not None:
            event.setdefault("user", ctx.user.user_id)
    return event


def configure_logging(json_lines: bool = True, level: int = logging.INFO) -> None:
    renderer: structlog.types.Processor = (
        structlog.processors.JSONRenderer() if json_lines else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            add_request,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        cache_logger_on_first_use=True,
    )
