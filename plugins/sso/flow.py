"""Sign-ins in progress: state, nonce and PKCE verifier, single-use and bound to the browser that started.

The browser is recognised by a random value in an HttpOnly cookie set when a sign-in starts; the flow
record keeps only its hash. Taking a flow removes it, so a state is spent even when the sign-in fails.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from authlib.oauth2.rfc7636 import create_s256_code_challenge
from starlette.requests import Request

from atrium.plugins.sso.providers.base import FlowState, ProviderError, StartRequest
from atrium.sdk.context import current_context
from atrium.sdk.services import services

COOKIE = "atrium_sso_browser"
FLOW_TTL = 600
TICKET_TTL = 600


@dataclass(frozen=True)
class Flow:
    tenant_id: int
    provider: str
    kind: str
    return_to: str
    state: FlowState


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def browser_id(request: Request | None) -> str:
    return (request.cookies.get(COOKIE, "") if request is not None else "")[:128]


def bind_browser(request: Request | None) -> str:
    """The browser's id, set as a cookie when it has none yet."""
    bid = browser_id(request)
    if len(bid) >= 32:
        return bid
    bid = secrets.token_urlsafe(32)
    secure = "; Secure" if request is not None and request.url.scheme == "https" else ""
    prefix = str(getattr(services().settings, "base_path", "") or "")
    current_context().response_headers["set-cookie"] = (
        f"{COOKIE}={bid}; Path={prefix}/api; Max-Age=86400; HttpOnly; SameSite=Lax{secure}"
    )
    return bid


def begin(
    request: Request | None,
    tenant_id: int,
    provider: str,
    kind: str,
    redirect_uri: str,
    mode: str,
    return_to: str = "",
) -> StartRequest:
    bid = bind_browser(request)
    verifier = secrets.token_urlsafe(48)
    start = StartRequest(
        redirect_uri=redirect_uri,
        state=secrets.token_urlsafe(24),
        nonce=secrets.token_urlsafe(24),
        code_challenge=create_s256_code_challenge(verifier),
        mode=mode,
    )
    record = {
        "tenant": tenant_id,
        "provider": provider,
        "kind": kind,
        "nonce": start.nonce,
        "verifier": verifier,
        "redirect": redirect_uri,
        "mode": mode,
        "return": return_to,
        "bind": _digest(bid),
        "data": {},
    }
    services().cache.set(f"sso:flow:{start.state}", record, ttl=FLOW_TTL)
    return start


def remember(state: str, data: dict[str, Any]) -> None:
    """Keep what the provider's start returned for its callback."""
    if not data:
        return
    key = f"sso:flow:{state}"
    record = services().cache.get(key)
    if record is not None:
        record["data"] = data
        services().cache.set(key, record, ttl=FLOW_TTL)


def take(request: Request | None, state: str) -> Flow:
    """Spend a state: unknown, spent, expired or started in another browser are all refused."""
    if not state or len(state) > 128:
        raise ProviderError("state_invalid")
    record = services().cache.pop(f"sso:flow:{state}")
    if record is None:
        raise ProviderError("state_invalid")
    bid = browser_id(request)
    if not bid or not hmac.compare_digest(record["bind"], _digest(bid)):
        raise ProviderError("state_browser")
    fs = FlowState(
        state=state,
        nonce=record["nonce"],
        code_verifier=record["verifier"],
        redirect_uri=record["redirect"],
        mode=record["mode"],
        data=record.get("data") or {},
    )
    return Flow(int(record["tenant"]), record["provider"], record["kind"], record.get("return") or "", fs)


def new_ticket(request: Request | None, payload: dict[str, Any]) -> str:
    """A single-use ticket for linking an unknown identity by a verified code (same browser only)."""
    ticket = secrets.token_urlsafe(24)
    services().cache.set(
        f"sso:ticket:{ticket}", {**payload, "bind": _digest(bind_browser(request))}, ttl=TICKET_TTL
    )
    return ticket


def peek_ticket(ticket: str) -> dict[str, Any] | None:
    if not ticket or len(ticket) > 128:
        return None
    value = services().cache.get(f"sso:ticket:{ticket}")
    return value if isinstance(value, dict) else None


def take_ticket(request: Request | None, ticket: str) -> dict[str, Any]:
    record = peek_ticket(ticket)
    if record is None:
        raise ProviderError("ticket_invalid")
    bid = browser_id(request)
    if not bid or not hmac.compare_digest(record["bind"], _digest(bid)):
        raise ProviderError("state_browser")
    services().cache.delete(f"sso:ticket:{ticket}")
    return record
