"""Accounts: tenants and the systems they are offered, users and their memberships, roles and their menu
grants. Shared by the administration service (`atrium.kernel.administration`, which the admin plugin's
HTTP API calls), the command line, the identity modules (sign-up, LDAP and single sign-on create users) and
the demo."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select

from atrium.kernel.identity.passwords import hash_password
from atrium.kernel.identity.sessions import revoke_user, revoke_where
from atrium.kernel.models import (
    DEFAULT_SYSTEM,
    AuthToken,
    Membership,
    Role,
    RoleMenu,
    System,
    Tenant,
    TenantSystem,
    User,
    UserRole,
)
from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, Conflict, NotFound

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel


def create_tenant(
    tenant_id: int,
    name: str,
    domain: str = "",
    parent_id: int | None = None,
    systems: tuple[str, ...] = (DEFAULT_SYSTEM,),
) -> Tenant:
    db = session()
    if not 1 <= len(name.strip()) <= 16:
        raise BadRequest("tenant.name_length")
    with unscoped():
        if db.get(Tenant, tenant_id) is not None:
            raise Conflict("tenant.exists")
        tenant = Tenant(id=tenant_id, name=name.strip(), domain=domain, parent_id=parent_id)
        db.add(tenant)
        db.flush()
    for code in systems:
        offer_system(tenant_id, code)
    return tenant


def offer_system(tenant_id: int, code: str, **branding: str) -> None:
    db = session()
    with unscoped():
        if db.get(System, code) is None:
            raise NotFound("system.not_found")
    with tenant_scope(tenant_id):
        row = db.execute(select(TenantSystem).where(TenantSystem.system_code == code)).scalar()
        if row is None:
            row = TenantSystem(system_code=code)
            db.add(row)
        for key, value in branding.items():
            setattr(row, key, value)
        db.flush()


def withdraw_system(tenant_id: int, code: str) -> None:
    """Stop offering a system to a tenant; the default system stays (everyone signs in to it)."""
    if code == DEFAULT_SYSTEM:
        raise BadRequest("system.default_required")
    db = session()
    with tenant_scope(tenant_id):
        row = db.execute(select(TenantSystem).where(TenantSystem.system_code == code)).scalar()
        if row is None:
            raise NotFound("system.not_found")
        db.delete(row)
        db.flush()


def create_user(
    account: str,
    password: str,
    full_name: str,
    tenant_id: int,
    *,
    supervisor: bool = False,
    super_admin: bool = False,
    **fields: object,
) -> User:
    db = session()
    account = account.strip()
    if not account or len(account) > 64:
        raise BadRequest("user.account_invalid")
    if not 6 <= len(password) <= 64:
        raise BadRequest("password.rule", min=6, max=12)
    with unscoped():
        if db.execute(select(User.id).where(User.account == account)).first() is not None:
            raise Conflict("user.exists")
        if db.get(Tenant, tenant_id) is None:
            raise NotFound("tenant.not_found")
        user = User(
            account=account,
            password_hash=hash_password(password),
            full_name=full_name,
            is_super_admin=super_admin,
            default_tenant_id=tenant_id,
            **fields,
        )
        db.add(user)
        db.flush()
        db.add(Membership(user_id=user.id, tenant_id=tenant_id, is_supervisor=supervisor))
        db.flush()
    return user


def add_membership(user_id: int, tenant_id: int, supervisor: bool = False) -> None:
    db = session()
    with unscoped():
        if db.get(Tenant, tenant_id) is None:
            raise NotFound("tenant.not_found")
        row = db.execute(
            select(Membership).where(Membership.user_id == user_id, Membership.tenant_id == tenant_id)
        ).scalar()
        if row is None:
            db.add(Membership(user_id=user_id, tenant_id=tenant_id, is_supervisor=supervisor))
        else:
            row.is_supervisor = supervisor
            row.enabled = True
        db.flush()


def set_user_enabled(kernel: Kernel, user_id: int, enabled: bool) -> None:
    db = session()
    with unscoped():
        user = db.get(User, user_id)
    if user is None:
        raise NotFound("user.not_found")
    user.enabled = enabled
    if not enabled:
        revoke_user(db, kernel, user_id, "account disabled")
    kernel.local.invalidate("profile")


def set_member_enabled(kernel: Kernel, user_id: int, tenant_id: int, enabled: bool) -> None:
    """Let a user in or out of one tenant only (a supervisor's switch); their other tenants are untouched."""
    db = session()
    with unscoped():
        member = db.execute(
            select(Membership).where(Membership.user_id == user_id, Membership.tenant_id == tenant_id)
        ).scalar()
        if member is None:
            raise NotFound("user.not_found")
        member.enabled = enabled
        if not enabled:
            revoked = revoke_where(db, kernel, AuthToken.user_id == user_id, AuthToken.tenant_id == tenant_id)
            if revoked:
                kernel.ws.close_sessions(user_id, revoked, "account disabled")
    kernel.local.invalidate("profile")


def create_role(code: str, name: str) -> Role:
    db = session()
    if db.execute(select(Role.id).where(Role.code == code)).first() is not None:
        raise Conflict("role.exists")
    role = Role(code=code, name=name)
    db.add(role)
    db.flush()
    return role


def assign_role(kernel: Kernel, user_id: int, role_id: int) -> None:
    db = session()
    if db.execute(select(Role.id).where(Role.id == role_id)).first() is None:
        raise NotFound("role.not_found")
    if db.execute(
        select(UserRole.id).where(UserRole.user_id == user_id, UserRole.role_id == role_id)
    ).first():
        return
    db.add(UserRole(user_id=user_id, role_id=role_id))
    db.flush()
    kernel.local.invalidate("session")


def grant_menus(kernel: Kernel, role_id: int, menu_ids: list[int]) -> None:
    """Replace the role's menu grants."""
    db = session()
    if db.execute(select(Role.id).where(Role.id == role_id)).first() is None:
        raise NotFound("role.not_found")
    for row in db.execute(select(RoleMenu).where(RoleMenu.role_id == role_id)).scalars():
        db.delete(row)
    db.flush()
    for mid in sorted(set(menu_ids)):
        db.add(RoleMenu(role_id=role_id, menu_id=mid))
    db.flush()
    kernel.local.invalidate("menus")
