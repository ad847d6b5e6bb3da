"""Admin API: tenants, users, roles, grants, menus, systems and plugin enablement.

Super administrators act on any tenant; supervisors only inside their own.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, field_validator
from sqlalchemy import select

from atrium.kernel import admin, menus
from atrium.kernel.api.deps import kernel
from atrium.kernel.api.manifest import plugins as plugin_rows
from atrium.kernel.models import Membership, Menu, PasswordStrategy, Role, RoleMenu, System, Tenant, User
from atrium.sdk.context import current_context, tenant_scope, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, Forbidden, NotFound
from atrium.sdk.routing import Router

router = Router("/api/base/admin")


def target_tenant(requested: int | None) -> int:
    su = current_context().require_user()
    if requested is None or requested == su.tenant_id:
        return su.tenant_id
    if not su.is_super_admin:
        raise Forbidden()
    with unscoped():
        if session().get(Tenant, requested) is None:
            raise NotFound("tenant.not_found")
    return requested


class TenantQuery(BaseModel):
    tenantId: int | None = None


@router.get("/tenants", permission="super-admin")
def list_tenants() -> list[dict[str, Any]]:
    """Every tenant."""
    with unscoped():
        rows = session().execute(select(Tenant).order_by(Tenant.id)).scalars().all()
    return [
        {
            "tenantId": t.id,
            "tenantName": t.name,
            "domain": t.domain,
            "parentTenantId": t.parent_id,
            "enabled": t.enabled,
        }
        for t in rows
    ]


class TenantIn(BaseModel):
    tenantId: int = Field(ge=1, le=2**53)
    tenantName: str = Field(min_length=1, max_length=16)
    domain: str = Field(default="", max_length=128)
    parentTenantId: int | None = None

    @field_validator("tenantName", mode="before")
    @classmethod
    def _name_length(cls, v: Any) -> Any:
        """The spec's own message for the company name rule, blank names included."""
        if isinstance(v, str):
            v = v.strip()
            if not 1 <= len(v) <= 16:
                raise BadRequest("tenant.name_length")
        return v


@router.post("/tenants", permission="super-admin", body=TenantIn)
def create_tenant(body: TenantIn) -> dict[str, Any]:
    """Create a tenant with the default system."""
    t = admin.create_tenant(body.tenantId, body.tenantName, body.domain, body.parentTenantId)
    return {"tenantId": t.id}


@router.get("/users", permission="admin", query=TenantQuery)
def list_users(query: TenantQuery) -> list[dict[str, Any]]:
    """Users of a tenant."""
    tid = target_tenant(query.tenantId)
    with unscoped():
        rows = (
            session()
            .execute(
                select(User, Membership)
                .join(Membership, Membership.user_id == User.id)
                .where(Membership.tenant_id == tid)
                .order_by(User.id)
            )
            .all()
        )
    return [
        {
            "userId": u.id,
            "account": u.account,
            "userFullName": u.full_name,
            "enabled": u.enabled and m.enabled,
            "isAdmin": 2 if m.is_supervisor else 0,
            "isSuperAdmin": 1 if u.is_super_admin else 0,
        }
        for u, m in rows
    ]


class UserIn(BaseModel):
    account: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=6, max_length=12, pattern=r"^[A-Za-z0-9]+$")
    userFullName: str = Field(min_length=1, max_length=64)
    tenantId: int | None = None
    supervisor: bool = False
    mobile: str = Field(default="", max_length=32)
    email: str = Field(default="", max_length=128)
    mustChangePassword: bool = True


@router.post("/users", permission="admin", body=UserIn)
def create_user(body: UserIn) -> dict[str, Any]:
    """Create a user in a tenant."""
    tid = target_tenant(body.tenantId)
    u = admin.create_user(
        body.account,
        body.password,
        body.userFullName,
        tid,
        supervisor=body.supervisor,
        mobile=body.mobile,
        email=body.email,
        must_change_pwd=body.mustChangePassword,
    )
    return {"userId": u.id}


class UserStateIn(BaseModel):
    userId: int
    enabled: bool
    tenantId: int | None = None


@router.post("/users/state", permission="admin", body=UserStateIn)
def set_user_state(body: UserStateIn) -> None:
    """Enable or disable a user; disabling revokes their sessions. A super administrator switches the
    account (every tenant); a supervisor switches the user's membership of their own tenant."""
    tid = target_tenant(body.tenantId)
    with unscoped():
        member = (
            session()
            .execute(select(Membership).where(Membership.user_id == body.userId, Membership.tenant_id == tid))
            .scalar()
        )
    if member is None:
        raise NotFound("user.not_found")
    with unscoped():
        target = session().get(User, body.userId)
    if current_context().require_user().is_super_admin:
        admin.set_user_enabled(kernel(), body.userId, body.enabled)  # the account, in every tenant
        return
    if target is not None and target.is_super_admin:
        raise Forbidden()  # a tenant's supervisor must not lock out the platform's administrator
    admin.set_member_enabled(kernel(), body.userId, tid, body.enabled)  # this tenant only


@router.get("/roles", permission="admin", query=TenantQuery)
def list_roles(query: TenantQuery) -> list[dict[str, Any]]:
    """Roles of a tenant with their granted menus."""
    tid = target_tenant(query.tenantId)
    db = session()
    with tenant_scope(tid):
        roles = db.execute(select(Role).order_by(Role.id)).scalars().all()
        grants = db.execute(select(RoleMenu.role_id, RoleMenu.menu_id)).all()
    return [
        {
            "roleId": r.id,
            "roleCode": r.code,
            "roleName": r.name,
            "menuIds": [str(m) for rid, m in grants if rid == r.id],
        }
        for r in roles
    ]


class RoleIn(BaseModel):
    roleCode: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
    roleName: str = Field(min_length=1, max_length=64)
    tenantId: int | None = None


@router.post("/roles", permission="admin", body=RoleIn)
def create_role(body: RoleIn) -> dict[str, Any]:
    """Create a role in a tenant."""
    with tenant_scope(target_tenant(body.tenantId)):
        role = admin.create_role(body.roleCode, body.roleName)
    return {"roleId": role.id}


class GrantIn(BaseModel):
    roleId: int
    menuIds: list[int] = Field(default_factory=list, max_length=2000)
    tenantId: int | None = None


@router.post("/roles/menus", permission="admin", body=GrantIn)
def grant_menus(body: GrantIn) -> None:
    """Replace a role's menu grants."""
    with unscoped():
        known = set(session().execute(select(Menu.id).where(Menu.id.in_(body.menuIds))).scalars())
    if known != set(body.menuIds):
        raise NotFound("menu.not_found")
    with tenant_scope(target_tenant(body.tenantId)):
        admin.grant_menus(kernel(), body.roleId, body.menuIds)


class UserRoleIn(BaseModel):
    userId: int
    roleId: int
    tenantId: int | None = None


@router.post("/users/roles", permission="admin", body=UserRoleIn)
def assign_role(body: UserRoleIn) -> None:
    """Give a user of the tenant a role."""
    tid = target_tenant(body.tenantId)
    with unscoped():
        member = (
            session()
            .execute(
                select(Membership.id).where(Membership.user_id == body.userId, Membership.tenant_id == tid)
            )
            .first()
        )
    if member is None:
        raise NotFound("user.not_found")
    with tenant_scope(tid):
        admin.assign_role(kernel(), body.userId, body.roleId)


class SystemQuery(BaseModel):
    systemCode: str = Field(default="iotAutho", max_length=64)


@router.get("/menus", permission="admin", query=SystemQuery)
def list_menus(query: SystemQuery) -> list[dict[str, Any]]:
    """Every menu of a system, flat."""
    with unscoped():
        rows = (
            session()
            .execute(select(Menu).where(Menu.system_code == query.systemCode).order_by(Menu.sort, Menu.id))
            .scalars()
            .all()
        )
    return [menus.menu_item(m) for m in rows]


class MenuIn(BaseModel):
    systemCode: str = Field(default="iotAutho", max_length=64)
    menuCode: str = Field(min_length=1, max_length=128)
    menuName: str = Field(min_length=1, max_length=128)
    menuEnName: str | dict[str, str] = ""
    menuUrl: str = Field(default="", max_length=512)
    parentId: int | None = None
    parameter: str = Field(default="", max_length=2000)
    sort: int = 0


@router.post("/menus", permission="super-admin", body=MenuIn)
def save_menu(body: MenuIn) -> dict[str, Any]:
    """Create or update a menu (by system and code)."""
    db = session()
    with unscoped():
        if db.get(System, body.systemCode) is None:
            raise NotFound("system.not_found")
        if body.parentId is not None and db.get(Menu, body.parentId) is None:
            raise NotFound("menu.not_found")
        row = db.execute(
            select(Menu).where(Menu.system_code == body.systemCode, Menu.code == body.menuCode)
        ).scalar()
        if row is None:
            row = Menu(system_code=body.systemCode, code=body.menuCode)
            db.add(row)
        if body.parameter:
            import json

            try:
                json.loads(body.parameter)
            except ValueError as exc:
                raise BadRequest("menu.parameter_invalid") from exc
        row.name = body.menuName
        row.en_name = menus.en_name_value(body.menuEnName)
        row.url = body.menuUrl
        row.parent_id = body.parentId
        row.parameter = body.parameter
        row.sort = body.sort
        db.flush()
    kernel().local.invalidate(menus.MENUS)
    return {"menuId": str(row.id)}


@router.get("/systems", permission="super-admin")
def list_systems() -> list[dict[str, Any]]:
    """Every system."""
    from atrium.kernel.systems import system_row

    with unscoped():
        return [system_row(s) for s in session().execute(select(System).order_by(System.sort)).scalars()]


class SystemIn(BaseModel):
    systemCode: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
    systemName: str = Field(min_length=1, max_length=64)
    systemEnName: str = Field(default="", max_length=255)
    requestUrl: str = Field(default="", max_length=512)
    useState: int = Field(default=1, ge=0, le=1)
    iconUrl: str = Field(default="", max_length=512)


@router.post("/systems", permission="super-admin", body=SystemIn)
def save_system(body: SystemIn) -> dict[str, str]:
    """Create or update a system."""
    db = session()
    with unscoped():
        row = db.get(System, body.systemCode)
        if row is None:
            row = System(code=body.systemCode, name=body.systemName)
            db.add(row)
        row.name, row.en_name = body.systemName, body.systemEnName
        row.request_url, row.use_state, row.icon_url = body.requestUrl, body.useState, body.iconUrl
    kernel().local.invalidate("profile")
    return {"systemCode": body.systemCode}


class TenantSystemIn(BaseModel):
    tenantId: int
    systemCode: str = Field(min_length=1, max_length=64)
    offered: bool = True
    systemTitle: str | None = Field(default=None, max_length=128)
    themeColor: str | None = Field(default=None, pattern=r"^(#[0-9A-Fa-f]{6})?$")
    systemLogo: str | None = Field(default=None, max_length=512)
    iconUrl: str | None = Field(default=None, max_length=512)


@router.post("/tenants/systems", permission="super-admin", body=TenantSystemIn)
def offer_system(body: TenantSystemIn) -> dict[str, Any]:
    """Offer a system to a tenant (with its branding there), or withdraw it."""
    tid = target_tenant(body.tenantId)
    if body.offered:
        branding = {
            "system_title": body.systemTitle, "theme_color": body.themeColor,
            "system_logo": body.systemLogo, "icon_url": body.iconUrl,
        }
        admin.offer_system(tid, body.systemCode, **{k: v for k, v in branding.items() if v is not None})
    else:
        admin.withdraw_system(tid, body.systemCode)
    kernel().local.invalidate("profile")
    kernel().local.invalidate(menus.MENUS)
    return {"tenantId": tid, "systemCode": body.systemCode, "offered": body.offered}


@router.get("/plugins", permission="admin", query=TenantQuery)
def list_plugins(query: TenantQuery) -> list[dict[str, Any]]:
    """Installed plugins, their load status and enablement for a tenant."""
    tid = target_tenant(query.tenantId)
    k = kernel()
    rows = plugin_rows() if tid == current_context().require_user().tenant_id else k.plugins.report()
    for row in rows:
        row["enabled"] = row["status"] == "loaded" and k.enablement.is_enabled(tid, row["name"])
    return rows


class PluginStateIn(BaseModel):
    plugin: str = Field(min_length=1, max_length=64)
    enabled: bool
    tenantId: int | None = None


@router.post("/plugins/state", permission="admin", body=PluginStateIn)
def set_plugin_state(body: PluginStateIn) -> dict[str, Any]:
    """Enable or disable a plugin for a tenant; essential plugins cannot be disabled."""
    tid = target_tenant(body.tenantId)
    k = kernel()
    loaded = k.plugins.loaded.get(body.plugin)
    if loaded is None:
        raise NotFound("plugin.not_found", plugin=body.plugin)
    if loaded.info.essential and not body.enabled:
        raise BadRequest("plugin.essential", plugin=body.plugin)
    k.enablement.set(tid, body.plugin, body.enabled)
    k.local.invalidate(menus.MENUS)
    return {"plugin": body.plugin, "tenantId": tid, "enabled": body.enabled}


class PasswordStrategyIn(BaseModel):
    minLength: int = Field(default=6, ge=6, le=12)
    maxLength: int = Field(default=12, ge=6, le=64)
    expireDays: int = Field(default=90, ge=0, le=3650)
    warnDays: int = Field(default=7, ge=0, le=90)
    tenantId: int | None = None


@router.post("/password-strategy", permission="admin", body=PasswordStrategyIn)
def save_password_strategy(body: PasswordStrategyIn) -> dict[str, int]:
    """Set the tenant's password rules (lengths, expiry and the warning before it)."""
    if body.maxLength < body.minLength:
        raise BadRequest("password.strategy_range")
    with tenant_scope(target_tenant(body.tenantId)):
        db = session()
        row = db.execute(select(PasswordStrategy)).scalar()
        if row is None:
            row = PasswordStrategy()
            db.add(row)
        row.min_length, row.max_length = body.minLength, body.maxLength
        row.expire_days, row.warn_days = body.expireDays, body.warnDays
        db.flush()
    return {
        "minLength": row.min_length,
        "maxLength": row.max_length,
        "expireDays": row.expire_days,
        "warnDays": row.warn_days,
    }
