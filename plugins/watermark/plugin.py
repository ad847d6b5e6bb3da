"""The watermark plugin's hook implementations."""

from __future__ import annotations

from pathlib import Path

from atrium.plugins.watermark import api, demo, preview
from atrium.plugins.watermark.models import Base
from atrium.sdk import MenuSpec, PluginInfo, Router, WebModule, WebSlot, hookimpl
from atrium.sdk.types import DatabaseSpec, Event

ADMIN_PATH = "/system_manage/watermark"
#: a file previewed with the watermark stamped in (`?fileId=&funcCode=`), for every signed-in user
PREVIEW_PATH = "/watermark-preview"
#: the files plugin's event for a deleted attachment (data: `file_id`, `stored_name`)
FILE_DELETED = "file_deleted"


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="watermark",
        version="1.0.0",
        sdk=">=1.0,<2",
        description="Watermark over the shell: per tenant and function, dynamic text from the signed-in "
        "user; file previews with it stamped in",
        services={"watermark": "/api/watermark"},
        prefixes=[ADMIN_PATH, PREVIEW_PATH],
        web=WebModule(remote_name="atrium_watermark", exposes=["./App"], slots=[WebSlot(slot="overlay")]),
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
            code="admin-watermark",
            name="水印设置",
            url=ADMIN_PATH,
            icon="FontSizeOutlined",
            sort=92,
            admin_only=True,
            en_name={"en-us": "Watermark", "zh-tw": "浮水印設定", "vi-vn": "Hình mờ", "hu-hu": "Vízjel"},
        ),
    ]


@hookimpl
def atrium_i18n_namespaces() -> list[str]:
    return ["watermark"]


@hookimpl
def atrium_demo_data(tenants: dict[str, int]) -> None:
    demo.load(tenants)


@hookimpl
def atrium_event(event: Event) -> None:
    if event.name == FILE_DELETED and event.tenant_id is not None:
        preview.forget(event.tenant_id, str(event.data.get("stored_name") or ""))
