"""Systems and tenants of the signed-in user, and the tenant's branding."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import select

from atrium.kernel import systems
from atrium.kernel.models import Tenant
from atrium.sdk.context import current_context, unscoped
from atrium.sdk.db import session
from atrium.sdk.routing import Router

router = Router("/api/base")


class TenantDefinedQuery(BaseModel):
    systemCode: str = Field(default="", max_length=64)
    tenantId: int | None = None
    domainName: str = Field(default="", max_length=128)


@router.get("/base-tenant-system/find-tenant-defined", public=True, query=TenantDefinedQuery)
def find_tenant_defined(query: TenantDefinedQuery) -> dict[str, Any]:
    """The tenant's logo, icon, title and theme colour for a system (default logo if none)."""
    tenant_id = query.tenantId
    if tenant_id is None and query.domainName:
        with unscoped():
            tenant_id = session().execute(select(Tenant.id).where(Tenant.domain == query.domainName)).scalar()
    if tenant_id is None and current_context().user is not None:
        tenant_id = current_context().tenant_id
    return systems.system_setting(tenant_id, query.systemCode)


@router.post("/base-tenant-system/find-user-system")
def find_user_system() -> list[dict[str, Any]]:
    """The systems of the current tenant, with useState and requestUrl."""
    user = current_context().require_user()
    return [systems.system_row(s) for s, _ in systems.tenant_systems(user.tenant_id)]


class TenantFilterQuery(BaseModel):
    enterType: str = Field(default="PC", max_length=16)
    systemCode: str = Field(default="", max_length=64)


@router.post("/base-tenant/find-user-tenants-filter-system", query=TenantFilterQuery)
def find_user_tenants(query: TenantFilterQuery) -> list[dict[str, Any]]:
    """The tenants the user belongs to that offer the given system."""
    user = current_context().require_user()
    return systems.user_tenants(user.user_id, query.systemCode)
