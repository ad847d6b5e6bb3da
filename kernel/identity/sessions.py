"""Opaque access and refresh tokens, stored hashed; resolving a request's session from a local cache."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from cryptography.fernet import Fernet, InvalidToken
from sqlalchemy import ColumnElement, Table, insert, select, update
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from atrium.kernel.models import AuthToken, Membership, Tenant, User, UserRole
from atrium.sdk.context import RequestContext, SessionUser, unscoped
from atrium.sdk.db import utcnow
from atrium.sdk.errors import NotLoggedIn

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

SESSIONS = "session"


class RefreshGrace:
    """The pair a refresh token was just spent for, kept a few seconds for requests that raced it.

    Two requests (two tabs, or parallel calls after the access token expired) may present the same
    refresh token: the first spends it, the second would look like a stolen token being replayed and
    end the sign-in. Within the grace window the second gets the first one's pair instead. The pair is
    sealed with a key derived from the spent token, so only whoever holds that token can open it, and
    it is honoured only while the pair is still live (a sign-out in between ends it)."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel

    @staticmethod
    def key(refresh: str) -> str:
        return "refresh-grace:" + hashlib.sha256(f"grace-id:{refresh}".encode()).hexdigest()

    @staticmethod
    def _cipher(refresh: str) -> Fernet:
        return Fernet(base64.urlsafe_b64encode(hashlib.sha256(f"grace-key:{refresh}".encode()).digest()))

    def keep(self, refresh: str, pair: TokenPair) -> None:
        seconds = self.kernel.settings.refresh_grace_seconds
        if seconds > 0:
            sealed = self._cipher(refresh).encrypt(json.dumps([pair.access, pair.refresh]).encode())
            self.kernel.cache.set(self.key(refresh), sealed.decode(), ttl=seconds)

    def recall(self, refresh: str) -> TokenPair | None:
        sealed = self.kernel.cache.get(self.key(refresh))
        if not isinstance(sealed, str):
            return None
        try:
            access, new_refresh = json.loads(self._cipher(refresh).decrypt(sealed.encode()))
        except (InvalidToken, ValueError):
            return None
        return TokenPair(access, new_refresh)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def lifetimes(settings: Any) -> dict[str, int]:
    """How long the browser keeps its tokens (`tokenMinutes`, `refreshTokenMinutes`): the server's settings,
    so that an idle user is signed out when the refresh token ends, not when a cookie guessed so."""
    return {"tokenMinutes": settings.token_minutes, "refreshTokenMinutes": settings.refresh_token_minutes}


@dataclass(frozen=True)
class TokenPair:
    access: str
    refresh: str

    def headers(self) -> dict[str, str]:
        return {"authorization": self.access, "refresh-authorization": self.refresh}


@dataclass(frozen=True)
class CachedSession:
    user: SessionUser
    expires_at: datetime
    #: `expires_at` (naive UTC) as seconds since the epoch, compared with `time.time()` on every request
    deadline: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "deadline", self.expires_at.replace(tzinfo=UTC).timestamp())


#: both tokens of a sign-in in one statement (every sign-in writes them)
_INSERT_TOKENS = insert(cast(Table, AuthToken.__table__))


def issue_tokens(
    db: Session, kernel: Kernel, user_id: int, tenant_id: int, system_code: str, family: str | None = None
) -> TokenPair:
    access, refresh = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    now, s = utcnow(), kernel.settings
    common = {
        "family": family or secrets.token_hex(8),
        "user_id": user_id,
        "tenant_id": tenant_id,
        "system_code": system_code,
        "revoked": False,
        "created_at": now,
    }
    db.connection().execute(
        _INSERT_TOKENS,
        [
            {
                **common,
                "token_hash": token_hash(access),
                "kind": "access",
                "expires_at": now + timedelta(minutes=s.token_minutes),
            },
            {
                **common,
                "token_hash": token_hash(refresh),
                "kind": "refresh",
                "expires_at": now + timedelta(minutes=s.refresh_token_minutes),
            },
        ],
    )
    return TokenPair(access, refresh)


def revoke_where(db: Session, kernel: Kernel, *criteria: ColumnElement[bool]) -> list[str]:
    """Revoke the matching live tokens; answers their hashes."""
    rows = (
        db.execute(select(AuthToken.token_hash).where(AuthToken.revoked.is_(False), *criteria))
        .scalars()
        .all()
    )
    if not rows:
        return []
    db.execute(update(AuthToken).where(AuthToken.token_hash.in_(rows)).values(revoked=True))
    for h in rows:
        kernel.local.invalidate_on_commit(db, SESSIONS, h)
    return list(rows)


def revoke_user(db: Session, kernel: Kernel, user_id: int, reason: str = "revoked") -> None:
    """Revoke every token of a user (password change, disabling) and close their sockets."""
    revoke_where(db, kernel, AuthToken.user_id == user_id)
    kernel.ws.close_user(user_id, reason)


def revoke_family(db: Session, kernel: Kernel, access_token: str) -> list[str]:
    """Revoke every live token of the token's family (one sign-in); answers their hashes."""
    fam = db.execute(
        select(AuthToken.family).where(AuthToken.token_hash == token_hash(access_token))
    ).scalar()
    if fam:
        return revoke_where(db, kernel, AuthToken.family == fam)
    return []


def load_session(db: Session, h: str, kind: str = "access") -> CachedSession | None:
    with unscoped():
        row = db.execute(
            select(AuthToken, User, Membership)
            .join(User, User.id == AuthToken.user_id)
            .join(Membership, (Membership.user_id == User.id) & (Membership.tenant_id == AuthToken.tenant_id))
            .join(Tenant, Tenant.id == AuthToken.tenant_id)
            .where(AuthToken.token_hash == h, AuthToken.kind == kind, AuthToken.revoked.is_(False))
            .where(User.enabled.is_(True), Membership.enabled.is_(True), Tenant.enabled.is_(True))
        ).first()
        if row is None:
            return None
        tok, user, member = row
        roles = frozenset(
            db.execute(
                select(UserRole.role_id).where(
                    UserRole.user_id == user.id, UserRole.tenant_id == tok.tenant_id
                )
            ).scalars()
        )
    su = SessionUser(
        user_id=user.id,
        account=user.account,
        full_name=user.full_name,
        tenant_id=tok.tenant_id,
        system_code=tok.system_code,
        is_super_admin=user.is_super_admin,
        is_supervisor=member.is_supervisor,
        roles=roles,
        token_id=tok.id,
        portal_type=user.portal_type,
    )
    return CachedSession(su, tok.expires_at)


class Authenticator:
    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self.grace = RefreshGrace(kernel)

    def _lookup(self, h: str) -> CachedSession | None:
        with self.kernel.session() as db:
            return load_session(db, h)

    async def session_for(self, token: str) -> CachedSession | None:
        if not token or len(token) > 256:
            return None
        h = token_hash(token)
        local = self.kernel.local
        cached = local.get(SESSIONS, h)
        if cached is None:
            cached = await local.fill(SESSIONS, h, partial(self._lookup, h))
            if cached is None:
                return None
        if cached.deadline < time.time():
            return None
        return cast(CachedSession, cached)

    async def resolve(self, conn: HTTPConnection, ctx: RequestContext) -> SessionUser | None:
        """The signed-in user of a request; an expired access token is renewed with a valid refresh token."""
        if ctx.user is not None:
            return ctx.user
        headers = ctx.headers or conn.headers  # the middleware's dict of them: no second parse
        token = headers.get("authorization", "").removeprefix("Bearer ").strip()
        sess = await self.session_for(token) if token else None
        if sess is None:
            refresh = headers.get("refreshauthorization", "").strip()
            if not refresh:
                return None
            try:
                pair, su = await run_in_threadpool(
                    self.kernel.run_in_session, self.rotate, {"refresh": refresh}
                )
            except NotLoggedIn:
                return None
            ctx.response_headers.update(pair.headers())
            ctx.response_headers["access-control-expose-headers"] = "authorization, refresh-authorization"
            user = cast(SessionUser, su)
        else:
            user = sess.user
        ctx.user = user
        ctx.tenant_id = user.tenant_id
        if not ctx.system_code:
            ctx.system_code = user.system_code
        return user

    def rotate(self, refresh: str) -> tuple[TokenPair, SessionUser]:
        """Spend a refresh token (single use) for a new pair in the same family."""
        from atrium.sdk.db import session

        db = session()
        h = token_hash(refresh)
        with unscoped():
            tok = db.execute(
                select(AuthToken).where(AuthToken.token_hash == h, AuthToken.kind == "refresh")
            ).scalar()
            if tok is None:
                raise NotLoggedIn()
            if tok.revoked:
                raced = self.grace.recall(refresh)
                live = load_session(db, token_hash(raced.access)) if raced else None
                if raced is not None and live is not None:
                    return raced, live.user
                revoke_where(db, self.kernel, AuthToken.family == tok.family)
                db.commit()
                raise NotLoggedIn()
            if tok.expires_at < utcnow():
                raise NotLoggedIn()
            revoke_where(db, self.kernel, AuthToken.family == tok.family)
            pair = issue_tokens(db, self.kernel, tok.user_id, tok.tenant_id, tok.system_code, tok.family)
            db.flush()
            sess = load_session(db, token_hash(pair.access))
            self.grace.keep(refresh, pair)
        if sess is None:
            raise NotLoggedIn()
        return pair, sess.user
