"""Sign-in routes (`/api/base/admin/...`): modes, options, domain servers, registrations, log, lockouts.

Supervisors work in their own tenant; super administrators name any tenant with `tenantId`. Every write
is audited with its before and after; bind passwords appear there only as whether one is set."""

from __future__ import annotations

from typing import Any

from atrium.sdk.accounts import (
    DecideIn,
    IdQuery,
    LdapConfigIn,
    LockoutQuery,
    LoginLogQuery,
    SigninConfigIn,
    TenantQuery,
)
from atrium.sdk.routing import Router
from atrium.sdk.services import services

router = Router("/api/base/admin")


@router.get("/login-log", permission="admin", query=LoginLogQuery)
def login_log(query: LoginLogQuery) -> dict[str, Any]:
    """The tenant's sign-ins, newest first, with each account's failed attempts and lockout now."""
    return services().administration.signin.login_log(query)


@router.get("/lockouts", permission="admin", query=LockoutQuery)
def lockouts(query: LockoutQuery) -> dict[str, Any]:
    """The tenant's accounts with failed sign-ins since their last success: locked ones first, then by the
    latest failure; each with its count, the time of the last failure and the end of its lockout."""
    return services().administration.signin.lockouts(query)


@router.get("/signin-modes", permission="admin", query=TenantQuery)
def signin_modes(query: TenantQuery) -> dict[str, Any]:
    """What the tenant's sign-in page offers now: password, phone and e-mail codes, QR code, the domain
    accounts of its LDAP servers, and the single sign-on of enabled plugins; with its domain name."""
    return services().administration.signin.modes(query)


@router.get("/ldap", permission="admin", query=TenantQuery)
def ldap_list(query: TenantQuery) -> list[dict[str, Any]]:
    """The tenant's domain servers (the bind password is never shown, only whether one is set)."""
    return services().administration.signin.ldap_servers(query)


@router.post("/ldap/save", permission="admin", body=LdapConfigIn)
def ldap_save(body: LdapConfigIn) -> dict[str, Any]:
    """Add or change a domain server; an empty or missing bind password keeps the stored one."""
    return services().administration.signin.save_ldap(body)


@router.post("/ldap/delete", permission="admin", query=IdQuery)
def ldap_delete(query: IdQuery) -> None:
    """Remove a domain server (its users stay, without the link)."""
    services().administration.signin.delete_ldap(query)


@router.post("/ldap/test", permission="admin", query=IdQuery)
def ldap_test(query: IdQuery) -> dict[str, Any]:
    """Bind with the service account and count the entries under the search base."""
    return services().administration.signin.test_ldap(query)


@router.get("/signin-config", permission="admin", query=TenantQuery)
def signin_config(query: TenantQuery) -> dict[str, bool]:
    """The tenant's sign-in options: the modes offered, self-registration and its approval."""
    return services().administration.signin.config(query)


@router.post("/signin-config", permission="admin", body=SigninConfigIn)
def save_signin_config(body: SigninConfigIn) -> dict[str, bool]:
    """Change some of the tenant's sign-in options; one of password, phone code and e-mail code stays on."""
    return services().administration.signin.save_config(body)


@router.get("/registrations", permission="admin", query=TenantQuery)
def registrations(query: TenantQuery) -> list[dict[str, Any]]:
    """Registrations waiting for the tenant's approval."""
    return services().administration.signin.registrations(query)


@router.post("/registrations/decide", permission="admin", body=DecideIn)
def decide(body: DecideIn) -> None:
    """Approve a registration (the account can sign in) or refuse it (the account is removed)."""
    services().administration.signin.decide(body)
