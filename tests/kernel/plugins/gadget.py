"""A tiny optional plugin for the kernel's tests: one route, one menu, a web module."""

from __future__ import annotations

from atrium.sdk import MenuSpec, PluginInfo, Router, WebModule, WebSlot, hookimpl

router = Router("/api/gadget")


@router.get("/ping")
def ping() -> dict[str, str]:
    """Answers pong."""
    return {"pong": "yes"}


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="gadget",
        version="1.2.3",
        services={"gadget": "/api/gadget"},
        prefixes=["/gadget"],
        web=WebModule(remote_name="atrium_gadget", slots=[WebSlot(slot="navbarItem", module="./Bell")]),
    )


@hookimpl
def atrium_routes() -> Router:
    return router


@hookimpl
def atrium_menus() -> list[MenuSpec]:
    return [MenuSpec(code="gadget-home", name="小工具", en_name={"en-us": "Gadget"}, url="/gadget")]
