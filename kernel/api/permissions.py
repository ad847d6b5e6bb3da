"""Effective permissions: the menus and buttons a user's roles grant in a tenant and system.

Two prepared Core statements answer it (no ORM objects): one finds the user's administrator flags and
roles; one finds, in a single round trip, the menus the roles grant with every ancestor (a recursive
common table expression) and the granted buttons of those menus, put in display order here. The answer
is kept in the in-process cache per (tenant, system, administrator, set of roles); every grant, role,
membership, menu and resource change drops it (in every process, and again when the change commits)."""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from sqlalchemy import BigInteger, BindParameter, Table, any_, bindparam, literal, select, union_all
from sqlalchemy.dialects import postgresql
from sqlalchemy.sql import CompoundSelect, Select

from atrium.kernel import menus
from atrium.kernel.api.deps import kernel
from atrium.kernel.models import Membership, Menu, MenuResource, RoleMenu, RoleResource, User, UserRole
from atrium.sdk.context import unscoped
from atrium.sdk.db import session

PERMISSIONS = menus.MENUS  # dropped with the menu trees: on every grant, menu and resource change


def _table(model: Any) -> Table:
    table: Table = model.__table__
    return table


def _held() -> Select[Any]:
    u, ms, ur = _table(User), _table(Membership), _table(UserRole)
    tenant: BindParameter[int] = bindparam("tenant")
    user: BindParameter[int] = bindparam("user")
    return (
        select(u.c.is_super_admin, ms.c.is_supervisor, ur.c.role_id)
        .select_from(
            u.join(ms, ms.c.user_id == u.c.id).outerjoin(
                ur, (ur.c.user_id == u.c.id) & (ur.c.tenant_id == tenant)
            )
        )
        .where(u.c.id == user, ms.c.tenant_id == tenant)
    )


def _granted(array: bool) -> CompoundSelect[Any]:
    """Rows (kind 0 menu / 1 button, id, parent or menu, code, name, order) of what the roles grant.

    With `array` the roles travel as one PostgreSQL array, so the statement's text and its server-side
    prepared plan are the same whatever the number of roles; elsewhere they expand into an IN list."""
    m, r, rm, rr = _table(Menu), _table(MenuResource), _table(RoleMenu), _table(RoleResource)
    tenant: BindParameter[int] = bindparam("tenant")
    system: BindParameter[str] = bindparam("system")
    roles: BindParameter[Any] = (
        bindparam("roles", type_=postgresql.ARRAY(BigInteger))
        if array
        else bindparam("roles", expanding=True)
    )

    def held(column: Any) -> Any:
        return column == any_(roles) if array else column.in_(roles)

    seed = select(m.c.id, m.c.parent_id).where(
        m.c.system_code == system,
        m.c.id.in_(select(rm.c.menu_id).where(rm.c.tenant_id == tenant, held(rm.c.role_id))),
    )
    kept = seed.cte("kept", recursive=True)
    parent = m.alias("parent")
    kept = kept.union(
        select(parent.c.id, parent.c.parent_id).where(
            parent.c.id == kept.c.parent_id, parent.c.system_code == system
        )
    )
    return union_all(
        select(
            literal(0).label("kind"),
            m.c.id.label("id"),
            m.c.parent_id.label("owner"),
            m.c.code,
            m.c.name,
            m.c.sort.label("ord"),
        ).join_from(m, kept, kept.c.id == m.c.id),
        select(literal(1), r.c.id, r.c.menu_id, r.c.code, r.c.name, r.c.menu_id)
        .join_from(r, kept, kept.c.id == r.c.menu_id)
        .where(r.c.id.in_(select(rr.c.resource_id).where(rr.c.tenant_id == tenant, held(rr.c.role_id)))),
    )


def _everything() -> CompoundSelect[Any]:
    """The same rows for every menu and button of the system (administrators)."""
    m, r = _table(Menu), _table(MenuResource)
    system: BindParameter[str] = bindparam("system")
    return union_all(
        select(
            literal(0).label("kind"),
            m.c.id,
            m.c.parent_id.label("owner"),
            m.c.code,
            m.c.name,
            m.c.sort.label("ord"),
        ).where(m.c.system_code == system),
        select(literal(1), r.c.id, r.c.menu_id, r.c.code, r.c.name, r.c.menu_id)
        .join_from(r, m, m.c.id == r.c.menu_id)
        .where(m.c.system_code == system),
    )


DISPLAY_ORDER = itemgetter(0, 5, 1)  # menus, then buttons; by sort (buttons: by menu), then id
HELD, GRANTED, GRANTED_PG, EVERYTHING = _held(), _granted(False), _granted(True), _everything()


def effective_permissions(user_id: int, tenant_id: int, system_code: str) -> dict[str, Any]:
    """The menus and buttons a user's roles in a tenant grant in a system (administrators see all)."""
    conn = session().connection()
    with unscoped():
        held = conn.execute(HELD, {"user": user_id, "tenant": tenant_id}).all()
    everything = any(r[0] or r[1] for r in held)
    roles = frozenset(r[2] for r in held if r[2] is not None)
    cache = kernel().local
    key = ("permissions", tenant_id, system_code, everything, roles)
    granted = cache.get(PERMISSIONS, key)
    if granted is None:
        granted = _compute(tenant_id, system_code, everything, roles)
        cache.put(PERMISSIONS, key, granted)
    return {"all": everything, "roleIds": sorted(roles), **granted}


def _compute(tenant_id: int, system_code: str, everything: bool, roles: frozenset[int]) -> dict[str, Any]:
    """The answer rows in display order, as the API shows them."""
    if not everything and not roles:
        return {"menus": [], "resources": []}
    conn = session().connection()
    granted = GRANTED_PG if conn.dialect.name == "postgresql" else GRANTED
    statement = EVERYTHING if everything else granted
    args = {"system": system_code, "tenant": tenant_id, "roles": sorted(roles)}
    rows = sorted(conn.execute(statement, args).all(), key=DISPLAY_ORDER)
    return {
        "menus": [
            {"menuId": str(i), "menuCode": code, "menuName": name, "parentId": str(owner) if owner else None}
            for kind, i, owner, code, name, _ in rows
            if not kind
        ],
        "resources": [
            {"resourceId": str(i), "menuId": str(owner), "resourceCode": code, "resourceName": name}
            for kind, i, owner, code, name, _ in rows
            if kind
        ],
    }
