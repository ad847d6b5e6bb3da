"""Menus of the signed-in user: tree, search, buttons, badges, fetch entries, default page."""

from __future__ import annotations

from functools import partial
from typing import Any, cast

from pydantic import BaseModel, Field
from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from atrium.kernel import menus
from atrium.kernel.api.deps import kernel
from atrium.kernel.http import encoded
from atrium.kernel.models import DEFAULT_SYSTEM, DefaultMenu, Menu, MenuFetch
from atrium.sdk.context import current_context, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, NotFound
from atrium.sdk.flight import Flight
from atrium.sdk.routing import Router

router = Router("/api/base")


class SystemQuery(BaseModel):
    systemCode: str = Field(default="", max_length=64)


def _default_menu(user_id: int, system_code: str) -> dict[str, Any] | None:
    row = (
        session()
        .execute(
            select(DefaultMenu).where(DefaultMenu.user_id == user_id, DefaultMenu.system_code == system_code)
        )
        .scalar()
    )
    if row is None:
        return None
    return {"menuId": str(row.menu_id), "routePath": row.route_path, "systemCode": row.system_code}


def _load(system_code: str) -> dict[str, Any]:
    su = current_context().require_user()
    return {
        "menus": menus.menu_tree(kernel(), su, system_code),
        "defaultMenu": _default_menu(su.user_id, system_code),
    }


_loads: Flight[dict[str, Any]] = Flight()
"""A user's pages ask for the tree together when it is missing (sign-in, a change of menus): one load."""


async def _load_and_keep(
    system: str, default_key: tuple[int, int | None, str], since: int
) -> dict[str, Any]:
    k = kernel()
    data = await run_in_threadpool(k.run_in_session, _load, {"system_code": system})
    k.local.put("default-menu", default_key, data["defaultMenu"] or {}, since=since)
    return cast(dict[str, Any], data)


@router.get("/base-rolemenu/find-user-menus", query=SystemQuery)
async def find_user_menus(query: SystemQuery) -> dict[str, Any]:
    """The user's menu tree for a system and their default page."""
    ctx = current_context()
    su = ctx.require_user()
    system = query.systemCode or su.system_code or DEFAULT_SYSTEM
    k = kernel()
    key = (su.tenant_id, system, su.roles, su.is_admin)
    tree = k.local.get(menus.MENUS, key)
    default_key = (su.user_id, su.tenant_id, system)
    default = k.local.get("default-menu", default_key)
    if tree is None or default is None:
        since = k.local.generation("default-menu", default_key)
        load = partial(_load_and_keep, system, default_key, since)
        return await _loads.run((default_key, key, since, k.local.generation(menus.MENUS, key)), load)
    json_key = ("json", *key)
    tree_json = k.local.get(menus.MENUS, json_key)
    if tree_json is None:
        tree_json = encoded(tree)
        k.local.put(menus.MENUS, json_key, tree_json)
    return {"menus": tree_json, "defaultMenu": default or None}


class KeywordQuery(BaseModel):
    keyword: str = Field(default="", max_length=64)
    systemCode: str = Field(default="", max_length=64)


@router.get("/base-rolemenu/get-keyword", query=KeywordQuery)
def get_keyword(query: KeywordQuery) -> list[dict[str, Any]]:
    """Menus whose name (in any language) contains the keyword, leaves first, at most 20."""
    su = current_context().require_user()
    word = query.keyword.strip().lower()
    if not word:
        return []
    system = query.systemCode or su.system_code or DEFAULT_SYSTEM
    found = []
    for m in menus.visible_menus(kernel(), su, system):
        names = (m.name.lower(), m.en_name.lower(), m.code.lower())
        if m.url and any(word in n for n in names):
            found.append(menus.menu_item(m))
    return found[:20]


class MenuIdQuery(BaseModel):
    menuId: int


@router.get("/resource/find-resource", query=MenuIdQuery)
def find_resource(query: MenuIdQuery) -> list[dict[str, Any]]:
    """Button resources of a menu the user may use."""
    su = current_context().require_user()
    return menus.resources_for(su, query.menuId)


class MenuNumIn(BaseModel):
    keys: list[str] = Field(default_factory=list, max_length=100)


@router.post("/message-subscript/find-menu-num", body=MenuNumIn)
def find_menu_num(body: MenuNumIn) -> dict[str, int]:
    """Corner numbers for badge keys, answered by the plugins that own them (0 for unknown keys)."""
    ctx = current_context()
    ctx.require_user()
    keys = [k[:64] for k in body.keys]
    nums: dict[str, int] = dict.fromkeys(keys, 0)
    k = kernel()
    enabled = set(k.enablement.enabled_plugins(ctx.require_user().tenant_id))
    for plugin, answer in k.plugins.call("atrium_menu_numbers", keys=keys, ctx=ctx).items():
        if plugin not in enabled:
            continue
        for key, value in (answer or {}).items():
            if key in nums:
                nums[key] = int(value)
    return nums


class MenuFetchIn(BaseModel):
    menuId: int


@router.post("/base-menu-fetch/find-list", body=MenuFetchIn)
def menu_fetch(body: MenuFetchIn) -> list[dict[str, Any]]:
    """Fetch entries of a menu in the user's tree (none for any other menu)."""
    su = current_context().require_user()
    if not menus.can_see(kernel(), su, body.menuId):
        return []
    with unscoped():
        rows = session().execute(select(MenuFetch).where(MenuFetch.menu_id == body.menuId)).scalars().all()
    return [{"menuFetchId": str(r.id), "fetchItemName": r.item_name, "fetchExpand": r.expand} for r in rows]


class DefaultMenuIn(BaseModel):
    menuId: int | None = None
    systemCode: str = Field(default="", max_length=64)
    routePath: str = Field(default="", max_length=512)


@router.post("/base-default-menu/save", body=DefaultMenuIn)
def save_default_menu(body: DefaultMenuIn) -> dict[str, Any] | None:
    """Set the user's default tab for a system; an empty menuId cancels it."""
    su = current_context().require_user()
    system = body.systemCode or su.system_code or DEFAULT_SYSTEM
    db = session()
    row = db.execute(
        select(DefaultMenu).where(DefaultMenu.user_id == su.user_id, DefaultMenu.system_code == system)
    ).scalar()
    kernel().local.invalidate("default-menu", (su.user_id, su.tenant_id, system))
    if body.menuId is None:
        if row is not None:
            db.delete(row)
        return None
    if not body.routePath.startswith("/"):
        raise BadRequest("menu.route_invalid")
    visible = {m.id for m in menus.visible_menus(kernel(), su, system)}
    with unscoped():
        exists = db.get(Menu, body.menuId)
    if exists is None or body.menuId not in visible:
        raise NotFound("menu.not_found")
    if row is None:
        row = DefaultMenu(
            user_id=su.user_id, system_code=system, menu_id=body.menuId, route_path=body.routePath
        )
        db.add(row)
    else:
        row.menu_id = body.menuId
        row.route_path = body.routePath
    return {"menuId": str(body.menuId), "routePath": body.routePath, "systemCode": system}
