"""Log lines carry the running request's id, tenant and user, and nothing outside a request."""

from __future__ import annotations

import io
import json
import logging

import structlog

from atrium.kernel.logs import configure_logging
from atrium.sdk.context import RequestContext, SessionUser, reset_context, set_context


def test_a_line_written_during_a_request_names_it() -> None:
    out = io.StringIO()
    before = structlog.get_config()
    configure_logging(json_lines=True, level=logging.INFO)
    structlog.configure(logger_factory=structlog.PrintLoggerFactory(out), cache_logger_on_first_use=False)
    try:
        write_two_lines()
    finally:
        structlog.configure(**before)
    inside, outside = (json.loads(line) for line in out.getvalue().splitlines())
    assert (inside["request_id"], inside["tenant"], inside["user"]) == ("req-42", 1001, 7)
    assert "request_id" not in outside and "user" not in outside


def write_two_lines() -> None:
    user = SessionUser(7, "a", "A", 1001, "iotAutho", is_super_admin=False, is_supervisor=False)
    token = set_context(RequestContext(request_id="req-42", tenant_id=1001, user=user))
    try:
        structlog.get_logger("t").info("inside")
    finally:
        reset_context(token)
    token = set_context(RequestContext())
    try:
        structlog.get_logger("t").info("outside")
    finally:
        reset_context(token)
