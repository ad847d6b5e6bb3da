"""The signed-in user's fields that dynamic watermarks show, read from the platform's user tables.

The SDK has no user directory yet, so this reads the kernel's tables through lightweight SQLAlchemy
Core declarations (no import of the kernel); nothing here writes.
"""

from __future__ import annotations

from sqlalchemy import Integer, String, column, select, table

from atrium.sdk.db import session

_user = table(
    "user_account", column("id", Integer), column("account", String), column("full_name", String),
    column("staff_no", String), column("mobile", String), column("email", String),
    column("department", String),
)
_tenant = table("tenant", column("id", Integer), column("name", String))
_system = table("system", column("code", String))
_tenant_system = table("tenant_system", column("tenant_id", Integer), column("system_code", String))


def user_fields(user_id: int, tenant_id: int) -> dict[str, str]:
    """Placeholder name to value for the user in the tenant (empty strings for unknown users)."""
    db = session()
    row = db.execute(
        select(_user.c.account, _user.c.full_name, _user.c.staff_no, _user.c.mobile, _user.c.email,
               _user.c.department).where(_user.c.id == user_id)
    ).first()
    tenant = db.execute(select(_tenant.c.name).where(_tenant.c.id == tenant_id)).scalar()
    account, full_name, staff_no, mobile, email, department = row if row else ("",) * 6
    return {
        "userId": str(user_id), "account": account or "", "userFullName": full_name or "",
        "staffNo": staff_no or "", "mobile": mobile or "", "email": email or "",
        "department": department or "", "tenantName": tenant or "", "tenantId": str(tenant_id),
    }


def system_offered(tenant_id: int, system_code: str) -> bool:
    return session().execute(
        select(_tenant_system.c.system_code)
        .where(_tenant_system.c.tenant_id == tenant_id, _tenant_system.c.system_code == system_code)
    ).first() is not None
