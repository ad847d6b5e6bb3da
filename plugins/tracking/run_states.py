"""The home dashboard's running / failed / normal card when no process plugin counts process instances:
the background jobs other plugins report through ``atrium_background_job_counts`` (imports, exports)."""

from __future__ import annotations

from typing import Any

from atrium.sdk.context import current_context
from atrium.sdk.services import services

PROCESS_PLUGIN = "process"
STATES = ("running", "failed", "normal")


def run_states() -> dict[str, Any]:
    """``{"counts": "processes"}`` when the process plugin is enabled here (its own card counts them),
    else ``{"counts": "jobs", "running", "failed", "normal"}``: the platform for super administrators,
    else the tenant."""
    su = current_context().require_user()
    svc = services()
    if svc.is_enabled(su.tenant_id, PROCESS_PLUGIN):
        return {"counts": "processes"}
    tenant_id = None if su.is_super_admin else su.tenant_id
    totals = dict.fromkeys(STATES, 0)
    for plugin, answer in svc.call_hook("atrium_background_job_counts", tenant_id=tenant_id).items():
        if not answer or not svc.is_enabled(su.tenant_id, plugin):
            continue
        for state in STATES:
            totals[state] += int(answer.get(state, 0))
    return {"counts": "jobs", **totals}
