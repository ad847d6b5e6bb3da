"""A provider that approves at once: its address goes straight back with a signed code naming the
configured person. It follows the sso plugin's provider protocol by duck typing; only its error type
comes from the sso plugin it depends on."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from atrium.plugins.sso.providers.base import ProviderError


class MagicLinkSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    subject: str = Field(min_length=1, max_length=64)
    key: SecretStr


@dataclass(frozen=True)
class Start:
    url: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Person:
    subject: str
    name: str = ""
    email: str = ""
    mobile: str = ""
    tokens: Any = None
    claims: dict[str, Any] = field(default_factory=dict)


def _sign(settings: MagicLinkSettings, text: str) -> str:
    return hmac.new(settings.key.get_secret_value().encode(), text.encode(), hashlib.sha256).hexdigest()


class MagicLinkProvider:
    kind = "magic-link"
    label = "Magic link"
    settings_model = MagicLinkSettings
    modes = ("redirect",)
    sso_type = "magic-link"

    def start(self, settings: MagicLinkSettings, request: Any) -> Start:
        code = f"{settings.subject}.{_sign(settings, settings.subject + request.nonce)}"
        return Start(f"{request.redirect_uri}?{urlencode({'code': code, 'state': request.state})}")

    def callback(self, settings: MagicLinkSettings, params: dict[str, str], flow: Any) -> Person:
        subject, _, sig = params.get("code", "").rpartition(".")
        if not subject or not hmac.compare_digest(sig, _sign(settings, subject + flow.nonce)):
            raise ProviderError("provider_refused", detail="magic link")
        return Person(subject=subject, name=f"Magic {subject}")
