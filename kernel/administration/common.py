"""What every administration concept shares: the tenant a caller acts on, the audit report, look-ups."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Table, select
from sqlalchemy.orm import Session

from atrium.kernel.api.permissions import PERMISSIONS
from atrium.kernel.models import Membership, Tenant, User
from atrium.sdk.audit import record as audit_record
from atrium.sdk.context import current_context, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import Forbidden, NotFound

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

#: the kind of object of actions whose first word is not one
AUDIT_TYPES = {"password": "tenant", "signin_config": "tenant", "registration": "user"}


def target_tenant(requested: int | None) -> int:
    """The tenant the caller acts on: their own when none (or their own) is named; another one only for a
    super administrator (Forbidden otherwise), and only when it exists (NotFound)."""
    su = current_context().require_user()
    if requested is None or requested == su.tenant_id:
        return su.tenant_id
    if not su.is_super_admin:
        raise Forbidden()
    with unscoped():
        if session().get(Tenant, requested) is None:
            raise NotFound("tenant.not_found")
    return requested


def audit(
    action: str,
    tenant_id: int | None,
    target: Any,
    before: Any = None,
    after: Any = None,
    *,
    target_type: str = "",
    target_name: Any = "",
) -> None:
    """Report an admin write (who, in which tenant, what, before and after) to the audit trail, which
    records it in the same transaction as the write (secrets replaced by markers). A tenant of None is a
    platform-wide definition; the object's type defaults to the action's first word (``user.create``:
    ``user``)."""
    current_context().require_user()
    prefix = action.split(".", 1)[0]
    audit_record(
        action,
        target_type=target_type or AUDIT_TYPES.get(prefix, prefix),
        target_id=str(target),
        target_name=str(target_name or ""),
        before=before,
        after=after,
        tenant_id=tenant_id,
        platform_wide=tenant_id is None,
    )


def person(user: User | None) -> str:
    """A user as the audit trail names them: full name and account."""
    if user is None:
        return ""
    return f"{user.full_name} ({user.account})" if user.full_name else user.account


def member(user_id: int, tenant_id: int) -> Membership:
    """The user's membership of the tenant; a user outside it answers like a missing one."""
    with unscoped():
        found = (
            session()
            .execute(
                select(Membership).where(Membership.user_id == user_id, Membership.tenant_id == tenant_id)
            )
            .scalar()
        )
    if found is None:
        raise NotFound("user.not_found")
    return found


def delete_rows(db: Session, model: Any, column: str, value: int) -> None:
    """Deletes a table's rows by one column through Core, outside the request's tenant scoping: an
    administrator may be removing another tenant's rows."""
    table = cast(Table, model.__table__)
    db.execute(table.delete().where(table.c[column] == value))


def grants_changed(kernel: Kernel) -> None:
    """Drop the cached menu trees and effective permissions now and again when the change commits."""
    kernel.local.invalidate_on_commit(session(), PERMISSIONS)
