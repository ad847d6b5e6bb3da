"""Hook implementations of {{title}}."""

from __future__ import annotations

from pathlib import Path

from atrium.sdk import MenuSpec, PluginInfo, Router, WebModule, hookimpl
from atrium.sdk.types import DatabaseSpec

from .api import router
from .models import Base


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="{{name}}", version="0.1.0", sdk=">=1.0,<2", description="{{title}}",
        services={"{{name}}": "/api/{{name}}"}, prefixes=["/{{name}}"],
        web=WebModule(remote_name="atrium_{{module}}"),
    )


@hookimpl
def atrium_routes() -> Router:
    return router


@hookimpl
def atrium_database() -> DatabaseSpec:
    return DatabaseSpec(metadata=Base.metadata, migrations=str(Path(__file__).parent / "migrations"))


@hookimpl
def atrium_menus() -> list[MenuSpec]:
    return [MenuSpec(code="{{name}}", name="{{title}}", en_name={"en-us": "{{title}}"}, url="/{{name}}")]
