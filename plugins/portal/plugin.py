"""The portal plugin's hook implementations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from atrium.plugins.portal import api, demo, service
from atrium.plugins.portal.models import Base
from atrium.sdk import MenuSpec, PluginInfo, Router, WebModule, WebSlot, hookimpl
from atrium.sdk.types import DatabaseSpec

ADMIN_PATH = "/content-management"


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="portal",
        version="1.0.0",
        sdk=">=1.0,<2",
        description="Portal content: announcements, hot topics, featured articles and company news",
        services={"portal": "/api/portal"},
        prefixes=[ADMIN_PATH, "/knowledge-details"],
        web=WebModule(remote_name="atrium_portal", exposes=["./App"], slots=[WebSlot(slot="portalPanel")]),
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
        MenuSpec(
            code="content-management",
            name="内容管理",
            url=ADMIN_PATH,
            icon="ReadOutlined",
            sort=93,
            admin_only=True,
            en_name={
                "en-us": "Content",
                "zh-tw": "內容管理",
                "vi-vn": "Quản lý nội dung",
                "hu-hu": "Tartalomkezelés",
            },
        ),
    ]


@hookimpl
def atrium_i18n_namespaces() -> list[str]:
    return ["portal"]


@hookimpl
def atrium_demo_data(tenants: dict[str, int]) -> None:
    demo.load(tenants)


@hookimpl
def atrium_knowledge_articles(tenant_id: int, locale: str) -> list[dict[str, Any]]:
    return service.knowledge(tenant_id)
