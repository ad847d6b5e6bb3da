"""Sign-in by provider: the provider registry, tenants' configurations, login types, and turning a
provider's identity into a platform session (linked by provider and subject only)."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit
from weakref import WeakKeyDictionary

import structlog
from pydantic import BaseModel, SecretStr, ValidationError
from sqlalchemy import select
from starlette.requests import Request

from atrium.plugins.sso import flow
from atrium.plugins.sso.models import SsoConfig, SsoIdentity
from atrium.plugins.sso.providers.base import MODES, ProviderError, ProviderIdentity, SsoTokens
from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import AtriumError, BadRequest
from atrium.sdk.services import services
from atrium.sdk.types import PLUGIN_ID, TenantInfo

log = structlog.get_logger("atrium.sso")
PLUGIN = "sso"
MASK = "******"
LINK_NEEDED = 1010
UNLINKED = 1001
_registries: WeakKeyDictionary[Any, dict[str, Registered]] = WeakKeyDictionary()


@dataclass(frozen=True)
class Registered:
    plugin: str
    provider: Any

    @property
    def kind(self) -> str:
        return str(self.provider.kind)


def fail(exc: ProviderError) -> AtriumError:
    return BadRequest(f"sso:{exc.key}", **exc.params)


# -------------------------------------------------------------------------
# Providers from every plugin
# -------------------------------------------------------------------------


def _valid(provider: Any) -> str | None:
    kind = getattr(provider, "kind", None)
    if not isinstance(kind, str) or not PLUGIN_ID.match(kind):
        return "kind must be kebab-case"
    model = getattr(provider, "settings_model", None)
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        return "settings_model must be a pydantic model"
    modes = getattr(provider, "modes", ("redirect",))
    if not modes or any(m not in MODES for m in modes):
        return f"modes must be among {MODES}"
    for method in ("start", "callback"):
        if not callable(getattr(provider, method, None)):
            return f"{method}() is missing"
    return None


def build_registry() -> dict[str, Registered]:
    found: dict[str, Registered] = {}
    for plugin, result in services().call_hook("atrium_sso_providers").items():
        for provider in result or []:
            problem = _valid(provider)
            if problem:
                log.error("sso provider refused", plugin=plugin, provider=repr(provider), reason=problem)
                continue
            if provider.kind in found:
                log.error("sso provider kind taken", plugin=plugin, kind=provider.kind)
                continue
            found[provider.kind] = Registered(plugin, provider)
    return found


def registry() -> dict[str, Registered]:
    svc = services()
    reg = _registries.get(svc)
    if reg is None:
        reg = build_registry()
        _registries[svc] = reg
    return reg


def provider_of(kind: str) -> Registered:
    reg = registry().get(kind)
    if reg is None:
        raise BadRequest("sso:provider_unknown", provider=kind)
    return reg


# -------------------------------------------------------------------------
# Settings: validated on save, secrets never shown back
# -------------------------------------------------------------------------


def stored_settings(model: BaseModel) -> dict[str, Any]:
    plain = model.model_dump(mode="json")
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, SecretStr):
            plain[name] = value.get_secret_value()
    return plain


def masked_settings(model_cls: type[BaseModel], values: dict[str, Any]) -> dict[str, Any]:
    out = dict(values)
    for name, field in model_cls.model_fields.items():
        if field.annotation is SecretStr and name in out:
            out[name] = MASK if out[name] else ""
    return out


def merge_secrets(
    model_cls: type[BaseModel], incoming: dict[str, Any], previous: dict[str, Any]
) -> dict[str, Any]:
    """A secret sent back masked (or left empty on an existing configuration) keeps its stored value."""
    merged = dict(incoming)
    for name, field in model_cls.model_fields.items():
        if field.annotation is SecretStr and merged.get(name) in (MASK, None, "") and previous.get(name):
            merged[name] = previous[name]
    return merged


def settings_of(cfg: SsoConfig, reg: Registered) -> Any:
    try:
        return reg.provider.settings_model.model_validate(cfg.settings or {})
    except ValidationError as exc:
        log.warning("stored sso settings invalid", provider=cfg.code, error=str(exc)[:300])
        raise ProviderError("config_invalid") from exc


# -------------------------------------------------------------------------
# Tenants and their configurations
# -------------------------------------------------------------------------


def host_of(domain: str) -> str:
    """`domainName` and `tenantDomain` may be a host or the site's origin."""
    value = domain.strip().lower()
    if "//" in value:
        value = urlsplit(value).hostname or ""
    return value.split("/")[0].split(":")[0]


def resolve_tenant(domain: str = "", tenant_id: int | None = None) -> TenantInfo:
    if tenant_id is None and not domain.strip():
        raise BadRequest("sso:tenant_required")
    host = host_of(domain) if tenant_id is None else ""
    found = services().directory.tenant(tenant_id, host)
    if found is None or not services().is_enabled(found.tenant_id, PLUGIN):
        raise BadRequest("sso:unknown_domain", domain=domain or tenant_id)
    return found


def is_member(user_id: int, tenant_id: int) -> bool:
    return tenant_id in services().identity.user_tenants(user_id)


def configs(tenant_id: int, kind: str | None = None) -> list[tuple[SsoConfig, Registered]]:
    """The tenant's enabled configurations whose provider is installed and enabled for the tenant."""
    with tenant_scope(tenant_id):
        q = select(SsoConfig).where(SsoConfig.enabled.is_(True)).order_by(SsoConfig.sort, SsoConfig.id)
        if kind:
            q = q.where(SsoConfig.kind == kind)
        rows = session().execute(q).scalars().all()
    out = []
    for cfg in rows:
        reg = registry().get(cfg.kind)
        if reg is not None and (reg.plugin == PLUGIN or services().is_enabled(tenant_id, reg.plugin)):
            out.append((cfg, reg))
    return out


def config(tenant_id: int, code: str = "", kind: str | None = None) -> tuple[SsoConfig, Registered]:
    for cfg, reg in configs(tenant_id, kind):
        if not code or cfg.code == code:
            return cfg, reg
    raise BadRequest("sso:provider_not_configured", provider=code or kind or "")


def login_types(tenant_id: int | None) -> list[dict[str, Any]]:
    """The sign-in modes the tenant's sign-in page offers through this plugin."""
    if tenant_id is None or not services().is_enabled(tenant_id, PLUGIN):
        return []
    out = []
    for cfg, reg in configs(tenant_id):
        try:
            info = (
                reg.provider.public_info(settings_of(cfg, reg))
                if hasattr(reg.provider, "public_info")
                else {}
            )
        except ProviderError:
            continue
        query = urlencode({"provider": cfg.code, "tenantId": tenant_id})
        out.append(
            {
                "type": cfg.kind,
                "provider": cfg.code,
                "name": cfg.name,
                "label": reg.provider.label,
                "modes": list(getattr(reg.provider, "modes", ("redirect",))),
                "icon": getattr(reg.provider, "icon", ""),
                "loginUrl": f"/sso/login?{query}",
                **info,
            }
        )
    return out


# -------------------------------------------------------------------------
# Sign-in
# -------------------------------------------------------------------------


def platform_url(request: Request | None) -> str:
    """Where the browser reaches the platform: the configured public origin, else the request's, with the
    path prefix it is served under (``https://example.com/atrium``)."""
    settings = services().settings
    prefix = str(getattr(settings, "base_path", "") or "")
    configured = str(getattr(settings, "public_origin", "") or "").rstrip("/")
    if configured:
        return configured + prefix
    if request is None:
        return prefix
    return f"{request.url.scheme}://{request.url.netloc}{prefix}"


CALLBACK_ROUTES = {"qr": "/qrcode-success", "inapp": "/third-login"}


def callback_route(kind: str, mode: str) -> str:
    if mode in CALLBACK_ROUTES:
        return CALLBACK_ROUTES[mode]
    return "/authorize" if kind == "cloud" else "/sso/login"


def safe_return(path: str) -> str:
    return path if path.startswith("/") and not path.startswith("//") and len(path) <= 512 else ""


def start(
    request: Request | None,
    tenant: TenantInfo,
    cfg: SsoConfig,
    reg: Registered,
    mode: str = "redirect",
    return_to: str = "",
) -> dict[str, Any]:
    modes = tuple(getattr(reg.provider, "modes", ("redirect",)))
    if mode not in modes:
        mode = modes[0]
    settings = settings_of(cfg, reg)
    route = callback_route(cfg.kind, mode)
    redirect = cfg.redirect_uri or f"{platform_url(request)}{route}"
    if cfg.kind in ("dingtalk", "wecom") and mode == "qr":
        redirect += ("&" if "?" in redirect else "?") + urlencode({"via": cfg.kind})
    req = flow.begin(request, tenant.tenant_id, cfg.code, cfg.kind, redirect, mode, safe_return(return_to))
    started = reg.provider.start(settings, req)
    flow.remember(req.state, dict(getattr(started, "data", {}) or {}))
    return {"url": started.url, "provider": cfg.code, "type": cfg.kind, "mode": mode}


def finish(request: Request | None, params: dict[str, str], kind: str | None = None) -> dict[str, Any]:
    """A provider's callback: spend the state, ask the provider who it is, sign them in."""
    error = params.get("error", "")
    state = params.get("state", "")
    record = flow.take(request, state)
    if kind and record.kind != kind:
        raise ProviderError("state_invalid")
    if error:
        raise ProviderError("provider_refused", detail=(params.get("error_description") or error)[:120])
    tenant = resolve_tenant(tenant_id=record.tenant_id)
    cfg, reg = config(tenant.tenant_id, record.provider)
    identity = reg.provider.callback(settings_of(cfg, reg), params, record.state)
    return sign_in(request, tenant, cfg, reg, identity, record.return_to)


def _account_for(cfg: SsoConfig, identity: ProviderIdentity) -> str:
    base = re.sub(r"[^A-Za-z0-9_.@-]", "", f"{cfg.code}.{identity.subject}")[:48] or cfg.code
    account = base
    while services().identity.find_user(account) is not None:
        account = f"{base}.{secrets.token_hex(3)}"
    return account


def _links(tenant_id: int, provider: str, subject: str) -> SsoIdentity | None:
    with tenant_scope(tenant_id):
        return (
            session()
            .execute(
                select(SsoIdentity).where(SsoIdentity.provider == provider, SsoIdentity.subject == subject)
            )
            .scalar()
        )


def sign_in(
    request: Request | None,
    tenant: TenantInfo,
    cfg: SsoConfig,
    reg: Registered,
    identity: ProviderIdentity,
    return_to: str = "",
) -> dict[str, Any]:
    if not identity.subject:
        raise ProviderError("no_subject")
    link = _links(tenant.tenant_id, cfg.code, identity.subject)
    if link is not None and not is_member(link.user_id, tenant.tenant_id):
        link = None
    if link is None:
        link = _unknown(request, tenant, cfg, identity, return_to)
    return _session_for(request, tenant, cfg, reg, identity, link, return_to)


def _unknown(
    request: Request | None, tenant: TenantInfo, cfg: SsoConfig, identity: ProviderIdentity, return_to: str
) -> SsoIdentity:
    """An identity linked to no user: refused, created, or offered to be linked by a verified code."""
    if cfg.on_unknown == "create":
        reg = provider_of(cfg.kind)
        user_id = services().identity.create_user(
            _account_for(cfg, identity),
            (identity.name or identity.subject)[:64],
            tenant.tenant_id,
            email=identity.email[:128],
            mobile=identity.mobile[:32],
            portal_type="sso",
            sso_type=str(getattr(reg.provider, "sso_type", "") or cfg.kind),
        )
        with tenant_scope(tenant.tenant_id):
            link = SsoIdentity(provider=cfg.code, subject=identity.subject, user_id=user_id, owns_user=True)
            session().add(link)
            session().flush()
        log.info("sso user created", provider=cfg.code, tenant=tenant.tenant_id, user=user_id)
        return link
    if cfg.on_unknown == "verify":
        ticket = flow.new_ticket(
            request,
            {
                "tenant": tenant.tenant_id,
                "provider": cfg.code,
                "subject": identity.subject,
                "name": identity.name,
                "email": identity.email,
                "return": return_to,
            },
        )
        raise AtriumError(
            "sso:link_needed",
            code=LINK_NEEDED,
            data={"bindTicket": ticket, "name": identity.name, "provider": cfg.code},
        )
    log.info("sso identity not linked", provider=cfg.code, tenant=tenant.tenant_id)
    raise AtriumError("sso:unlinked", code=UNLINKED)


def _session_for(
    request: Request | None,
    tenant: TenantInfo,
    cfg: SsoConfig,
    reg: Registered,
    identity: ProviderIdentity,
    link: SsoIdentity,
    return_to: str,
) -> dict[str, Any]:
    provider = reg.provider
    settings = settings_of(cfg, reg)
    home = platform_url(request)
    try:
        url_logout = (
            provider.logout_url(settings, None, f"{home}/login") if hasattr(provider, "logout_url") else None
        )
    except ProviderError:
        url_logout = None
    sso_type = str(getattr(provider, "sso_type", "") or cfg.kind)
    url_login = f"{home}{'/third-login' if cfg.kind in ('dingtalk', 'wecom') else '/sso/login'}?" + urlencode(
        {"provider": cfg.code, "tenantId": tenant.tenant_id}
    )
    profile = (
        {"portal_type": "sso", "sso_type": sso_type, "url_logout": url_logout or ""} if link.owns_user else {}
    )
    with tenant_scope(tenant.tenant_id):
        link.last_login_at = utcnow()
        link.display_name = identity.name[:128]
        link.email = identity.email[:255]
        session().flush()
    try:
        answer = services().identity.sign_in(link.user_id, tenant.tenant_id, None, **profile)
    except AtriumError as exc:
        if exc.code in (UNLINKED, 404):  # disabled account or membership
            raise AtriumError("sso:user_disabled", code=UNLINKED) from exc
        raise
    answer.update(
        {
            "provider": cfg.code,
            "portalType": "sso" if link.owns_user else "",
            "ssoType": sso_type,
            "urlLogout": url_logout or "",
            "urlLogin": url_login,
            "redirect": return_to,
        }
    )
    tokens = identity.tokens
    if getattr(provider, "hands_tokens", False) and tokens is not None:
        answer.update(
            {
                "domainName": tenant.domain,
                "ssoToken": tokens.access_token,
                "ssoRefreshToken": tokens.refresh_token,
                "portalCode": cfg.code,
            }
        )
    return answer


def refresh(
    request: Request | None, domain: str, sso_token: str, sso_refresh: str, provider: str = ""
) -> dict[str, Any]:
    """The guard's cloud refresh: the provider renews its tokens and the person gets a new session."""
    tenant = resolve_tenant(domain)
    cfg, reg = _token_config(tenant, provider)
    identity = reg.provider.refresh(
        settings_of(cfg, reg), SsoTokens(access_token=sso_token, refresh_token=sso_refresh)
    )
    link = _links(tenant.tenant_id, cfg.code, identity.subject)
    if link is None or not is_member(link.user_id, tenant.tenant_id):
        raise AtriumError("sso:unlinked", code=UNLINKED)
    return _session_for(request, tenant, cfg, reg, identity, link, "")


def _token_config(tenant: TenantInfo, provider: str) -> tuple[SsoConfig, Registered]:
    for cfg, reg in configs(tenant.tenant_id):
        if getattr(reg.provider, "hands_tokens", False) and (not provider or cfg.code == provider):
            return cfg, reg
    raise BadRequest("sso:provider_not_configured", provider=provider or "cloud")


def sso_logout(
    request: Request | None, domain: str, sso_token: str, sso_refresh: str, provider: str = ""
) -> dict[str, str]:
    """End the provider's session: its tokens are revoked, the browser is sent to its sign-out page."""
    tenant = resolve_tenant(domain)
    cfg, reg = _token_config(tenant, provider)
    back = f"{platform_url(request)}/login"
    url = reg.provider.logout_url(
        settings_of(cfg, reg), SsoTokens(access_token=sso_token, refresh_token=sso_refresh), back
    )
    return {"url": url or back}


def bind(request: Request | None, ticket: str, channel: str, target: str, code: str) -> dict[str, Any]:
    """Link an unknown identity to the existing account whose phone or e-mail received the code."""
    from atrium.plugins.sso import codes

    record = flow.peek_ticket(ticket)
    if record is None:
        raise ProviderError("ticket_invalid")
    codes.check(ticket, channel, target, code)
    record = flow.take_ticket(request, ticket)
    tenant = resolve_tenant(tenant_id=int(record["tenant"]))
    cfg, reg = config(tenant.tenant_id, record["provider"])
    users = services().directory.members_with_contact(tenant.tenant_id, channel, target)
    if len(users) != 1:
        raise AtriumError("sso:unlinked", code=UNLINKED)
    if _links(tenant.tenant_id, cfg.code, record["subject"]) is None:
        with tenant_scope(tenant.tenant_id):
            session().add(SsoIdentity(provider=cfg.code, subject=record["subject"], user_id=users[0]))
            session().flush()
    identity = ProviderIdentity(
        subject=record["subject"], name=record.get("name") or "", email=record.get("email") or ""
    )
    link = _links(tenant.tenant_id, cfg.code, record["subject"])
    assert link is not None
    return _session_for(request, tenant, cfg, reg, identity, link, record.get("return") or "")


def find_by_corp(kind: str, corp_id: str, domain: str = "") -> tuple[TenantInfo, SsoConfig, Registered]:
    """The tenant whose DingTalk or WeCom configuration has this corp id (narrowed by the domain if given)."""
    if not corp_id or len(corp_id) > 128:
        raise BadRequest("sso:unknown_corp")
    wanted = resolve_tenant(domain).tenant_id if domain else None
    with unscoped():
        rows = (
            session()
            .execute(
                select(SsoConfig)
                .where(SsoConfig.kind == kind, SsoConfig.enabled.is_(True))
                .order_by(SsoConfig.tenant_id, SsoConfig.sort, SsoConfig.id)
            )
            .scalars()
            .all()
        )
    for row in rows:
        if (row.settings or {}).get("corp_id") != corp_id or (wanted is not None and row.tenant_id != wanted):
            continue
        try:
            tenant = resolve_tenant(tenant_id=row.tenant_id)
        except AtriumError:
            continue
        for cfg, reg in configs(tenant.tenant_id, kind):
            if cfg.code == row.code:
                return tenant, cfg, reg
    raise BadRequest("sso:unknown_corp")
