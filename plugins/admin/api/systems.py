"""System routes (`/api/base/admin/systems...`, super administrators): list, save, delete."""

from __future__ import annotations

from typing import Any

from atrium.sdk.accounts import SystemCodeIn, SystemIn
from atrium.sdk.routing import Router
from atrium.sdk.services import services

router = Router("/api/base/admin")


@router.get("/systems", permission="super-admin")
def list_systems() -> list[dict[str, Any]]:
    """Every system."""
    return services().administration.systems.all()


@router.post("/systems", permission="super-admin", body=SystemIn)
def save_system(body: SystemIn) -> dict[str, str]:
    """Create or update a system."""
    return services().administration.systems.save(body)


@router.post("/systems/delete", permission="super-admin", body=SystemCodeIn)
def delete_system(body: SystemCodeIn) -> None:
    """Delete a system no tenant is offered and no menu belongs to (refused, saying why, while in use)."""
    services().administration.systems.delete(body)
