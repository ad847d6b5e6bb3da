"""Effective permissions: the menus and buttons a user's roles grant in a tenant and system.

Three parts answer it. The system's menus and buttons (ids, parents, codes, names, display order) are kept
per system in the in-process cache, dropped only when a menu or button changes (`menus_changed`). Two
prepared Core statements read what changes with grants: one finds the user's administrator flags and roles;
one the menu and button ids those roles grant. The granted menus gain their ancestors from the kept tree.
The answer is kept too, per (tenant, system, administrator, set of roles), and dropped on every grant,
role and membership change (in every process, and again when the change commits)."""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from sqlalchemy import BigInteger, BindParameter, Table, any_, bindparam, literal, select, union_all
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import Session
from sqlalchemy.sql import CompoundSelect, Select

from atrium.kernel import menus
from atrium.kernel.api.deps import kernel
from atrium.kernel.models import Membership, Menu, MenuResource, RoleMenu, RoleResource, User, UserRole
from atrium.sdk.context import unscoped
from atrium.sdk.db import session

PERMISSIONS = menus.MENUS  # dropped with the menu trees: on every grant, menu and resource change
STRUCTURE = menus.MENU_STRUCTURE  # the systems' menus and buttons: on every menu and resource change


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
    """Rows (kind 0 menu / 1 button, id) the roles grant in the tenant, whatever the system.

    With `array` the roles travel as one PostgreSQL array, so the statement's text and its server-side
    prepared plan are the same whatever the number of roles; elsewhere they expand into an IN list."""
    rm, rr = _table(RoleMenu), _table(RoleResource)
    tenant: BindParameter[int] = bindparam("tenant")
    roles: BindParameter[Any] = (
        bindparam("roles", type_=postgresql.ARRAY(BigInteger))
        if array
        else bindparam("roles", expanding=True)
    )

    def held(column: Any) -> Any:
        return column == any_(roles) if array else column.in_(roles)

    return union_all(
        select(literal(0), rm.c.menu_id).where(rm.c.tenant_id == tenant, held(rm.c.role_id)),
        select(literal(1), rr.c.resource_id).where(rr.c.tenant_id == tenant, held(rr.c.role_id)),
    )


def _system_rows() -> CompoundSelect[Any]:
    """Every menu (kind 0: id, parent, code, name, sort) and button (kind 1: id, menu, code, name) of a
    system."""
    m, r = _table(Menu), _table(MenuResource)
    system: BindParameter[str] = bindparam("system")
    return union_all(
        select(literal(0), m.c.id, m.c.parent_id, m.c.code, m.c.name, m.c.sort).where(
            m.c.system_code == system
        ),
        select(literal(1), r.c.id, r.c.menu_id, r.c.code, r.c.name, r.c.menu_id)
        .join_from(r, m, m.c.id == r.c.menu_id)
        .where(m.c.system_code == system),
    )


HELD, GRANTED, GRANTED_PG, SYSTEM_ROWS = _held(), _granted(False), _granted(True), _system_rows()
DISPLAY_ORDER = itemgetter(0, 5, 1)  # menus, then buttons; by sort (buttons: by menu), then id


@dataclass(frozen=True, slots=True)
class Structure:
    """One system's menus and buttons in display order (menus by sort then id, buttons by menu then id),
    each already in its answer form, with every menu's parent."""

    menus: tuple[tuple[int, dict[str, Any]], ...]
    buttons: tuple[tuple[int, int, dict[str, Any]], ...]
    parents: dict[int, int | None]

    def everything(self) -> dict[str, Any]:
        return {"menus": [m for _, m in self.menus], "resources": [b for _, _, b in self.buttons]}

    def granted(self, menu_ids: set[int], button_ids: set[int]) -> dict[str, Any]:
        """The granted menus with every ancestor, and the granted buttons of those menus."""
        parents, kept = self.parents, set()
        for menu_id in menu_ids:
            node: int | None = menu_id
            while node is not None and node in parents and node not in kept:
                kept.add(node)
                node = parents[node]
        return {
            "menus": [m for i, m in self.menus if i in kept],
            "resources": [b for i, owner, b in self.buttons if i in button_ids and owner in kept],
        }


def structure(system_code: str) -> Structure:
    """The system's menus and buttons, read once and kept until a menu or button changes."""
    cache = kernel().local
    found: Structure | None = cache.get(STRUCTURE, system_code)
    if found is not None:
        return found
    with unscoped():
        found_rows = session().connection().execute(SYSTEM_ROWS, {"system": system_code}).all()
    rows = sorted(found_rows, key=DISPLAY_ORDER)
    found = Structure(
        menus=tuple(
            (i, {"menuId": str(i), "menuCode": code, "menuName": name, "parentId": str(up) if up else None})
            for kind, i, up, code, name, _ in rows
            if not kind
        ),
        buttons=tuple(
            (i, up, {"resourceId": str(i), "menuId": str(up), "resourceCode": code, "resourceName": name})
            for kind, i, up, code, name, _ in rows
            if kind
        ),
        parents={i: up for kind, i, up, *_ in rows if not kind},
    )
    cache.put(STRUCTURE, system_code, found)
    return found


def menus_changed(db: Session) -> None:
    """A menu or button was written: drop the kept systems, menu trees and answers, now and on commit."""
    cache = kernel().local
    cache.invalidate_on_commit(db, STRUCTURE)
    cache.invalidate_on_commit(db, PERMISSIONS)


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
    """The answer lists in display order, as the API shows them."""
    if not everything and not roles:
        return {"menus": [], "resources": []}
    system = structure(system_code)
    if everything:
        return system.everything()
    conn = session().connection()
    statement = GRANTED_PG if conn.dialect.name == "postgresql" else GRANTED
    rows = conn.execute(statement, {"tenant": tenant_id, "roles": sorted(roles)}).all()
    return system.granted({i for kind, i in rows if not kind}, {i for kind, i in rows if kind})
