"""Dictionaries, server configuration flags, grey rules, sign-in options and dashboard statistics."""

from __future__ import annotations

from contextlib import nullcontext
from datetime import timedelta
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import func, select

from atrium.kernel import menus
from atrium.kernel.api.deps import kernel
from atrium.kernel.identity.password_rule import rule_of
from atrium.kernel.models import (
    AuditConfig,
    BehaviorLog,
    DictItem,
    Feedback,
    GreyRule,
    LoginLog,
    Membership,
    ServerConfig,
    Tenant,
    User,
)
from atrium.sdk.audit import record as audit_record
from atrium.sdk.context import current_context, unscoped
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import BadRequest
from atrium.sdk.grants import holds_grant
from atrium.sdk.routing import Router

router = Router("/api/base")
CONFIG_KEYS = {
    "SHOW_BPM": "true",
    "SHOW_HELPCENTER": "true",
    "DEFAULT_THEMECOLOR": "#204BE3",
    "HIDE_THEME_CONTROL": "false",
    "SHOW_REQUIREMENT_QR": "false",
    "AIGC_ENABLE": "false",
    "TRACKING_ENABLE": "true",
}


class DicQuery(BaseModel):
    dicType: str = Field(min_length=1, max_length=64)


def _dict_items(dic_type: str, public_only: bool) -> list[dict[str, Any]]:
    locale = current_context().locale
    q = select(DictItem).where(DictItem.dic_type == dic_type).order_by(DictItem.sort, DictItem.id)
    if public_only:
        q = q.where(DictItem.public.is_(True))
    with unscoped():
        rows = session().execute(q).scalars().all()
    return [
        {
            "dicCode": r.dic_code,
            "diId": str(r.id),
            "dicName": r.names.get(locale) or r.names.get("zh-cn") or r.dic_code,
        }
        for r in rows
    ]


@router.get("/dic-items/get-dictype", query=DicQuery)
def get_dictype(query: DicQuery) -> list[dict[str, Any]]:
    """Dictionary items, named in the request's language."""
    return _dict_items(query.dicType, public_only=False)


@router.get("/dic-items/get-dictype-notoken", public=True, query=DicQuery)
def get_dictype_notoken(query: DicQuery) -> list[dict[str, Any]]:
    """Public dictionary items (e.g. SYSTEM_LANGUAGE_TYPES for the sign-in page)."""
    return _dict_items(query.dicType, public_only=True)


class ConfigQuery(BaseModel):
    configKey: str = Field(min_length=1, max_length=64)


@router.get("/server-config/get-value-by-key", public=True, query=ConfigQuery)
def get_config(query: ConfigQuery) -> str:
    """A public configuration flag (SHOW_BPM, SHOW_HELPCENTER, DEFAULT_THEMECOLOR, HIDE_THEME_CONTROL)."""
    if query.configKey not in CONFIG_KEYS:
        raise BadRequest("config.unknown_key", key=query.configKey)
    with unscoped():
        row = session().get(ServerConfig, query.configKey)
    return row.value if row else CONFIG_KEYS[query.configKey]


@router.get("/tracking-web-page/enable")
def tracking_enabled() -> bool:
    """Whether page tracking is on."""
    return menus.flag("TRACKING_ENABLE") if _configured("TRACKING_ENABLE") else True


@router.post("/aigc/enable")
def aigc_enabled() -> bool:
    """Whether the chat assistant is on (it also shows the api-analytics menu)."""
    return menus.flag(menus.CHAT_FLAG)


def _configured(key: str) -> bool:
    with unscoped():
        return session().get(ServerConfig, key) is not None


@router.get("/grayscale/rule/myid")
def grey_rules() -> dict[str, list[dict[str, str]]]:
    """Extra request headers for this user: the tenant's grey rules and those plugins add."""
    ctx = current_context()
    su = ctx.require_user()
    rows = (
        session()
        .execute(select(GreyRule).where((GreyRule.user_id.is_(None)) | (GreyRule.user_id == su.user_id)))
        .scalars()
        .all()
    )
    headers = [{"header": r.header, "value": r.value} for r in rows]
    for extra in kernel().plugins.call("atrium_request_headers", ctx=ctx).values():
        headers.extend(extra or [])
    return {"headers": headers}


class LoginInfoQuery(BaseModel):
    domainName: str = Field(default="", max_length=128)
    tenantId: int | None = None


def login_types(tenant_id: int | None) -> list[dict[str, Any]]:
    """The sign-in page's modes: those of account, phone code and e-mail code the tenant offers, its domain
    accounts and QR code, and those plugins add."""
    from atrium.kernel.identity import modes

    types: list[dict[str, Any]] = [{"type": mode} for mode in modes.offered(tenant_id)]
    types.extend(signin_types(tenant_id))
    k = kernel()
    for plugin, extra in k.plugins.call("atrium_login_types", tenant_id=tenant_id).items():
        if tenant_id is None or k.enablement.is_enabled(tenant_id, plugin):
            types.extend(extra or [])
    return types


def signin_types(tenant_id: int | None) -> list[dict[str, Any]]:
    """Domain accounts (the tenant's LDAP domains) and QR code, as the tenant's sign-in options allow."""
    from atrium.kernel.identity import ldap, register

    types: list[dict[str, Any]] = []
    domains = ldap.domains(tenant_id)
    if domains:
        types.append({"type": "ldap", "domains": domains})
    if register.config_of(tenant_id).qrcode_enabled:
        types.append({"type": "qrcode"})
    return types


def _tenant_of(query: LoginInfoQuery) -> Tenant | None:
    with unscoped():
        if query.tenantId is not None:
            return session().get(Tenant, query.tenantId)
        if query.domainName:
            return session().execute(select(Tenant).where(Tenant.domain == query.domainName)).scalar()
    return None


@router.get("/base-sso-oauth-config/get-login-type", public=True, query=LoginInfoQuery)
def get_login_type(query: LoginInfoQuery) -> list[dict[str, Any]]:
    """Sign-in modes for a tenant's sign-in page: the platform's own and those plugins offer."""
    tenant = _tenant_of(query)
    return login_types(tenant.id if tenant else None)


@router.get("/base-login-config/get-login-info", public=True, query=LoginInfoQuery)
def get_login_info(query: LoginInfoQuery) -> dict[str, Any]:
    """Sign-in page configuration for a tenant domain."""
    tenant = _tenant_of(query)
    return {
        "tenantId": tenant.id if tenant else None,
        "tenantName": tenant.name if tenant else "",
        "loginTypes": login_types(tenant.id if tenant else None),
        "captcha": True,
        "allowRegister": _allow_register(tenant.id if tenant else None),
        "passwordRule": rule_of(tenant.id if tenant else None).answer(kernel().t),
    }


def _allow_register(tenant_id: int | None) -> bool:
    from atrium.kernel.identity import register

    return register.config_of(tenant_id).allow_register


def _days(n: int) -> list[str]:
    today = utcnow().date()
    return [(today - timedelta(days=i)).isoformat() for i in range(n - 1, -1, -1)]


#: the button that shows tenant-wide usage figures (the platform's to super administrators) to a member who
#: is no administrator; everyone else sees their own
USAGE_GRANT = "tracking:stats"


@router.get("/login-log/user-7day-login-count")
def login_7day() -> list[dict[str, Any]]:
    """Sign-ins per day over the last seven days: the platform for super administrators, the tenant for its
    administrators and holders of `tracking:stats`, else the caller's own; from the usage-tracking plugin's
    store when it is enabled here, else from the kernel's sign-in log."""
    su = current_context().require_user()
    wide = holds_grant(USAGE_GRANT)
    tracked = _tracked_usage(7) if wide else None
    if tracked and "loginSeries" in tracked:
        return [{"date": str(d["date"]), "count": int(d["count"])} for d in tracked["loginSeries"]]
    since = utcnow() - timedelta(days=7)
    stmt = select(LoginLog.at).where(LoginLog.at >= since)
    if not wide:
        stmt = stmt.where(LoginLog.user_id == su.user_id)
    with unscoped() if su.is_super_admin else nullcontext():
        rows = session().execute(stmt).scalars().all()
    counts: dict[str, int] = {}
    for at in rows:
        counts[at.date().isoformat()] = counts.get(at.date().isoformat(), 0) + 1
    return [{"date": d, "count": counts.get(d, 0)} for d in _days(7)]


@router.get("/base-behavior/behavior-total7")
def behavior_7day() -> dict[str, Any]:
    """Click totals, active users and top menus over the last seven days in the current tenant (`scope`
    "tenant"), or the caller's own (`scope` "mine") for members without `tracking:stats`."""
    su = current_context().require_user()
    wide = holds_grant(USAGE_GRANT)
    db = session()
    since = utcnow() - timedelta(days=7)

    def within(stmt: Any, log: type[BehaviorLog] | type[LoginLog]) -> Any:
        stmt = stmt.where(log.at >= since)
        return stmt if wide else stmt.where(log.user_id == su.user_id)

    total = db.execute(within(select(func.count()).select_from(BehaviorLog), BehaviorLog)).scalar() or 0
    top_menus = db.execute(
        within(select(BehaviorLog.page_name, func.count()), BehaviorLog)
        .group_by(BehaviorLog.page_name)
        .order_by(func.count().desc())
        .limit(10)
    ).all()
    top_users = db.execute(
        within(select(LoginLog.user_id, func.count()), LoginLog)
        .group_by(LoginLog.user_id)
        .order_by(func.count().desc())
        .limit(10)
    ).all()
    menus_by_name = {n: int(c) for n, c in top_menus}
    tracked = _tracked_usage(7) if wide else None
    if tracked:  # the usage-tracking plugin's store, besides visits recorded here
        total += int(tracked.get("clickTotal", 0))
        for m in tracked.get("topMenus", []):
            menus_by_name[m["name"]] = menus_by_name.get(m["name"], 0) + int(m["count"])
    ranked = sorted(menus_by_name.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    return {
        "clickTotal": int(total),
        "topMenus": [{"name": n, "count": c} for n, c in ranked],
        "topUsers": [{"userId": str(u), "count": int(c)} for u, c in top_users],
        "scope": "tenant" if wide else "mine",
        **(_home_totals() if wide else {}),
    }


def _tracked_usage(days: int) -> dict[str, Any] | None:
    """Clicks and top menus from the plugin that records usage (`atrium_usage_totals`), if enabled here."""
    su = current_context().require_user()
    k = kernel()
    for plugin, answer in k.plugins.call(
        "atrium_usage_totals", tenant_id=None if su.is_super_admin else su.tenant_id, days=days
    ).items():
        if answer is not None and k.enablement.is_enabled(su.tenant_id, plugin):
            return dict(answer)
    return None


def _home_totals() -> dict[str, int]:
    """Tenant, user and question (feedback) totals: the platform for super administrators, else the tenant."""
    su = current_context().require_user()
    db = session()

    def count(q: Any) -> int:
        return int(db.execute(q).scalar() or 0)

    with unscoped():
        if su.is_super_admin:
            return {
                "tenantTotal": count(
                    select(func.count()).select_from(Tenant).where(Tenant.enabled.is_(True))
                ),
                "userTotal": count(select(func.count()).select_from(User).where(User.enabled.is_(True))),
                "questionTotal": count(select(func.count()).select_from(Feedback)),
            }
        return {
            "tenantTotal": 1,
            "userTotal": count(
                select(func.count())
                .select_from(Membership)
                .where(Membership.tenant_id == su.tenant_id, Membership.enabled.is_(True))
            ),
            "questionTotal": count(
                select(func.count()).select_from(Feedback).where(Feedback.tenant_id == su.tenant_id)
            ),
        }


class VisitIn(BaseModel):
    menuId: str = Field(default="", max_length=64)
    pageName: str = Field(default="", max_length=256)


@router.post("/base-behavior/visit", body=VisitIn)
def record_visit(body: VisitIn) -> None:
    """Record a page visit for the dashboard."""
    su = current_context().require_user()
    session().add(BehaviorLog(user_id=su.user_id, menu_id=body.menuId, page_name=body.pageName))
    kernel().emit("page_visit", tenant_id=su.tenant_id, user_id=su.user_id, menu_id=body.menuId)


class AuditIn(BaseModel):
    serverName: str = Field(min_length=1, max_length=64)
    tableName: str = Field(min_length=1, max_length=128)
    tableAlias: str = Field(default="", max_length=128)
    enabled: bool = True


@router.get("/audit-config/list", permission="admin")
def audit_list() -> list[dict[str, Any]]:
    """Table audit configuration of the tenant."""
    rows = session().execute(select(AuditConfig).order_by(AuditConfig.id)).scalars().all()
    return [
        {
            "id": str(r.id),
            "serverName": r.server_name,
            "tableName": r.table_name,
            "tableAlias": r.table_alias,
            "enabled": r.enabled,
        }
        for r in rows
    ]


@router.post("/audit-config/save", permission="admin", body=AuditIn)
def audit_save(body: AuditIn) -> dict[str, str]:
    """Add or update a table's audit setting."""
    db = session()
    row = db.execute(
        select(AuditConfig).where(
            AuditConfig.server_name == body.serverName, AuditConfig.table_name == body.tableName
        )
    ).scalar()
    if row is None:
        row = AuditConfig(server_name=body.serverName, table_name=body.tableName)
        db.add(row)
    before = None if row.id is None else {"tableAlias": row.table_alias, "enabled": row.enabled}
    row.table_alias = body.tableAlias
    row.enabled = body.enabled
    db.flush()
    su = current_context().require_user()
    audit_record(
        "audit_config.save",
        target_type="audit_config",
        target_id=f"{body.serverName}:{body.tableName}",
        target_name=body.tableAlias or body.tableName,
        before=before,
        after=body.model_dump(),
        tenant_id=su.tenant_id,
    )
    return {"id": str(row.id)}
