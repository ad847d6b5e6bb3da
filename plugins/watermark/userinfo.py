"""The signed-in user's fields that dynamic watermarks show, from the SDK's directory."""

from __future__ import annotations

from atrium.sdk.services import services
from atrium.sdk.types import Person


def user_fields(user_id: int, tenant_id: int) -> dict[str, str]:
    """Placeholder name to value for the user in the tenant (empty strings for unknown users)."""
    directory = services().directory
    person = directory.users([user_id]).get(user_id) or Person(user_id, "", "")
    tenant = directory.tenant(tenant_id)
    return {
        "userId": str(user_id),
        "account": person.account,
        "userFullName": person.full_name,
        "staffNo": person.staff_no,
        "mobile": person.mobile,
        "email": person.email,
        "department": person.department,
        "tenantName": tenant.name if tenant else "",
        "tenantId": str(tenant_id),
    }


def system_offered(tenant_id: int, system_code: str) -> bool:
    return any(s.code == system_code for s in services().directory.systems(tenant_id))
