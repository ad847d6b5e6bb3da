"""The web manifest and the plugin list."""

from __future__ import annotations

from typing import Any

from atrium.kernel.api.deps import kernel
from atrium.sdk import SDK_VERSION
from atrium.sdk.context import current_context
from atrium.sdk.routing import Router

router = Router("/api/kernel")
KERNEL_SERVICES = {"base": "/api/base", "portal": "/api/portal"}


def remote_name(plugin: str) -> str:
    """The global name `createRemoteConfig` gives a plugin's container."""
    return "atrium_" + plugin.replace("-", "_")


def manifest_for(tenant_id: int) -> dict[str, Any]:
    k = kernel()
    services = dict(KERNEL_SERVICES)
    plugins = []
    for name in k.enablement.enabled_plugins(tenant_id):
        info = k.plugins.loaded[name].info
        services.update(info.services)
        if info.web is None:
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
    return {"sdkVersion": SDK_VERSION, "services": services, "plugins": plugins}


@router.get("/manifest")
def manifest() -> dict[str, Any]:
    """The signed-in tenant's enabled plugins: remotes, exposed modules, prefixes, slots and service URLs."""
    su = current_context().require_user()
    return manifest_for(su.tenant_id)


@router.get("/plugins", permission="admin")
def plugins() -> list[dict[str, Any]]:
    """Every installed plugin with its load status (and error), and whether the tenant has it enabled."""
    su = current_context().require_user()
    k = kernel()
    rows = k.plugins.report()
    for row in rows:
        row["enabled"] = row["status"] == "loaded" and k.enablement.is_enabled(su.tenant_id, row["name"])
    return rows
