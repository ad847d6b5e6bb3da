"""The web manifest and the plugin list."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from atrium.kernel.api.deps import kernel
from atrium.kernel.models import Menu, PluginState
from atrium.kernel.runtime import Kernel
from atrium.sdk import SDK_VERSION
from atrium.sdk.context import current_context, unscoped
from atrium.sdk.db import session
from atrium.sdk.routing import Router

router = Router("/api/kernel")
KERNEL_SERVICES = {"base": "/api/base", "portal": "/api/portal"}


def remote_name(plugin: str) -> str:
    """The global name `createRemoteConfig` gives a plugin's container."""
    return "atrium_" + plugin.replace("-", "_")


NOT_INSTALLED = "not installed"


def unavailable_for(k: Kernel, tenant_id: int, *, errors: bool) -> list[dict[str, Any]]:
    """The plugins this tenant would have that did not load: those that failed (their load error), and those
    uninstalled since (still enabled for the tenant, or still owning menus), each with the prefixes it had
    (from what it said it is, else its menus' paths), so that the host answers there with the application
    not installed page instead of an empty one. A plugin disabled for the tenant is left out; the error
    text only goes to administrators (`errors`)."""
    loaded = set(k.plugins.loaded)
    db = session()
    with unscoped():
        state_rows = db.execute(
            select(PluginState.plugin, PluginState.enabled).where(PluginState.tenant_id == tenant_id)
        ).all()
        menu_rows = db.execute(
            select(Menu.plugin, Menu.url).where(
                Menu.parent_id.is_(None), Menu.plugin.is_not(None), Menu.plugin.not_in(loaded or {""})
            )
        ).all()
    states = {str(plugin): bool(on) for plugin, on in state_rows}
    prefixes: dict[str, list[str]] = {}
    for plugin, url in menu_rows:
        path = (url or "").split("?")[0].rstrip("/")
        if plugin and path.startswith("/") and path not in prefixes.setdefault(plugin, []):
            prefixes[plugin].append(path)
    failed = k.plugins.failed
    names = sorted((set(failed) | set(prefixes) | {p for p, on in states.items() if on}) - loaded)
    rows = []
    for name in names:
        failure = failed.get(name)
        info = failure.info if failure else None
        default = (info.enabled_by_default or info.essential) if info else True
        if not states.get(name, default):
            continue
        own = info.prefixes if info and info.prefixes else prefixes.get(name, [])
        row: dict[str, Any] = {"name": name, "prefixes": own}
        if errors:
            row["error"] = failure.error if failure else NOT_INSTALLED
        rows.append(row)
    return rows


def manifest_for(tenant_id: int, *, errors: bool = False) -> dict[str, Any]:
    k = kernel()
    services = dict(KERNEL_SERVICES)
    plugins = []
    for name in k.enablement.enabled_plugins(tenant_id):
        loaded = k.plugins.loaded[name]
        info = loaded.info
        services.update(info.services)
        if info.web is None or (loaded.remote_hook and loaded.remote is None):
            continue
        plugins.append(
            {
                "name": name,
                "version": info.version,
                "remoteName": remote_name(name),
                "remoteUrl": f"/plugins/{name}/remoteEntry.js",
                "exposes": info.web.exposes,
                "prefixes": info.prefixes,
                "slots": [s.model_dump(exclude_none=True) for s in info.web.slots],
            }
        )
    return {
        "sdkVersion": SDK_VERSION,
        "services": services,
        "plugins": plugins,
        "unavailable": unavailable_for(k, tenant_id, errors=errors),
    }


@router.get("/manifest")
def manifest() -> dict[str, Any]:
    """The signed-in tenant's enabled plugins: remotes, exposed modules, prefixes, slots and service URLs;
    and under `unavailable` those it would have that failed to load or were uninstalled, with their
    prefixes (and, for administrators, the load error)."""
    su = current_context().require_user()
    return manifest_for(su.tenant_id, errors=su.is_admin)


@router.get("/plugins", permission="admin")
def plugins() -> list[dict[str, Any]]:
    """Every installed plugin with its load status (and error), and whether the tenant has it enabled."""
    su = current_context().require_user()
    k = kernel()
    rows = k.plugins.report()
    for row in rows:
        row["enabled"] = row["status"] == "loaded" and k.enablement.is_enabled(su.tenant_id, row["name"])
    return rows
