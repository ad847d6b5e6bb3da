"""Tenants: listing, creation with the systems offered, suspension, the systems offered, deletion."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select

from atrium.kernel import accounts, menus
from atrium.kernel.administration.common import audit, delete_rows, grants_changed, target_tenant
from atrium.kernel.identity.sessions import revoke_where
from atrium.kernel.models import (
    DEFAULT_SYSTEM,
    PLATFORM_TENANT_ID,
    AuditConfig,
    AuthToken,
    BehaviorLog,
    DefaultMenu,
    Favourite,
    Feedback,
    GreyRule,
    LoginLog,
    Membership,
    PasswordStrategy,
    PluginState,
    Role,
    RoleMenu,
    RoleResource,
    Tenant,
    TenantSystem,
    UserRole,
)
from atrium.sdk.accounts import TenantDeleteIn, TenantIdQuery, TenantIn, TenantStateIn, TenantSystemIn
from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, Conflict, NotFound

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

BRANDING = {
    "systemTitle": "system_title",
    "themeColor": "theme_color",
    "systemLogo": "system_logo",
    "iconUrl": "icon_url",
}


class KernelTenants:
    """The SDK's `Tenants` (super administrators' calls)."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel

    def all(self) -> list[dict[str, Any]]:
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

    def create(self, body: TenantIn) -> dict[str, Any]:
        """The tenant, its systems with their branding, and the audit record, all flushed in the running
        transaction (the request's, committed only when everything succeeded): a failure on the way (an
        unknown system, say) leaves nothing written."""
        if body.parentTenantId is not None:
            with unscoped():
                if session().get(Tenant, body.parentTenantId) is None:
                    raise NotFound("tenant.not_found")
        t = accounts.create_tenant(body.tenantId, body.tenantName, body.domain, body.parentTenantId)
        for offer in body.systems:
            branding = offer.model_dump(exclude={"systemCode"}, exclude_none=True)
            accounts.offer_system(t.id, offer.systemCode, **{BRANDING[k]: v for k, v in branding.items()})
        self.kernel.local.invalidate("profile")
        audit("tenant.create", t.id, t.id, after=body.model_dump(), target_name=body.tenantName)
        return {"tenantId": t.id, "systems": sorted({DEFAULT_SYSTEM, *(o.systemCode for o in body.systems)})}

    def set_state(self, body: TenantStateIn) -> dict[str, Any]:
        db = session()
        with unscoped():
            tenant = db.get(Tenant, body.tenantId)
            if tenant is None or tenant.id == PLATFORM_TENANT_ID:
                raise NotFound("tenant.not_found")
            before = tenant.enabled
            tenant.enabled = body.enabled
            if not body.enabled:
                revoked = revoke_where(db, self.kernel, AuthToken.tenant_id == body.tenantId)
                if revoked:
                    db.flush()
        self.kernel.local.invalidate("profile")
        audit(
            "tenant.state",
            body.tenantId,
            body.tenantId,
            before={"enabled": before},
            after={"enabled": body.enabled},
        )
        return {"tenantId": body.tenantId, "enabled": body.enabled}

    def systems(self, query: TenantIdQuery) -> list[dict[str, Any]]:
        tid = target_tenant(query.tenantId)
        with tenant_scope(tid):
            rows = session().execute(select(TenantSystem)).scalars().all()
        return [
            {
                "systemCode": r.system_code,
                "systemTitle": r.system_title,
                "themeColor": r.theme_color,
                "systemLogo": r.system_logo,
                "iconUrl": r.icon_url,
            }
            for r in rows
        ]

    def offer_system(self, body: TenantSystemIn) -> dict[str, Any]:
        tid = target_tenant(body.tenantId)
        if body.offered:
            branding = {
                "system_title": body.systemTitle,
                "theme_color": body.themeColor,
                "system_logo": body.systemLogo,
                "icon_url": body.iconUrl,
            }
            accounts.offer_system(
                tid, body.systemCode, **{k: v for k, v in branding.items() if v is not None}
            )
        else:
            accounts.withdraw_system(tid, body.systemCode)
        self.kernel.local.invalidate("profile")
        self.kernel.local.invalidate(menus.MENUS)
        audit("tenant.system", tid, body.systemCode, after=body.model_dump())
        return {"tenantId": tid, "systemCode": body.systemCode, "offered": body.offered}

    def delete(self, body: TenantDeleteIn) -> None:
        """Refused, saying why, while anybody belongs to the tenant or a tenant sits under it; its
        configuration goes with it (systems offered, roles and grants, plugin switches, sign-in options,
        grey rules, password rules, logs). The audit trail keeps its records."""
        from atrium.kernel.identity.models import LdapConfig, LdapLink, SigninConfig

        db = session()
        with unscoped():
            tenant = db.get(Tenant, body.tenantId)
            if tenant is None:
                raise NotFound("tenant.not_found")
            if tenant.id == PLATFORM_TENANT_ID:
                raise BadRequest("tenant.platform_kept")
            members = (
                db.execute(
                    select(func.count()).select_from(Membership).where(Membership.tenant_id == tenant.id)
                ).scalar()
                or 0
            )
            if members:
                raise Conflict("tenant.in_use", count=members)
            children = (
                db.execute(
                    select(func.count()).select_from(Tenant).where(Tenant.parent_id == tenant.id)
                ).scalar()
                or 0
            )
            if children:
                raise Conflict("tenant.has_children", count=children)
            before = {"tenantName": tenant.name, "domain": tenant.domain, "enabled": tenant.enabled}
            owned: tuple[Any, ...] = (
                LdapLink,
                LdapConfig,
                UserRole,
                RoleResource,
                RoleMenu,
                Role,
                TenantSystem,
                DefaultMenu,
                Favourite,
                GreyRule,
                PasswordStrategy,
                AuditConfig,
                Feedback,
                LoginLog,
                BehaviorLog,
            )
            for model in (*owned, PluginState, SigninConfig, AuthToken):
                delete_rows(db, model, "tenant_id", tenant.id)
            db.delete(tenant)
            db.flush()
        self.kernel.local.invalidate("profile")
        grants_changed(self.kernel)
        audit("tenant.delete", body.tenantId, body.tenantId, before=before)
