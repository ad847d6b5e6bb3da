"""User routes (`/api/base/admin/users...`): members, accounts, memberships, roles, permissions."""

from __future__ import annotations

from typing import Any

from atrium.sdk.accounts import (
    MembershipIn,
    MembershipRemoveIn,
    PasswordResetIn,
    PermissionQuery,
    TenantQuery,
    UserIdQuery,
    UserIn,
    UserPageQuery,
    UserRoleIn,
    UserStateIn,
    UserUpdateIn,
)
from atrium.sdk.routing import Router
from atrium.sdk.services import services

router = Router("/api/base/admin")


@router.get("/users", permission="admin", query=TenantQuery)
def list_users(query: TenantQuery) -> list[dict[str, Any]]:
    """Users of a tenant."""
    return services().administration.users.all(query)


@router.post("/users", permission="admin", body=UserIn)
def create_user(body: UserIn) -> dict[str, Any]:
    """Create a user in a tenant."""
    return services().administration.users.create(body)


@router.post("/users/state", permission="admin", body=UserStateIn)
def set_user_state(body: UserStateIn) -> None:
    """Enable or disable a user; disabling revokes their sessions. A super administrator switches the
    account (every tenant); a supervisor switches the user's membership of their own tenant."""
    services().administration.users.set_state(body)


@router.post("/users/roles", permission="admin", body=UserRoleIn)
def assign_role(body: UserRoleIn) -> None:
    """Give a user of the tenant a role."""
    services().administration.users.assign_role(body)


@router.get("/users/page", permission="admin", query=UserPageQuery)
def page_users(query: UserPageQuery) -> dict[str, Any]:
    """One page of a tenant's users, searched by account or name, with the total."""
    return services().administration.users.page(query)


@router.get("/users/detail", permission="admin", query=UserIdQuery)
def user_detail(query: UserIdQuery) -> dict[str, Any]:
    """A user with their memberships (every tenant for a super administrator, else this one) and roles."""
    return services().administration.users.detail(query)


@router.post("/users/update", permission="admin", body=UserUpdateIn)
def update_user(body: UserUpdateIn) -> dict[str, Any]:
    """Change a user's name, contact and (in this tenant) supervisor flag."""
    return services().administration.users.update(body)


@router.post("/users/password", permission="admin", body=PasswordResetIn)
def reset_password(body: PasswordResetIn) -> None:
    """Give a user a new password they must change at the next sign-in; their sessions end."""
    services().administration.users.reset_password(body)


@router.post("/users/unlock", permission="admin", body=UserIdQuery)
def unlock_user(body: UserIdQuery) -> None:
    """Lift a lockout after failed sign-ins."""
    services().administration.users.unlock(body)


@router.post("/users/memberships", permission="super-admin", body=MembershipIn)
def add_membership(body: MembershipIn) -> None:
    """Let a user into another tenant (or change their supervisor flag there)."""
    services().administration.users.add_membership(body)


@router.post("/users/memberships/remove", permission="super-admin", body=MembershipRemoveIn)
def remove_membership(body: MembershipRemoveIn) -> None:
    """Take a user out of a tenant: their roles there and their sessions in it go too. A user keeps at
    least one tenant, and their default tenant moves to one they still belong to."""
    services().administration.users.remove_membership(body)


@router.post("/users/roles/remove", permission="admin", body=UserRoleIn)
def remove_role(body: UserRoleIn) -> None:
    """Take a role away from a user of the tenant."""
    services().administration.users.remove_role(body)


@router.get("/users/permissions", permission="admin", query=PermissionQuery)
def user_permissions(query: PermissionQuery) -> dict[str, Any]:
    """Effective permissions of a user in a tenant and system: menus and buttons through their roles."""
    return services().administration.users.permissions(query)
