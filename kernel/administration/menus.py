"""The platform's menus and their buttons (resources): listing, saving, moving, deleting."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select, union_all

from atrium.kernel import menus
from atrium.kernel.administration.common import audit, delete_rows
from atrium.kernel.api.permissions import menus_changed
from atrium.kernel.models import (
    DefaultMenu,
    Favourite,
    Menu,
    MenuFetch,
    MenuResource,
    RoleMenu,
    RoleResource,
    System,
)
from atrium.sdk.accounts import MenuIdIn, MenuIn, MenuMoveIn, ResourceIn, SystemQuery
from atrium.sdk.context import unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, Conflict, NotFound

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

#: the menu fields a save leaves alone when they are left out, with their columns
MENU_OPTIONAL = {
    "menuIconurl": "icon",
    "isCache": "is_cache",
    "isFetch": "is_fetch",
    "fetchPath": "fetch_path",
    "subscriptKey": "subscript_key",
    "subscriptStatus": "subscript_status",
    "userManualUrl": "user_manual_url",
    "originalAddr": "original_addr",
}


def _strip(item: dict[str, Any] | None) -> dict[str, Any] | None:
    """A menu item without its tree and display-only copies, for the audit trail."""
    if item is None:
        return None
    return {k: v for k, v in item.items() if k not in ("children", "meta", "key")}


class KernelMenus:
    """The SDK's `Menus` (writes: super administrators)."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel

    def all(self, query: SystemQuery) -> list[dict[str, Any]]:
        with unscoped():
            rows = (
                session()
                .execute(
                    select(Menu).where(Menu.system_code == query.systemCode).order_by(Menu.sort, Menu.id)
                )
                .scalars()
                .all()
            )
        return [menus.menu_item(m) for m in rows]

    def save(self, body: MenuIn) -> dict[str, Any]:
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

    def move(self, body: MenuMoveIn) -> dict[str, Any]:
        """No cycles: a menu cannot go under itself or its own sub-menus; its new siblings are renumbered."""
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
        audit(
            "menu.move", None, body.menuId, before=before, after={"parentId": body.parentId, "sort": row.sort}
        )
        parent = str(body.parentId) if body.parentId else None
        return {"menuId": str(row.id), "parentId": parent, "sort": row.sort}

    def delete(self, body: MenuIdIn) -> None:
        """Refused, saying why, while the menu has sub-menus, while a role of any tenant is granted it or
        one of its buttons, or when a plugin provides it (the plugin is switched off instead)."""
        db = session()
        with unscoped():
            row = db.get(Menu, body.menuId)
            if row is None:
                raise NotFound("menu.not_found")
            if row.plugin:
                raise BadRequest("menu.from_plugin", plugin=row.plugin)
            children = (
                db.execute(select(func.count()).select_from(Menu).where(Menu.parent_id == row.id)).scalar()
                or 0
            )
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
                delete_rows(db, model, "menu_id", row.id)
            db.delete(row)
            db.flush()
        menus_changed(session())
        audit("menu.delete", None, body.menuId, before=before, target_name=row.name)

    def resources(self, query: SystemQuery) -> list[dict[str, Any]]:
        with unscoped():
            rows = (
                session()
                .execute(
                    select(MenuResource)
                    .join(Menu, Menu.id == MenuResource.menu_id)
                    .where(Menu.system_code == query.systemCode)
                    .order_by(MenuResource.menu_id, MenuResource.id)
                )
                .scalars()
                .all()
            )
        return [
            {
                "resourceId": str(r.id),
                "menuId": str(r.menu_id),
                "resourceCode": r.code,
                "resourceName": r.name,
            }
            for r in rows
        ]

    def save_resource(self, body: ResourceIn) -> dict[str, str]:
        """By menu and code: a new code adds a button, a known one renames it."""
        db = session()
        with unscoped():
            if db.get(Menu, body.menuId) is None:
                raise NotFound("menu.not_found")
            row = db.execute(
                select(MenuResource).where(
                    MenuResource.menu_id == body.menuId, MenuResource.code == body.resourceCode
                )
            ).scalar()
            before = None if row is None else {"resourceName": row.name}
            if row is None:
                row = MenuResource(menu_id=body.menuId, code=body.resourceCode, name=body.resourceName)
                db.add(row)
            row.name = body.resourceName
            db.flush()
        menus_changed(session())
        audit(
            "resource.save",
            None,
            row.id,
            before=before,
            after=body.model_dump(),
            target_name=body.resourceName,
        )
        return {"resourceId": str(row.id)}
