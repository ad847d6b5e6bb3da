"""The platform's systems: listing, saving, deleting unused ones."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select

from atrium.kernel.administration.common import audit
from atrium.kernel.models import DEFAULT_SYSTEM, Menu, System, TenantSystem
from atrium.sdk.accounts import SystemCodeIn, SystemIn
from atrium.sdk.context import unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, Conflict, NotFound

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel


def system_fields(row: System) -> dict[str, Any]:
    """A system as the audit trail records it."""
    return {
        "systemCode": row.code,
        "systemName": row.name,
        "systemEnName": row.en_name,
        "requestUrl": row.request_url,
        "useState": row.use_state,
        "iconUrl": row.icon_url,
    }


class KernelSystems:
    """The SDK's `Systems` (super administrators' calls)."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel

    def all(self) -> list[dict[str, Any]]:
        from atrium.kernel.systems import system_row

        with unscoped():
            return [system_row(s) for s in session().execute(select(System).order_by(System.sort)).scalars()]

    def save(self, body: SystemIn) -> dict[str, str]:
        db = session()
        with unscoped():
            row = db.get(System, body.systemCode)
            before = None if row is None else system_fields(row)
            if row is None:
                row = System(code=body.systemCode, name=body.systemName)
                db.add(row)
            row.name, row.en_name = body.systemName, body.systemEnName
            row.request_url, row.use_state, row.icon_url = body.requestUrl, body.useState, body.iconUrl
        self.kernel.local.invalidate("profile")
        audit(
            "system.save",
            None,
            body.systemCode,
            before=before,
            after=system_fields(row),
            target_name=row.name,
        )
        return {"systemCode": body.systemCode}

    def delete(self, body: SystemCodeIn) -> None:
        """Refused, saying why, while a tenant is offered the system or a menu belongs to it."""
        db = session()
        with unscoped():
            row = db.get(System, body.systemCode)
            if row is None:
                raise NotFound("system.not_found")
            if body.systemCode == DEFAULT_SYSTEM:
                raise BadRequest("system.default_required")
            offered = (
                db.execute(
                    select(func.count())
                    .select_from(TenantSystem)
                    .where(TenantSystem.system_code == body.systemCode)
                ).scalar()
                or 0
            )
            has_menus = db.execute(
                select(Menu.id).where(Menu.system_code == body.systemCode).limit(1)
            ).first()
            if offered or has_menus:
                raise Conflict("system.in_use", count=offered)
            before = system_fields(row)
            db.delete(row)
            db.flush()
        self.kernel.local.invalidate("profile")
        audit("system.delete", None, body.systemCode, before=before, target_name=before["systemName"])
