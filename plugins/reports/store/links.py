"""Shared links: public capabilities to one panel, optionally behind a four-digit password.

A link id carries 192 random bits. Public routes resolve the tenant from the link and run inside it.
Passing the password (or validating a link without one) gives the client a short-lived signed token
(header `linkToken`) that data, option and export calls present; every such call re-checks the link
(disabled, expired, locked, password changed), failing closed. Ten wrong passwords lock the link until
its owner resets it, and one client gets five tries a minute.

Only the platform's own pages may frame a link page unless its owner allows embedding and names the
sites (origins) that may; the link page's HTML answer carries those as `frame-ancestors`.
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import select

from atrium.plugins.reports.models import Panel, PanelLink
from atrium.plugins.reports.settings import report_settings
from atrium.plugins.reports.store import crypto
from atrium.plugins.reports.store.access import Viewer, privileges
from atrium.sdk.context import current_context, tenant_scope, unscoped
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import AtriumError, BadRequest, Forbidden, NotFound, TooManyRequests
from atrium.sdk.services import services

PASSWORD = re.compile(r"^\d{4}$")
LINK_ID = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
LINK_PAGE = re.compile(r"^/dynamic-report/link/([A-Za-z0-9_-]{20,64})/?$")
STATE_TTL = 60.0
#: an origin that may frame a link page: scheme, host (optionally `*.` and at least two labels), port
ORIGIN = re.compile(
    r"^https?://(?:\*\.(?=[a-z0-9-]+\.[a-z0-9-]))?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
    r"(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$"
)
MAX_EMBED_ORIGINS = 10


class LinkDenied(AtriumError):
    code = 403
    key = "reports:link.invalid"


def new_link_id() -> str:
    return secrets.token_urlsafe(24)


def _state_key(link_id: str) -> str:
    return f"rpt:link:{link_id}"


def forget(link_id: str) -> None:
    services().cache.delete(_state_key(link_id))


def _state(link: PanelLink) -> dict[str, Any]:
    return {
        "id": link.id,
        "tenantId": link.tenant_id,
        "panelId": link.panel_id,
        "userId": link.user_id,
        "valid": link.valid,
        "enablePwd": link.enable_pwd,
        "pwdVersion": link.pwd_version,
        "overTime": link.over_time.isoformat() if link.over_time else None,
        "locked": link.locked,
        "ownerAdmin": link.owner_admin,
        "ownerRoles": json.loads(link.owner_roles or "[]"),
        "embedOrigins": _origins(link) if link.embed_allowed else [],
    }


def _origins(link: PanelLink) -> list[str]:
    return [str(o) for o in json.loads(link.embed_origins or "[]")]


def plugin_enabled(tenant_id: int) -> bool:
    """Whether the tenant has the reports plugin enabled. Public link routes resolve their tenant themselves,
    so the kernel's per-tenant check has not run for them; the SDK has no call for it yet, so this asks the
    running platform's `enablement` when it offers one."""
    enablement = getattr(services(), "enablement", None)
    checker = getattr(enablement, "is_enabled", None)
    return True if checker is None else bool(checker(tenant_id, "reports"))


def load_state(link_id: str) -> dict[str, Any] | None:
    """The link's state across tenants (cached briefly; every change clears the cache)."""
    if not isinstance(link_id, str) or not LINK_ID.match(link_id):
        return None
    cache = services().cache
    state = cache.get(_state_key(link_id))
    if state is None:
        with unscoped():
            link = session().get(PanelLink, link_id)
            if link is None:
                return None
            state = _state(link)
        cache.set(_state_key(link_id), state, ttl=STATE_TTL)
    state = dict(state)
    if not plugin_enabled(state["tenantId"]):
        return None
    return state


def frame_ancestors(path: str) -> list[str] | None:
    """The sites besides the platform itself that may frame the page at `path`, when it is a link page:
    none unless the link's owner allowed embedding (an unknown link: none either)."""
    m = LINK_PAGE.match(path)
    if m is None:
        return None
    state = load_state(m.group(1))
    return list(state.get("embedOrigins", [])) if state else []


def clean_origins(raw: list[str]) -> list[str]:
    """Origins as the browser compares them (lower case, no trailing slash), each checked, no repeats."""
    if len(raw) > MAX_EMBED_ORIGINS:
        raise BadRequest("reports:link.embed_origins_too_many", limit=MAX_EMBED_ORIGINS)
    out: list[str] = []
    for item in raw:
        origin = item.strip().lower().removesuffix("/") if isinstance(item, str) else ""
        if len(origin) > 255 or not ORIGIN.match(origin) or not _port_ok(origin):
            raise BadRequest("reports:link.embed_origin", origin=str(item)[:100])
        if origin not in out:
            out.append(origin)
    return out


def _port_ok(origin: str) -> bool:
    _, _, tail = origin.rpartition(":")
    return not tail.isdigit() or 0 < int(tail) < 65536


def expired(state: dict[str, Any]) -> bool:
    return bool(state.get("overTime")) and datetime.fromisoformat(state["overTime"]) < utcnow()


def viewer_of(state: dict[str, Any], client: str | None = None) -> Viewer:
    """Who a link's visitor acts as: its owner, through this link (and, given, the visitor's client id)."""
    return Viewer(
        state["tenantId"],
        state["userId"],
        frozenset(state["ownerRoles"]),
        state["ownerAdmin"],
        state["id"],
        state["panelId"],
        client,
    )


def admit(state: dict[str, Any]) -> None:
    """Refuses (403, translated) a link turned off, expired or locked."""
    if not state["valid"]:
        raise LinkDenied("reports:link.invalid")
    if expired(state):
        raise LinkDenied("reports:link.expired")
    if state["locked"]:
        raise LinkDenied("reports:link.locked")


def has_permission(state: dict[str, Any]) -> bool:
    with tenant_scope(state["tenantId"]):
        panel = session().get(Panel, state["panelId"])
        return panel is not None and "view" in privileges(panel, viewer_of(state))


def issue_token(state: dict[str, Any], passed: bool, client: str | None = None) -> str:
    """A client's token for the link. `c` tells this client apart from the link's other clients (what it
    started, an export say, is its own); a renewed token keeps the client's `c`."""
    return crypto.sign_token(
        {
            "l": state["id"],
            "t": state["tenantId"],
            "p": state["panelId"],
            "v": state["pwdVersion"],
            "pw": passed,
            "c": client or secrets.token_urlsafe(12),
        },
        report_settings().link_token_minutes * 60,
    )


def client_of(payload: dict[str, Any], token: str) -> str:
    """The client id a token carries (a token issued before client ids: one of its own)."""
    c = payload.get("c")
    return c if isinstance(c, str) and c else "t:" + crypto.digest(token)


def _presented_client(link_id: str, token: str) -> str | None:
    """The client id of a token the caller presents for this link, when it is genuine (expired or not for
    this link: none, and the caller becomes a new client)."""
    payload = crypto.verify_token(token) if token else None
    if payload is None or payload.get("l") != link_id:
        return None
    return client_of(payload, token)


def check_token(token: str) -> dict[str, Any]:
    """The link state behind a client's token, if the link still admits it; otherwise a refusal."""
    return check_client(token)[0]


def check_client(token: str) -> tuple[dict[str, Any], str]:
    """The link state behind a client's token and the client's id, if the link still admits it; otherwise
    a refusal (403, translated: invalid, expired, locked, password not passed)."""
    payload = crypto.verify_token(token)
    if payload is None:
        raise LinkDenied("reports:link.token")
    state = load_state(str(payload.get("l", "")))
    if state is None or state["tenantId"] != payload.get("t") or state["panelId"] != payload.get("p"):
        raise LinkDenied("reports:link.invalid")
    admit(state)
    if state["enablePwd"] and (not payload.get("pw") or payload.get("v") != state["pwdVersion"]):
        raise LinkDenied("reports:link.token")
    return state, client_of(payload, token)


def validate(link_id: str, token: str = "") -> dict[str, Any]:
    """The link page's state (spec 3.5, 4): hasPermission, resourceId, valid, enablePwd, passPwd, expire."""
    state = load_state(link_id)
    if state is None:
        return {
            "hasPermission": False,
            "resourceId": None,
            "valid": False,
            "enablePwd": False,
            "passPwd": False,
            "expire": False,
            "locked": False,
        }
    permitted = has_permission(state)
    passed = False
    if token:
        payload = crypto.verify_token(token)
        passed = bool(
            payload
            and payload.get("l") == link_id
            and payload.get("pw")
            and payload.get("v") == state["pwdVersion"]
        )
    out = {
        "hasPermission": permitted,
        "resourceId": state["panelId"] if permitted else None,
        "valid": bool(state["valid"]),
        "enablePwd": bool(state["enablePwd"]),
        "passPwd": passed,
        "expire": expired(state),
        "locked": bool(state["locked"]),
    }
    if permitted and state["valid"] and not out["expire"] and not state["locked"] and not state["enablePwd"]:
        out["linkToken"] = issue_token(state, False, _presented_client(link_id, token))
    elif passed and permitted and state["valid"] and not out["expire"] and not state["locked"]:
        out["linkToken"] = token
    return out


def validate_password(link_id: str | None, resource_id: str | None, password: str, user: int | None) -> Any:
    """Falsy data for a wrong password; `{linkToken}` for the right one. Rate-limited and locking."""
    ctx = current_context()
    state = load_state(link_id) if link_id else _by_resource(resource_id, user)
    if state is None:
        raise NotFound("reports:link.invalid")
    tries = services().cache.incr(f"rpt:pwd-tries:{state['id']}:{ctx.client_ip or '-'}", ttl=60)
    if tries > report_settings().link_tries_per_minute:
        raise TooManyRequests("reports:link.too_many_tries")
    if state["locked"]:
        raise LinkDenied("reports:link.locked")
    if not state["valid"]:
        raise LinkDenied("reports:link.invalid")
    if expired(state):
        raise LinkDenied("reports:link.expired")
    if not state["enablePwd"]:
        return {"linkToken": issue_token(state, True)}
    if not isinstance(password, str) or not PASSWORD.match(password):
        raise BadRequest("reports:link.password_format")
    with unscoped():
        link = session().get(PanelLink, state["id"])
        assert link is not None
        right = hmac.compare_digest(crypto.decrypt(link.pwd_enc).encode(), password.encode())
        if right:
            link.failed_attempts = 0
            session().flush()
            forget(link.id)
            return {"linkToken": issue_token(_state(link), True)}
        link.failed_attempts += 1
        if link.failed_attempts >= report_settings().link_max_failures:
            link.locked = True
        session().flush()
        forget(link.id)
    return False


def _by_resource(resource_id: str | None, user: int | None) -> dict[str, Any] | None:
    if not resource_id or not isinstance(resource_id, str) or len(resource_id) > 32:
        return None
    with unscoped():
        q = select(PanelLink.id).where(PanelLink.panel_id == resource_id)
        if user is not None:
            q = q.where(PanelLink.user_id == user)
        ids = session().execute(q.order_by(PanelLink.created_at.desc()).limit(2)).scalars().all()
    if len(ids) != 1:
        return None
    return load_state(ids[0])


# ---------------------------------------------------------------------------
# managing links (signed in, manage privilege on the panel)
# ---------------------------------------------------------------------------


def link_public(link: PanelLink) -> dict[str, Any]:
    return {
        "id": link.id,
        "resourceId": link.panel_id,
        "user": link.user_id,
        "valid": link.valid,
        "enablePwd": link.enable_pwd,
        "pwd": crypto.decrypt(link.pwd_enc) if link.enable_pwd else "",
        "overTime": int(link.over_time.timestamp() * 1000) if link.over_time else None,
        "locked": link.locked,
        "failedAttempts": link.failed_attempts,
        "allowEmbed": link.embed_allowed,
        "embedOrigins": _origins(link),
        "uri": f"/dynamic-report/link/{link.id}",
    }


def find_link(panel: Panel, viewer: Viewer) -> PanelLink | None:
    """The caller's link to the panel (one per panel and user), if they ever enabled one."""
    return (
        session()
        .execute(select(PanelLink).where(PanelLink.panel_id == panel.id, PanelLink.user_id == viewer.user_id))
        .scalar()
    )


def unshared_public(panel: Panel, viewer: Viewer) -> dict[str, Any]:
    """What the share dialog shows before the link exists: off, no address, nothing written."""
    return {
        "id": None,
        "resourceId": panel.id,
        "user": viewer.user_id,
        "valid": False,
        "enablePwd": False,
        "pwd": "",
        "overTime": None,
        "locked": False,
        "failedAttempts": 0,
        "allowEmbed": False,
        "embedOrigins": [],
        "uri": None,
    }


def enable_link(panel: Panel, viewer: Viewer) -> PanelLink:
    """Turn the caller's link on, making it on first use: the one way a panel becomes public."""
    link = find_link(panel, viewer)
    if link is None:
        link = PanelLink(
            id=new_link_id(),
            panel_id=panel.id,
            user_id=viewer.user_id,
            valid=True,
            pwd_enc=crypto.encrypt(f"{secrets.randbelow(10_000):04d}"),
        )
        session().add(link)
    else:
        link.valid = True
        link.updated_at = utcnow()
    link.owner_admin, link.owner_roles = viewer.is_admin, json.dumps(sorted(viewer.roles))
    session().flush()
    forget(link.id)
    return link


def get_link(link_id: str) -> PanelLink:
    link = session().get(PanelLink, link_id) if isinstance(link_id, str) and LINK_ID.match(link_id) else None
    if link is None:
        raise NotFound("reports:link.not_found")
    return link


def update(
    link: PanelLink,
    *,
    valid: bool | None = None,
    enable_pwd: bool | None = None,
    password: str | None = None,
    over_time: datetime | None | bool = False,
    unlock: bool = False,
    allow_embed: bool | None = None,
    embed_origins: list[str] | None = None,
) -> None:
    origins = clean_origins(embed_origins) if embed_origins is not None else _origins(link)
    if (link.embed_allowed if allow_embed is None else allow_embed) and not origins:
        raise BadRequest("reports:link.embed_origins_required")
    if valid is not None:
        link.valid = valid
    if enable_pwd is not None:
        link.enable_pwd = enable_pwd
        link.pwd_version += 1
    if password is not None:
        if not PASSWORD.match(password):
            raise BadRequest("reports:link.password_format")
        link.pwd_enc = crypto.encrypt(password)
        link.pwd_version += 1
        unlock = True
    if over_time is not False:
        link.over_time = over_time if isinstance(over_time, datetime) else None
    if unlock:
        link.locked, link.failed_attempts = False, 0
    if allow_embed is not None:
        link.embed_allowed = allow_embed
    link.embed_origins = json.dumps(origins)
    link.updated_at = utcnow()
    session().flush()
    forget(link.id)


def rotate(link: PanelLink) -> PanelLink:
    """The same link under a new id, with its settings (password, expiry, embedding); the old address and
    every link token issued for it stop working at once."""
    db = session()
    fresh = PanelLink(
        id=new_link_id(),
        panel_id=link.panel_id,
        user_id=link.user_id,
        valid=link.valid,
        enable_pwd=link.enable_pwd,
        pwd_enc=link.pwd_enc,
        pwd_version=link.pwd_version + 1,
        over_time=link.over_time,
        owner_admin=link.owner_admin,
        owner_roles=link.owner_roles,
        embed_allowed=link.embed_allowed,
        embed_origins=link.embed_origins,
    )
    old_id = link.id
    db.delete(link)
    db.flush()
    db.add(fresh)
    db.flush()
    forget(old_id)
    return fresh


def public_jump_id(panel_id: str) -> str | None:
    """A valid link of the target panel (inner jumps open it); None when it has none."""
    rows = (
        session()
        .execute(
            select(PanelLink)
            .where(PanelLink.panel_id == panel_id, PanelLink.valid.is_(True))
            .order_by(PanelLink.created_at)
        )
        .scalars()
    )
    for link in rows:
        if not link.locked and not (link.over_time and link.over_time < utcnow()):
            return link.id
    return None


def require_manage(panel_id: str, viewer: Viewer) -> Panel:
    from atrium.plugins.reports.store.access import get_panel

    panel, _ = get_panel(panel_id, viewer, "manage")
    if viewer.link_id is not None:
        raise Forbidden()
    return panel
