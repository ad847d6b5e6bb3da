"""The SDK's `Identity` service: sign-in and user provisioning for single sign-on plugins."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from atrium.kernel import accounts
from atrium.kernel.identity.service import complete_login
from atrium.kernel.models import Membership, User
from atrium.sdk.accounts import TenantIn
from atrium.sdk.context import current_context, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import NotFound

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

PROFILE_FIELDS = {"portal_type", "sso_type", "url_logout"}


class KernelIdentity:
    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel

    def sign_in(
        self, user_id: int, tenant_id: int | None = None, system_code: str | None = None, **profile: str
    ) -> dict[str, Any]:
        """Issue a session for a user the caller has authenticated; answers the login fields and sets the
        `authorization` and `refresh-authorization` response headers."""
        with unscoped():
            user = session().get(User, user_id)
        if user is None or not user.enabled:
            raise NotFound("user.not_found")
        for key, value in profile.items():
            if key in PROFILE_FIELDS:
                setattr(user, key, value)
        result = complete_login(self.kernel, user, tenant_id, system_code)
        current_context().response_headers.update(result.pair.headers())
        self.kernel.local.invalidate("profile")
        return result.answer()

    def find_user(self, account: str) -> int | None:
        with unscoped():
            return session().execute(select(User.id).where(User.account == account)).scalar()

    def create_user(self, account: str, full_name: str, tenant_id: int, **fields: Any) -> int:
        user = accounts.create_user(account, secrets.token_urlsafe(24)[:32], full_name, tenant_id, **fields)
        user.password_hash = ""
        return user.id

    def user_tenants(self, user_id: int) -> list[int]:
        with unscoped():
            return list(
                session()
                .execute(
                    select(Membership.tenant_id).where(
                        Membership.user_id == user_id, Membership.enabled.is_(True)
                    )
                )
                .scalars()
            )

    def create_tenant(self, tenant: dict[str, Any]) -> dict[str, Any]:
        return self.kernel.administration.tenants.create(TenantIn.model_validate(tenant))

    def send_code(self, channel: str, target: str, code: str) -> None:
        self.kernel.codes.send(channel, target, code)
