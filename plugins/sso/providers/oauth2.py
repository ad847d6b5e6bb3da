"""OAuth2 authorization code sign-in (state and PKCE), the person read from the provider's user-info call."""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import urlencode

import httpx
import httpx2
from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.httpx_client import OAuth2Client
from authlib.oauth2.rfc6749.errors import OAuth2Error
from authlib.oauth2.rfc6749.parameters import prepare_grant_uri
from pydantic import Field, SecretStr, field_validator

from atrium.plugins.sso.providers.base import (
    BaseProvider,
    FlowState,
    LoginStart,
    ProviderError,
    ProviderIdentity,
    ProviderSettings,
    SsoTokens,
    StartRequest,
    call_json,
    log,
    secret,
)


def check_url(value: str) -> str:
    if value and not value.startswith(("https://", "http://")):
        raise ValueError("must be an http(s) address")
    return value


class OAuth2Settings(ProviderSettings):
    authorize_url: str = Field(min_length=8, max_length=512)
    token_url: str = Field(min_length=8, max_length=512)
    userinfo_url: str = Field(min_length=8, max_length=512)
    client_id: str = Field(min_length=1, max_length=256)
    client_secret: SecretStr = SecretStr("")
    scopes: str = Field(default="", max_length=512)
    token_auth: Literal["client_secret_basic", "client_secret_post"] = "client_secret_basic"
    subject_field: str = Field(default="id", min_length=1, max_length=64)
    name_field: str = Field(default="name", max_length=64)
    email_field: str = Field(default="email", max_length=64)
    logout_url: str = Field(default="", max_length=512)

    _urls = field_validator("authorize_url", "token_url", "userinfo_url", "logout_url")(check_url)


def oauth_client(settings: Any, redirect_uri: str = "", scope: str = "") -> OAuth2Client:
    return OAuth2Client(
        settings.client_id,
        secret(settings.client_secret) or None,
        scope=scope or None,
        redirect_uri=redirect_uri or None,
        code_challenge_method="S256",
        token_endpoint_auth_method=settings.token_auth,
        timeout=settings.timeout_seconds,
    )


def exchange(client: OAuth2Client, url: str, **kw: Any) -> dict[str, Any]:
    """Spend a code or refresh token at the token endpoint; every failure becomes a ProviderError."""
    try:
        token = client.fetch_token(url, **kw) if "code" in kw else client.refresh_token(url, **kw)
    except (httpx.TimeoutException, httpx2.TimeoutException) as exc:
        raise ProviderError("provider_timeout") from exc
    except (httpx.HTTPError, httpx2.HTTPError) as exc:
        raise ProviderError("provider_unreachable") from exc
    except (OAuth2Error, OAuthError) as exc:
        log.warning("token endpoint refused", error=exc.error, description=exc.description)
        raise ProviderError("provider_refused", detail=str(exc.description or exc.error)[:120]) from exc
    except ValueError as exc:
        raise ProviderError("provider_bad_answer") from exc
    data = dict(token)
    if not isinstance(data.get("access_token"), str) or not data["access_token"]:
        raise ProviderError("provider_bad_answer")
    return data


def authorize_url(endpoint: str, settings: Any, request: StartRequest, scope: str, **extra: str) -> str:
    """The authorization request: code flow with state and the S256 PKCE challenge the sso plugin made."""
    return str(
        prepare_grant_uri(
            endpoint,
            settings.client_id,
            "code",
            redirect_uri=request.redirect_uri,
            scope=scope or None,
            state=request.state,
            code_challenge=request.code_challenge,
            code_challenge_method="S256",
            **extra,
        )
    )


def tokens_of(data: dict[str, Any], previous_refresh: str = "") -> SsoTokens:
    expires = data.get("expires_in")
    return SsoTokens(
        access_token=str(data["access_token"]),
        refresh_token=str(data.get("refresh_token") or previous_refresh),
        id_token=str(data.get("id_token") or ""),
        expires_in=int(expires) if isinstance(expires, int | float) else None,
    )


def pick(data: dict[str, Any], path: str) -> Any:
    node: Any = data
    for part in path.split("."):
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    return node


class OAuth2Provider(BaseProvider):
    kind = "oauth2"
    label = "OAuth2"
    settings_model = OAuth2Settings
    modes = ("redirect",)
    sso_type = "oauth2"

    def start(self, settings: OAuth2Settings, request: StartRequest) -> LoginStart:
        return LoginStart(authorize_url(settings.authorize_url, settings, request, settings.scopes))

    def userinfo(self, settings: OAuth2Settings, access_token: str) -> dict[str, Any]:
        return call_json(
            "GET",
            settings.userinfo_url,
            settings.timeout_seconds,
            headers={"Authorization": f"Bearer {access_token}", "Accept": "application/json"},
        )

    def identity(self, settings: OAuth2Settings, tokens: SsoTokens) -> ProviderIdentity:
        info = self.userinfo(settings, tokens.access_token)
        subject = pick(info, settings.subject_field)
        if subject is None or str(subject).strip() == "":
            raise ProviderError("no_subject")
        return ProviderIdentity(
            subject=str(subject),
            name=str(pick(info, settings.name_field) or ""),
            email=str(pick(info, settings.email_field) or ""),
            tokens=tokens,
            claims=info,
        )

    def callback(self, settings: OAuth2Settings, params: dict[str, str], flow: FlowState) -> ProviderIdentity:
        code = params.get("code", "")
        if not code:
            raise ProviderError("code_missing")
        client = oauth_client(settings, flow.redirect_uri)
        data = exchange(
            client,
            settings.token_url,
            code=code,
            code_verifier=flow.code_verifier,
            grant_type="authorization_code",
        )
        return self.identity(settings, tokens_of(data))

    def refresh(self, settings: OAuth2Settings, tokens: SsoTokens) -> ProviderIdentity:
        if not tokens.refresh_token:
            raise ProviderError("refresh_unsupported")
        data = exchange(oauth_client(settings), settings.token_url, refresh_token=tokens.refresh_token)
        return self.identity(settings, tokens_of(data, tokens.refresh_token))

    def logout_url(self, settings: OAuth2Settings, tokens: SsoTokens | None, return_to: str) -> str | None:
        if not settings.logout_url:
            return None
        sep = "&" if "?" in settings.logout_url else "?"
        query = urlencode({"client_id": settings.client_id, "redirect_uri": return_to})
        return f"{settings.logout_url}{sep}{query}"

    def public_info(self, settings: OAuth2Settings) -> dict[str, Any]:
        return {"clientId": settings.client_id}
