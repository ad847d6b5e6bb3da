"""Per-tenant plugin enablement, cached in process and dropped everywhere through the pub/sub."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from atrium.kernel.models import PluginState
from atrium.sdk.context import current_context

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

SPACE = "plugin-state"


class Enablement:
    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel

    def _states(self, tenant_id: int) -> dict[str, bool]:
        cached = self.kernel.local.get(SPACE, tenant_id)
        if cached is None:
            query = select(PluginState.plugin, PluginState.enabled).where(PluginState.tenant_id == tenant_id)
            db = current_context().db
            if db is not None:
                # Inside a request's session (a hook during sign-in, say), read through its connection: a
                # second one per request lets a burst of such requests take the whole pool and wait for it.
                rows = db.connection().execute(query).all()
            else:
                with self.kernel.engine.connect() as conn:
                    rows = conn.execute(query).all()
            cached = {p: bool(e) for p, e in rows}
            self.kernel.local.put(SPACE, tenant_id, cached)
        return cached  # type: ignore[no-any-return]

    def is_enabled(self, tenant_id: int, plugin: str) -> bool:
        loaded = self.kernel.plugins.loaded.get(plugin)
        if loaded is None:
            return False
        if loaded.info.essential:
            return True
        return self._states(tenant_id).get(plugin, loaded.info.enabled_by_default)

    def enabled_plugins(self, tenant_id: int) -> list[str]:
        return [name for name in self.kernel.plugins.order if self.is_enabled(tenant_id, name)]

    def _audit(self, tenant_id: int, plugin: str, before: bool, enabled: bool) -> None:
        """Every switch reaches the audit trail (from the admin API, the command line or a task), in the
        same transaction; outside a request the person is unknown."""
        from atrium.sdk.audit import record
        from atrium.sdk.services import bind, unbind

        token = bind(self.kernel)  # type: ignore[arg-type]
        try:
            record(
                "plugin.state",
                target_type="plugin",
                target_id=plugin,
                target_name=plugin,
                before={"enabled": before},
                after={"enabled": enabled},
                tenant_id=tenant_id,
            )
        finally:
            unbind(token)

    def set(self, tenant_id: int, plugin: str, enabled: bool) -> None:
        """Persist in the current session; callers commit. Hooks run after."""
        from atrium.sdk.db import session

        db = session()
        row = db.execute(
            select(PluginState).where(PluginState.tenant_id == tenant_id, PluginState.plugin == plugin)
        ).scalar()
        loaded = self.kernel.plugins.loaded.get(plugin)
        default = loaded is not None and (loaded.info.essential or loaded.info.enabled_by_default)
        before = default if row is None else bool(row.enabled)
        if row is None:
            db.add(PluginState(tenant_id=tenant_id, plugin=plugin, enabled=enabled, settings={}))
        else:
            row.enabled = enabled
        db.flush()
        self.kernel.local.invalidate_on_commit(db, SPACE, tenant_id)
        self._audit(tenant_id, plugin, before, enabled)
        hook = "atrium_tenant_enabled" if enabled else "atrium_tenant_disabled"
        self.kernel.plugins.call(hook, tenant_id=tenant_id, plugin=plugin)

    def settings(self, tenant_id: int, plugin: str) -> dict[str, Any]:
        """The plugin's settings for the tenant (empty when none were saved), read in the current session."""
        from atrium.sdk.db import session

        row = (
            session()
            .execute(
                select(PluginState.settings).where(
                    PluginState.tenant_id == tenant_id, PluginState.plugin == plugin
                )
            )
            .scalar()
        )
        return dict(row or {})

    def save_settings(self, tenant_id: int, plugin: str, values: dict[str, Any]) -> dict[str, Any]:
        """Merge `values` into the plugin's settings for the tenant (persisted in the current session; the
        plugin's enablement is left as it is). Answers the settings as saved."""
        from atrium.sdk.db import session

        db = session()
        row = db.execute(
            select(PluginState).where(PluginState.tenant_id == tenant_id, PluginState.plugin == plugin)
        ).scalar()
        if row is None:
            loaded = self.kernel.plugins.loaded.get(plugin)
            enabled = loaded is not None and (loaded.info.essential or loaded.info.enabled_by_default)
            row = PluginState(tenant_id=tenant_id, plugin=plugin, enabled=enabled, settings={})
            db.add(row)
        row.settings = {**(row.settings or {}), **values}
        db.flush()
        self.kernel.local.invalidate_on_commit(db, SPACE, tenant_id)
        return dict(row.settings)
