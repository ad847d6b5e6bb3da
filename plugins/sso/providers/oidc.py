"""OpenID Connect sign-in: discovery, authorization code with state, nonce and PKCE, ID tokens checked for
the exact issuer, the audience and a signature by a key of the configured JWKS only.

A provider may leave the profile, e-mail and phone claims out of the ID token and hand them out at its
userinfo endpoint only (OpenID Connect Core 5.4; oidc-provider's conformIdTokenClaims does so): when the
ID token lacks the claims of a requested scope, they are read from userinfo with the access token, whose
`sub` must be the ID token's (Core 5.3.2). The person stays the ID token's issuer and subject."""

from __future__ import annotations

import time
from typing import Any, Literal
from urllib.parse import urlencode

from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet
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
)
from atrium.plugins.sso.providers.oauth2 import authorize_url, check_url, exchange, oauth_client, tokens_of

ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")
DISCOVERY_TTL = 300.0
#: The claims a sign-in reads, by the scope value that asks for them (OpenID Connect Core 5.4).
SCOPE_CLAIMS: dict[str, tuple[str, ...]] = {
    "profile": ("name", "preferred_username"),
    "email": ("email",),
    "phone": ("phone_number",),
}
_documents: dict[str, tuple[float, dict[str, Any]]] = {}


class OidcSettings(ProviderSettings):
    issuer: str = Field(min_length=8, max_length=512)
    client_id: str = Field(min_length=1, max_length=256)
    client_secret: SecretStr = SecretStr("")
    scopes: str = Field(default="openid profile email", max_length=512)
    token_auth: Literal["client_secret_basic", "client_secret_post"] = "client_secret_basic"
    id_token_algs: list[str] = Field(default_factory=lambda: ["RS256"], min_length=1)
    jwks_uri: str = Field(default="", max_length=512)
    leeway_seconds: int = Field(default=60, ge=0, le=600)

    _urls = field_validator("issuer", "jwks_uri")(check_url)

    @field_validator("scopes")
    @classmethod
    def _openid(cls, v: str) -> str:
        if "openid" not in v.split():
            raise ValueError("must include openid")
        return v

    @field_validator("id_token_algs")
    @classmethod
    def _algs(cls, v: list[str]) -> list[str]:
        bad = [a for a in v if a not in ALGORITHMS]
        if bad:
            raise ValueError(f"unsupported algorithms {bad}; use asymmetric ones: {', '.join(ALGORITHMS)}")
        return v


def lacks_claims(claims: dict[str, Any], scopes: str) -> bool:
    """Whether a requested scope's claims that a sign-in reads are all absent from these claims."""
    requested = set(scopes.split())
    return any(
        scope in requested and not any(claims.get(name) for name in names)
        for scope, names in SCOPE_CLAIMS.items()
    )


def merge_userinfo(id_claims: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
    """The userinfo claims under the ID token's (the ID token wins where it has a value); refused unless
    both name the same subject (OpenID Connect Core 5.3.2)."""
    sub = info.get("sub")
    if not isinstance(sub, str) or sub != id_claims.get("sub"):
        log.warning("userinfo subject mismatch", expected=id_claims.get("sub"), found=sub)
        raise ProviderError("userinfo_subject_mismatch")
    return {**info, **{k: v for k, v in id_claims.items() if v is not None and v != ""}}


def person(claims: dict[str, Any], tokens: SsoTokens) -> ProviderIdentity:
    """The person the claims describe; an e-mail the provider says is unverified is not taken."""
    verified = claims.get("email_verified", True) not in (False, "false")
    return ProviderIdentity(
        subject=str(claims["sub"]),
        name=str(claims.get("name") or claims.get("preferred_username") or ""),
        email=str(claims.get("email") or "") if verified else "",
        mobile=str(claims.get("phone_number") or ""),
        tokens=tokens,
        claims=claims,
    )


def fetch_cached(url: str, timeout: float, fresh: bool = False) -> dict[str, Any]:
    """Discovery documents and key sets, kept five minutes in process; `fresh` refetches (key rotation)."""
    now = time.monotonic()
    hit = _documents.get(url)
    if hit and not fresh and hit[0] > now:
        return hit[1]
    doc = call_json("GET", url, timeout, headers={"Accept": "application/json"})
    _documents[url] = (now + DISCOVERY_TTL, doc)
    return doc


class OidcProvider(BaseProvider):
    kind = "oidc"
    label = "OpenID Connect"
    settings_model = OidcSettings
    modes = ("redirect",)
    sso_type = "oidc"

    def discovery(self, settings: OidcSettings) -> dict[str, Any]:
        doc = fetch_cached(
            settings.issuer.rstrip("/") + "/.well-known/openid-configuration", settings.timeout_seconds
        )
        if doc.get("issuer") != settings.issuer:
            log.warning("discovery issuer mismatch", configured=settings.issuer, found=doc.get("issuer"))
            raise ProviderError("issuer_mismatch")
        for key in ("authorization_endpoint", "token_endpoint"):
            if not isinstance(doc.get(key), str):
                raise ProviderError("provider_bad_answer")
        return doc

    def keys(self, settings: OidcSettings, fresh: bool = False) -> KeySet:
        uri = settings.jwks_uri or self.discovery(settings).get("jwks_uri")
        if not isinstance(uri, str) or not uri:
            raise ProviderError("provider_bad_answer")
        try:
            return KeySet.import_key_set(fetch_cached(uri, settings.timeout_seconds, fresh))  # type: ignore[arg-type]
        except (JoseError, ValueError, KeyError, TypeError) as exc:
            raise ProviderError("provider_bad_answer") from exc

    def start(self, settings: OidcSettings, request: StartRequest) -> LoginStart:
        endpoint = self.discovery(settings)["authorization_endpoint"]
        return LoginStart(authorize_url(endpoint, settings, request, settings.scopes, nonce=request.nonce))

    def verify_id_token(
        self, settings: OidcSettings, id_token: str, nonce: str | None, subject: str | None = None
    ) -> dict[str, Any]:
        """Signature by a key of the configured JWKS, exact issuer, our audience, not expired, the nonce."""
        if not id_token or id_token.count(".") != 2:
            raise ProviderError("id_token_invalid")
        token = None
        for fresh in (False, True):
            try:
                token = jwt.decode(id_token, self.keys(settings, fresh), algorithms=settings.id_token_algs)
                break
            except (JoseError, ValueError, KeyError, TypeError) as exc:
                if fresh:
                    log.warning("id token refused", error=str(exc))
                    raise ProviderError("id_token_invalid") from exc
        assert token is not None
        claims = dict(token.claims)
        registry = jwt.JWTClaimsRegistry(
            leeway=settings.leeway_seconds,
            iss={"essential": True, "value": settings.issuer},
            sub={"essential": True, **({"value": subject} if subject else {})},
            exp={"essential": True},
            iat={"essential": True},
        )
        try:
            registry.validate(claims)
        except JoseError as exc:
            log.warning("id token claims refused", error=str(exc))
            key = "id_token_expired" if "exp" in str(exc) else "id_token_invalid"
            raise ProviderError(key) from exc
        aud = claims.get("aud")
        audiences = aud if isinstance(aud, list) else [aud]
        if settings.client_id not in audiences:
            raise ProviderError("id_token_audience")
        if len(audiences) > 1 and claims.get("azp") != settings.client_id:
            raise ProviderError("id_token_audience")
        if nonce is not None and claims.get("nonce") != nonce:
            raise ProviderError("nonce_mismatch")
        return claims

    def identity(
        self, settings: OidcSettings, tokens: SsoTokens, nonce: str | None, subject: str | None = None
    ) -> ProviderIdentity:
        if tokens.id_token:
            claims = self.verify_id_token(settings, tokens.id_token, nonce, subject)
            if lacks_claims(claims, settings.scopes):
                claims = self.complete(settings, tokens.access_token, claims)
        elif subject is not None:
            claims = self.userinfo(settings, tokens.access_token)
            if claims.get("sub") != subject:
                raise ProviderError("id_token_invalid")
        else:
            raise ProviderError("id_token_invalid")
        return person(claims, tokens)

    def complete(self, settings: OidcSettings, access_token: str, claims: dict[str, Any]) -> dict[str, Any]:
        """The ID token's claims with those its provider hands out at userinfo only (when it has one)."""
        url = self.discovery(settings).get("userinfo_endpoint")
        if not isinstance(url, str) or not url or not access_token:
            return claims
        return merge_userinfo(claims, self.userinfo(settings, access_token))

    def userinfo(self, settings: OidcSettings, access_token: str) -> dict[str, Any]:
        url = self.discovery(settings).get("userinfo_endpoint")
        if not isinstance(url, str):
            raise ProviderError("refresh_unsupported")
        return call_json(
            "GET", url, settings.timeout_seconds, headers={"Authorization": f"Bearer {access_token}"}
        )

    def callback(self, settings: OidcSettings, params: dict[str, str], flow: FlowState) -> ProviderIdentity:
        code = params.get("code", "")
        if not code:
            raise ProviderError("code_missing")
        doc = self.discovery(settings)
        client = oauth_client(settings, flow.redirect_uri)
        data = exchange(
            client,
            doc["token_endpoint"],
            code=code,
            code_verifier=flow.code_verifier,
            grant_type="authorization_code",
        )
        if not data.get("id_token"):
            raise ProviderError("id_token_invalid")
        return self.identity(settings, tokens_of(data), flow.nonce)

    def refresh(self, settings: OidcSettings, tokens: SsoTokens) -> ProviderIdentity:
        """Spend the provider's refresh token; the person must stay the one the access token names."""
        if not tokens.refresh_token:
            raise ProviderError("refresh_unsupported")
        doc = self.discovery(settings)
        data = exchange(oauth_client(settings), doc["token_endpoint"], refresh_token=tokens.refresh_token)
        new = tokens_of(data, tokens.refresh_token)
        if new.id_token:
            return self.identity(settings, new, None)
        info = self.userinfo(settings, new.access_token)
        if not info.get("sub"):
            raise ProviderError("no_subject")
        return person(info, new)

    def revoke(self, settings: OidcSettings, tokens: SsoTokens) -> None:
        url = self.discovery(settings).get("revocation_endpoint")
        if not isinstance(url, str):
            return
        client = oauth_client(settings)
        for value, hint in ((tokens.refresh_token, "refresh_token"), (tokens.access_token, "access_token")):
            if not value:
                continue
            try:
                client.revoke_token(url, token=value, token_type_hint=hint)
            except Exception as exc:  # revocation is best effort: the local session ends regardless
                log.warning("token revocation failed", error=str(exc))

    def logout_url(self, settings: OidcSettings, tokens: SsoTokens | None, return_to: str) -> str | None:
        try:
            end = self.discovery(settings).get("end_session_endpoint")
        except ProviderError:
            return None
        if not isinstance(end, str) or not end:
            return None
        query = {"client_id": settings.client_id, "post_logout_redirect_uri": return_to}
        if tokens and tokens.id_token:
            query["id_token_hint"] = tokens.id_token
        return f"{end}{'&' if '?' in end else '?'}{urlencode(query)}"

    def public_info(self, settings: OidcSettings) -> dict[str, Any]:
        return {"issuer": settings.issuer, "clientId": settings.client_id}


class CloudProvider(OidcProvider):
    """A cloud identity provider: OpenID Connect whose tokens the browser keeps (ssoToken and
    ssoRefreshToken with the domain), renewed by the guard's refresh and revoked at sign-out."""

    kind = "cloud"
    label = "Cloud identity"
    sso_type = "cloud"
    hands_tokens = True

    def logout_url(self, settings: OidcSettings, tokens: SsoTokens | None, return_to: str) -> str | None:
        if tokens is not None:
            self.revoke(settings, tokens)
        return super().logout_url(settings, tokens, return_to)
