"""Systems and tenants a user can enter."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from atrium.kernel.models import DEFAULT_SYSTEM, Membership, System, Tenant, TenantSystem
from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import NotFound, SystemForbidden, SystemNotOpen

DEFAULT_LOGO = "/assets/default-logo.svg"
DEFAULT_THEME_COLOR = "#204BE3"


def tenant_systems(tenant_id: int) -> list[tuple[System, TenantSystem]]:
    with tenant_scope(tenant_id):
        rows = (
            session()
            .execute(
                select(System, TenantSystem)
                .join(TenantSystem, TenantSystem.system_code == System.code)
                .order_by(System.sort, System.code)
            )
            .all()
        )
    return [(s, ts) for s, ts in rows]


def check_system_usable(tenant_id: int, code: str) -> System:
    for system, _ts in tenant_systems(tenant_id):
        if system.code == code:
            if system.use_state != 1:
                raise SystemForbidden()
            if not system.request_url:
                raise SystemNotOpen()
            return system
    raise NotFound("system.not_found")


def system_row(system: System) -> dict[str, Any]:
    return {
        "systemCode": system.code,
        "systemName": system.name,
        "systemEnName": system.en_name,
        "iconUrl": system.icon_url,
        "requestUrl": system.request_url,
        "useState": system.use_state,
    }


def system_setting(tenant_id: int | None, system_code: str) -> dict[str, Any]:
    """Branding of a tenant's system for the sign-in page and the navbar, with the default logo."""
    code = system_code or DEFAULT_SYSTEM
    db = session()
    with unscoped():
        system = db.get(System, code)
        setting = None
        if tenant_id is not None:
            setting = db.execute(
                select(TenantSystem).where(
                    TenantSystem.tenant_id == tenant_id, TenantSystem.system_code == code
                )
            ).scalar()
    if system is None:
        raise NotFound("system.not_found")
    return {
        "systemLogo": (setting.system_logo if setting else "") or DEFAULT_LOGO,
        "iconUrl": (setting.icon_url if setting else "") or system.icon_url,
        "systemTitle": (setting.system_title if setting else "") or system.name,
        "systemName": system.name,
        "systemEnName": system.en_name,
        "themeColor": (setting.theme_color if setting else "") or "",
    }


def user_tenants(user_id: int, system_code: str = "") -> list[dict[str, Any]]:
    db = session()
    with unscoped():
        q = (
            select(Tenant)
            .join(Membership, Membership.tenant_id == Tenant.id)
            .where(Membership.user_id == user_id, Membership.enabled.is_(True), Tenant.enabled.is_(True))
            .order_by(Tenant.id)
        )
        if system_code:
            q = q.join(TenantSystem, TenantSystem.tenant_id == Tenant.id).where(
                TenantSystem.system_code == system_code
            )
        tenants = db.execute(q).scalars().all()
    return [{"tenantId": t.id, "tenantName": t.name, "parentTenantId": t.parent_id} for t in tenants]
