"""The home dashboard's running / failed / normal card when no process plugin counts process instances:
the background jobs other plugins report through ``atrium_background_job_counts`` (imports, exports)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from atrium.sdk.services import services

if TYPE_CHECKING:
    from atrium.plugins.tracking.service import Scope

PROCESS_PLUGIN = "process"
STATES = ("running", "failed", "normal")


def run_states(scope: Scope) -> dict[str, Any]:
    """``{"counts": "processes"}`` when the process plugin is enabled here (its own card counts them);
    else ``{"counts": "jobs", "scope", "running", "failed", "normal"}``: the platform for super
    administrators, else the tenant. The plugins answer per tenant only, so a caller who may not see the
    tenant's figures gets ``{"counts": "none", "scope": "mine"}``: no card rather than someone else's jobs
    or made-up zeros."""
    svc = services()
    if svc.is_enabled(scope.tenant_id, PROCESS_PLUGIN):
        return {"counts": "processes"}
    if scope.mine:
        return {"counts": "none", "scope": scope.name}
    tenant_id = None if scope.name == "platform" else scope.tenant_id
    totals = dict.fromkeys(STATES, 0)
    for plugin, answer in svc.call_hook("atrium_background_job_counts", tenant_id=tenant_id).items():
        if not answer or not svc.is_enabled(scope.tenant_id, plugin):
            continue
        for state in STATES:
            totals[state] += int(answer.get(state, 0))
    return {"counts": "jobs", "scope": scope.name, **totals}
