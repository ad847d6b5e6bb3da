"""The built-in sign-in providers and the protocol every provider follows."""

from atrium.plugins.sso.providers.base import (
    FlowState,
    LoginStart,
    ProviderError,
    ProviderIdentity,
    SsoProvider,
    SsoTokens,
    StartRequest,
)

__all__ = [
    "FlowState",
    "LoginStart",
    "ProviderError",
    "ProviderIdentity",
    "SsoProvider",
    "SsoTokens",
    "StartRequest",
]
