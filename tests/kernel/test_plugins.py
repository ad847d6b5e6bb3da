"""Plugin loading: guards, SDK range, dependencies, ids, and per-tenant enablement."""

from __future__ import annotations

import types
from typing import Any

from atrium.kernel.plugins import load
from atrium.sdk import MenuSpec, PluginInfo, Router, WebModule, hookimpl
from atrium.sdk.testing import AtriumClient


def plugin_module(name: str, **info: Any) -> types.ModuleType:
    """A plugin made on the spot: a route, a menu, a web module."""
    mod = types.ModuleType(f"test_plugin_{name.replace('-', '_')}")
    router = Router(f"/api/{name}")

    @router.get("/hello")
    def hello() -> dict[str, str]:
        return {"hello": name}

    @hookimpl
    def atrium_plugin_info() -> PluginInfo:
        return PluginInfo(
            name=name,
            version="1.0.0",
            services={name: f"/api/{name}"},
            prefixes=[f"/{name}"],
            web=WebModule(remote_name=f"atrium_{name.replace('-', '_')}"),
            **info,
        )

    @hookimpl
    def atrium_routes() -> Router:
        return router

    @hookimpl
    def atrium_menus() -> list[MenuSpec]:
        return [
            MenuSpec(code=f"{name}-menu", name=f"{name} page", url=f"/{name}"),
            MenuSpec(code=f"{name}-admin", name=f"{name} settings", url=f"/{name}/settings", admin_only=True),
        ]

    mod.atrium_plugin_info = atrium_plugin_info
    mod.atrium_routes = atrium_routes
    mod.atrium_menus = atrium_menus
    return mod


def broken_loader() -> Any:
    raise ImportError("this plugin cannot be imported")


def test_broken_plugins_are_reported_and_left_out() -> None:
    good = plugin_module("good-one")
    old_sdk = plugin_module("old-sdk", sdk=">=0.1,<1")
    needs_missing = plugin_module("needs-missing", depends=["not-installed"])
    reg = load([("broken", broken_loader)], [good, old_sdk, needs_missing])
    assert "good-one" in reg.loaded
    assert reg.failed["broken"].error == "ImportError: this plugin cannot be imported"
    assert "needs SDK >=0.1,<1" in reg.failed["old-sdk"].error
    assert "depends on 'not-installed'" in reg.failed["needs-missing"].error


def test_dependencies_load_first_and_cycles_are_refused() -> None:
    a = plugin_module("alpha", depends=["beta"])
    b = plugin_module("beta")
    c1 = plugin_module("cyc-one", depends=["cyc-two"])
    c2 = plugin_module("cyc-two", depends=["cyc-one"])
    reg = load([], [a, b, c1, c2])
    assert reg.order.index("beta") < reg.order.index("alpha")
    assert "cyc-one" in reg.failed and "cyc-two" in reg.failed


def test_a_plugin_id_must_be_kebab_case() -> None:
    reg = load([], [plugin_module("Bad_Name")])
    assert "kebab-case" in reg.failed["test_plugin_Bad_Name"].error


def test_a_broken_plugin_does_not_stop_the_platform(make_atrium_app: Any) -> None:
    broken = types.ModuleType("broken_plugin")
    broken.atrium_plugin_info = lambda: {"name": "broken", "version": "1", "unknown": 1}
    http = make_atrium_app([broken, plugin_module("still-here")])
    admin = AtriumClient(http).signed_in("admin")
    rows = {p["name"]: p for p in admin.ok("GET", "/api/kernel/plugins")}
    assert rows["still-here"]["status"] == "loaded"
    assert rows["broken_plugin"]["status"] == "failed"
    assert "unknown" in rows["broken_plugin"]["error"]


def test_disabling_a_plugin_for_one_tenant(make_atrium_app: Any) -> None:
    http = make_atrium_app([plugin_module("notes")])
    anon = AtriumClient(http)
    admin = anon.signed_in("admin")
    alice, bob = anon.signed_in("alice"), anon.signed_in("bob")

    def menu_codes(c: AtriumClient) -> set[str]:
        tree = c.ok("GET", "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho")["menus"]
        return {m["menuCode"] for m in tree}

    assert alice.ok("GET", "/api/notes/hello") == {"hello": "notes"}
    assert "notes" in [p["name"] for p in alice.ok("GET", "/api/kernel/manifest")["plugins"]]
    assert {"notes-menu", "notes-admin"} <= menu_codes(admin)
    assert "notes-menu" in menu_codes(alice) and "notes-admin" not in menu_codes(alice)

    admin.ok(
        "POST", "/api/base/admin/plugins/state", json={"plugin": "notes", "enabled": False, "tenantId": 1001}
    )
    refused = alice.get("/api/notes/hello")
    assert refused["code"] == 460 and "notes" in refused["msg"]
    assert "notes" not in [p["name"] for p in alice.ok("GET", "/api/kernel/manifest")["plugins"]]
    assert "notes-menu" not in menu_codes(admin)
    assert bob.ok("GET", "/api/notes/hello") == {"hello": "notes"}

    admin.ok(
        "POST", "/api/base/admin/plugins/state", json={"plugin": "notes", "enabled": True, "tenantId": 1001}
    )
    assert alice.ok("GET", "/api/notes/hello") == {"hello": "notes"}


def test_unknown_plugin_state_change_is_refused(admin_client: AtriumClient) -> None:
    body = admin_client.post("/api/base/admin/plugins/state", json={"plugin": "nope", "enabled": False})
    assert body["code"] == 404 and "nope" in body["msg"]
