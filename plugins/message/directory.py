"""Read-only look-ups of the platform's users, roles and systems, for addressing letters.

The SDK has no directory service yet, so these read the kernel's tables through lightweight
SQLAlchemy Core declarations (no import of the kernel). Core statements are not tenant-scoped by the
session, hence the explicit tenant conditions here; nothing in this module writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Boolean, Integer, String, column, select, table

from atrium.sdk.db import session

_user = table(
    "user_account", column("id", Integer), column("account", String), column("full_name", String),
    column("enabled", Boolean),
)
_membership = table(
    "membership", column("user_id", Integer), column("tenant_id", Integer), column("enabled", Boolean),
)
_role = table("role", column("id", Integer), column("tenant_id", Integer), column("code", String),
              column("name", String))
_user_role = table("user_role", column("tenant_id", Integer), column("user_id", Integer),
                   column("role_id", Integer))
_system = table("system", column("code", String), column("name", String), column("en_name", String))
_tenant_system = table("tenant_system", column("tenant_id", Integer), column("system_code", String))


@dataclass(frozen=True)
class Person:
    user_id: int
    account: str
    full_name: str


def _active_members(tenant_id: int) -> object:
    return (
        select(_user.c.id)
        .join(_membership, _membership.c.user_id == _user.c.id)
        .where(_membership.c.tenant_id == tenant_id, _membership.c.enabled.is_(True),
               _user.c.enabled.is_(True))
    )


def members(tenant_id: int, user_ids: Iterable[int] | None = None) -> list[Person]:
    """Enabled users of the tenant (optionally only those among `user_ids`), by id."""
    stmt = (
        select(_user.c.id, _user.c.account, _user.c.full_name)
        .join(_membership, _membership.c.user_id == _user.c.id)
        .where(_membership.c.tenant_id == tenant_id, _membership.c.enabled.is_(True),
               _user.c.enabled.is_(True))
        .order_by(_user.c.id)
    )
    if user_ids is not None:
        stmt = stmt.where(_user.c.id.in_(list(user_ids)))
    return [Person(int(i), a, n) for i, a, n in session().execute(stmt).all()]


def roles(tenant_id: int, role_ids: Iterable[int] | None = None) -> dict[int, str]:
    """Role id to name for the tenant's roles (optionally only those among `role_ids`)."""
    stmt = select(_role.c.id, _role.c.name).where(_role.c.tenant_id == tenant_id).order_by(_role.c.id)
    if role_ids is not None:
        stmt = stmt.where(_role.c.id.in_(list(role_ids)))
    return {int(i): n for i, n in session().execute(stmt).all()}


def role_members(tenant_id: int, role_ids: Iterable[int]) -> set[int]:
    """Enabled members of the tenant holding any of the roles."""
    stmt = (
        select(_user_role.c.user_id)
        .where(_user_role.c.tenant_id == tenant_id, _user_role.c.role_id.in_(list(role_ids)),
               _user_role.c.user_id.in_(_active_members(tenant_id)))  # type: ignore[arg-type]
    )
    return {int(u) for u in session().execute(stmt).scalars()}


def all_members(tenant_id: int) -> set[int]:
    return {int(u) for u in session().execute(_active_members(tenant_id)).scalars()}  # type: ignore[call-overload]


def ids_by_account(tenant_id: int, accounts: Iterable[str]) -> dict[str, int]:
    found = members(tenant_id)
    wanted = set(accounts)
    return {p.account: p.user_id for p in found if p.account in wanted}


def systems(tenant_id: int) -> list[tuple[str, str, str]]:
    """(code, name, en_name) of the systems offered to the tenant."""
    stmt = (
        select(_system.c.code, _system.c.name, _system.c.en_name)
        .join(_tenant_system, _tenant_system.c.system_code == _system.c.code)
        .where(_tenant_system.c.tenant_id == tenant_id)
        .order_by(_system.c.code)
    )
    return [(c, n, e or "") for c, n, e in session().execute(stmt).all()]


def system_codes(tenant_id: int) -> list[str]:
    return [c for c, _n, _e in systems(tenant_id)]
