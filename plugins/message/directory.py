"""The platform's users, roles and systems as letters address them, from the SDK's directory."""

from __future__ import annotations

from collections.abc import Iterable

from atrium.sdk.services import services
from atrium.sdk.types import Person, SystemInfo

__all__ = [
    "Person",
    "all_members",
    "ids_by_account",
    "members",
    "role_members",
    "roles",
    "system_codes",
    "systems",
]


def members(tenant_id: int, user_ids: Iterable[int] | None = None) -> list[Person]:
    """Enabled users of the tenant (optionally only those among `user_ids`), by id."""
    return services().directory.members(tenant_id, user_ids)


def all_members(tenant_id: int) -> frozenset[int]:
    """The ids of the tenant's enabled members."""
    return services().directory.member_ids(tenant_id)


def ids_by_account(tenant_id: int, accounts: Iterable[str]) -> dict[str, int]:
    wanted = set(accounts)
    return {p.account: p.user_id for p in members(tenant_id) if p.account in wanted}


def roles(tenant_id: int, role_ids: Iterable[int] | None = None) -> dict[int, str]:
    """Role id to name for the tenant's roles (optionally only those among `role_ids`)."""
    return services().directory.roles(tenant_id, role_ids)


def role_members(tenant_id: int, role_ids: Iterable[int]) -> set[int]:
    """Enabled members of the tenant holding any of the roles."""
    return services().directory.role_members(tenant_id, role_ids)


def systems(tenant_id: int) -> list[SystemInfo]:
    """The systems offered to the tenant, by code."""
    return services().directory.systems(tenant_id)


def system_codes(tenant_id: int) -> list[str]:
    return [s.code for s in systems(tenant_id)]
