"""The menu registry: trees per system and role, plugin menus, hiding rules, and their in-process cache."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from atrium.kernel.models import Menu, MenuResource, RoleMenu, RoleResource, ServerConfig
from atrium.sdk.context import SessionUser, tenant_scope, unscoped
from atrium.sdk.db import session
from atrium.sdk.types import MenuSpec

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

MENUS = "menus"
MENU_STRUCTURE = "menu-structure"
"""The systems' menus and buttons as effective permissions read them; dropped only when those change."""
ALWAYS_HIDDEN = {"rule-engine"}
CHAT_ONLY = {"api-analytics"}
CHAT_FLAG = "AIGC_ENABLE"


def flag(key: str) -> bool:
    with unscoped():
        row = session().get(ServerConfig, key)
    return bool(row and row.value.strip().lower() in ("1", "true", "yes", "on"))


def en_name_value(en: str | dict[str, str]) -> str:
    return json.dumps(en, ensure_ascii=False) if isinstance(en, dict) else en


def sync_menus(kernel: Kernel) -> int:
    """Insert or update every plugin's default menus and buttons; answers how many menus were written."""
    db = session()
    count = 0

    def upsert(spec: MenuSpec, parent_id: int | None, plugin: str) -> None:
        nonlocal count
        with unscoped():
            row = db.execute(
                select(Menu).where(Menu.system_code == spec.system_code, Menu.code == spec.code)
            ).scalar()
        if row is None:
            row = Menu(system_code=spec.system_code, code=spec.code)
            db.add(row)
        row.parent_id = parent_id
        row.name = spec.name
        row.en_name = en_name_value(spec.en_name)
        row.url = spec.url
        row.icon = spec.icon
        row.parameter = json.dumps(spec.parameter, ensure_ascii=False) if spec.parameter else ""
        row.is_cache = spec.is_cache
        row.subscript_key = spec.subscript_key
        row.subscript_status = 1 if spec.subscript_key else 0
        row.user_manual_url = spec.user_manual_url
        row.sort = spec.sort
        row.admin_only = spec.admin_only
        row.plugin = plugin
        db.flush()
        count += 1
        existing = {
            r.code: r
            for r in db.execute(select(MenuResource).where(MenuResource.menu_id == row.id)).scalars()
        }
        for res in spec.resources:
            if res.code in existing:
                existing[res.code].name = res.name
            else:
                db.add(MenuResource(menu_id=row.id, code=res.code, name=res.name))
        for child in spec.children:
            child.system_code = spec.system_code
            upsert(child, row.id, plugin)

    for plugin, specs in kernel.plugins.call("atrium_menus").items():
        for spec in specs or []:
            upsert(spec, None, plugin)
    kernel.local.invalidate(MENUS)
    kernel.local.invalidate(MENU_STRUCTURE)
    return count


def menu_item(m: Menu) -> dict[str, Any]:
    en = m.en_name
    try:
        en_value: Any = json.loads(en) if en.strip().startswith("{") else en
    except ValueError:
        en_value = en
    params: Any = {}
    if m.parameter:
        try:
            params = json.loads(m.parameter)
        except ValueError:
            params = {}
    return {
        "menuId": str(m.id),
        "menuCode": m.code,
        "menuUrl": m.url,
        "menuName": m.name,
        "menuEnName": en_value,
        "menuIconurl": m.icon,
        "parameter": m.parameter,
        "isCache": 1 if m.is_cache else 0,
        "isFetch": 1 if m.is_fetch else 0,
        "fetchPath": m.fetch_path,
        "subscriptKey": m.subscript_key,
        "subscriptStatus": m.subscript_status,
        "key": m.subscript_key,
        "userManualUrl": m.user_manual_url,
        "originalAddr": m.original_addr,
        "parentId": str(m.parent_id) if m.parent_id else None,
        "plugin": m.plugin,
        "children": [],
        "meta": {"title": m.name, "enTitle": en_value, "params": params, "userManualUrl": m.user_manual_url},
    }


def _hidden(m: Menu, chat_on: bool, enabled: set[str], is_admin: bool, holding: set[int]) -> bool:
    """`holding`: the administrators' menus whose buttons the member's roles hold (an author of forms reaches
    the form designer through the `form:design` button, without being an administrator)."""
    if m.admin_only and not is_admin and m.id not in holding:
        return True
    if m.code in ALWAYS_HIDDEN or m.name in ALWAYS_HIDDEN:
        return True
    if (m.code in CHAT_ONLY or m.name in CHAT_ONLY) and not chat_on:
        return True
    return bool(m.plugin) and m.plugin not in enabled


def visible_menus(kernel: Kernel, su: SessionUser, system_code: str) -> list[Menu]:
    db = session()
    with unscoped():
        menus = (
            db.execute(select(Menu).where(Menu.system_code == system_code).order_by(Menu.sort, Menu.id))
            .scalars()
            .all()
        )
    enabled = set(kernel.enablement.enabled_plugins(su.tenant_id))
    chat_on = flag(CHAT_FLAG)
    by_id = {m.id: m for m in menus}
    holding: set[int] = set()
    if su.is_admin:
        granted = set(by_id)
    else:
        roles = su.roles or {-1}
        with tenant_scope(su.tenant_id):
            granted = set(db.execute(select(RoleMenu.menu_id).where(RoleMenu.role_id.in_(roles))).scalars())
            buttons = select(RoleResource.resource_id).where(RoleResource.role_id.in_(roles))
            held = list(db.execute(buttons).scalars())
        if held:
            with unscoped():
                owners = db.execute(select(MenuResource.menu_id).where(MenuResource.id.in_(held))).scalars()
                holding = {mid for mid in owners if mid in by_id and by_id[mid].admin_only}
        granted |= holding
    keep: set[int] = set()
    for mid in granted:
        node = by_id.get(mid)
        chain = []
        while node is not None:
            chain.append(node)
            node = by_id.get(node.parent_id) if node.parent_id else None
        if any(_hidden(n, chat_on, enabled, su.is_admin, holding) for n in chain):
            continue
        keep.update(n.id for n in chain)
    return [m for m in menus if m.id in keep]


def can_see(kernel: Kernel, su: SessionUser, menu_id: int) -> bool:
    """Whether the menu is in the user's tree (granted, not hidden, its plugin enabled)."""
    with unscoped():
        system_code = session().execute(select(Menu.system_code).where(Menu.id == menu_id)).scalar()
    return system_code is not None and any(m.id == menu_id for m in visible_menus(kernel, su, system_code))


def menu_tree(kernel: Kernel, su: SessionUser, system_code: str) -> list[dict[str, Any]]:
    key = (su.tenant_id, system_code, su.roles, su.is_admin)
    cached = kernel.local.get(MENUS, key)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    items = {m.id: menu_item(m) for m in visible_menus(kernel, su, system_code)}
    children: dict[str | None, list[dict[str, Any]]] = defaultdict(list)
    for item in items.values():
        children[item["parentId"]].append(item)
    for item in items.values():
        item["children"] = children.get(item["menuId"], [])
    roots = [i for i in items.values() if i["parentId"] is None or int(i["parentId"]) not in items]
    kernel.local.put(MENUS, key, roots)
    return roots


def resources_for(su: SessionUser, menu_id: int) -> list[dict[str, Any]]:
    db = session()
    with unscoped():
        rows = db.execute(select(MenuResource).where(MenuResource.menu_id == menu_id)).scalars().all()
    if not su.is_admin:
        with tenant_scope(su.tenant_id):
            allowed = set(
                db.execute(
                    select(RoleResource.resource_id).where(RoleResource.role_id.in_(su.roles or {-1}))
                ).scalars()
            )
        rows = [r for r in rows if r.id in allowed]
    return [{"resourceId": str(r.id), "resourceCode": r.code, "resourceName": r.name} for r in rows]
