"""Tenant routes (`/api/base/admin/tenants...`, super administrators): list, create, suspend, delete."""

from __future__ import annotations

from typing import Any

from atrium.sdk.accounts import TenantDeleteIn, TenantIdQuery, TenantIn, TenantStateIn, TenantSystemIn
from atrium.sdk.routing import Router
from atrium.sdk.services import services

router = Router("/api/base/admin")


@router.get("/tenants", permission="super-admin")
def list_tenants() -> list[dict[str, Any]]:
    """Every tenant."""
    return services().administration.tenants.all()


@router.post("/tenants", permission="super-admin", body=TenantIn)
def create_tenant(body: TenantIn) -> dict[str, Any]:
    """Create a tenant with the default system and the systems offered to it, in one transaction: a
    failure on the way (an unknown system, say) leaves nothing written."""
    return services().administration.tenants.create(body)


@router.post("/tenants/systems", permission="super-admin", body=TenantSystemIn)
def offer_system(body: TenantSystemIn) -> dict[str, Any]:
    """Offer a system to a tenant (with its branding there), or withdraw it."""
    return services().administration.tenants.offer_system(body)


@router.post("/tenants/state", permission="super-admin", body=TenantStateIn)
def set_tenant_state(body: TenantStateIn) -> dict[str, Any]:
    """Suspend a tenant (its users' sessions end) or let it work again."""
    return services().administration.tenants.set_state(body)


@router.get("/tenants/systems", permission="super-admin", query=TenantIdQuery)
def tenant_systems(query: TenantIdQuery) -> list[dict[str, Any]]:
    """The systems offered to a tenant with their branding there."""
    return services().administration.tenants.systems(query)


@router.post("/tenants/delete", permission="super-admin", body=TenantDeleteIn)
def delete_tenant(body: TenantDeleteIn) -> None:
    """Delete a tenant nobody belongs to and no tenant sits under, with its configuration (systems offered,
    roles and grants, plugin switches, sign-in options, grey rules, password rules, logs); refused, saying
    why, while in use. The audit trail keeps its records."""
    services().administration.tenants.delete(body)
