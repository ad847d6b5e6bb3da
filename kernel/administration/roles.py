"""Roles of a tenant and their menu and button grants."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select

from atrium.kernel import accounts
from atrium.kernel.administration.common import audit, grants_changed, target_tenant
from atrium.kernel.models import Menu, MenuResource, Role, RoleMenu, RoleResource, UserRole
from atrium.sdk.accounts import GrantIn, GrantResourcesIn, RoleIdIn, RoleIn, TenantQuery
from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import Conflict, NotFound

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel


class KernelRoles:
    """The SDK's `Roles`."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel

    def all(self, query: TenantQuery) -> list[dict[str, Any]]:
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

    def create(self, body: RoleIn) -> dict[str, Any]:
        with tenant_scope(target_tenant(body.tenantId)):
            role = accounts.create_role(body.roleCode, body.roleName)
        audit("role.create", role.tenant_id, role.id, after=body.model_dump(), target_name=role.name)
        return {"roleId": role.id}

    def delete(self, body: RoleIdIn) -> None:
        """Refused, saying how many users hold the role, while in use."""
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
        grants_changed(self.kernel)
        audit("role.delete", tid, body.roleId, before=before, target_name=role.name)

    def grant_menus(self, body: GrantIn) -> None:
        with unscoped():
            known = set(session().execute(select(Menu.id).where(Menu.id.in_(body.menuIds))).scalars())
        if known != set(body.menuIds):
            raise NotFound("menu.not_found")
        tid = target_tenant(body.tenantId)
        with tenant_scope(tid):
            granted = select(RoleMenu.menu_id).where(RoleMenu.role_id == body.roleId)
            before = sorted(session().execute(granted).scalars())
            accounts.grant_menus(self.kernel, body.roleId, body.menuIds)
            grants_changed(self.kernel)
        after = sorted(set(body.menuIds))
        audit("role.menus", tid, body.roleId, before={"menuIds": before}, after={"menuIds": after})

    def resources(self, query: RoleIdIn) -> list[str]:
        with tenant_scope(target_tenant(query.tenantId)):
            ids = session().execute(
                select(RoleResource.resource_id).where(RoleResource.role_id == query.roleId)
            )
            return [str(i) for i in ids.scalars()]

    def grant_resources(self, body: GrantResourcesIn) -> None:
        wanted = set(body.resourceIds)
        with unscoped():
            known = set(
                session().execute(select(MenuResource.id).where(MenuResource.id.in_(wanted))).scalars()
            )
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
        self.kernel.local.invalidate("session")
        grants_changed(self.kernel)
        audit(
            "role.resources",
            tid,
            body.roleId,
            before={"resourceIds": before},
            after={"resourceIds": sorted(wanted)},
        )
