"""Sign-in routes: the spec's `/api/base/sso/...` and validator-code paths, and the `third` service's
login types, provider start and callback, DingTalk, WeCom and the WeCom callback address."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from atrium.plugins.sso import codes, service, wxcallback
from atrium.plugins.sso.providers.base import ProviderError
from atrium.sdk.routing import Router
from atrium.sdk.services import services

router = Router()


def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A provider's failure becomes a translated message in the envelope (never a 500, no session)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ProviderError as exc:
            raise service.fail(exc) from exc

    return wrapper


class Where(BaseModel):
    """Which tenant's sign-in page asks: its domain (a host or the site's origin) or its id."""

    domainName: str = Field(default="", max_length=256)
    tenantId: int | None = None


class StartIn(Where):
    provider: str = Field(default="", max_length=64)
    mode: Literal["redirect", "qr", "inapp"] = "redirect"
    returnTo: str = Field(default="", max_length=512)


class LoginIn(StartIn):
    """Without `code` and `state` a sign-in starts (answers the provider's address); with them it ends."""

    code: str = Field(default="", max_length=2048)
    state: str = Field(default="", max_length=128)
    error: str = Field(default="", max_length=256)
    error_description: str = Field(default="", max_length=512)


class CallbackIn(BaseModel):
    model_config = ConfigDict(extra="allow")
    state: str = Field(max_length=128)
    code: str = Field(default="", max_length=2048)
    error: str = Field(default="", max_length=256)
    error_description: str = Field(default="", max_length=512)


def _params(body: BaseModel) -> dict[str, str]:
    return {k: str(v) for k, v in body.model_dump().items() if isinstance(v, str | int) and v != ""}


def _login(request: Request, body: LoginIn, kind: str) -> dict[str, Any]:
    if body.code or body.state or body.error:
        return service.finish(request, _params(body), kind)
    tenant = service.resolve_tenant(body.domainName, body.tenantId)
    cfg, reg = service.config(tenant.tenant_id, body.provider, kind)
    return service.start(request, tenant, cfg, reg, "redirect", body.returnTo)


# -------------------------------------------------------------------------
# The spec's paths
# -------------------------------------------------------------------------


@router.post("/api/base/sso/oidc/login", public=True, body=LoginIn)
@guarded
def oidc_login(request: Request, body: LoginIn) -> dict[str, Any]:
    """OpenID Connect sign-in: start (answers `url`) or finish with `code` and `state`."""
    return _login(request, body, "oidc")


@router.post("/api/base/sso/oauth2/login", public=True, body=LoginIn)
@guarded
def oauth2_login(request: Request, body: LoginIn) -> dict[str, Any]:
    """OAuth2 sign-in: start (answers `url`) or finish with `code` and `state`."""
    return _login(request, body, "oauth2")


@router.get("/api/base/sso/other-url", public=True, query=StartIn)
@guarded
def other_url(request: Request, query: StartIn) -> dict[str, Any]:
    """Redirect-based sign-in: the address of the tenant's identity provider to send the browser to."""
    tenant = service.resolve_tenant(query.domainName, query.tenantId)
    if query.provider:
        cfg, reg = service.config(tenant.tenant_id, query.provider)
    else:
        cfg, reg = service.config(tenant.tenant_id, "", "cloud")
    return service.start(request, tenant, cfg, reg, "redirect", query.returnTo)


class CodeQuery(BaseModel):
    code: str = Field(default="", max_length=2048)
    state: str = Field(default="", max_length=128)
    error: str = Field(default="", max_length=256)
    error_description: str = Field(default="", max_length=512)


@router.get("/api/base/sso/token-by-code", public=True, query=CodeQuery)
@guarded
def token_by_code(request: Request, query: CodeQuery) -> dict[str, Any]:
    """Redirect-based sign-in, back from the provider: a session plus ssoToken and ssoRefreshToken."""
    return service.finish(request, _params(query))


class SsoTokenQuery(BaseModel):
    domainName: str = Field(default="", max_length=256)
    ssoToken: str = Field(default="", max_length=4096)
    ssoRefreshToken: str = Field(min_length=1, max_length=4096)
    provider: str = Field(default="", max_length=64)


@router.get("/api/base/sso/token", public=True, query=SsoTokenQuery)
@guarded
def sso_token(request: Request, query: SsoTokenQuery) -> dict[str, Any]:
    """The guard's cloud refresh: stored domain and sso tokens for a new session and new sso tokens."""
    return service.refresh(request, query.domainName, query.ssoToken, query.ssoRefreshToken, query.provider)


class SsoLogoutIn(BaseModel):
    domain: str = Field(default="", max_length=256)
    ssoToken: str = Field(default="", max_length=4096)
    ssoRefreshToken: str = Field(default="", max_length=4096)
    provider: str = Field(default="", max_length=64)


@router.post("/api/base/sso/logout-ssoapi", public=True, body=SsoLogoutIn)
@guarded
def logout_ssoapi(request: Request, body: SsoLogoutIn) -> dict[str, str]:
    """Sign out at the identity provider: its tokens are revoked; answers the address to go to."""
    return service.sso_logout(request, body.domain, body.ssoToken, body.ssoRefreshToken, body.provider)


class PhoneCodeQuery(BaseModel):
    phone: str = Field(default="", max_length=32)
    bindTicket: str = Field(default="", max_length=128)


class EmailCodeQuery(BaseModel):
    email: str = Field(default="", max_length=128)
    bindTicket: str = Field(default="", max_length=128)


@router.get("/api/base/base-user/send-sso-validator-code", public=True, query=PhoneCodeQuery)
@guarded
def send_sso_sms(query: PhoneCodeQuery) -> None:
    """Send a code to the phone of the account an unknown identity is to be linked to."""
    codes.send(query.bindTicket, "sms", query.phone)


@router.get("/api/base/base-user/send-sso-email-validator-code", public=True, query=EmailCodeQuery)
@guarded
def send_sso_email(query: EmailCodeQuery) -> None:
    """Send a code to the e-mail of the account an unknown identity is to be linked to."""
    codes.send(query.bindTicket, "email", query.email)


# -------------------------------------------------------------------------
# The third service
# -------------------------------------------------------------------------


@router.get("/api/third/login-types", public=True, query=Where)
@guarded
def login_types(query: Where) -> list[dict[str, Any]]:
    """The sign-in modes this plugin offers on a tenant's sign-in page (the kernel adds its own)."""
    tenant = service.resolve_tenant(query.domainName, query.tenantId)
    return service.login_types(tenant.tenant_id)


@router.post("/api/third/sso/start", public=True, body=StartIn)
@guarded
def sso_start(request: Request, body: StartIn) -> dict[str, Any]:
    """Start a sign-in with any configured provider; answers the address to send the browser to."""
    tenant = service.resolve_tenant(body.domainName, body.tenantId)
    cfg, reg = service.config(tenant.tenant_id, body.provider)
    return service.start(request, tenant, cfg, reg, body.mode, body.returnTo)


@router.post("/api/third/sso/callback", public=True, body=CallbackIn)
@guarded
def sso_callback(request: Request, body: CallbackIn) -> dict[str, Any]:
    """Finish any provider's sign-in with what it sent back to the browser."""
    return service.finish(request, _params(body))


class BindIn(BaseModel):
    bindTicket: str = Field(min_length=1, max_length=128)
    channel: Literal["sms", "email"]
    target: str = Field(min_length=1, max_length=128)
    code: str = Field(min_length=1, max_length=16)


@router.post("/api/third/sso/bind", public=True, body=BindIn)
@guarded
def sso_bind(request: Request, body: BindIn) -> dict[str, Any]:
    """Link an unknown identity to the account whose phone or e-mail received the code, and sign in."""
    return service.bind(request, body.bindTicket, body.channel, body.target, body.code)


class DomainQuery(BaseModel):
    tenantDomain: str = Field(default="", max_length=256)
    returnTo: str = Field(default="", max_length=512)


class CorpCodeQuery(BaseModel):
    code: str = Field(default="", max_length=512)
    corpId: str = Field(default="", max_length=128)
    tenantDomain: str = Field(default="", max_length=256)


def _code(value: str) -> str:
    if not value.strip():
        raise ProviderError("code_missing")
    return value.strip()


def _workchat_info(kind: str, domain: str) -> dict[str, Any]:
    tenant = service.resolve_tenant(domain)
    cfg, reg = service.config(tenant.tenant_id, "", kind)
    return {
        "provider": cfg.code,
        "name": cfg.name,
        "tenantId": tenant.tenant_id,
        **reg.provider.public_info(service.settings_of(cfg, reg)),
    }


@router.get("/api/third/auth-dingtalk-login/dt-info-byDomain", public=True, query=DomainQuery)
@guarded
def dingtalk_info(query: DomainQuery) -> dict[str, Any]:
    """The tenant's DingTalk app (corp id, app key, agent id; never the secret)."""
    return _workchat_info("dingtalk", query.tenantDomain)


@router.get("/api/third/auth-dingtalk-login/qr-url", public=True, query=DomainQuery)
@guarded
def dingtalk_qr(request: Request, query: DomainQuery) -> dict[str, Any]:
    """The DingTalk QR sign-in address for the tenant (state bound to this browser)."""
    tenant = service.resolve_tenant(query.tenantDomain)
    cfg, reg = service.config(tenant.tenant_id, "", "dingtalk")
    return service.start(request, tenant, cfg, reg, "qr", query.returnTo)


@router.get("/api/third/auth-dingtalk-login/scanCode/login", public=True, query=CodeQuery)
@guarded
def dingtalk_scan(request: Request, query: CodeQuery) -> dict[str, Any]:
    """DingTalk QR sign-in, back from the scan with `code` and `state`."""
    return service.finish(request, _params(query), "dingtalk")


@router.get("/api/third/auth-dingtalk-login/login", public=True, query=CorpCodeQuery)
@guarded
def dingtalk_inapp(request: Request, query: CorpCodeQuery) -> dict[str, Any]:
    """DingTalk in-app sign-in with the app's auth code and the corp id."""
    code = _code(query.code)
    tenant, cfg, reg = service.find_by_corp("dingtalk", query.corpId, query.tenantDomain)
    identity = reg.provider.inapp(service.settings_of(cfg, reg), code)
    return service.sign_in(request, tenant, cfg, reg, identity)


@router.get("/api/third/auth-dingtalk-login/sso/login", public=True, query=CorpCodeQuery)
@guarded
def dingtalk_console(request: Request, query: CorpCodeQuery) -> dict[str, Any]:
    """DingTalk sign-in from its management console with the SSO code and the corp id."""
    code = _code(query.code)
    tenant, cfg, reg = service.find_by_corp("dingtalk", query.corpId, query.tenantDomain)
    identity = reg.provider.console(service.settings_of(cfg, reg), code)
    return service.sign_in(request, tenant, cfg, reg, identity)


@router.get("/api/third/auth-wx-login/wxcp-info-byDomain", public=True, query=DomainQuery)
@guarded
def wecom_info(query: DomainQuery) -> dict[str, Any]:
    """The tenant's WeCom app (corp id and agent id; never the secret)."""
    return _workchat_info("wecom", query.tenantDomain)


class WeComUrlQuery(DomainQuery):
    mode: Literal["inapp", "qr"] = "inapp"


@router.get("/api/third/auth-wx-login/login-url", public=True, query=WeComUrlQuery)
@guarded
def wecom_login_url(request: Request, query: WeComUrlQuery) -> dict[str, Any]:
    """The WeCom sign-in address: in the app (OAuth) or by QR code; state bound to this browser."""
    tenant = service.resolve_tenant(query.tenantDomain)
    cfg, reg = service.config(tenant.tenant_id, "", "wecom")
    return service.start(request, tenant, cfg, reg, query.mode, query.returnTo)


@router.get("/api/third/auth-wx-login/callback", public=True, query=CodeQuery)
@guarded
def wecom_callback(request: Request, query: CodeQuery) -> dict[str, Any]:
    """WeCom sign-in, back from the app or the QR scan with `code` and `state`."""
    return service.finish(request, _params(query), "wecom")


@router.route("/api/third/third-party/receiveWxMsg", ["GET", "POST"], public=True, raw=True)
async def receive_wx_msg(request: Request) -> Response:
    """WeCom's callback address: answers the URL check and takes contact-change events."""
    body = (await request.body())[:65536] if request.method == "POST" else b""
    params = dict(request.query_params)
    try:
        text = await run_in_threadpool(_in_session, wxcallback.handle, request.method, params, body)
    except ProviderError as exc:
        raise service.fail(exc) from exc
    return PlainTextResponse(text)


def _in_session(fn: Callable[..., str], *args: Any) -> str:
    with services().db():
        return fn(*args)
