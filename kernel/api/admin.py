"""Admin API: tenants, users, roles, grants, menus, systems and plugin enablement.

Super administrators act on any tenant; supervisors only inside their own.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, cast

from pydantic import BaseModel, Field, StringConstraints, field_validator
from sqlalchemy import BindParameter, String, Table, bindparam, func, or_, select, union_all
from sqlalchemy.orm import Session

from atrium.kernel import accounts, menus
from atrium.kernel.api.deps import kernel
from atrium.kernel.api.manifest import plugins as plugin_rows
from atrium.kernel.api.permissions import PERMISSIONS, effective_permissions, menus_changed
from atrium.kernel.identity.passwords import hash_password
from atrium.kernel.identity.sessions import revoke_user, revoke_where
from atrium.kernel.models import (
    DEFAULT_SYSTEM,
    PLATFORM_TENANT_ID,
    AuditConfig,
    AuthToken,
    BehaviorLog,
    DefaultMenu,
    DictItem,
    Favourite,
    Feedback,
    GreyRule,
    LoginLog,
    Membership,
    Menu,
    MenuFetch,
    MenuResource,
    PasswordStrategy,
    PluginState,
    Role,
    RoleMenu,
    RoleResource,
    ServerConfig,
    System,
    Tenant,
    TenantSystem,
    User,
    UserRole,
)
from atrium.sdk.audit import record as audit_record
from atrium.sdk.context import current_context, tenant_scope, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, Conflict, Forbidden, NotFound
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


#: the kind of object of actions whose first word is not one
AUDIT_TYPES = {"password": "tenant", "signin_config": "tenant", "registration": "user"}


def audit(
    action: str,
    tenant_id: int | None,
    target: Any,
    before: Any = None,
    after: Any = None,
    *,
    target_type: str = "",
    target_name: Any = "",
) -> None:
    """Report an admin write (who, in which tenant, what, before and after) to the audit trail, which
    records it in the same transaction as the write (secrets replaced by markers). A tenant of None is a
    platform-wide definition; the object's type defaults to the action's first word (``user.create``:
    ``user``)."""
    current_context().require_user()
    prefix = action.split(".", 1)[0]
    audit_record(
        action,
        target_type=target_type or AUDIT_TYPES.get(prefix, prefix),
        target_id=str(target),
        target_name=str(target_name or ""),
        before=before,
        after=after,
        tenant_id=tenant_id,
        platform_wide=tenant_id is None,
    )


def _person(user: User | None) -> str:
    """A user as the audit trail names them: full name and account."""
    if user is None:
        return ""
    return f"{user.full_name} ({user.account})" if user.full_name else user.account


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


BRANDING = {"systemTitle": "system_title", "themeColor": "theme_color", "systemLogo": "system_logo",
            "iconUrl": "icon_url"}


class SystemOffer(BaseModel):
    systemCode: str = Field(min_length=1, max_length=64)
    systemTitle: str | None = Field(default=None, max_length=128)
    themeColor: str | None = Field(default=None, pattern=r"^(#[0-9A-Fa-f]{6})?$")
    systemLogo: str | None = Field(default=None, max_length=512)
    iconUrl: str | None = Field(default=None, max_length=512)


class TenantIn(BaseModel):
    tenantId: int = Field(ge=1, le=2**53)
    tenantName: str = Field(min_length=1, max_length=16)
    domain: str = Field(default="", max_length=128)
    parentTenantId: int | None = None
    systems: list[SystemOffer] = Field(default_factory=list, max_length=100)

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
    """Create a tenant with the default system and the systems offered to it, in one transaction: a
    failure on the way (an unknown system, say) leaves nothing written."""
    return create_tenant_with_systems(body)


def _delete_rows(db: Session, model: Any, column: str, value: int) -> None:
    """Deletes a table's rows by one column through Core, outside the request's tenant scoping: an
    administrator may be removing another tenant's rows."""
    table = cast(Table, model.__table__)
    db.execute(table.delete().where(table.c[column] == value))


def create_tenant_with_systems(body: TenantIn) -> dict[str, Any]:
    """The tenant, its systems with their branding, and the audit record, all flushed in the running
    transaction (the request's, committed only when everything succeeded)."""
    if body.parentTenantId is not None:
        with unscoped():
            if session().get(Tenant, body.parentTenantId) is None:
                raise NotFound("tenant.not_found")
    t = accounts.create_tenant(body.tenantId, body.tenantName, body.domain, body.parentTenantId)
    for offer in body.systems:
        branding = offer.model_dump(exclude={"systemCode"}, exclude_none=True)
        accounts.offer_system(t.id, offer.systemCode, **{BRANDING[k]: v for k, v in branding.items()})
    kernel().local.invalidate("profile")
    audit("tenant.create", t.id, t.id, after=body.model_dump(), target_name=body.tenantName)
    return {"tenantId": t.id, "systems": sorted({DEFAULT_SYSTEM, *(o.systemCode for o in body.systems)})}


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
    u = accounts.create_user(
        body.account,
        body.password,
        body.userFullName,
        tid,
        supervisor=body.supervisor,
        mobile=body.mobile,
        email=body.email,
        must_change_pwd=body.mustChangePassword,
    )
    audit("user.create", tid, u.id, after=body.model_dump(exclude={"password"}), target_name=_person(u))
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
    audit(
        "user.state",
        tid,
        body.userId,
        before={"enabled": member.enabled},
        after={"enabled": body.enabled},
        target_name=_person(target),
    )
    if current_context().require_user().is_super_admin:
        accounts.set_user_enabled(kernel(), body.userId, body.enabled)  # the account, in every tenant
        return
    if target is not None and target.is_super_admin:
        raise Forbidden()  # a tenant's supervisor must not lock out the platform's administrator
    accounts.set_member_enabled(kernel(), body.userId, tid, body.enabled)  # this tenant only


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
        role = accounts.create_role(body.roleCode, body.roleName)
    audit("role.create", role.tenant_id, role.id, after=body.model_dump(), target_name=role.name)
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
    tid = target_tenant(body.tenantId)
    with tenant_scope(tid):
        granted = select(RoleMenu.menu_id).where(RoleMenu.role_id == body.roleId)
        before = sorted(session().execute(granted).scalars())
        accounts.grant_menus(kernel(), body.roleId, body.menuIds)
        grants_changed()
    after = sorted(set(body.menuIds))
    audit("role.menus", tid, body.roleId, before={"menuIds": before}, after={"menuIds": after})


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
        accounts.assign_role(kernel(), body.userId, body.roleId)
        grants_changed()
    audit("user.role.add", tid, body.userId, after={"role": _role_name(tid, body.roleId)})


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
    menuIconurl: str | None = Field(default=None, max_length=255)
    isCache: bool | None = None
    isFetch: bool | None = None
    fetchPath: str | None = Field(default=None, max_length=512)
    subscriptKey: str | None = Field(default=None, max_length=64)
    subscriptStatus: int | None = Field(default=None, ge=0, le=1)
    userManualUrl: str | None = Field(default=None, max_length=512)
    originalAddr: str | None = Field(default=None, max_length=512)


MENU_OPTIONAL = {
    "menuIconurl": "icon", "isCache": "is_cache", "isFetch": "is_fetch", "fetchPath": "fetch_path",
    "subscriptKey": "subscript_key", "subscriptStatus": "subscript_status",
    "userManualUrl": "user_manual_url", "originalAddr": "original_addr",
}


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
        before = None if row is None else menus.menu_item(row)
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
        for field, column in MENU_OPTIONAL.items():  # fields left out keep their value
            if getattr(body, field) is not None:
                setattr(row, column, getattr(body, field))
        db.flush()
    menus_changed(session())
    after = menus.menu_item(row)
    audit("menu.save", None, row.id, before=_strip(before), after=_strip(after), target_name=row.name)
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
        before = None if row is None else system_fields(row)
        if row is None:
            row = System(code=body.systemCode, name=body.systemName)
            db.add(row)
        row.name, row.en_name = body.systemName, body.systemEnName
        row.request_url, row.use_state, row.icon_url = body.requestUrl, body.useState, body.iconUrl
    kernel().local.invalidate("profile")
    audit("system.save", None, body.systemCode, before=before, after=system_fields(row), target_name=row.name)
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
        accounts.offer_system(tid, body.systemCode, **{k: v for k, v in branding.items() if v is not None})
    else:
        accounts.withdraw_system(tid, body.systemCode)
    kernel().local.invalidate("profile")
    kernel().local.invalidate(menus.MENUS)
    audit("tenant.system", tid, body.systemCode, after=body.model_dump())
    return {"tenantId": tid, "systemCode": body.systemCode, "offered": body.offered}


CONSOLE_PLUGIN = "admin"  # serves this console: switched off, nobody could switch it on again


def plugin_guard(plugin: str) -> tuple[str, dict[str, Any]] | None:
    """Why a plugin must stay enabled (the message key and its parameters), or None when it may be switched
    off: the plugin that serves the administration console, an essential plugin, and one that an essential
    plugin depends on."""
    loaded = kernel().plugins.loaded
    if plugin == CONSOLE_PLUGIN:
        return "plugin.serves_console", {"plugin": plugin}
    own = loaded.get(plugin)
    if own is not None and own.info.essential:
        return "plugin.essential", {"plugin": plugin}
    for name, other in loaded.items():
        if other.info.essential and plugin in other.info.depends:
            return "plugin.needed_by", {"plugin": plugin, "by": name}
    return None


@router.get("/plugins", permission="admin", query=TenantQuery)
def list_plugins(query: TenantQuery) -> list[dict[str, Any]]:
    """Installed plugins, their load status and enablement for a tenant; a plugin that cannot be switched off
    says so (`essential`) and why (`lockedReason`, in the request's language)."""
    tid = target_tenant(query.tenantId)
    k = kernel()
    rows = plugin_rows() if tid == current_context().require_user().tenant_id else k.plugins.report()
    for row in rows:
        row["enabled"] = row["status"] == "loaded" and k.enablement.is_enabled(tid, row["name"])
        guard = plugin_guard(row["name"]) if row["status"] == "loaded" else None
        row["essential"] = guard is not None
        row["lockedReason"] = k.t(guard[0], **guard[1]) if guard else None
    return rows


class PluginStateIn(BaseModel):
    plugin: str = Field(min_length=1, max_length=64)
    enabled: bool
    tenantId: int | None = None


@router.post("/plugins/state", permission="admin", body=PluginStateIn)
def set_plugin_state(body: PluginStateIn) -> dict[str, Any]:
    """Enable or disable a plugin for a tenant; the console's own plugin, essential plugins and those an
    essential plugin depends on cannot be disabled (400, saying why)."""
    tid = target_tenant(body.tenantId)
    k = kernel()
    loaded = k.plugins.loaded.get(body.plugin)
    if loaded is None:
        raise NotFound("plugin.not_found", plugin=body.plugin)
    guard = plugin_guard(body.plugin)
    if guard is not None and not body.enabled:
        raise BadRequest(guard[0], **guard[1])
    k.enablement.set(tid, body.plugin, body.enabled)
    k.local.invalidate(menus.MENUS)
    # the switch is audited by `enablement.set` itself (as from the command line)
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
    tid = target_tenant(body.tenantId)
    with tenant_scope(tid):
        db = session()
        row = db.execute(select(PasswordStrategy)).scalar()
        if row is None:
            row = PasswordStrategy()
            db.add(row)
        row.min_length, row.max_length = body.minLength, body.maxLength
        row.expire_days, row.warn_days = body.expireDays, body.warnDays
        db.flush()
    audit("password.strategy", tid, tid, after=body.model_dump(exclude={"tenantId"}))
    return {
        "minLength": row.min_length,
        "maxLength": row.max_length,
        "expireDays": row.expire_days,
        "warnDays": row.warn_days,
    }


# -- the administration console's calls --------------------------------------------------------------


def _strip(item: dict[str, Any] | None) -> dict[str, Any] | None:
    """A menu item without its tree and display-only copies, for the audit trail."""
    if item is None:
        return None
    return {k: v for k, v in item.items() if k not in ("children", "meta", "key")}


def system_fields(row: System) -> dict[str, Any]:
    return {
        "systemCode": row.code, "systemName": row.name, "systemEnName": row.en_name,
        "requestUrl": row.request_url, "useState": row.use_state, "iconUrl": row.icon_url,
    }


def _member(user_id: int, tenant_id: int) -> Membership:
    """The user's membership of the tenant; a user outside it answers like a missing one."""
    with unscoped():
        member = session().execute(
            select(Membership).where(Membership.user_id == user_id, Membership.tenant_id == tenant_id)
        ).scalar()
    if member is None:
        raise NotFound("user.not_found")
    return member


USER_COLUMNS = (
    User.id, User.account, User.full_name, User.mobile, User.email, User.enabled, User.locked_until,
    User.failed_count, User.is_super_admin, Membership.tenant_id, Membership.enabled.label("member_enabled"),
    Membership.is_supervisor,
)


def _user_row(u: Any, m: Membership | None = None, now: datetime | None = None) -> dict[str, Any]:
    """A user as the console lists them: from a `User` and its `Membership`, or from a row of USER_COLUMNS."""
    if m is not None:
        tenant_id, member_enabled, supervisor = m.tenant_id, m.enabled, m.is_supervisor
    else:
        tenant_id, member_enabled, supervisor = u.tenant_id, u.member_enabled, u.is_supervisor
    return {
        "userId": u.id,
        "account": u.account,
        "userFullName": u.full_name,
        "mobile": u.mobile,
        "email": u.email,
        "tenantId": tenant_id,
        "enabled": u.enabled and member_enabled,
        "locked": bool(u.locked_until and u.locked_until > (now or datetime.now(UTC).replace(tzinfo=None))),
        "failedCount": u.failed_count,
        "isAdmin": 2 if supervisor else 0,
        "isSuperAdmin": 1 if u.is_super_admin else 0,
    }


class UserPageQuery(BaseModel):
    tenantId: int | None = None
    keyword: str = Field(default="", max_length=64)
    pageIndex: int = Field(default=1, ge=1, le=100_000)
    pageRows: int = Field(default=20, ge=1, le=100)


def user_page_filters(tenant_id: int, keyword: str) -> list[Any]:
    """The user list's conditions: members of a tenant whose account or name contains the keyword."""
    filters: list[Any] = [Membership.tenant_id == tenant_id]
    word = keyword.strip()
    if word:
        escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        like = "%" + escaped + "%"
        filters.append(or_(User.account.ilike(like, escape="\\"), User.full_name.ilike(like, escape="\\")))
    return filters


def _page_statements(search: bool) -> tuple[Any, Any]:
    """The user list's page (with the window total) and its count, built once as core statements with
    bound parameters: members found through the membership's tenant index, the users by primary key."""
    m, u = Membership.__table__.c, User.__table__.c
    where = [m.tenant_id == bindparam("tid")]
    if search:
        like: BindParameter[str] = bindparam("kw", type_=String())
        where.append(or_(u.account.ilike(like, escape="\\"), u.full_name.ilike(like, escape="\\")))
    joined = Membership.__table__.join(User.__table__, u.id == m.user_id)
    page = (
        select(
            u.id, u.account, u.full_name, u.mobile, u.email, u.enabled, u.locked_until, u.failed_count,
            u.is_super_admin, m.tenant_id, m.enabled.label("member_enabled"), m.is_supervisor,
            func.count().over().label("total"),
        )
        .select_from(joined).where(*where).order_by(m.user_id)
        .offset(bindparam("offset")).limit(bindparam("rows"))
    )
    return page, select(func.count()).select_from(joined).where(*where)


PAGE_STATEMENTS = {search: _page_statements(search) for search in (False, True)}


def user_page(tenant_id: int, keyword: str, page: int, rows: int) -> dict[str, Any]:
    """One page of a tenant's members and the total in one statement (the window count rides along with
    the page; a page past the end asks for the total on its own)."""
    word = keyword.strip()
    args: dict[str, Any] = {"tid": tenant_id, "offset": (page - 1) * rows, "rows": rows}
    if word:
        args["kw"] = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    page_stmt, count_stmt = PAGE_STATEMENTS[bool(word)]
    conn = session().connection()
    found = conn.execute(page_stmt, args).all()
    total = found[0].total if found else 0
    if not found and page > 1:
        total = conn.execute(count_stmt, args).scalar() or 0
    now = datetime.now(UTC).replace(tzinfo=None)
    people = [_user_row(r, now=now) for r in found]
    return {"total": total, "pageIndex": page, "pageRows": rows, "list": people}


@router.get("/users/page", permission="admin", query=UserPageQuery)
def page_users(query: UserPageQuery) -> dict[str, Any]:
    """One page of a tenant's users, searched by account or name, with the total."""
    return user_page(target_tenant(query.tenantId), query.keyword, query.pageIndex, query.pageRows)


class UserIdQuery(BaseModel):
    userId: int
    tenantId: int | None = None


@router.get("/users/detail", permission="admin", query=UserIdQuery)
def user_detail(query: UserIdQuery) -> dict[str, Any]:
    """A user with their memberships (every tenant for a super administrator, else this one) and roles."""
    tid = target_tenant(query.tenantId)
    member = _member(query.userId, tid)
    su = current_context().require_user()
    db = session()
    with unscoped():
        user = db.get(User, query.userId)
        assert user is not None
        members = db.execute(
            select(Membership, Tenant.name).join(Tenant, Tenant.id == Membership.tenant_id)
            .where(Membership.user_id == query.userId).order_by(Membership.tenant_id)
        ).all()
        roles = db.execute(
            select(UserRole.tenant_id, Role.id, Role.name).join(Role, Role.id == UserRole.role_id)
            .where(UserRole.user_id == query.userId)
        ).all()
    shown = [(m, name) for m, name in members if su.is_super_admin or m.tenant_id == tid]
    return {
        **_user_row(user, member),
        "memberships": [
            {
                "tenantId": m.tenant_id, "tenantName": name,
                "supervisor": m.is_supervisor, "enabled": m.enabled,
                "roles": [{"roleId": rid, "roleName": rname} for t, rid, rname in roles if t == m.tenant_id],
            }
            for m, name in shown
        ],
    }


Phone = Annotated[str, StringConstraints(
    strip_whitespace=True, max_length=32, pattern=r"^(\+?[0-9][0-9 -]{4,30})?$"
)]
Email = Annotated[str, StringConstraints(
    strip_whitespace=True, max_length=128, pattern=r"^([^@\s]+@[^@\s]+\.[^@\s]+)?$"
)]


class UserUpdateIn(BaseModel):
    userId: int
    tenantId: int | None = None
    userFullName: str = Field(min_length=1, max_length=64)
    mobile: Phone = ""
    email: Email = ""
    supervisor: bool | None = None


@router.post("/users/update", permission="admin", body=UserUpdateIn)
def update_user(body: UserUpdateIn) -> dict[str, Any]:
    """Change a user's name, contact and (in this tenant) supervisor flag."""
    tid = target_tenant(body.tenantId)
    member = _member(body.userId, tid)
    with unscoped():
        user = session().get(User, body.userId)
    assert user is not None
    su = current_context().require_user()
    if user.is_super_admin and not su.is_super_admin:
        raise Forbidden()
    before = _user_row(user, member)
    user.full_name, user.mobile, user.email = body.userFullName.strip(), body.mobile, body.email
    if body.supervisor is not None:
        member.is_supervisor = body.supervisor
    session().flush()
    grants_changed()
    kernel().local.invalidate("profile")
    after = _user_row(user, member)
    audit("user.update", tid, body.userId, before=before, after=after, target_name=_person(user))
    return after


class PasswordResetIn(BaseModel):
    userId: int
    tenantId: int | None = None
    password: str = Field(min_length=6, max_length=12, pattern=r"^[A-Za-z0-9]+$")


@router.post("/users/password", permission="admin", body=PasswordResetIn)
def reset_password(body: PasswordResetIn) -> None:
    """Give a user a new password they must change at the next sign-in; their sessions end."""
    tid = target_tenant(body.tenantId)
    _member(body.userId, tid)
    with unscoped():
        user = session().get(User, body.userId)
    assert user is not None
    if user.is_super_admin and not current_context().require_user().is_super_admin:
        raise Forbidden()
    user.password_hash = hash_password(body.password)
    user.must_change_pwd = True
    user.failed_count, user.lock_level, user.locked_until = 0, 0, None
    revoke_user(session(), kernel(), body.userId, "password reset")
    audit(
        "user.password.reset",
        tid,
        body.userId,
        after={"password": "reset", "mustChangePassword": True},
        target_name=_person(user),
    )


@router.post("/users/unlock", permission="admin", body=UserIdQuery)
def unlock_user(body: UserIdQuery) -> None:
    """Lift a lockout after failed sign-ins."""
    tid = target_tenant(body.tenantId)
    _member(body.userId, tid)
    with unscoped():
        user = session().get(User, body.userId)
    assert user is not None
    before = {"failedCount": user.failed_count, "lockedUntil": str(user.locked_until or "")}
    user.failed_count, user.lock_level, user.locked_until = 0, 0, None
    audit(
        "user.unlock",
        tid,
        body.userId,
        before=before,
        after={"failedCount": 0, "lockedUntil": ""},
        target_name=_person(user),
    )


class MembershipIn(BaseModel):
    userId: int
    tenantId: int
    supervisor: bool = False


@router.post("/users/memberships", permission="super-admin", body=MembershipIn)
def add_membership(body: MembershipIn) -> None:
    """Let a user into another tenant (or change their supervisor flag there)."""
    tid = target_tenant(body.tenantId)
    with unscoped():
        if session().get(User, body.userId) is None:
            raise NotFound("user.not_found")
    accounts.add_membership(body.userId, tid, body.supervisor)
    grants_changed()
    audit("user.membership", tid, body.userId, after={"supervisor": body.supervisor})


class MembershipRemoveIn(BaseModel):
    userId: int
    tenantId: int


@router.post("/users/memberships/remove", permission="super-admin", body=MembershipRemoveIn)
def remove_membership(body: MembershipRemoveIn) -> None:
    """Take a user out of a tenant: their roles there and their sessions in it go too. A user keeps at
    least one tenant, and their default tenant moves to one they still belong to."""
    tid = target_tenant(body.tenantId)
    member = _member(body.userId, tid)
    db = session()
    with unscoped():
        user = db.get(User, body.userId)
        assert user is not None
        others = db.execute(
            select(Membership.tenant_id).where(Membership.user_id == body.userId, Membership.tenant_id != tid)
            .order_by(Membership.tenant_id)
        ).scalars().first()
        if others is None:
            raise Conflict("user.last_membership")
        before = {"supervisor": member.is_supervisor, "enabled": member.enabled}
        db.execute(
            cast(Table, UserRole.__table__).delete()
            .where(UserRole.user_id == body.userId, UserRole.tenant_id == tid)
        )
        db.delete(member)
        if user.default_tenant_id == tid:
            user.default_tenant_id = others
        revoke_where(db, kernel(), AuthToken.user_id == body.userId, AuthToken.tenant_id == tid)
        db.flush()
    kernel().local.invalidate("session")
    grants_changed()
    audit("user.membership.remove", tid, body.userId, before=before)


@router.post("/users/roles/remove", permission="admin", body=UserRoleIn)
def remove_role(body: UserRoleIn) -> None:
    """Take a role away from a user of the tenant."""
    tid = target_tenant(body.tenantId)
    _member(body.userId, tid)
    with tenant_scope(tid):
        db = session()
        row = db.execute(
            select(UserRole).where(UserRole.user_id == body.userId, UserRole.role_id == body.roleId)
        ).scalar()
        if row is None:
            raise NotFound("role.not_found")
        db.delete(row)
        db.flush()
    kernel().local.invalidate("session")
    grants_changed()
    audit("user.role.remove", tid, body.userId, before={"role": _role_name(tid, body.roleId)})


def _role_name(tenant_id: int, role_id: int) -> str:
    """How the audit trail names a role: its name, or its id when it is gone."""
    with tenant_scope(tenant_id):
        role = session().get(Role, role_id)
    return role.name if role is not None else str(role_id)


class PermissionQuery(BaseModel):
    userId: int
    tenantId: int | None = None
    systemCode: str = Field(default="iotAutho", max_length=64)


def grants_changed() -> None:
    """Drop the cached menu trees and effective permissions now and again when the change commits."""
    kernel().local.invalidate_on_commit(session(), PERMISSIONS)


@router.get("/users/permissions", permission="admin", query=PermissionQuery)
def user_permissions(query: PermissionQuery) -> dict[str, Any]:
    """Effective permissions of a user in a tenant and system: menus and buttons through their roles."""
    tid = target_tenant(query.tenantId)
    _member(query.userId, tid)
    return effective_permissions(query.userId, tid, query.systemCode)


class TenantStateIn(BaseModel):
    tenantId: int
    enabled: bool


@router.post("/tenants/state", permission="super-admin", body=TenantStateIn)
def set_tenant_state(body: TenantStateIn) -> dict[str, Any]:
    """Suspend a tenant (its users' sessions end) or let it work again."""
    db = session()
    with unscoped():
        tenant = db.get(Tenant, body.tenantId)
        if tenant is None or tenant.id == PLATFORM_TENANT_ID:
            raise NotFound("tenant.not_found")
        before = tenant.enabled
        tenant.enabled = body.enabled
        if not body.enabled:
            revoked = revoke_where(db, kernel(), AuthToken.tenant_id == body.tenantId)
            if revoked:
                db.flush()
    kernel().local.invalidate("profile")
    audit("tenant.state", body.tenantId, body.tenantId,
          before={"enabled": before}, after={"enabled": body.enabled})
    return {"tenantId": body.tenantId, "enabled": body.enabled}


class TenantIdQuery(BaseModel):
    tenantId: int


@router.get("/tenants/systems", permission="super-admin", query=TenantIdQuery)
def tenant_systems(query: TenantIdQuery) -> list[dict[str, Any]]:
    """The systems offered to a tenant with their branding there."""
    tid = target_tenant(query.tenantId)
    with tenant_scope(tid):
        rows = session().execute(select(TenantSystem)).scalars().all()
    return [
        {"systemCode": r.system_code, "systemTitle": r.system_title, "themeColor": r.theme_color,
         "systemLogo": r.system_logo, "iconUrl": r.icon_url}
        for r in rows
    ]


class RoleIdIn(BaseModel):
    roleId: int
    tenantId: int | None = None


@router.post("/roles/delete", permission="admin", body=RoleIdIn)
def delete_role(body: RoleIdIn) -> None:
    """Delete a role no user holds any more (refused, saying how many do, while in use)."""
    tid = target_tenant(body.tenantId)
    with tenant_scope(tid):
        db = session()
        role = db.execute(select(Role).where(Role.id == body.roleId)).scalar()
        if role is None:
            raise NotFound("role.not_found")
        holders = db.execute(select(func.count()).where(UserRole.role_id == body.roleId)).scalar() or 0
        if holders:
            raise Conflict("role.in_use", count=holders)
        before = {"roleCode": role.code, "roleName": role.name}
        for model in (RoleMenu, RoleResource):
            for row in db.execute(select(model).where(model.role_id == body.roleId)).scalars():
                db.delete(row)
        db.flush()
        db.delete(role)
        db.flush()
    grants_changed()
    audit("role.delete", tid, body.roleId, before=before, target_name=role.name)


class GrantResourcesIn(BaseModel):
    roleId: int
    resourceIds: list[int] = Field(default_factory=list, max_length=5000)
    tenantId: int | None = None


@router.post("/roles/resources", permission="admin", body=GrantResourcesIn)
def grant_resources(body: GrantResourcesIn) -> None:
    """Replace a role's button grants."""
    wanted = set(body.resourceIds)
    with unscoped():
        known = set(session().execute(select(MenuResource.id).where(MenuResource.id.in_(wanted))).scalars())
    if known != wanted:
        raise NotFound("menu.not_found")
    tid = target_tenant(body.tenantId)
    with tenant_scope(tid):
        db = session()
        if db.execute(select(Role.id).where(Role.id == body.roleId)).first() is None:
            raise NotFound("role.not_found")
        rows = db.execute(select(RoleResource).where(RoleResource.role_id == body.roleId)).scalars().all()
        before = sorted(r.resource_id for r in rows)
        for row in rows:
            db.delete(row)
        db.flush()
        for rid in sorted(wanted):
            db.add(RoleResource(role_id=body.roleId, resource_id=rid))
        db.flush()
    kernel().local.invalidate("session")
    grants_changed()
    audit("role.resources", tid, body.roleId,
          before={"resourceIds": before}, after={"resourceIds": sorted(wanted)})


@router.get("/roles/resources", permission="admin", query=RoleIdIn)
def role_resources(query: RoleIdIn) -> list[str]:
    """The buttons granted to a role."""
    with tenant_scope(target_tenant(query.tenantId)):
        ids = session().execute(select(RoleResource.resource_id).where(RoleResource.role_id == query.roleId))
        return [str(i) for i in ids.scalars()]


@router.get("/resources", permission="admin", query=SystemQuery)
def list_resources(query: SystemQuery) -> list[dict[str, Any]]:
    """The button resources of every menu of a system."""
    with unscoped():
        rows = session().execute(
            select(MenuResource).join(Menu, Menu.id == MenuResource.menu_id)
            .where(Menu.system_code == query.systemCode).order_by(MenuResource.menu_id, MenuResource.id)
        ).scalars().all()
    return [
        {"resourceId": str(r.id), "menuId": str(r.menu_id), "resourceCode": r.code, "resourceName": r.name}
        for r in rows
    ]


class ResourceIn(BaseModel):
    menuId: int
    resourceCode: str = Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_:.-]+$")
    resourceName: str = Field(min_length=1, max_length=128)


@router.post("/resources", permission="super-admin", body=ResourceIn)
def save_resource(body: ResourceIn) -> dict[str, str]:
    """Add a button resource to a menu, or rename it (by menu and code)."""
    db = session()
    with unscoped():
        if db.get(Menu, body.menuId) is None:
            raise NotFound("menu.not_found")
        row = db.execute(
            select(MenuResource)
            .where(MenuResource.menu_id == body.menuId, MenuResource.code == body.resourceCode)
        ).scalar()
        before = None if row is None else {"resourceName": row.name}
        if row is None:
            row = MenuResource(menu_id=body.menuId, code=body.resourceCode, name=body.resourceName)
            db.add(row)
        row.name = body.resourceName
        db.flush()
    menus_changed(session())
    audit(
        "resource.save", None, row.id, before=before, after=body.model_dump(), target_name=body.resourceName
    )
    return {"resourceId": str(row.id)}


class MenuMoveIn(BaseModel):
    menuId: int
    parentId: int | None = None
    sort: int = Field(ge=0, le=1_000_000)


@router.post("/menus/move", permission="super-admin", body=MenuMoveIn)
def move_menu(body: MenuMoveIn) -> dict[str, Any]:
    """Move a menu under another parent (or to the top) at a position; its siblings are renumbered."""
    db = session()
    with unscoped():
        row = db.get(Menu, body.menuId)
        if row is None:
            raise NotFound("menu.not_found")
        siblings_of = select(Menu).where(Menu.system_code == row.system_code)
        every = {m.id: m for m in db.execute(siblings_of).scalars()}
        if body.parentId is not None:
            node = every.get(body.parentId)
            if node is None:
                raise NotFound("menu.not_found")
            while node is not None:
                if node.id == row.id:
                    raise BadRequest("menu.cycle")
                node = every.get(node.parent_id) if node.parent_id else None
        before = {"parentId": row.parent_id, "sort": row.sort}
        siblings = sorted(
            (m for m in every.values() if m.parent_id == body.parentId and m.id != row.id),
            key=lambda m: (m.sort, m.id),
        )
        siblings.insert(min(body.sort, len(siblings)), row)
        row.parent_id = body.parentId
        for position, m in enumerate(siblings):
            m.sort = position * 10
        db.flush()
    menus_changed(session())
    audit("menu.move", None, body.menuId, before=before, after={"parentId": body.parentId, "sort": row.sort})
    parent = str(body.parentId) if body.parentId else None
    return {"menuId": str(row.id), "parentId": parent, "sort": row.sort}


class SystemCodeIn(BaseModel):
    systemCode: str = Field(min_length=1, max_length=64)


@router.post("/systems/delete", permission="super-admin", body=SystemCodeIn)
def delete_system(body: SystemCodeIn) -> None:
    """Delete a system no tenant is offered and no menu belongs to (refused, saying why, while in use)."""
    db = session()
    with unscoped():
        row = db.get(System, body.systemCode)
        if row is None:
            raise NotFound("system.not_found")
        if body.systemCode == DEFAULT_SYSTEM:
            raise BadRequest("system.default_required")
        offered = db.execute(
            select(func.count()).select_from(TenantSystem).where(TenantSystem.system_code == body.systemCode)
        ).scalar() or 0
        has_menus = db.execute(select(Menu.id).where(Menu.system_code == body.systemCode).limit(1)).first()
        if offered or has_menus:
            raise Conflict("system.in_use", count=offered)
        before = system_fields(row)
        db.delete(row)
        db.flush()
    kernel().local.invalidate("profile")
    audit("system.delete", None, body.systemCode, before=before, target_name=before["systemName"])


# -- dictionaries, server configuration, grey rules, password strategy, login log ---------------------------

LOCALE_NAMES = ("zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu")


class DicTypeQuery(BaseModel):
    dicType: str = Field(default="", max_length=64)


@router.get("/dictionaries", permission="admin", query=DicTypeQuery)
def list_dictionaries(query: DicTypeQuery) -> dict[str, Any]:
    """The dictionary types, and the items of one type with their names in every language."""
    db = session()
    with unscoped():
        types = list(db.execute(select(DictItem.dic_type).distinct().order_by(DictItem.dic_type)).scalars())
        rows = db.execute(
            select(DictItem).where(DictItem.dic_type == query.dicType).order_by(DictItem.sort, DictItem.id)
        ).scalars().all() if query.dicType else []
    return {
        "types": types,
        "items": [
            {"diId": str(r.id), "dicType": r.dic_type, "dicCode": r.dic_code, "names": r.names,
             "sort": r.sort, "public": r.public}
            for r in rows
        ],
    }


DicCode = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64,
                                           pattern=r"^[A-Za-z0-9_.:-]+$")]


class DictionaryIn(BaseModel):
    dicType: DicCode
    dicCode: DicCode
    names: dict[str, Annotated[str, StringConstraints(strip_whitespace=True, max_length=128)]]
    sort: int = Field(default=0, ge=0, le=100_000)
    public: bool = True

    @field_validator("names")
    @classmethod
    def _names(cls, v: dict[str, str]) -> dict[str, str]:
        unknown = set(v) - set(LOCALE_NAMES)
        if unknown:
            raise BadRequest("validation.extra_forbidden", field=f"names.{sorted(unknown)[0]}")
        if not v.get("zh-cn"):
            raise BadRequest("validation.missing", field="names.zh-cn")
        return {k: s for k, s in v.items() if s}


@router.post("/dictionaries", permission="super-admin", body=DictionaryIn)
def save_dictionary(body: DictionaryIn) -> dict[str, str]:
    """Add a dictionary item or change it (by type and code)."""
    db = session()
    with unscoped():
        row = db.execute(
            select(DictItem).where(DictItem.dic_type == body.dicType, DictItem.dic_code == body.dicCode)
        ).scalar()
        before = None if row is None else {"names": row.names, "sort": row.sort, "public": row.public}
        if row is None:
            row = DictItem(dic_type=body.dicType, dic_code=body.dicCode)
            db.add(row)
        row.names, row.sort, row.public = dict(body.names), body.sort, body.public
        db.flush()
    audit("dictionary.save", None, f"{body.dicType}:{body.dicCode}", before=before,
          after={"names": body.names, "sort": body.sort, "public": body.public})
    return {"diId": str(row.id)}


class DictionaryIdIn(BaseModel):
    # strict: a JSON `true` is not item 1 (lax parsing would delete it)
    diId: int = Field(strict=True, ge=1)

    @field_validator("diId", mode="before")
    @classmethod
    def _id_text(cls, value: Any) -> Any:
        """The list answers ids as text; the screen sends them back as they came."""
        return int(value) if isinstance(value, str) and value.isdigit() else value


@router.post("/dictionaries/delete", permission="super-admin", body=DictionaryIdIn)
def delete_dictionary(body: DictionaryIdIn) -> None:
    """Delete a dictionary item."""
    db = session()
    with unscoped():
        row = db.get(DictItem, body.diId)
        if row is None:
            raise NotFound("config.dictionary_not_found")
        before = {"dicType": row.dic_type, "dicCode": row.dic_code, "names": row.names}
        db.delete(row)
        db.flush()
    audit("dictionary.delete", None, f"{before['dicType']}:{before['dicCode']}", before=before)


@router.get("/server-config", permission="super-admin")
def list_server_config() -> list[dict[str, str]]:
    """The server configuration flags with their values (the default where none is stored)."""
    from atrium.kernel.api.settings import CONFIG_KEYS

    with unscoped():
        stored = {r.key: r.value for r in session().execute(select(ServerConfig)).scalars()}
    return [
        {"configKey": key, "value": stored.get(key, default), "default": default}
        for key, default in CONFIG_KEYS.items()
    ]


class ServerConfigIn(BaseModel):
    configKey: str = Field(min_length=1, max_length=64)
    value: str = Field(max_length=255)


@router.post("/server-config", permission="super-admin", body=ServerConfigIn)
def save_server_config(body: ServerConfigIn) -> None:
    """Set a server configuration flag."""
    from atrium.kernel.api.settings import CONFIG_KEYS

    if body.configKey not in CONFIG_KEYS:
        raise BadRequest("config.unknown_key", key=body.configKey)
    db = session()
    with unscoped():
        row = db.get(ServerConfig, body.configKey)
        before = CONFIG_KEYS[body.configKey] if row is None else row.value
        if row is None:
            row = ServerConfig(key=body.configKey)
            db.add(row)
        row.value = body.value.strip()
        db.flush()
    kernel().local.invalidate(menus.MENUS)
    audit("config.save", None, body.configKey, before={"value": before}, after={"value": row.value})


@router.get("/grey-rules", permission="admin", query=TenantQuery)
def list_grey_rules(query: TenantQuery) -> list[dict[str, Any]]:
    """The tenant's grey rules: a header and value sent by everyone's browser (or one user's)."""
    with tenant_scope(target_tenant(query.tenantId)):
        rows = session().execute(select(GreyRule).order_by(GreyRule.id)).scalars().all()
    return [{"ruleId": str(r.id), "userId": r.user_id, "header": r.header, "value": r.value} for r in rows]


class GreyRuleIn(BaseModel):
    header: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64,
                                             pattern=r"^[A-Za-z0-9-]+$")]
    value: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=255,
                                            pattern=r"^[\x20-\x7e]+$")]
    userId: int | None = None
    tenantId: int | None = None


@router.post("/grey-rules", permission="admin", body=GreyRuleIn)
def add_grey_rule(body: GreyRuleIn) -> dict[str, str]:
    """Add a grey rule for the tenant (or one of its users)."""
    tid = target_tenant(body.tenantId)
    if body.userId is not None:
        _member(body.userId, tid)
    with tenant_scope(tid):
        row = GreyRule(user_id=body.userId, header=body.header, value=body.value)
        session().add(row)
        session().flush()
    audit("grey_rule.add", tid, row.id, after=body.model_dump(exclude={"tenantId"}))
    return {"ruleId": str(row.id)}


class GreyRuleIdIn(BaseModel):
    ruleId: int
    tenantId: int | None = None


@router.post("/grey-rules/delete", permission="admin", body=GreyRuleIdIn)
def delete_grey_rule(body: GreyRuleIdIn) -> None:
    """Delete one of the tenant's grey rules."""
    tid = target_tenant(body.tenantId)
    with tenant_scope(tid):
        db = session()
        row = db.execute(select(GreyRule).where(GreyRule.id == body.ruleId)).scalar()
        if row is None:
            raise NotFound("config.grey_rule_not_found")
        before = {"header": row.header, "value": row.value, "userId": row.user_id}
        db.delete(row)
        db.flush()
    audit("grey_rule.delete", tid, body.ruleId, before=before)


@router.get("/password-strategy", permission="admin", query=TenantQuery)
def get_password_strategy(query: TenantQuery) -> dict[str, int]:
    """The tenant's password rules (the defaults when none are stored)."""
    with tenant_scope(target_tenant(query.tenantId)):
        row = session().execute(select(PasswordStrategy)).scalar()
    if row is None:
        return {"minLength": 6, "maxLength": 12, "expireDays": 90, "warnDays": 7}
    return {"minLength": row.min_length, "maxLength": row.max_length, "expireDays": row.expire_days,
            "warnDays": row.warn_days}


class LoginLogQuery(BaseModel):
    tenantId: int | None = None
    keyword: str = Field(default="", max_length=64)
    pageIndex: int = Field(default=1, ge=1, le=100_000)
    pageRows: int = Field(default=20, ge=1, le=100)


@router.get("/login-log", permission="admin", query=LoginLogQuery)
def login_log(query: LoginLogQuery) -> dict[str, Any]:
    """The tenant's sign-ins, newest first, with each account's failed attempts and lockout now."""
    tid = target_tenant(query.tenantId)
    db = session()
    with tenant_scope(tid):
        stmt = select(LoginLog.id, LoginLog.at, LoginLog.ip, LoginLog.user_agent, LoginLog.user_id)
        if query.keyword.strip():
            with unscoped():
                matching = select(User.id).where(*user_page_filters(tid, query.keyword)[1:])
                ids = list(db.execute(matching).scalars())
            stmt = stmt.where(LoginLog.user_id.in_(ids or [-1]))
        total = db.execute(select(func.count()).select_from(stmt.subquery())).scalar() or 0
        offset = (query.pageIndex - 1) * query.pageRows
        rows = db.execute(stmt.order_by(LoginLog.id.desc()).offset(offset).limit(query.pageRows)).all()
    with unscoped():
        found = db.execute(select(User).where(User.id.in_({r.user_id for r in rows}))).scalars()
        users = {u.id: u for u in found}
    now = datetime.now(UTC).replace(tzinfo=None)
    out = []
    for r in rows:
        u = users.get(r.user_id)
        out.append({
            "logId": str(r.id), "at": r.at.strftime("%Y-%m-%d %H:%M:%S"), "ip": r.ip,
            "userAgent": r.user_agent,
            "userId": r.user_id, "account": u.account if u else "", "userFullName": u.full_name if u else "",
            "failedCount": u.failed_count if u else 0,
            "locked": bool(u and u.locked_until and u.locked_until > now),
        })
    return {"total": total, "pageIndex": query.pageIndex, "pageRows": query.pageRows, "list": out}


# -- deleting tenants and menus, lockouts, sign-in modes --------------------------------------------------


class TenantDeleteIn(BaseModel):
    tenantId: int


@router.post("/tenants/delete", permission="super-admin", body=TenantDeleteIn)
def delete_tenant(body: TenantDeleteIn) -> None:
    """Delete a tenant nobody belongs to and no tenant sits under, with its configuration (systems offered,
    roles and grants, plugin switches, sign-in options, grey rules, password rules, logs); refused, saying
    why, while in use. The audit trail keeps its records."""
    from atrium.kernel.identity.models import LdapConfig, LdapLink, SigninConfig
    db = session()
    with unscoped():
        tenant = db.get(Tenant, body.tenantId)
        if tenant is None:
            raise NotFound("tenant.not_found")
        if tenant.id == PLATFORM_TENANT_ID:
            raise BadRequest("tenant.platform_kept")
        members = db.execute(
            select(func.count()).select_from(Membership).where(Membership.tenant_id == tenant.id)
        ).scalar() or 0
        if members:
            raise Conflict("tenant.in_use", count=members)
        children = db.execute(
            select(func.count()).select_from(Tenant).where(Tenant.parent_id == tenant.id)
        ).scalar() or 0
        if children:
            raise Conflict("tenant.has_children", count=children)
        before = {"tenantName": tenant.name, "domain": tenant.domain, "enabled": tenant.enabled}
        owned: tuple[Any, ...] = (
            LdapLink, LdapConfig, UserRole, RoleResource, RoleMenu, Role, TenantSystem, DefaultMenu,
            Favourite, GreyRule, PasswordStrategy, AuditConfig, Feedback, LoginLog, BehaviorLog,
        )
        for model in (*owned, PluginState, SigninConfig, AuthToken):
            _delete_rows(db, model, "tenant_id", tenant.id)
        db.delete(tenant)
        db.flush()
    kernel().local.invalidate("profile")
    grants_changed()
    audit("tenant.delete", body.tenantId, body.tenantId, before=before)


class MenuIdIn(BaseModel):
    menuId: int


@router.post("/menus/delete", permission="super-admin", body=MenuIdIn)
def delete_menu(body: MenuIdIn) -> None:
    """Delete a menu with its buttons; refused, saying why, while it has sub-menus, while a role of any
    tenant is granted it or one of its buttons, or when a plugin provides it (the plugin is switched off
    instead)."""
    db = session()
    with unscoped():
        row = db.get(Menu, body.menuId)
        if row is None:
            raise NotFound("menu.not_found")
        if row.plugin:
            raise BadRequest("menu.from_plugin", plugin=row.plugin)
        children = db.execute(
            select(func.count()).select_from(Menu).where(Menu.parent_id == row.id)
        ).scalar() or 0
        if children:
            raise Conflict("menu.has_children", count=children)
        buttons = select(MenuResource.id).where(MenuResource.menu_id == row.id)
        granted = union_all(
            select(RoleMenu.role_id).where(RoleMenu.menu_id == row.id),
            select(RoleResource.role_id).where(RoleResource.resource_id.in_(buttons)),
        ).subquery()
        roles = db.execute(select(func.count(func.distinct(granted.c.role_id)))).scalar() or 0
        if roles:
            raise Conflict("menu.in_use", count=roles)
        before = _strip(menus.menu_item(row))
        for model in (DefaultMenu, Favourite, MenuFetch, MenuResource):
            _delete_rows(db, model, "menu_id", row.id)
        db.delete(row)
        db.flush()
    menus_changed(session())
    audit("menu.delete", None, body.menuId, before=before, target_name=row.name)


class LockoutQuery(BaseModel):
    tenantId: int | None = None
    keyword: str = Field(default="", max_length=64)
    pageIndex: int = Field(default=1, ge=1, le=100_000)
    pageRows: int = Field(default=20, ge=1, le=100)


@router.get("/lockouts", permission="admin", query=LockoutQuery)
def lockouts(query: LockoutQuery) -> dict[str, Any]:
    """The tenant's accounts with failed sign-ins since their last success: locked ones first, then by the
    latest failure; each with its count, the time of the last failure and the end of its lockout."""
    tid = target_tenant(query.tenantId)
    now = datetime.now(UTC).replace(tzinfo=None)
    filters = [*user_page_filters(tid, query.keyword), User.failed_count > 0]
    locked = (User.locked_until.is_not(None)) & (User.locked_until > now)
    db = session()
    with unscoped():
        stmt = (
            select(User.id, User.account, User.full_name, User.failed_count, User.last_failed_at,
                   User.locked_until, func.count().over().label("total"))
            .select_from(Membership).join(User, User.id == Membership.user_id).where(*filters)
            .order_by(locked.desc(), User.last_failed_at.desc(), User.id)
            .offset((query.pageIndex - 1) * query.pageRows).limit(query.pageRows)
        )
        rows = db.execute(stmt).all()
        total = rows[0].total if rows else 0
    stamp = "%Y-%m-%d %H:%M:%S"

    def until(r: Any) -> str:
        return r.locked_until.strftime(stamp) if r.locked_until and r.locked_until > now else ""

    return {
        "total": total, "pageIndex": query.pageIndex, "pageRows": query.pageRows,
        "list": [
            {
                "userId": r.id, "account": r.account, "userFullName": r.full_name,
                "failedCount": r.failed_count,
                "lastFailedAt": r.last_failed_at.strftime(stamp) if r.last_failed_at else "",
                "locked": bool(until(r)), "lockedUntil": until(r),
            }
            for r in rows
        ],
    }


@router.get("/signin-modes", permission="admin", query=TenantQuery)
def signin_modes(query: TenantQuery) -> dict[str, Any]:
    """What the tenant's sign-in page offers now: password, phone and e-mail codes, QR code, the domain
    accounts of its LDAP servers, and the single sign-on of enabled plugins; with its domain name."""
    from atrium.kernel.api.settings import login_types

    tid = target_tenant(query.tenantId)
    with unscoped():
        tenant = session().get(Tenant, tid)
    return {"tenantId": tid, "domain": tenant.domain if tenant else "", "loginTypes": login_types(tid)}
