"""The request context: who is asking, for which tenant and system, in which language."""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

DEFAULT_LOCALE = "zh-cn"
LOCALES = ("zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu")


@dataclass(frozen=True, slots=True)
class SessionUser:
    user_id: int
    account: str
    full_name: str
    tenant_id: int
    system_code: str
    is_super_admin: bool
    is_supervisor: bool
    roles: frozenset[int] = frozenset()
    token_id: int = 0
    portal_type: str = ""

    @property
    def is_admin(self) -> bool:
        return self.is_super_admin or self.is_supervisor


class LazySession:
    """A request's database session, opened on its first use: a request that never touches the database
    (one answered from caches) opens, commits and closes none."""

    __slots__ = ("factory", "session")

    def __init__(self, factory: Any) -> None:
        self.factory = factory
        self.session: Any = None

    def get(self) -> Any:
        if self.session is None:
            self.session = self.factory()
        return self.session


@dataclass(slots=True)
class RequestContext:
    request_id: str = ""
    locale: str = DEFAULT_LOCALE
    user: SessionUser | None = None
    tenant_id: int | None = None
    system_code: str = ""
    menu_id: str = ""
    request_menu_url: str = ""
    page_name: str = ""
    page_en_name: str = ""
    controller_url: str = ""
    login_form: str = ""
    client_ip: str = ""
    user_agent: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    response_headers: dict[str, str] = field(default_factory=dict)
    #: the session, or a `LazySession` that opens it when `db` is first read
    db_slot: Any = None
    unscoped: bool = False

    @property
    def db(self) -> Any:
        slot = self.db_slot
        return slot.get() if type(slot) is LazySession else slot

    @db.setter
    def db(self, value: Any) -> None:
        self.db_slot = value

    def require_user(self) -> SessionUser:
        if self.user is None:
            from atrium.sdk.errors import NotLoggedIn

            raise NotLoggedIn()
        return self.user


_current: contextvars.ContextVar[RequestContext | None] = contextvars.ContextVar("atrium_ctx", default=None)


def current_context() -> RequestContext:
    """The context of the running request, or an empty one outside requests (CLI, jobs)."""
    ctx = _current.get()
    if ctx is None:
        ctx = RequestContext()
        _current.set(ctx)
    return ctx


def current_user() -> SessionUser:
    """The signed-in caller; a request without one is answered "not signed in" (401)."""
    return current_context().require_user()


def current_tenant() -> int:
    """The tenant the signed-in caller works in (the request's tenant scope, else the session's)."""
    ctx = current_context()
    user = ctx.require_user()
    return ctx.tenant_id if ctx.tenant_id is not None else user.tenant_id


def set_context(ctx: RequestContext | None) -> contextvars.Token[RequestContext | None]:
    return _current.set(ctx)


def reset_context(token: contextvars.Token[RequestContext | None]) -> None:
    _current.reset(token)


@contextmanager
def tenant_scope(tenant_id: int | None) -> Iterator[RequestContext]:
    """Run a block as the given tenant (jobs, CLI, public routes that resolve their tenant themselves)."""
    outer = current_context()
    ctx = RequestContext(
        request_id=outer.request_id,
        locale=outer.locale,
        user=outer.user,
        tenant_id=tenant_id,
        system_code=outer.system_code,
        db_slot=outer.db_slot,
    )
    token = _current.set(ctx)
    try:
        yield ctx
    finally:
        _current.reset(token)


@contextmanager
def unscoped() -> Iterator[RequestContext]:
    """Lift tenant scoping for a block: only for platform-wide work (CLI, migrations, demo data, admin)."""
    outer = current_context()
    ctx = RequestContext(
        request_id=outer.request_id,
        locale=outer.locale,
        user=outer.user,
        tenant_id=outer.tenant_id,
        system_code=outer.system_code,
        db_slot=outer.db_slot,
        unscoped=True,
    )
    token = _current.set(ctx)
    try:
        yield ctx
    finally:
        _current.reset(token)
