"""The message plugin's hook implementations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from atrium.plugins.message import api, demo, service, unread
from atrium.plugins.message.models import Base
from atrium.sdk import MenuSpec, PluginInfo, ResourceSpec, Router, WebModule, WebSlot, hookimpl
from atrium.sdk.context import RequestContext
from atrium.sdk.types import DatabaseSpec, Event

BADGE_KEY = "unreadMessages"


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="message", version="1.0.0", sdk=">=1.0,<2",
        description="System letters: inbox, sending to users, roles or a tenant, live push, unread badge",
        services={"message": "/api/message"}, prefixes=["/message-management"],
        web=WebModule(remote_name="atrium_message", exposes=["./App"], slots=[
            WebSlot(slot="navbarItem"), WebSlot(slot="page", path="/letters"),
        ]),
    )


@hookimpl
def atrium_routes() -> Router:
    return api.router


@hookimpl
def atrium_database() -> DatabaseSpec:
    return DatabaseSpec(metadata=Base.metadata, migrations=str(Path(__file__).parent / "migrations"))


@hookimpl
def atrium_menus() -> list[MenuSpec]:
    return [
        MenuSpec(code="message-letters", name="站内信", url="/letters", icon="MailOutlined", sort=90,
                 en_name={"en-us": "Letters", "zh-tw": "站內信", "vi-vn": "Thư", "hu-hu": "Levelek"},
                 subscript_key=BADGE_KEY, is_cache=False),
        MenuSpec(code="admin-message-management", name="消息管理", url="/message-management",
                 icon="NotificationOutlined", sort=91, admin_only=True,
                 en_name={"en-us": "Messages", "zh-tw": "消息管理", "vi-vn": "Quản lý tin nhắn",
                          "hu-hu": "Üzenetkezelés"},
                 resources=[ResourceSpec(code="message:send", name="发送站内信")]),
    ]


@hookimpl
def atrium_i18n_namespaces() -> list[str]:
    return ["message"]


@hookimpl
def atrium_demo_data(tenants: dict[str, int]) -> None:
    demo.load(tenants)


@hookimpl
def atrium_startup(services: Any) -> None:
    unread.cache.clear()
    services.pubsub.subscribe(unread.CHANNEL, unread.on_invalidate)


@hookimpl
def atrium_event(event: Event) -> None:
    if event.name == "send_message" and event.tenant_id is not None:
        d = event.data
        service.send_message(
            content=str(d.get("content", "")), to_users=d.get("to_users", ()), to_roles=d.get("to_roles", ()),
            to_tenant=bool(d.get("to_tenant", False)), system_code=d.get("system_code"),
            tenant_id=event.tenant_id, sender_id=event.user_id,
        )


@hookimpl
def atrium_menu_numbers(keys: list[str], ctx: RequestContext) -> dict[str, int]:
    if BADGE_KEY not in keys or ctx.user is None:
        return {}
    system = ctx.system_code or ctx.user.system_code
    return {BADGE_KEY: unread.total(unread.counts(ctx.user.tenant_id, ctx.user.user_id), [system])}
