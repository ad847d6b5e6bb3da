"""Sign-ins recorded from the platform's ``login`` event into the raw table, beside the browser's records,
so the 7-day sign-in counts read the same rollups as every other usage figure."""

from __future__ import annotations

from typing import Any

from atrium.plugins.tracking import service
from atrium.plugins.tracking.models import SIGN_IN
from atrium.plugins.tracking.records import BLANK
from atrium.sdk.context import current_context
from atrium.sdk.db import utcnow
from atrium.sdk.services import services
from atrium.sdk.types import Event

PLUGIN = "tracking"


def record(event: Event) -> None:
    """Queue one sign-in row for the bulk writer (a tenant without the plugin records nothing)."""
    if event.name != "login" or event.tenant_id is None or event.user_id is None:
        return
    if not services().is_enabled(event.tenant_id, PLUGIN):
        return
    name = event.data.get("user_name")
    if name is None:
        person = services().directory.users([event.user_id]).get(event.user_id)
        name = person.full_name if person else ""
    system = str(event.data.get("system_code") or "")
    service.buffer().add([sign_in_row(event.tenant_id, event.user_id, str(name), system)])


def sign_in_row(tenant_id: int, user_id: int, user_name: str, system_code: str) -> dict[str, Any]:
    """A complete raw-table row for one sign-in now, from the running request's client."""
    now = utcnow()
    return {
        **BLANK,
        "tenant_id": tenant_id,
        "user_id": user_id,
        "user_name": user_name[:64],
        "client_ip": (current_context().client_ip or "")[:64],
        "system_code": system_code[:64],
        "track_type": "login",
        "event_type": SIGN_IN,
        "at": now,
        "client_at": now,
    }
