"""What the sso plugin needs from the kernel that the SDK does not offer yet (to move into the SDK).

Every import of kernel internals by this plugin is here and nowhere else.
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import select

from atrium.sdk.context import unscoped
from atrium.sdk.db import session
from atrium.sdk.services import services


def _kernel() -> Any:
    return cast(Any, services())


def find_tenant(domain: str = "", tenant_id: int | None = None) -> tuple[int, str, str] | None:
    """An enabled tenant (id, name, domain) by id or by its sign-in domain."""
    from atrium.kernel.models import Tenant

    with unscoped():
        if tenant_id is not None:
            tenant = session().get(Tenant, tenant_id)
        elif domain:
            tenant = session().execute(select(Tenant).where(Tenant.domain == domain)).scalars().first()
        else:
            tenant = None
    if tenant is None or not tenant.enabled:
        return None
    return tenant.id, tenant.name, tenant.domain


def plugin_enabled(tenant_id: int, plugin: str) -> bool:
    return bool(_kernel().enablement.is_enabled(tenant_id, plugin))


def call_hook(name: str, **kwargs: Any) -> dict[str, Any]:
    """A hook's results keyed by the plugin that answered."""
    return dict(_kernel().plugins.call(name, **kwargs))


def send_code(channel: str, target: str, code: str) -> None:
    """Send a verification code by SMS or e-mail through the platform's sender."""
    _kernel().codes.send(channel, target, code)


def members_with_contact(tenant_id: int, channel: str, target: str) -> list[int]:
    """Enabled members of a tenant whose mobile (sms) or e-mail is exactly `target`."""
    from atrium.kernel.models import Membership, User

    column = User.mobile if channel == "sms" else User.email
    with unscoped():
        rows = (
            session()
            .execute(
                select(User.id)
                .join(Membership, Membership.user_id == User.id)
                .where(
                    column == target,
                    User.enabled.is_(True),
                    Membership.tenant_id == tenant_id,
                    Membership.enabled.is_(True),
                )
            )
            .scalars()
            .all()
        )
    return list(rows)


def users(ids: list[int]) -> dict[int, dict[str, str]]:
    """Account and name of users, for the administration screen."""
    from atrium.kernel.models import User

    if not ids:
        return {}
    with unscoped():
        rows = session().execute(select(User.id, User.account, User.full_name).where(User.id.in_(ids))).all()
    return {uid: {"account": acc, "userFullName": name} for uid, acc, name in rows}


def is_member(user_id: int, tenant_id: int) -> bool:
    return tenant_id in services().identity.user_tenants(user_id)
