"""Domain-account sign-in and the tenant's sign-in options: `/base-user/ldap-login` and, for tenant
administrators, `/admin/ldap...`, `/admin/signin-config` and `/admin/registrations...`."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, field_validator
from sqlalchemy import select

from atrium.kernel.api.deps import kernel
from atrium.kernel.api.register import SigninConfigIn, config_answer
from atrium.kernel.identity import ldap
from atrium.kernel.identity import register as signup
from atrium.kernel.identity.models import LdapConfig
from atrium.kernel.identity.service import LoginResult
from atrium.sdk.context import current_context, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, Conflict, NotFound
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


class LdapConfigIn(BaseModel):
    id: int | None = None
    domain: str = Field(min_length=1, max_length=64)
    serverUrl: str = Field(min_length=1, max_length=512)
    bindDn: str = Field(default="", max_length=512)
    bindPassword: str | None = Field(default=None, max_length=256)
    searchBase: str = Field(min_length=1, max_length=512)
    userFilter: str = Field(default="(uid={account})", max_length=512)
    attributes: dict[str, str] = Field(default_factory=dict)
    startTls: bool = False
    timeout: int = Field(default=5, ge=1, le=30)
    enabled: bool = True

    @field_validator("serverUrl")
    @classmethod
    def _url(cls, value: str) -> str:
        if not value.lower().startswith(("ldap://", "ldaps://")):
            raise BadRequest("signin.ldap_url_invalid")
        return value.strip()

    @field_validator("userFilter")
    @classmethod
    def _filter(cls, value: str) -> str:
        value = value.strip()
        if "{account}" not in value or not (value.startswith("(") and value.endswith(")")):
            raise BadRequest("signin.ldap_filter_invalid")
        return value

    @field_validator("attributes")
    @classmethod
    def _attributes(cls, value: dict[str, str]) -> dict[str, str]:
        if set(value) - set(ldap.DEFAULT_ATTRIBUTES) or any(len(v) > 64 for v in value.values()):
            raise BadRequest("signin.ldap_attributes_invalid")
        return value


def _config_out(cfg: LdapConfig) -> dict[str, Any]:
    return {
        "id": str(cfg.id),
        "domain": cfg.domain,
        "serverUrl": cfg.server_url,
        "bindDn": cfg.bind_dn,
        "bindPasswordSet": bool(cfg.bind_password),
        "searchBase": cfg.search_base,
        "userFilter": cfg.user_filter,
        "attributes": ldap.attributes_of(cfg),
        "startTls": cfg.start_tls,
        "timeout": cfg.timeout,
        "enabled": cfg.enabled,
    }


def _tenant() -> int:
    return current_context().require_user().tenant_id


def _own(config_id: int) -> LdapConfig:
    with unscoped():
        cfg = session().get(LdapConfig, config_id)
    if cfg is None or cfg.tenant_id != _tenant():
        raise NotFound("signin.ldap_not_found")
    return cfg


@router.get("/admin/ldap", permission="admin")
def ldap_list() -> list[dict[str, Any]]:
    """The tenant's domain servers (the bind password is never shown, only whether one is set)."""
    with unscoped():
        rows = session().execute(
            select(LdapConfig).where(LdapConfig.tenant_id == _tenant()).order_by(LdapConfig.domain)
        )
        return [_config_out(c) for c in rows.scalars()]


@router.post("/admin/ldap/save", permission="admin", body=LdapConfigIn)
def ldap_save(body: LdapConfigIn) -> dict[str, Any]:
    """Add or change a domain server; an empty or missing bind password keeps the stored one."""
    db = session()
    tenant_id = _tenant()
    with unscoped():
        clash = db.execute(
            select(LdapConfig.id).where(LdapConfig.tenant_id == tenant_id, LdapConfig.domain == body.domain)
        ).scalar()
    if clash is not None and clash != body.id:
        raise Conflict("signin.ldap_domain_exists")
    if body.id is not None:
        cfg = _own(body.id)
    else:
        cfg = LdapConfig(tenant_id=tenant_id, bind_password="")
        db.add(cfg)
    cfg.domain = body.domain.strip()
    cfg.server_url = body.serverUrl
    cfg.bind_dn = body.bindDn.strip()
    if body.bindPassword:
        cfg.bind_password = ldap.seal(kernel(), body.bindPassword)
    cfg.search_base = body.searchBase.strip()
    cfg.user_filter = body.userFilter
    cfg.attributes = dict(body.attributes)
    cfg.start_tls = body.startTls
    cfg.timeout = body.timeout
    cfg.enabled = body.enabled
    with unscoped():
        db.flush()
    return _config_out(cfg)


class IdQuery(BaseModel):
    id: int


@router.post("/admin/ldap/delete", permission="admin", query=IdQuery)
def ldap_delete(query: IdQuery) -> None:
    """Remove a domain server (its users stay, without the link)."""
    cfg = _own(query.id)
    with unscoped():
        session().delete(cfg)


@router.post("/admin/ldap/test", permission="admin", query=IdQuery)
def ldap_test(query: IdQuery) -> dict[str, Any]:
    """Bind with the service account and count the entries under the search base."""
    return ldap.test_connection(kernel(), _own(query.id))


@router.get("/admin/signin-config", permission="admin")
def signin_config() -> dict[str, bool]:
    """The tenant's sign-in options: self-registration, its approval, QR-code sign-in."""
    return config_answer(signup.config_of(_tenant()))


@router.post("/admin/signin-config", permission="admin", body=SigninConfigIn)
def save_signin_config(body: SigninConfigIn) -> dict[str, bool]:
    values = {
        name: value
        for name, value in (
            ("allow_register", body.allowRegister),
            ("register_approval", body.registerApproval),
            ("qrcode_enabled", body.qrcodeEnabled),
        )
        if value is not None
    }
    return config_answer(signup.save_config(_tenant(), **values))


@router.get("/admin/registrations", permission="admin")
def registrations() -> list[dict[str, Any]]:
    """Registrations waiting for the tenant's approval."""
    return signup.pending_registrations(_tenant())


class DecideIn(BaseModel):
    userId: int
    approve: bool


@router.post("/admin/registrations/decide", permission="admin", body=DecideIn)
def decide(body: DecideIn) -> None:
    """Approve a registration (the account can sign in) or refuse it (the account is removed)."""
    signup.decide_registration(_tenant(), body.userId, body.approve)
