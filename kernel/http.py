"""From route declarations to Starlette endpoints: access checks, input models, the envelope, errors."""

from __future__ import annotations

import inspect
import itertools
import json
import os
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

import orjson
import redis
import structlog
from pydantic import BaseModel, ValidationError
from sqlalchemy.exc import DataError, DBAPIError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.types import Receive, Scope, Send

from atrium.sdk.context import RequestContext, current_context
from atrium.sdk.errors import AtriumError, BadRequest, Forbidden, NotLoggedIn, PluginDisabled
from atrium.sdk.grants import require_grant
from atrium.sdk.routing import RouteSpec

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

log = structlog.get_logger("atrium.http")
SUCCESS = 800
MAX_JSON_BODY = 2 * 1024 * 1024


def _default(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, set | frozenset):
        return list(value)
    return str(value)


class EnvelopeResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, default=_default, option=orjson.OPT_NON_STR_KEYS)


def encoded(value: Any) -> orjson.Fragment:
    """`value` encoded once, for a cached answer that many requests send unchanged (the menu tree)."""
    return orjson.Fragment(orjson.dumps(value, default=_default, option=orjson.OPT_NON_STR_KEYS))


def envelope(code: int, msg: str, data: Any = None, headers: dict[str, str] | None = None) -> Response:
    return EnvelopeResponse({"code": code, "msg": msg, "data": data}, headers=headers)


def validation_message(kernel: Kernel, exc: ValidationError, locale: str) -> str:
    """One translated sentence per failed field: the field's name and the rule it broke."""
    parts = []
    for err in exc.errors(include_url=False)[:5]:
        field = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body", "query"))
        field = field or kernel.i18n.t("validation.body", locale)
        etype = err.get("type", "")
        ctx = {k: v for k, v in (err.get("ctx") or {}).items() if isinstance(v, str | int | float)}
        if kernel.i18n.has(f"validation.{etype}"):
            text = kernel.i18n.t(f"validation.{etype}", locale, field=field, **ctx)
        else:
            text = kernel.i18n.t("validation.invalid", locale, field=field)
        parts.append(text)
    return "; ".join(parts)


def error_response(kernel: Kernel, exc: Exception, ctx: RequestContext) -> Response:
    if isinstance(exc, AtriumError):
        msg = kernel.i18n.t(exc.key, ctx.locale, **exc.params)
        return envelope(exc.code, msg, exc.data, headers=ctx.response_headers or None)
    if isinstance(exc, ValidationError):
        return envelope(400, validation_message(kernel, exc, ctx.locale), None)
    if isinstance(exc, OverflowError | DataError):
        # a value the database cannot hold (an id beyond 64 bits, text over a column's size): bad input
        log.info("value out of range for the database", path=ctx.controller_url, error=str(exc)[:200])
        return envelope(400, kernel.i18n.t("error.bad_request", ctx.locale), None)
    if unavailable(exc):
        log.warning("a backing service is unreachable", path=ctx.controller_url, error=str(exc)[:200])
        return envelope(503, kernel.i18n.t("error.unavailable", ctx.locale), None)
    log.exception("unhandled error", path=ctx.controller_url)
    return envelope(500, kernel.i18n.t("error.system", ctx.locale), None)


def unavailable(exc: BaseException) -> bool:
    """The database or Redis could not be reached (down, restarting, connection lost): the request is
    refused as a whole and may be sent again, unlike an error of the request itself."""
    if isinstance(exc, redis.ConnectionError | redis.TimeoutError):
        return True
    return isinstance(exc, DBAPIError) and (exc.connection_invalidated or exc.statement is None)


async def whole_body(request: Request) -> bytes:
    """The request's body, refused once it grows past `MAX_JSON_BODY`: read from the ASGI messages as they
    come (the usual small body is one message), without Starlette's stream generator."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnect()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_JSON_BODY:
            raise BadRequest("error.body_too_large", code=413)
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    body = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    request._body = body  # read again through Starlette (`request.body()`), it answers the same bytes
    return body


async def read_payload(request: Request) -> Any:
    """JSON or form body; `{"params": {...}}` is unwrapped unless the model has a `params` field."""
    ctype = (current_context().headers or request.headers).get("content-type", "")
    if "application/x-www-form-urlencoded" in ctype or "multipart/form-data" in ctype:
        try:
            form = await request.form()
        except HTTPException as exc:  # Starlette's answer to a malformed form (multipart without boundary)
            raise BadRequest("error.bad_form") from exc
        fields: dict[str, Any] = {}
        for key, value in form.multi_items():  # a repeated key is a list, as `keys=a&keys=b`
            if key not in fields:
                fields[key] = value
            elif isinstance(fields[key], list):
                fields[key].append(value)
            else:
                fields[key] = [fields[key], value]
        return fields
    body = await whole_body(request)
    if not body.strip():
        return {}
    try:
        # not orjson: it reads integers beyond 64 bits as floats, silently; decoded first, as JSON between
        # systems is UTF-8 (a byte-order mark is dropped), so the parser need not guess the encoding
        payload = json.loads(body.decode("utf-8-sig"))
    except (ValueError, RecursionError) as exc:  # RecursionError: nesting deeper than the parser goes
        raise BadRequest("error.bad_json") from exc
    if nested_deeper_than(payload, MAX_JSON_DEPTH):
        raise BadRequest("error.too_deep", limit=MAX_JSON_DEPTH)
    return payload


#: how deep a request's JSON may nest: far beyond any screen's document (a panel's tabs, a form's schema)
MAX_JSON_DEPTH = 64


def nested_deeper_than(value: Any, limit: int) -> bool:
    """Whether objects and arrays nest more than `limit` levels (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False


#: query strings up to this length have their parse kept: the hot pages ask with the same few each time
_KEPT_QUERY = 256


def _query_pairs(raw: bytes) -> tuple[tuple[str, str], ...]:
    return tuple(parse_qsl(raw.decode("latin-1"), keep_blank_values=True))


_kept_query_pairs = lru_cache(maxsize=1024)(_query_pairs)


def query_fields(raw: bytes) -> dict[str, str]:
    """The query string as a dict, read as `QueryParams` reads it (a name given twice: its last value)."""
    return dict(_kept_query_pairs(raw) if len(raw) <= _KEPT_QUERY else _query_pairs(raw))


def unwrap(payload: Any, model: type[BaseModel]) -> Any:
    """`{"params": {...}}` is the web's usual wrapping; a model with its own `params` field is unwrapped
    only when the inner object carries that model's other fields."""
    if not (isinstance(payload, dict) and set(payload) == {"params"}):
        return payload
    inner = payload["params"]
    fields = model.model_fields
    if inner is None:
        return {}
    if "params" not in fields or (
        isinstance(inner, dict) and any(k in fields and k != "params" for k in inner)
    ):
        return inner
    return payload


class Endpoint:
    """A route's handler as a plain ASGI app: Starlette calls it directly, without wrapping every request
    in its function-endpoint adapter and exception-handler layers (this catches everything itself)."""

    def __init__(self, kernel: Kernel, spec: RouteSpec) -> None:
        self.kernel = kernel
        self.spec = spec
        self.handler = spec.handler
        self.is_async = inspect.iscoroutinefunction(self.handler)
        self.params = set(inspect.signature(self.handler).parameters)
        self.__name__ = getattr(self.handler, "__name__", "endpoint")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = await self.respond(Request(scope, receive))
        await response(scope, receive, send)

    async def respond(self, request: Request) -> Response:
        kernel, spec = self.kernel, self.spec
        ctx = current_context()
        ctx.controller_url = request.scope["path"]
        try:
            user = await kernel.auth.resolve(request, ctx)
            if user is None and not spec.public:
                raise NotLoggedIn()
            if spec.permission == "admin" and not (user and user.is_admin):
                raise Forbidden()
            if spec.permission == "super-admin" and not (user and user.is_super_admin):
                raise Forbidden()
            if spec.grant and user is not None and not user.is_admin:
                await run_in_threadpool(kernel.run_in_session, require_grant, {"code": spec.grant})
            if (
                spec.plugin
                and ctx.tenant_id is not None
                and not kernel.enablement.is_enabled(ctx.tenant_id, spec.plugin)
            ):
                raise PluginDisabled(plugin=spec.plugin)
            kwargs: dict[str, Any] = {}
            if spec.raw or "request" in self.params:
                kwargs["request"] = request
            for name, value in request.path_params.items():
                if name in self.params:
                    kwargs[name] = value
            if spec.query is not None:
                kwargs["query"] = spec.query.model_validate(query_fields(request.scope["query_string"]))
            if spec.body is not None:
                payload = await read_payload(request)
                kwargs["body"] = spec.body.model_validate(unwrap(payload, spec.body))
            if self.is_async:
                result = await self.handler(**kwargs)
            else:
                result = await run_in_threadpool(kernel.run_in_session, self.handler, kwargs)
            if isinstance(result, Response):
                for k, v in ctx.response_headers.items():
                    result.headers[k] = v
                return result
            return envelope(SUCCESS, kernel.i18n.t("ok", ctx.locale), result, ctx.response_headers or None)
        except Exception as exc:
            return error_response(kernel, exc, ctx)


def make_endpoint(kernel: Kernel, spec: RouteSpec) -> Endpoint:
    return Endpoint(kernel, spec)


_REQUEST_PREFIX = os.urandom(5).hex()
_request_numbers = itertools.count(1)


def new_request_id() -> str:
    """Unique across processes (a random prefix per process) without a system call per request."""
    return f"{_REQUEST_PREFIX}{next(_request_numbers):06x}"
