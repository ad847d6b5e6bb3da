"""A local OpenID Connect / OAuth2 provider for tests: discovery, JWKS, authorization code with PKCE,
signed ID tokens, refresh with rotation, user info, revocation and end-session.

`FakeIdP.behaviour` makes it misbehave on purpose (wrong nonce, foreign issuer, expired or forged token),
or keep the profile and e-mail claims out of the ID token for its userinfo endpoint only
(`claims_in_userinfo`), there naming another subject than the ID token's (`userinfo_other_sub`).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import secrets
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from joserfc import jwt
from joserfc.jwk import RSAKey
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route


@dataclass
class Person:
    sub: str
    name: str = ""
    email: str = ""


@dataclass
class FakeIdP:
    prefix: str
    client_id: str = "atrium-client"
    client_secret: str = "s3cret-client"
    person: Person = field(default_factory=lambda: Person("u-1001", "Ivy Chen", "ivy@idp.example"))
    behaviour: str = "ok"
    base_url: str = ""
    key: RSAKey = field(default_factory=lambda: RSAKey.generate_key(2048, parameters={"kid": "k1"}))
    rogue: RSAKey = field(default_factory=lambda: RSAKey.generate_key(2048, parameters={"kid": "k1"}))
    codes: dict[str, dict[str, Any]] = field(default_factory=dict)
    access: dict[str, str] = field(default_factory=dict)
    refresh: dict[str, str] = field(default_factory=dict)
    revoked: list[str] = field(default_factory=list)
    token_calls: int = 0

    @property
    def issuer(self) -> str:
        return self.base_url + self.prefix

    def reset(self) -> None:
        self.behaviour = "ok"
        self.person = Person("u-1001", "Ivy Chen", "ivy@idp.example")

    # -- tokens -------------------------------------------------------------

    def id_token(self, sub: str, nonce: str | None) -> str:
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": self.issuer,
            "sub": sub,
            "aud": self.client_id,
            "iat": now,
            "exp": now + 300,
            "name": self.person.name,
            "email": self.person.email,
            "email_verified": True,
        }
        if nonce is not None:
            claims["nonce"] = nonce
        key = self.key
        b = self.behaviour
        if b in ("claims_in_userinfo", "userinfo_other_sub"):
            for name in ("name", "email", "email_verified"):
                del claims[name]
        if b == "wrong_nonce":
            claims["nonce"] = "not-the-nonce"
        elif b == "wrong_issuer":
            claims["iss"] = self.issuer + "-other"
        elif b == "wrong_audience":
            claims["aud"] = "someone-else"
        elif b == "expired":
            claims["iat"], claims["exp"] = now - 7200, now - 3600
        elif b == "forged":
            key = self.rogue
        elif b == "alg_none":
            header = base64.urlsafe_b64encode(b'{"alg":"none","typ":"JWT"}').rstrip(b"=").decode()
            import json

            body = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
            return f"{header}.{body}."
        return jwt.encode({"alg": "RS256", "kid": "k1"}, claims, key)

    def issue(self, sub: str, nonce: str | None) -> dict[str, Any]:
        at, rt = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        self.access[at] = sub
        self.refresh[rt] = sub
        return {
            "access_token": at,
            "token_type": "Bearer",
            "expires_in": 3600,
            "refresh_token": rt,
            "id_token": self.id_token(sub, nonce),
            "scope": "openid profile email",
        }

    # -- endpoints ----------------------------------------------------------

    async def discovery(self, request: Request) -> Response:
        p = self.issuer
        return JSONResponse(
            {
                "issuer": p if self.behaviour != "discovery_issuer" else p + "/evil",
                "authorization_endpoint": f"{p}/authorize",
                "token_endpoint": f"{p}/token",
                "userinfo_endpoint": f"{p}/userinfo",
                "jwks_uri": f"{p}/jwks",
                "revocation_endpoint": f"{p}/revoke",
                "end_session_endpoint": f"{p}/logout",
                "response_types_supported": ["code"],
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"],
                "code_challenge_methods_supported": ["S256"],
            }
        )

    async def jwks(self, request: Request) -> Response:
        return JSONResponse({"keys": [self.key.as_dict(private=False)]})

    async def authorize(self, request: Request) -> Response:
        q = request.query_params
        if q.get("client_id") != self.client_id or q.get("response_type") != "code":
            return JSONResponse({"error": "invalid_request"}, status_code=400)
        if q.get("code_challenge_method") != "S256" or not q.get("code_challenge"):
            return JSONResponse(
                {"error": "invalid_request", "error_description": "PKCE required"}, status_code=400
            )
        code = secrets.token_urlsafe(16)
        self.codes[code] = {
            "redirect_uri": q["redirect_uri"],
            "nonce": q.get("nonce"),
            "challenge": q["code_challenge"],
            "sub": self.person.sub,
        }
        sep = "&" if "?" in q["redirect_uri"] else "?"
        return RedirectResponse(
            f"{q['redirect_uri']}{sep}{urlencode({'code': code, 'state': q.get('state', '')})}",
            status_code=302,
        )

    def _client_ok(self, request: Request, form: dict[str, str]) -> bool:
        auth = request.headers.get("authorization", "")
        if auth.startswith("Basic "):
            cid, _, sec = base64.b64decode(auth[6:]).decode().partition(":")
        else:
            cid, sec = form.get("client_id", ""), form.get("client_secret", "")
        return cid == self.client_id and sec == self.client_secret

    async def token(self, request: Request) -> Response:
        self.token_calls += 1
        form = {k: str(v) for k, v in (await request.form()).items()}
        if self.behaviour == "slow":
            await asyncio.sleep(3)
        if self.behaviour == "garbage":
            return HTMLResponse("<html>Gateway error</html>")
        if not self._client_ok(request, form):
            return JSONResponse({"error": "invalid_client"}, status_code=401)
        if form.get("grant_type") == "authorization_code":
            grant = self.codes.pop(form.get("code", ""), None)
            if grant is None or grant["redirect_uri"] != form.get("redirect_uri"):
                return JSONResponse({"error": "invalid_grant"}, status_code=400)
            verifier = form.get("code_verifier", "")
            challenge = (
                base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
            )
            if challenge != grant["challenge"]:
                return JSONResponse({"error": "invalid_grant", "error_description": "PKCE"}, status_code=400)
            return JSONResponse(self.issue(grant["sub"], grant["nonce"]))
        if form.get("grant_type") == "refresh_token":
            sub = self.refresh.pop(form.get("refresh_token", ""), None)
            if sub is None:
                return JSONResponse({"error": "invalid_grant"}, status_code=400)
            return JSONResponse(self.issue(sub, None))
        return JSONResponse({"error": "unsupported_grant_type"}, status_code=400)

    async def userinfo(self, request: Request) -> Response:
        token = request.headers.get("authorization", "").removeprefix("Bearer ")
        sub = self.access.get(token)
        if sub is None or token in self.revoked:
            return JSONResponse({"error": "invalid_token"}, status_code=401)
        if self.behaviour == "userinfo_other_sub":
            sub = "u-someone-else"
        return JSONResponse({"sub": sub, "id": sub, "name": self.person.name, "email": self.person.email})

    async def revoke(self, request: Request) -> Response:
        form = await request.form()
        token = str(form.get("token", ""))
        self.revoked.append(token)
        self.refresh.pop(token, None)
        self.access.pop(token, None)
        return Response(status_code=200)

    async def logout(self, request: Request) -> Response:
        return HTMLResponse("<h1>Signed out of the identity provider</h1>")

    def routes(self) -> list[Route]:
        p = self.prefix
        return [
            Route(f"{p}/.well-known/openid-configuration", self.discovery),
            Route(f"{p}/jwks", self.jwks),
            Route(f"{p}/authorize", self.authorize),
            Route(f"{p}/token", self.token, methods=["POST"]),
            Route(f"{p}/userinfo", self.userinfo),
            Route(f"{p}/revoke", self.revoke, methods=["POST"]),
            Route(f"{p}/logout", self.logout),
        ]
