"""Role routes (`/api/base/admin/roles...`): a tenant's roles and their menu and button grants."""

from __future__ import annotations

from typing import Any

from atrium.sdk.accounts import GrantIn, GrantResourcesIn, RoleIdIn, RoleIn, TenantQuery
from atrium.sdk.routing import Router
from atrium.sdk.services import services

router = Router("/api/base/admin")


@router.get("/roles", permission="admin", query=TenantQuery)
def list_roles(query: TenantQuery) -> list[dict[str, Any]]:
    """Roles of a tenant with their granted menus."""
    return services().administration.roles.all(query)


@router.post("/roles", permission="admin", body=RoleIn)
def create_role(body: RoleIn) -> dict[str, Any]:
    """Create a role in a tenant."""
    return services().administration.roles.create(body)


@router.post("/roles/menus", permission="admin", body=GrantIn)
def grant_menus(body: GrantIn) -> None:
    """Replace a role's menu grants."""
    services().administration.roles.grant_menus(body)


@router.post("/roles/delete", permission="admin", body=RoleIdIn)
def delete_role(body: RoleIdIn) -> None:
    """Delete a role no user holds any more (refused, saying how many do, while in use)."""
    services().administration.roles.delete(body)


@router.post("/roles/resources", permission="admin", body=GrantResourcesIn)
def grant_resources(body: GrantResourcesIn) -> None:
    """Replace a role's button grants."""
    services().administration.roles.grant_resources(body)


@router.get("/roles/resources", permission="admin", query=RoleIdIn)
def role_resources(query: RoleIdIn) -> list[str]:
    """The buttons granted to a role."""
    return services().administration.roles.resources(query)
