"""Menu routes (`/api/base/admin/menus...`, `/resources`): the platform's menus and their buttons."""

from __future__ import annotations

from typing import Any

from atrium.sdk.accounts import MenuIdIn, MenuIn, MenuMoveIn, ResourceIn, SystemQuery
from atrium.sdk.routing import Router
from atrium.sdk.services import services

router = Router("/api/base/admin")


@router.get("/menus", permission="admin", query=SystemQuery)
def list_menus(query: SystemQuery) -> list[dict[str, Any]]:
    """Every menu of a system, flat."""
    return services().administration.menus.all(query)


@router.post("/menus", permission="super-admin", body=MenuIn)
def save_menu(body: MenuIn) -> dict[str, Any]:
    """Create or update a menu (by system and code)."""
    return services().administration.menus.save(body)


@router.get("/resources", permission="admin", query=SystemQuery)
def list_resources(query: SystemQuery) -> list[dict[str, Any]]:
    """The button resources of every menu of a system."""
    return services().administration.menus.resources(query)


@router.post("/resources", permission="super-admin", body=ResourceIn)
def save_resource(body: ResourceIn) -> dict[str, str]:
    """Add a button resource to a menu, or rename it (by menu and code)."""
    return services().administration.menus.save_resource(body)


@router.post("/menus/move", permission="super-admin", body=MenuMoveIn)
def move_menu(body: MenuMoveIn) -> dict[str, Any]:
    """Move a menu under another parent (or to the top) at a position; its siblings are renumbered."""
    return services().administration.menus.move(body)


@router.post("/menus/delete", permission="super-admin", body=MenuIdIn)
def delete_menu(body: MenuIdIn) -> None:
    """Delete a menu with its buttons; refused, saying why, while it has sub-menus, while a role of any
    tenant is granted it or one of its buttons, or when a plugin provides it (the plugin is switched off
    instead)."""
    services().administration.menus.delete(body)
