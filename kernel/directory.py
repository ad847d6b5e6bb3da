"""The SDK's `Directory` service: read-only look-ups of tenants, users, roles and systems for plugins.

Each call names the tenant it asks about, so it reads outside the session's tenant scope
(`unscoped`) and puts that tenant into every statement itself; nothing here writes.

A tenant's active member ids and its systems are asked for by every letter sent (a process step sends
one), so they are kept in the kernel's local cache, dropped in every process by any write to the users,
memberships, systems or tenant-systems table (`LocalCache.drop_on_writes`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

from sqlalchemy import Select, bindparam, select

from atrium.kernel.models import (
    Membership,
    MenuResource,
    Role,
    RoleResource,
    System,
    Tenant,
    TenantSystem,
    User,
    UserRole,
)
from atrium.kernel.services.local_cache import LocalCache
from atrium.sdk.context import unscoped
from atrium.sdk.db import session
from atrium.sdk.types import Person, SystemInfo, TenantInfo

_PERSON = (User.id, User.account, User.full_name, User.staff_no, User.mobile, User.email, User.department)


def _person(row: Any) -> Person:
    uid, account, full_name, staff_no, mobile, email, department = row
    return Person(
        int(uid), account, full_name or "", staff_no or "", mobile or "", email or "", department or ""
    )


def _active_member_ids(tenant_id: Any) -> Select[Any]:
    """The ids of the tenant's enabled members who are enabled users (``tenant_id`` a value or a bound
    parameter)."""
    return (
        select(User.id)
        .join(Membership, Membership.user_id == User.id)
        .where(Membership.tenant_id == tenant_id, Membership.enabled.is_(True), User.enabled.is_(True))
    )


#: the local cache's namespace of the kept answers
DIRECTORY = "directory"
#: the tables whose writes may change a kept answer (the kernel drops the namespace on their writes)
TABLES = (User.__tablename__, Membership.__tablename__, System.__tablename__, TenantSystem.__tablename__)


_MEMBER_IDS = _active_member_ids(bindparam("tenant_id"))
_SYSTEMS = (
    select(System.code, System.name, System.en_name)
    .join(TenantSystem, TenantSystem.system_code == System.code)
    .where(TenantSystem.tenant_id == bindparam("tenant_id"))
    .order_by(System.code)
)


class KernelDirectory:
    def __init__(self, local: LocalCache) -> None:
        self._local = local

    def _kept(self, key: tuple[Any, ...], read: Callable[[], Any]) -> Any:
        with unscoped():
            return self._local.keep(DIRECTORY, key, read)

    def tenant(self, tenant_id: int | None = None, domain: str = "") -> TenantInfo | None:
        """An enabled tenant by id, else by its sign-in domain."""
        with unscoped():
            if tenant_id is not None:
                found = session().get(Tenant, tenant_id)
            elif domain:
                found = session().execute(select(Tenant).where(Tenant.domain == domain)).scalars().first()
            else:
                found = None
        if found is None or not found.enabled:
            return None
        return TenantInfo(found.id, found.name, found.domain)

    def users(self, user_ids: Iterable[int]) -> dict[int, Person]:
        ids = list(user_ids)
        if not ids:
            return {}
        with unscoped():
            rows = session().execute(select(*_PERSON).where(User.id.in_(ids))).all()
        return {int(r[0]): _person(r) for r in rows}

    def members(self, tenant_id: int, user_ids: Iterable[int] | None = None) -> list[Person]:
        stmt = select(*_PERSON).where(User.id.in_(_active_member_ids(tenant_id))).order_by(User.id)
        if user_ids is not None:
            stmt = stmt.where(User.id.in_(list(user_ids)))
        with unscoped():
            return [_person(r) for r in session().execute(stmt).all()]

    def members_with_contact(self, tenant_id: int, channel: str, target: str) -> list[int]:
        """Enabled members whose mobile (``sms``) or e-mail (``email``) is exactly `target`."""
        column = User.mobile if channel == "sms" else User.email
        stmt = select(User.id).where(column == target, User.id.in_(_active_member_ids(tenant_id)))
        with unscoped():
            return [int(u) for u in session().execute(stmt).scalars()]

    def roles(self, tenant_id: int, role_ids: Iterable[int] | None = None) -> dict[int, str]:
        stmt = select(Role.id, Role.name).where(Role.tenant_id == tenant_id).order_by(Role.id)
        if role_ids is not None:
            stmt = stmt.where(Role.id.in_(list(role_ids)))
        with unscoped():
            return {int(i): n for i, n in session().execute(stmt).all()}

    def role_members(self, tenant_id: int, role_ids: Iterable[int]) -> set[int]:
        stmt = select(UserRole.user_id).where(
            UserRole.tenant_id == tenant_id,
            UserRole.role_id.in_(list(role_ids)),
            UserRole.user_id.in_(_active_member_ids(tenant_id)),
        )
        with unscoped():
            return {int(u) for u in session().execute(stmt).scalars()}

    def member_ids(self, tenant_id: int) -> frozenset[int]:
        """The ids of the tenant's enabled members who are enabled users (kept until such a row changes)."""

        def read() -> frozenset[int]:
            ids = session().execute(_MEMBER_IDS, {"tenant_id": tenant_id}).scalars()
            return frozenset(int(u) for u in ids)

        return cast(frozenset[int], self._kept(("members", tenant_id), read))

    def systems(self, tenant_id: int) -> list[SystemInfo]:
        """The systems offered to the tenant, by code (kept until a system or the tenant's systems change)."""

        def read() -> tuple[SystemInfo, ...]:
            rows = session().execute(_SYSTEMS, {"tenant_id": tenant_id})
            return tuple(SystemInfo(c, n, e or "") for c, n, e in rows)

        return list(self._kept(("systems", tenant_id), read))

    def granted_codes(self, tenant_id: int, role_ids: Iterable[int]) -> frozenset[str]:
        """The button codes the roles are granted in the tenant, in any system; kept until a grant, role or
        menu changes (the effective permissions' namespace)."""
        from atrium.kernel.menus import MENUS

        roles = frozenset(int(r) for r in role_ids)
        if not roles:
            return frozenset()

        def read() -> frozenset[str]:
            stmt = (
                select(MenuResource.code)
                .join(RoleResource, RoleResource.resource_id == MenuResource.id)
                .where(RoleResource.tenant_id == tenant_id, RoleResource.role_id.in_(sorted(roles)))
                .distinct()
            )
            with unscoped():
                return frozenset(session().execute(stmt).scalars())

        return cast(frozenset[str], self._local.keep(MENUS, ("granted-codes", tenant_id, roles), read))
