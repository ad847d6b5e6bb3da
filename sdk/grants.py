"""Grants on the server: the buttons a plugin declares (`ResourceSpec`) checked by the routes that act.

Hiding a button in the browser is never the check. A route that performs a guarded action calls
`require_grant(code)`; tenant administrators and super administrators hold every grant, everyone else holds
the codes their roles are granted in the tenant.

Example::

    @router.post("/panel/publish", body=PublishBody)
    def publish(body: PublishBody) -> dict[str, Any]:
        require_grant("dyreport:manage")
        ...
"""

from __future__ import annotations

from atrium.sdk.context import current_context
from atrium.sdk.errors import Forbidden
from atrium.sdk.services import services


def holds_grant(code: str) -> bool:
    """Whether the signed-in user holds the button `code` in the current tenant (raises when signed out)."""
    user = current_context().require_user()
    if user.is_admin:
        return True
    if not user.roles:
        return False
    return code in services().directory.granted_codes(user.tenant_id, user.roles)


def require_grant(code: str) -> None:
    """Refuse (403, in the request's language) unless the signed-in user holds the button `code`."""
    if not holds_grant(code):
        raise Forbidden("error.grant_missing")
