"""Tokens: opaque and long, refused when forged, expired or revoked; renewal, rotation and revocation."""

from __future__ import annotations

import base64
import secrets

import pytest

from atrium.kernel.identity.sessions import RefreshGrace
from atrium.sdk.testing import AtriumClient
from tests.kernel.conftest import ACME, GLOBEX

ME = "/api/base/base-user/get-login-user"
NOT_LOGGED_IN = {"code": -1, "msg": "Login expired, please log in again", "data": None}


def bare(c: AtriumClient, access: str, refresh: str | None = None) -> AtriumClient:
    """A client holding exactly the given tokens."""
    other = AtriumClient(c.http)
    other.headers["authorization"] = access
    if refresh is not None:
        other.headers["refreshAuthorization"] = refresh
    return other


@pytest.fixture
def end_grace(kernel):
    """Let the few seconds pass in which a spent refresh token still answers the pair it was spent for."""
    return lambda refresh: kernel.cache.delete(RefreshGrace.key(refresh))


def test_tokens_are_opaque_and_long(client):
    seen = set()
    for _ in range(2):
        data = client.signed_in("alice").profile
        for token in (data["authorization"], data["refresh-authorization"]):
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
            assert len(raw) * 8 >= 128
            assert token.count(".") == 0  # not a JWT: nothing readable inside
            seen.add(token)
    assert len(seen) == 4


def test_missing_forged_and_malformed_tokens_are_not_logged_in(client, make_client):
    assert client.get(ME) == NOT_LOGGED_IN
    assert bare(client, secrets.token_urlsafe(32)).get(ME) == NOT_LOGGED_IN
    assert bare(client, "x" * 5000).get(ME) == NOT_LOGGED_IN
    assert bare(client, "Bearer ").get(ME) == NOT_LOGGED_IN
    zh = make_client("zh-cn").get(ME)
    assert zh == {"code": -1, "msg": "登录已过期，请重新登录", "data": None}


def test_bearer_prefix_is_accepted(user_client):
    token = user_client.headers["authorization"]
    assert bare(user_client, f"Bearer {token}").ok("GET", ME)["account"] == "alice"


def test_expired_access_token_without_refresh_is_refused(person, expire_access):
    p = person()
    access = p.client.headers["authorization"]
    expire_access(access)
    assert bare(p.client, access).get(ME) == NOT_LOGGED_IN


def test_expired_access_token_is_renewed_with_the_refresh_token(person, expire_access, end_grace):
    p = person()
    old_access, old_refresh = p.client.headers["authorization"], p.client.headers["refreshAuthorization"]
    expire_access(old_access)
    c = bare(p.client, old_access, old_refresh)
    me = c.get(ME)
    assert me["code"] == 800 and me["data"]["userId"] == p.user_id
    new_access, new_refresh = c.last.headers["authorization"], c.last.headers["refresh-authorization"]
    assert new_access not in (old_access, "") and new_refresh not in (old_refresh, "")
    assert "authorization" in c.last.headers.get("access-control-expose-headers", "")
    # the new pair works on its own
    assert bare(c, new_access).ok("GET", ME)["userId"] == p.user_id
    # the old refresh token was spent: presenting it again (after the grace) is refused and ends the family
    end_grace(old_refresh)
    replay = bare(c, old_access, old_refresh).get(ME)
    assert replay == NOT_LOGGED_IN
    assert bare(c, new_access, new_refresh).get(ME) == NOT_LOGGED_IN


def test_refresh_token_endpoint_is_single_use(person, end_grace):
    p = person()
    refresh = p.client.headers["refreshAuthorization"]
    first = p.client.post("/api/base/base-user/refresh-token", json={"refreshToken": refresh})
    assert first["code"] == 800
    pair = first["data"]
    assert p.client.last.headers["authorization"] == pair["authorization"]
    assert bare(p.client, pair["authorization"]).ok("GET", ME)["userId"] == p.user_id
    end_grace(refresh)
    second = p.client.post("/api/base/base-user/refresh-token", json={"params": {"refreshToken": refresh}})
    assert second == NOT_LOGGED_IN
    # reuse revoked the family, including the pair the first refresh gave
    assert bare(p.client, pair["authorization"]).get(ME) == NOT_LOGGED_IN
    assert (
        p.client.post(
            "/api/base/base-user/refresh-token", json={"refreshToken": pair["refresh-authorization"]}
        )
        == NOT_LOGGED_IN
    )


def test_requests_that_race_a_refresh_share_its_pair(person, expire_access):
    """Two tabs renew with the same refresh token: the second one gets the first one's pair, not a
    sign-out; both go on working."""
    p = person()
    old_access, old_refresh = p.client.headers["authorization"], p.client.headers["refreshAuthorization"]
    expire_access(old_access)
    first, second = bare(p.client, old_access, old_refresh), bare(p.client, old_access, old_refresh)
    assert first.get(ME)["code"] == 800
    assert second.get(ME)["code"] == 800
    pair = (first.last.headers["authorization"], first.last.headers["refresh-authorization"])
    assert (second.last.headers["authorization"], second.last.headers["refresh-authorization"]) == pair
    assert bare(p.client, pair[0]).ok("GET", ME)["userId"] == p.user_id
    # the shared pair renews on as usual
    renewed = p.client.post("/api/base/base-user/refresh-token", json={"refreshToken": pair[1]})
    assert renewed["code"] == 800


def test_no_grace_after_signing_out(person, expire_access):
    p = person()
    old_access, old_refresh = p.client.headers["authorization"], p.client.headers["refreshAuthorization"]
    expire_access(old_access)
    tab = bare(p.client, old_access, old_refresh)
    assert tab.get(ME)["code"] == 800
    assert bare(tab, tab.last.headers["authorization"]).ok("GET", "/api/base/base-user/logout") is None
    assert bare(p.client, old_access, old_refresh).get(ME) == NOT_LOGGED_IN


def test_refresh_replaces_the_old_access_token(person):
    p = person()
    old_access, refresh = p.client.headers["authorization"], p.client.headers["refreshAuthorization"]
    assert p.client.post("/api/base/base-user/refresh-token", json={"refreshToken": refresh})["code"] == 800
    assert bare(p.client, old_access).get(ME) == NOT_LOGGED_IN


def test_refresh_token_messages(client):
    assert client.post("/api/base/base-user/refresh-token", json={"refreshToken": "nope"}) == NOT_LOGGED_IN
    missing = client.post("/api/base/base-user/refresh-token", json={})
    assert missing == {"code": 400, "msg": "refreshToken: required", "data": None}


def test_an_access_token_is_not_a_refresh_token(person):
    p = person()
    access = p.client.headers["authorization"]
    assert p.client.post("/api/base/base-user/refresh-token", json={"refreshToken": access}) == NOT_LOGGED_IN
    # and a refresh token does not open the API as an access token
    assert bare(p.client, p.client.headers["refreshAuthorization"]).get(ME) == NOT_LOGGED_IN


def test_logout_revokes(person):
    p = person()
    access, refresh = p.client.headers["authorization"], p.client.headers["refreshAuthorization"]
    other = AtriumClient(p.client.http).signed_in(p.account, p.password)
    assert p.client.ok("GET", "/api/base/base-user/logout") is None
    assert bare(p.client, access).get(ME) == NOT_LOGGED_IN
    assert bare(p.client, access, refresh).get(ME) == NOT_LOGGED_IN
    # another session of the same user stays signed in
    assert other.ok("GET", ME)["userId"] == p.user_id


def test_password_change_revokes_every_session(person):
    p = person()
    second = AtriumClient(p.client.http).signed_in(p.account, p.password)
    b = base64.b64encode
    body = {
        "oldMagic": b(p.password.encode()).decode(),
        "magic": b(b"NewPass123").decode(),
        "confirmMagic": b(b"NewPass123").decode(),
    }
    assert p.client.post("/api/base/base-user/update-pwd", json={"params": body})["code"] == 800
    assert p.client.get(ME) == NOT_LOGGED_IN
    assert second.get(ME) == NOT_LOGGED_IN


def test_tenant_switch_issues_new_tokens_and_revokes_the_old(client, user_factory, kernel):
    from atrium.kernel import accounts
    from atrium.sdk.context import unscoped

    account, password, uid = user_factory(ACME)
    with unscoped(), kernel.db():
        accounts.add_membership(uid, GLOBEX)
    c = client.signed_in(account, password)
    old_access, old_refresh = c.headers["authorization"], c.headers["refreshAuthorization"]
    data = c.ok("POST", f"/api/base/base-user/change-tenant?tenantId={GLOBEX}&systemCode=iotAutho")
    assert data["tenantId"] == GLOBEX and data["parentTenantId"] is None
    assert data["authorization"] not in (old_access, "") and data["refresh-authorization"]
    assert c.last.headers["authorization"] == data["authorization"]
    assert bare(c, old_access, old_refresh).get(ME) == NOT_LOGGED_IN
    me = bare(c, data["authorization"]).ok("GET", ME)
    assert me["tenantId"] == GLOBEX and me["tenantName"] == "Globex"
    back = bare(c, data["authorization"]).ok("POST", f"/api/base/base-user/change-tenant?tenantId={ACME}")
    assert bare(c, back["authorization"]).ok("GET", ME)["tenantId"] == ACME


def test_disabling_a_user_revokes_their_sessions(admin_client, person, client):
    p = person()
    assert p.client.ok("GET", ME)["userId"] == p.user_id
    admin_client.ok("POST", "/api/base/admin/users/state", json={"userId": p.user_id, "enabled": False})
    assert p.client.get(ME) == NOT_LOGGED_IN
    assert client.login(p.account, p.password) == {
        "code": 1001,
        "msg": "Account or password is wrong",
        "data": None,
    }
    admin_client.ok("POST", "/api/base/admin/users/state", json={"userId": p.user_id, "enabled": True})
    assert client.login(p.account, p.password)["code"] == 800


def test_requests_that_miss_the_session_cache_together_share_one_lookup(kernel, user_client, monkeypatch):
    """A page's parallel first calls (or every connection after a restart) look a token up once; a caller
    that goes away meanwhile does not take the answer from the others."""
    import asyncio
    import threading

    from atrium.kernel.identity.sessions import SESSIONS, token_hash

    token = user_client.headers["authorization"]
    kernel.local.drop(SESSIONS, token_hash(token))
    lookups: list[str] = []
    release = threading.Event()
    real_lookup = kernel.auth._lookup

    def slow_lookup(h: str):
        lookups.append(h)
        release.wait(5)
        return real_lookup(h)

    monkeypatch.setattr(kernel.auth, "_lookup", slow_lookup)

    async def together():
        waiters = [asyncio.ensure_future(kernel.auth.session_for(token)) for _ in range(8)]
        await asyncio.sleep(0.05)
        waiters[0].cancel()
        release.set()
        return await asyncio.gather(*waiters[1:])

    found = asyncio.run(together())
    assert len(lookups) == 1
    assert {s.user.account for s in found} == {"alice"}
    assert kernel.local.get(SESSIONS, token_hash(token)) is not None
    assert user_client.ok("GET", ME)["account"] == "alice"
    assert len(lookups) == 1


def test_a_lookup_begun_before_a_sign_out_does_not_answer_or_keep_the_old_session(
    kernel, user_client, monkeypatch
):
    import asyncio
    import threading

    from atrium.kernel.identity.sessions import SESSIONS, token_hash

    token = user_client.headers["authorization"]
    h = token_hash(token)
    kernel.local.drop(SESSIONS, h)
    started, release = threading.Event(), threading.Event()
    real_lookup = kernel.auth._lookup
    calls: list[str] = []

    def held_lookup(h: str):
        calls.append(h)
        found = real_lookup(h)
        if len(calls) == 1:  # read while the token is still valid, offered to the cache after the sign-out
            started.set()
            release.wait(5)
        return found

    monkeypatch.setattr(kernel.auth, "_lookup", held_lookup)

    async def race():
        early = asyncio.ensure_future(kernel.auth.session_for(token))
        await asyncio.to_thread(started.wait, 5)
        await asyncio.to_thread(user_client.ok, "GET", "/api/base/base-user/logout")
        calls.append("signed out")
        late = asyncio.ensure_future(kernel.auth.session_for(token))
        await asyncio.sleep(0.05)
        release.set()
        return await early, await late

    _early, late = asyncio.run(race())
    assert late is None  # asked after the sign-out: looked up again, and refused
    assert calls[-2:] == ["signed out", h]
    assert kernel.local.get(SESSIONS, h) is None
    assert user_client.get(ME)["code"] == -1


def test_sign_in_and_refresh_answers_tell_the_browser_how_long_to_keep_the_tokens(person, kernel):
    """The browser's cookies follow the server's lifetimes: an idle user keeps the refresh token as long
    as the server honours it, not the access token's half day."""
    lifetimes = {
        "tokenMinutes": kernel.settings.token_minutes,
        "refreshTokenMinutes": kernel.settings.refresh_token_minutes,
    }
    assert lifetimes["refreshTokenMinutes"] > lifetimes["tokenMinutes"]
    p = person()
    assert {k: p.client.profile[k] for k in lifetimes} == lifetimes
    # a browser back after its token cookie ended holds only the refresh token (as cookie and header)
    refresh = p.client.headers["refreshAuthorization"]
    returning = AtriumClient(p.client.http)
    returning.headers["refreshAuthorization"] = refresh
    renewed = returning.ok(
        "POST", "/api/base/base-user/refresh-token", json={"params": {"refreshToken": refresh}}
    )
    assert {k: renewed[k] for k in lifetimes} == lifetimes
    assert bare(p.client, renewed["authorization"]).ok("GET", ME)["userId"] == p.user_id
