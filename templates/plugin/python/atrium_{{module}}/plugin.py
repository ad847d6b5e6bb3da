"""Hook implementations of {{title}}."""

from __future__ import annotations

from pathlib import Path

from atrium.sdk import MenuSpec, PluginInfo, Router, WebModule, hookimpl
from atrium.sdk.types import DatabaseSpec

from .api import router
from .models import Base

HERE = Path(__file__).resolve().parent


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        # sdk: the SDK range this plugin is built against; another SDK refuses it with that reason
        name="{{name}}", version="0.1.0", sdk="{{sdk_range}}", description="{{title}}",
        services={"{{name}}": "/api/{{name}}"}, prefixes=["/{{name}}"],
        web=WebModule(remote_name="atrium_{{module}}"),
        # off until an administrator enables it for a tenant (`atrium plugins enable {{name}} --tenant T`)
        enabled_by_default=False,
    )


@hookimpl
def atrium_web_remote() -> str | None:
    """The built web module: inside the wheel (`web_dist`, copied there by setup.py), else `web/dist` beside
    the sources of an editable install; None before `npm run build` (no page then)."""
    for folder in (HERE / "web_dist", HERE.parent / "web" / "dist"):
        if (folder / "remoteEntry.js").is_file():
            return str(folder)
    return None


@hookimpl
def atrium_routes() -> Router:
    return router


@hookimpl
def atrium_database() -> DatabaseSpec:
    return DatabaseSpec(metadata=Base.metadata, migrations=str(Path(__file__).parent / "migrations"))


@hookimpl
def atrium_menus() -> list[MenuSpec]:
    return [MenuSpec(code="{{name}}", name="{{title}}", en_name={"en-us": "{{title}}"}, url="/{{name}}")]
