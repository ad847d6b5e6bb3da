"""When Redis or the database cannot be reached: counters fail closed with a translated 503, signed-in reads
go on, and the pub/sub subscribes again (dropping what may have gone stale) once Redis is back. Outages are
made here without touching the shared services: by a cache that refuses, a port nobody listens on, and a
proxy in front of the test Redis that is cut."""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import threading
import time
from typing import Any

import pytest
import redis
from sqlalchemy import create_engine
from sqlalchemy.exc import IntegrityError, OperationalError

from atrium.kernel.http import unavailable
from atrium.kernel.services.local_cache import LocalCache
from atrium.kernel.services.pubsub import RedisPubSub
from atrium.sdk.testing import AtriumClient, encrypt_password

REDIS = os.environ.get("ATRIUM_TEST_REDIS_URL", "")
UNAVAILABLE = "The service is briefly unavailable; please try again in a moment"


def refuse_cache(kernel: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shared cache refuses every call, as Redis does while it is down."""

    def refuse(*_args: Any, **_kw: Any) -> Any:
        raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    for name in ("get", "set", "delete", "pop", "incr"):
        monkeypatch.setattr(kernel.cache, name, refuse)


@pytest.fixture
def cache_down(kernel: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    refuse_cache(kernel, monkeypatch)


def test_sign_in_fails_closed_while_its_counters_are_unreachable(
    client: AtriumClient, kernel: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    enc = client.ok("POST", "/api/base/base-user/get-enryption")
    password = encrypt_password(enc["publicKey"], enc["nonce"], "Bob@12345")
    refuse_cache(kernel, monkeypatch)
    body = client.post("/api/base/base-user/login", json={"account": "bob", "password": password})
    assert body["code"] == 503 and body["msg"] == UNAVAILABLE
    assert "authorization" not in (body.get("data") or {})


def test_signed_in_reads_go_on_while_the_cache_is_unreachable(
    user_client: AtriumClient, cache_down: None
) -> None:
    for _ in range(3):
        assert user_client.ok("GET", "/api/base/base-user/get-login-user")["account"] == "alice"
        assert user_client.ok("GET", "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho")


def test_a_shared_link_password_fails_closed_while_its_counter_is_unreachable(
    admin_client: AtriumClient, client: AtriumClient, kernel: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    panel = admin_client.ok("GET", "/api/dyreport/panel/list")[0]["id"]
    link = admin_client.ok("POST", f"/api/dyreport/api/link/enable/{panel}")
    admin_client.ok(
        "POST", "/api/dyreport/api/link/update", json={"id": link["id"], "enablePwd": True, "pwd": "1357"}
    )
    try:
        refuse_cache(kernel, monkeypatch)
        anon = AtriumClient(client.http)
        body = anon.post("/api/dyreport/api/link/validatePwd", json={"link": link["id"], "password": "1357"})
        assert body["code"] == 503 and body["msg"] == UNAVAILABLE and not body["data"]
        monkeypatch.undo()
        body = anon.post("/api/dyreport/api/link/validatePwd", json={"link": link["id"], "password": "1357"})
        assert body["code"] == 800 and body["data"]["linkToken"]
    finally:
        monkeypatch.undo()
        admin_client.ok("POST", "/api/dyreport/api/link/update", json={"id": link["id"], "enablePwd": False})


def test_a_database_that_cannot_be_reached_is_told_apart_from_a_bad_request() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nobody listens there once the socket is closed
    engine = create_engine(
        f"postgresql+psycopg://nobody@127.0.0.1:{port}/none", connect_args={"connect_timeout": 2}
    )
    with pytest.raises(OperationalError) as refused:
        engine.connect()
    assert unavailable(refused.value)
    assert unavailable(redis.ConnectionError("connection refused"))
    assert not unavailable(IntegrityError("INSERT ...", {}, Exception("duplicate key")))
    assert not unavailable(OperationalError("SELECT ...", {}, Exception("canceling statement: lock timeout")))


# -- the pub/sub across a Redis outage ------------------------------------------------------------------


class CutProxy:
    """A TCP proxy to the test Redis that can be cut: open connections reset, new ones refused."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.conns: list[socket.socket] = []
        self.up = True
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            upstream = socket.create_connection(self.target)
            self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self) -> None:
        self.up = False
        for s in self.conns:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.conns.clear()

    def close(self) -> None:
        self.cut()
        self.listener.close()


@pytest.mark.skipif(not REDIS, reason="needs Redis: set ATRIUM_TEST_REDIS_URL")
def test_the_pubsub_subscribes_again_after_an_outage_and_drops_stale_caches() -> None:
    target = redis.Redis.from_url(REDIS).connection_pool.connection_kwargs
    proxy = CutProxy((target.get("host", "127.0.0.1"), int(target.get("port", 6379))))
    url = f"redis://127.0.0.1:{proxy.port}/{target.get('db', 0)}"

    async def scenario() -> tuple[list[dict[str, Any]], Any]:
        bus = RedisPubSub(url, f"atrium-test-outage-{secrets.token_hex(4)}:")
        got: list[dict[str, Any]] = []

        async def on_message(message: dict[str, Any]) -> None:
            got.append(message)

        bus.subscribe("news", on_message)
        local = LocalCache(bus)
        await bus.start()
        try:
            local.put("sessions", "abc", {"user": 3})
            proxy.cut()
            await asyncio.sleep(1.5)  # down: the subscription is gone and cannot come back yet
            assert local.get("sessions", "abc") == {"user": 3}
            proxy.up = True
            deadline = time.monotonic() + 15
            while local.get("sessions", "abc") is not None and time.monotonic() < deadline:
                await asyncio.sleep(0.1)  # back: subscribed again, and what may be stale is dropped
            publisher = RedisPubSub(REDIS, bus.prefix)
            publisher.publish("news", {"n": 1})
            while not got and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            publisher.sync.close()
            return got, local.get("sessions", "abc")
        finally:
            await bus.stop()

    try:
        got, cached = asyncio.run(scenario())
    finally:
        proxy.close()
    assert cached is None
    assert got == [{"n": 1}]
