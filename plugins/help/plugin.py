"""The help plugin's hook implementations."""

from __future__ import annotations

from pathlib import Path

from atrium.plugins.help import api, demo, service
from atrium.plugins.help.models import Base
from atrium.sdk import MenuSpec, PluginInfo, Router, WebModule, WebSlot, hookimpl
from atrium.sdk.types import DatabaseSpec, Event

CENTRE_PATH = "/help-center"


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="help",
        version="1.0.0",
        sdk=">=1.0,<2",
        description="Help documents per menu, the help centre, and the knowledge chat over them (BM25, SSE)",
        services={"help": "/api/help", "aigc": "/api/aigc"},
        prefixes=[CENTRE_PATH],
        web=WebModule(
            remote_name="atrium_help",
            exposes=["./App"],
            slots=[WebSlot(slot="navbarItem"), WebSlot(slot="drawer")],
        ),
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
            code="help-center",
            name="帮助中心",
            url=CENTRE_PATH,
            icon="QuestionCircleOutlined",
            sort=95,
            en_name={
                "en-us": "Help centre",
                "zh-tw": "說明中心",
                "vi-vn": "Trung tâm trợ giúp",
                "hu-hu": "Súgóközpont",
            },
        ),
    ]


@hookimpl
def atrium_i18n_namespaces() -> list[str]:
    return ["help"]


@hookimpl
def atrium_event(event: Event) -> None:
    if event.name == "logout" and event.user_id is not None:
        service.clear_sessions(event.user_id)


@hookimpl
def atrium_demo_data(tenants: dict[str, int]) -> None:
    demo.load(tenants)
