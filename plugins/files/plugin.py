"""Hook implementations of the files plugin."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from atrium.sdk import MenuSpec, PluginInfo, ResourceSpec, Router, WebModule, hookimpl
from atrium.sdk.types import DatabaseSpec

from . import api, attachments, demo, service
from .models import Base


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="files",
        version="1.0.0",
        sdk=">=1.0,<2",
        description="Tenant-owned attachments, image and icon uploads, custom icons",
        services={"file": "/api/file"},
        prefixes=["/fileCenter"],
        web=WebModule(
            remote_name="atrium_files",
            exposes=["./App", "./IconPicker", "./ImageUpload"],
        ),
    )


@hookimpl
def atrium_routes() -> Router:
    return api.router


@hookimpl
def atrium_database() -> DatabaseSpec:
    return DatabaseSpec(metadata=Base.metadata, migrations=str(Path(__file__).parent / "migrations"))


@hookimpl
def atrium_i18n_namespaces() -> list[str]:
    return ["files"]


@hookimpl
def atrium_menus() -> list[MenuSpec]:
    return [
        MenuSpec(
            code="file-center",
            name="文件中心",
            en_name="File centre",
            url="/fileCenter",
            icon="folder",
            sort=60,
            resources=[ResourceSpec("file:delete", "删除文件"), ResourceSpec("icon:manage", "管理图标")],
        )
    ]


@hookimpl
def atrium_startup(services: Any) -> None:
    demo.materialise(services)


@hookimpl
def atrium_demo_data(tenants: dict[str, int]) -> None:
    demo.load(tenants)


@hookimpl
def atrium_shared_file_url(tenant_id: int, url: str) -> str | None:
    return service.shared_url(tenant_id, url)


@hookimpl
def atrium_services() -> dict[str, Any]:
    return {"attachments": attachments.FileAttachments()}


@hookimpl
def atrium_storage_references() -> list[tuple[int, str, str]]:
    return service.storage_references()
