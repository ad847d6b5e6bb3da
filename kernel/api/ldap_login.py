"""Domain-account sign-in: `/base-user/ldap-login`.

The tenant's LDAP or Active Directory server checks the password; the servers themselves are administered
through the admin plugin (`/api/base/admin/ldap...`)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from atrium.kernel.api.deps import kernel
from atrium.kernel.identity import ldap
from atrium.kernel.identity import register as signup
from atrium.kernel.identity.service import LoginResult
from atrium.sdk.context import current_context
from atrium.sdk.errors import BadRequest
from atrium.sdk.routing import Router

router = Router("/api/base")


class LdapLoginIn(BaseModel):
    domainName: str = Field(default="", max_length=128)
    tenantId: int | None = None
    domain: str = Field(default="", max_length=64)
    account: str = Field(default="", max_length=256)
    password: str = Field(default="", max_length=2048)


def _answer(result: LoginResult) -> dict[str, Any]:
    current_context().response_headers.update(result.pair.headers())
    return result.answer()


@router.post("/base-user/ldap-login", public=True, body=LdapLoginIn)
def ldap_login(body: LdapLoginIn) -> dict[str, Any]:
    """Sign in with a domain account: the tenant's LDAP or Active Directory server checks the password."""
    if not body.account.strip():
        raise BadRequest("login.account_empty")
    if not body.password.strip():
        raise BadRequest("login.password_empty")
    if not body.domain.strip():
        raise BadRequest("signin.ldap_domain_empty")
    k = kernel()
    password = k.crypto.decrypt_password(body.password)
    tenant = signup.tenant_for(body.tenantId, body.domainName)
    return _answer(ldap.login(k, tenant, body.domain.strip(), body.account, password))
