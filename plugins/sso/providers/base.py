"""The provider protocol: what a sign-in provider declares and does.

A provider is an object returned by the ``atrium_sso_providers`` hook. It declares its ``kind`` (unique,
kebab-case), a ``label``, the pydantic model of its per-tenant ``settings_model`` (validated when an
administrator saves it), the ``modes`` in which the sign-in page offers it, and implements:

- ``start(settings, request)``: the address the browser is sent to (state, nonce and PKCE challenge
  are made and kept by the sso plugin; the provider only puts them into its URL);
- ``callback(settings, params, flow)``: turn what the provider sent back (``code`` and the like) into a
  :class:`ProviderIdentity` with a stable ``subject``; ``flow`` carries the nonce and PKCE verifier;
- ``refresh(settings, tokens)``: optional, renew the provider's tokens (the guard's cloud refresh);
- ``logout_url(settings, tokens, return_to)``: optional, where the browser goes to end the provider's
  session.

Failures are raised as :class:`ProviderError` with a key of the ``sso`` i18n namespace, so the sign-in
page shows a clear message; nothing is signed in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

import httpx
import structlog
from pydantic import BaseModel, ConfigDict, SecretStr

log = structlog.get_logger("atrium.sso")
MODES = ("redirect", "qr", "inapp")


class ProviderError(Exception):
    """A sign-in step failed; ``key`` names the message in the ``sso`` namespace."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(key)


@dataclass(frozen=True)
class StartRequest:
    """What the sso plugin made for one sign-in: the provider puts these into its address."""

    redirect_uri: str
    state: str
    nonce: str
    code_challenge: str
    mode: str = "redirect"


@dataclass(frozen=True)
class LoginStart:
    """Where the browser goes, and what the provider wants back at the callback."""

    url: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class FlowState:
    """The single-use record of a sign-in in progress (bound to the browser that started it)."""

    state: str
    nonce: str
    code_verifier: str
    redirect_uri: str
    mode: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SsoTokens:
    access_token: str
    refresh_token: str = ""
    id_token: str = ""
    expires_in: int | None = None


@dataclass(frozen=True)
class ProviderIdentity:
    """A person as the provider knows them; ``subject`` is stable and unique within the provider."""

    subject: str
    name: str = ""
    email: str = ""
    mobile: str = ""
    tokens: SsoTokens | None = None
    claims: dict[str, Any] = field(default_factory=dict)


class ProviderSettings(BaseModel):
    """Base of every provider's settings: unknown fields refused, a timeout for outgoing calls."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)
    timeout_seconds: float = 5.0


@runtime_checkable
class SsoProvider(Protocol):
    kind: str
    label: str
    settings_model: type[BaseModel]
    modes: tuple[str, ...]

    def start(self, settings: Any, request: StartRequest) -> LoginStart: ...

    def callback(self, settings: Any, params: dict[str, str], flow: FlowState) -> ProviderIdentity: ...


class BaseProvider:
    """Defaults for the optional parts of the protocol."""

    kind: ClassVar[str] = ""
    label: ClassVar[str] = ""
    settings_model: ClassVar[type[BaseModel]] = ProviderSettings
    modes: ClassVar[tuple[str, ...]] = ("redirect",)
    sso_type: ClassVar[str] = ""
    #: Whether the tokens of a sign-in are handed to the browser as ssoToken and ssoRefreshToken.
    hands_tokens: ClassVar[bool] = False

    def refresh(self, settings: Any, tokens: SsoTokens) -> ProviderIdentity:
        raise ProviderError("refresh_unsupported")

    def logout_url(self, settings: Any, tokens: SsoTokens | None, return_to: str) -> str | None:
        return None

    def public_info(self, settings: Any) -> dict[str, Any]:
        """Non-secret values the sign-in page may need (app ids, corp ids)."""
        return {}


def secret(value: SecretStr | str) -> str:
    return value.get_secret_value() if isinstance(value, SecretStr) else value


def call_json(method: str, url: str, timeout: float, **kw: Any) -> dict[str, Any]:
    """One call to a provider; timeouts, transport errors and non-JSON answers become ProviderError."""
    try:
        with httpx.Client(timeout=timeout, follow_redirects=False) as client:
            resp = client.request(method, url, **kw)
    except httpx.TimeoutException as exc:
        log.warning("provider timed out", url=url.split("?")[0])
        raise ProviderError("provider_timeout") from exc
    except httpx.HTTPError as exc:
        log.warning("provider unreachable", url=url.split("?")[0], error=str(exc))
        raise ProviderError("provider_unreachable") from exc
    try:
        data = resp.json()
    except ValueError as exc:
        log.warning("provider answered garbage", url=url.split("?")[0], status=resp.status_code)
        raise ProviderError("provider_bad_answer") from exc
    if not isinstance(data, dict):
        raise ProviderError("provider_bad_answer")
    if resp.status_code >= 400:
        log.warning(
            "provider refused", url=url.split("?")[0], status=resp.status_code, error=data.get("error")
        )
        raise ProviderError(
            "provider_refused",
            detail=str(
                data.get("error_description") or data.get("error") or data.get("errmsg") or resp.status_code
            )[:120],
        )
    return data
