"""Sign-in, sign-out, token refresh, tenant switch and automatic login into a system."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from atrium.kernel.api.deps import kernel
from atrium.kernel.identity import modes, service
from atrium.kernel.identity.crypto import ALGORITHM
from atrium.kernel.identity.dialcodes import foreign_number_message
from atrium.kernel.identity.register import tenant_for
from atrium.kernel.identity.sessions import lifetimes, revoke_family
from atrium.kernel.models import Tenant, User
from atrium.kernel.systems import check_system_usable
from atrium.sdk.context import current_context, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, NotLoggedIn
from atrium.sdk.routing import Router

router = Router("/api/base")


class EncryptionOut(BaseModel):
    publicKey: str
    nonce: str
    expiresIn: int
    algorithm: str = ALGORITHM


@router.post("/base-user/get-enryption", public=True, response=EncryptionOut)
def get_encryption() -> EncryptionOut:
    """The public key and a single-use nonce for encrypting the password."""
    k = kernel()
    return EncryptionOut(publicKey=k.crypto.public_pem, nonce=k.crypto.new_nonce(), expiresIn=120)


@router.get("/base-user/captcha", public=True)
def captcha() -> dict[str, str]:
    """A new image captcha."""
    return service.new_captcha(kernel())


class PageTenant(BaseModel):
    """The tenant whose sign-in page asks (by id or domain), when it names one."""

    tenantId: int | None = None
    domainName: str = Field(default="", max_length=128)

    def require_mode(self, mode: str) -> None:
        """Refuse at once a mode the page's tenant switched off."""
        if self.tenantId is not None or self.domainName:
            tenant = tenant_for(self.tenantId, self.domainName)
            modes.require(tenant.id if tenant else None, mode)


class LoginIn(PageTenant):
    loginType: Literal["account", "phone", "email"] = "account"
    account: str = Field(default="", max_length=64)
    password: str = Field(default="", max_length=2048)
    phone: str = Field(default="", max_length=32)
    email: str = Field(default="", max_length=128)
    code: str = Field(default="", max_length=16)
    captchaId: str | None = Field(default=None, max_length=64)
    captchaCode: str | None = Field(default=None, max_length=16)

    @model_validator(mode="after")
    def _required(self) -> LoginIn:
        if self.loginType == "account":
            if not self.account.strip():
                raise BadRequest("login.account_empty")
            if not self.password:
                raise BadRequest("login.password_empty")
        elif self.loginType == "phone":
            if not self.phone.strip():
                raise BadRequest("login.phone_empty")
            if not service.PHONE.match(self.phone.strip()):
                raise BadRequest(foreign_number_message(self.phone) or "login.phone_invalid")
            if not self.code.strip():
                raise BadRequest("login.code_empty")
        else:
            if not self.email.strip():
                raise BadRequest("login.email_empty")
            if not service.EMAIL.match(self.email.strip()):
                raise BadRequest("login.email_invalid")
            if not self.code.strip():
                raise BadRequest("login.code_empty")
        return self


class LoginOut(BaseModel):
    authorization: str
    refresh_authorization: str = Field(alias="refresh-authorization")
    isSuperAdmin: int
    isAdmin: int
    userId: int
    tenantId: int
    tenantName: str
    userFullName: str
    lang: str
    systemCode: str


def _answer(result: service.LoginResult) -> dict[str, Any]:
    current_context().response_headers.update(result.pair.headers())
    return result.answer()


@router.post("/base-user/login", public=True, body=LoginIn, response=LoginOut)
def login(body: LoginIn) -> dict[str, Any]:
    """Sign in with account and encrypted password, or with a phone or e-mail code (the modes the tenant
    offers)."""
    body.require_mode(body.loginType)
    k = kernel()
    if body.loginType == "account":
        result = service.password_login(k, body.account, body.password, body.captchaId, body.captchaCode)
    elif body.loginType == "phone":
        result = service.code_login(k, "sms", service.normalise_phone(body.phone), body.code)
    else:
        result = service.code_login(k, "email", body.email.strip(), body.code)
    return _answer(result)


class PhoneQuery(PageTenant):
    phone: str = Field(max_length=32)


class EmailQuery(PageTenant):
    email: str = Field(max_length=128)


@router.get("/base-user/pre-captcha", public=True, query=PhoneQuery)
def send_sms_code(query: PhoneQuery) -> None:
    """Send a sign-in code by SMS (mainland numbers only)."""
    query.require_mode("phone")
    phone = query.phone.strip()
    if not phone:
        raise BadRequest("login.phone_empty")
    if not service.PHONE.match(phone):
        raise BadRequest(foreign_number_message(phone) or "login.phone_region")
    service.send_code(kernel(), "sms", service.normalise_phone(phone))


@router.get("/base-user/pre-email-captcha", public=True, query=EmailQuery)
def send_email_code(query: EmailQuery) -> None:
    """Send a sign-in code by e-mail."""
    query.require_mode("email")
    email = query.email.strip()
    if not email:
        raise BadRequest("login.email_empty")
    if not service.EMAIL.match(email):
        raise BadRequest("login.email_invalid")
    service.send_code(kernel(), "email", email)


@router.get("/dev/outbox", public=True)
def dev_outbox() -> list[dict[str, str]]:
    """Codes the development sender wrote (only in the demo and tests)."""
    k = kernel()
    if not (k.settings.dev_outbox or k.settings.demo):
        from atrium.sdk.errors import NotFound

        raise NotFound()
    return list(reversed(k.codes.outbox))


class RefreshIn(BaseModel):
    refreshToken: str = Field(max_length=256)


@router.post("/base-user/refresh-token", public=True, body=RefreshIn)
def refresh_token(body: RefreshIn) -> dict[str, Any]:
    """Spend a refresh token for a new token pair."""
    k = kernel()
    pair, _user = k.auth.rotate(body.refreshToken)
    current_context().response_headers.update(pair.headers())
    return {**pair.headers(), **lifetimes(k.settings)}


@router.get("/base-user/logout")
def logout() -> None:
    """Sign out: the session's tokens are revoked on the server."""
    ctx = current_context()
    user = ctx.require_user()
    token = ctx.headers.get("authorization", "").removeprefix("Bearer ").strip()
    k = kernel()
    revoked: list[str] = []
    if token:
        revoked = revoke_family(session(), k, token)
    elif ctx.response_headers.get("authorization"):
        revoked = revoke_family(session(), k, ctx.response_headers["authorization"])
    if revoked:
        k.ws.close_sessions(user.user_id, revoked, "logout")  # this session's sockets, not the others
    k.emit("logout", tenant_id=user.tenant_id, user_id=user.user_id)


class TenantSwitchQuery(BaseModel):
    tenantId: int
    systemCode: str = Field(default="", max_length=64)


@router.post("/base-user/change-tenant", query=TenantSwitchQuery)
def change_tenant(query: TenantSwitchQuery) -> dict[str, Any]:
    """Switch tenant: new tokens for the target tenant, the old ones revoked."""
    ctx = current_context()
    su = ctx.require_user()
    k = kernel()
    db = session()
    with unscoped():
        user = db.get(User, su.user_id)
    if user is None:
        raise NotLoggedIn()
    try:
        result = service.complete_login(k, user, query.tenantId, query.systemCode or su.system_code)
    except Exception as exc:
        from atrium.sdk.errors import NotFound

        raise NotFound("tenant.not_found") from exc
    token = ctx.headers.get("authorization", "").strip()
    if token:
        revoke_family(db, k, token)
    with unscoped():
        tenant = db.get(Tenant, query.tenantId)
    k.emit("tenant_switch", tenant_id=query.tenantId, user_id=su.user_id, from_tenant=su.tenant_id)
    current_context().response_headers.update(result.pair.headers())
    return {
        "authorization": result.pair.access,
        "refresh-authorization": result.pair.refresh,
        **result.lifetimes,
        "parentTenantId": tenant.parent_id if tenant else None,
        "useLimitCode": tenant.use_limit_code if tenant else "",
        "tenantId": query.tenantId,
    }


class GoingSystemQuery(BaseModel):
    loginFrom: str = Field(default="PC", max_length=16)
    systemCode: str = Field(min_length=1, max_length=64)


@router.post("/base-user/going-system", query=GoingSystemQuery, response=LoginOut)
def going_system(query: GoingSystemQuery) -> dict[str, Any]:
    """Automatic login into another system of the same tenant (refused for unusable systems)."""
    ctx = current_context()
    su = ctx.require_user()
    check_system_usable(su.tenant_id, query.systemCode)
    db = session()
    with unscoped():
        user = db.get(User, su.user_id)
        assert user is not None
    result = service.complete_login(kernel(), user, su.tenant_id, query.systemCode)
    token = ctx.headers.get("authorization", "").strip()
    if token:
        revoke_family(db, kernel(), token)
    return _answer(result)
