"""Which of the platform's own sign-in modes a tenant offers: password, phone code and e-mail code.

Every mode is on unless the tenant's sign-in options switch it off, so a tenant without options (and a
sign-in page that names no tenant) offers all three. The server refuses a switched-off mode twice: up
front for the tenant the sign-in page names (public knowledge, the page shows the same), and once the
credentials are checked for the tenant the sign-in lands in (so only their owner learns of it)."""

from __future__ import annotations

from functools import partial
from typing import cast

from atrium.kernel.api.deps import kernel
from atrium.kernel.identity.models import SigninConfig
from atrium.sdk.context import unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest

MODES = ("account", "phone", "email")
COLUMNS = {"account": "password_enabled", "phone": "phone_code_enabled", "email": "email_code_enabled"}
REFUSALS = {
    "account": "signin.password_off",
    "phone": "signin.phone_code_off",
    "email": "signin.email_code_off",
}


#: the local cache's namespace of the modes a tenant offers (read on every sign-in), and the table it
#: is read from, whose writes drop it
SPACE = "signin-modes"
TABLES = (SigninConfig.__tablename__,)


def offered(tenant_id: int | None) -> tuple[str, ...]:
    """The modes the tenant offers, in the sign-in page's order."""
    if tenant_id is None:
        return MODES
    return cast(tuple[str, ...], kernel().local.keep(SPACE, tenant_id, partial(_read, tenant_id)))


def _read(tenant_id: int) -> tuple[str, ...]:
    with unscoped():
        row = session().get(SigninConfig, tenant_id)
    if row is None:
        return MODES
    return tuple(mode for mode in MODES if getattr(row, COLUMNS[mode]) is not False)


def require(tenant_id: int | None, mode: str) -> None:
    """Refuse a mode the tenant switched off, saying which, in the request's language."""
    if mode not in offered(tenant_id):
        raise BadRequest(REFUSALS[mode])
