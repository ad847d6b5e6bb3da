"""Domain-account sign-in and the tenant's sign-in options: `/base-user/ldap-login` and, for tenant
administrators, `/admin/ldap...`, `/admin/signin-config` and `/admin/registrations...`.

Supervisors work in their own tenant; super administrators name any tenant with `tenantId`. Every write
is audited with its before and after; bind passwords appear there only as whether one is set."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, field_validator
from sqlalchemy import select

from atrium.kernel.api.admin import audit, target_tenant
from atrium.kernel.api.deps import kernel
from atrium.kernel.api.register import CONFIG_FIELDS, SigninConfigIn, config_answer
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
    tenantId: int | None = None
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


class TenantQuery(BaseModel):
    tenantId: int | None = None


class IdQuery(BaseModel):
    id: int
    tenantId: int | None = None


def _own(config_id: int, tenant_id: int) -> LdapConfig:
    """A domain server of the tenant; another tenant's answers not found."""
    with unscoped():
        cfg = session().get(LdapConfig, config_id)
    if cfg is None or cfg.tenant_id != tenant_id:
        raise NotFound("signin.ldap_not_found")
    return cfg


@router.get("/admin/ldap", permission="admin", query=TenantQuery)
def ldap_list(query: TenantQuery) -> list[dict[str, Any]]:
    """The tenant's domain servers (the bind password is never shown, only whether one is set)."""
    tenant_id = target_tenant(query.tenantId)
    with unscoped():
        rows = session().execute(
            select(LdapConfig).where(LdapConfig.tenant_id == tenant_id).order_by(LdapConfig.domain)
        )
        return [_config_out(c) for c in rows.scalars()]


@router.post("/admin/ldap/save", permission="admin", body=LdapConfigIn)
def ldap_save(body: LdapConfigIn) -> dict[str, Any]:
    """Add or change a domain server; an empty or missing bind password keeps the stored one."""
    db = session()
    tenant_id = target_tenant(body.tenantId)
    with unscoped():
        clash = db.execute(
            select(LdapConfig.id).where(LdapConfig.tenant_id == tenant_id, LdapConfig.domain == body.domain)
        ).scalar()
    if clash is not None and clash != body.id:
        raise Conflict("signin.ldap_domain_exists")
    before = None
    if body.id is not None:
        cfg = _own(body.id, tenant_id)
        before = _config_out(cfg)
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
    after = _config_out(cfg)
    audit(
        "ldap.save",
        tenant_id,
        cfg.id,
        before=before,
        after={**after, "bindPasswordChanged": bool(body.bindPassword)},
    )
    return after


@router.post("/admin/ldap/delete", permission="admin", query=IdQuery)
def ldap_delete(query: IdQuery) -> None:
    """Remove a domain server (its users stay, without the link)."""
    tenant_id = target_tenant(query.tenantId)
    cfg = _own(query.id, tenant_id)
    before = _config_out(cfg)
    with unscoped():
        session().delete(cfg)
    audit("ldap.delete", tenant_id, query.id, before=before)


@router.post("/admin/ldap/test", permission="admin", query=IdQuery)
def ldap_test(query: IdQuery) -> dict[str, Any]:
    """Bind with the service account and count the entries under the search base."""
    return ldap.test_connection(kernel(), _own(query.id, target_tenant(query.tenantId)))


@router.get("/admin/signin-config", permission="admin", query=TenantQuery)
def signin_config(query: TenantQuery) -> dict[str, bool]:
    """The tenant's sign-in options: the modes offered, self-registration and its approval."""
    return config_answer(signup.config_of(target_tenant(query.tenantId)))


@router.post("/admin/signin-config", permission="admin", body=SigninConfigIn)
def save_signin_config(body: SigninConfigIn) -> dict[str, bool]:
    """Change some of the tenant's sign-in options; one of password, phone code and e-mail code stays on."""
    tenant_id = target_tenant(body.tenantId)
    before = config_answer(signup.config_of(tenant_id))
    changes = {
        name: value for name, value in body.model_dump(exclude={"tenantId"}).items() if value is not None
    }
    after = {**before, **changes}
    if not any(after[name] for name in ("passwordEnabled", "phoneCodeEnabled", "emailCodeEnabled")):
        raise BadRequest("signin.one_mode_required")
    saved = config_answer(
        signup.save_config(tenant_id, **{CONFIG_FIELDS[name]: value for name, value in changes.items()})
    )
    audit("signin_config.save", tenant_id, tenant_id, before=before, after=saved)
    return saved


@router.get("/admin/registrations", permission="admin", query=TenantQuery)
def registrations(query: TenantQuery) -> list[dict[str, Any]]:
    """Registrations waiting for the tenant's approval."""
    return signup.pending_registrations(target_tenant(query.tenantId))


class DecideIn(BaseModel):
    userId: int
    approve: bool
    tenantId: int | None = None


@router.post("/admin/registrations/decide", permission="admin", body=DecideIn)
def decide(body: DecideIn) -> None:
    """Approve a registration (the account can sign in) or refuse it (the account is removed)."""
    tenant_id = target_tenant(body.tenantId)
    signup.decide_registration(tenant_id, body.userId, body.approve)
    audit("registration.decide", tenant_id, body.userId, after={"approve": body.approve})
