"""Two server processes sharing Redis: a letter sent through one reaches a socket held by the other.

Needs Redis (ATRIUM_TEST_REDIS_URL); the database is a fresh PostgreSQL schema when
ATRIUM_TEST_DATABASE_URL is set, else a SQLite file both processes share.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from atrium.sdk.testing import DEMO_PASSWORDS, encrypt_password

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".venv" / "bin"
REDIS = os.environ.get("ATRIUM_TEST_REDIS_URL", "")
PG = os.environ.get("ATRIUM_TEST_DATABASE_URL", "")
INBOX = "/api/message/iotBaseMessageLogController"

pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(not REDIS, reason="needs Redis shared by both processes: set ATRIUM_TEST_REDIS_URL"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_ready(url: str, proc: subprocess.Popen[bytes], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}: {proc.stderr.read().decode()[-2000:]}")
        try:
            if httpx.get(f"{url}/api/openapi.json", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise TimeoutError(f"{url} did not start")


def eventually(check: Any, within: float = 5.0) -> None:
    """Retry `check` (an assertion) until it passes: invalidations travel through Redis asynchronously."""
    deadline = time.monotonic() + within
    while True:
        try:
            check()
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _equal(got: Any, want: Any) -> None:
    assert got == want


class Server:
    def __init__(self, url: str) -> None:
        self.url = url
        self.http = httpx.Client(base_url=url, timeout=20, headers={"language": "en#us"})

    def call(self, method: str, path: str, token: str = "", **kw: Any) -> dict[str, Any]:
        headers = {"authorization": token} if token else {}
        body: dict[str, Any] = self.http.request(method, path, headers=headers, **kw).json()
        return body

    def login(self, account: str) -> dict[str, Any]:
        enc = self.call("POST", "/api/base/base-user/get-enryption")["data"]
        password = encrypt_password(enc["publicKey"], enc["nonce"], DEMO_PASSWORDS[account])
        env = self.call("POST", "/api/base/base-user/login", json={"account": account, "password": password})
        assert env["code"] == 800, env
        data: dict[str, Any] = env["data"]
        return data

    def unread(self, token: str) -> int:
        env = self.call("POST", f"{INBOX}/unread-message-total", token, json={"systemCodes": ["iotAutho"]})
        assert env["code"] == 800, env
        total: int = env["data"]
        return total


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server, dict[str, str]]]:
    var = tmp_path_factory.mktemp("mp-var")
    tag = secrets.token_hex(5)
    schema = f"mp_{tag}"
    if PG:
        import sqlalchemy as sa

        eng = sa.create_engine(PG.replace("postgresql://", "postgresql+psycopg://", 1))
        with eng.begin() as conn:
            conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
        eng.dispose()
        sep = "&" if "?" in PG else "?"
        db_url = f"{PG}{sep}options=-csearch_path%3D{schema}"
    else:
        db_url = f"sqlite:///{var / 'atrium.db'}"
    env = {
        **os.environ,
        "ATRIUM_DATABASE_URL": db_url,
        "ATRIUM_REDIS_URL": REDIS,
        "ATRIUM_REDIS_PREFIX": f"atrium-mp-{tag}:",
        "ATRIUM_VAR_DIR": str(var),
        "ATRIUM_DEMO": "1",
        "ATRIUM_SECRET_KEY": secrets.token_hex(32),
        "ATRIUM_SCHEDULER": "false",
    }
    subprocess.run(
        [str(VENV / "atrium"), "demo"], env=env, cwd=ROOT, check=True, capture_output=True, timeout=300
    )
    procs: list[subprocess.Popen[bytes]] = []
    urls = []
    try:
        for _ in range(2):
            port = free_port()
            proc = subprocess.Popen(
                [
                    str(VENV / "python"),
                    "-m",
                    "uvicorn",
                    "atrium.kernel.asgi:app",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--log-level",
                    "warning",
                ],
                env=env,
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            procs.append(proc)
            urls.append(f"http://127.0.0.1:{port}")
        for url, proc in zip(urls, procs, strict=True):
            wait_ready(url, proc)
        yield Server(urls[0]), Server(urls[1]), env
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
            if proc.stderr:
                proc.stderr.close()
        if PG:
            import sqlalchemy as sa

            eng = sa.create_engine(PG.replace("postgresql://", "postgresql+psycopg://", 1))
            with eng.begin() as conn:
                conn.execute(sa.text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
            eng.dispose()


def test_a_letter_sent_through_one_process_reaches_a_socket_on_the_other(servers):
    a, b, _env = servers
    alice = b.login("alice")
    admin = a.login("admin")
    before = b.unread(alice["authorization"])  # B now holds alice's count in its cache

    async def scenario() -> dict[str, Any]:
        ws_url = b.url.replace("http://", "ws://") + f"/ws?token={alice['authorization']}"
        async with websockets.connect(ws_url) as ws:
            await ws.send(
                json.dumps(
                    {
                        "type": "subscribe",
                        "subKey": "systemNotify",
                        "userId": alice["userId"],
                        "systemCode": "iotAutho",
                    }
                )
            )
            ack = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert ack["type"] == "subscribed"
            sent = await asyncio.to_thread(
                a.call,
                "POST",
                "/api/message/admin/send",
                admin["authorization"],
                json={"toUsers": [alice["userId"]], "content": "<p>Across processes</p>"},
            )
            assert sent["code"] == 800, sent
            frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
            return frame

    frame = asyncio.run(scenario())
    assert frame["code"] == 800 and frame["subKey"] == "systemNotify"
    assert frame["data"]["preview"] == "Across processes"
    # B's cached count was dropped through the pub/sub when A committed the letter
    eventually(lambda: _equal(b.unread(alice["authorization"]), before + 1))
    page = b.call(
        "POST", f"{INBOX}/message-find", alice["authorization"], json={"pageIndex": 1, "pageRows": 1}
    )
    assert page["data"]["list"][0]["msgInstanceId"] == frame["data"]["msgInstanceId"]
    # reading on A updates the count B answers
    a.call("POST", f"{INBOX}/read-all", alice["authorization"], json={})
    eventually(lambda: _equal(b.unread(alice["authorization"]), 0))


def test_the_command_line_disables_the_plugin_in_every_process(servers):
    a, b, env = servers
    alice = a.login("alice")
    bob = b.login("bob")
    atrium = str(VENV / "atrium")
    run = {"env": env, "cwd": ROOT, "check": True, "capture_output": True, "timeout": 120}
    subprocess.run([atrium, "plugins", "disable", "message", "--tenant", "1001"], **run)
    try:
        for server in (a, b):

            def disabled(server: Server = server) -> None:
                env_ = server.call("POST", f"{INBOX}/unread-message-total", alice["authorization"], json={})
                assert env_["code"] == 460, env_
                manifest = server.call("GET", "/api/kernel/manifest", alice["authorization"])["data"]
                assert "message" not in {p["name"] for p in manifest["plugins"]}

            eventually(disabled)
        assert b.call("POST", f"{INBOX}/unread-message-total", bob["authorization"], json={})["code"] == 800
    finally:
        subprocess.run([atrium, "plugins", "enable", "message", "--tenant", "1001"], **run)
    for server in (a, b):

        def enabled(server: Server = server) -> None:
            env_ = server.call("POST", f"{INBOX}/unread-message-total", alice["authorization"], json={})
            assert env_["code"] == 800

        eventually(enabled)


def test_a_member_added_through_one_process_can_be_written_to_through_the_other(servers):
    """Each process keeps a tenant's members for the letters it sends; a membership added through the other
    process reaches that answer through the pub/sub, so the new member is no unknown recipient for long."""
    a, b, _env = servers
    admin_a, admin_b = a.login("admin"), b.login("admin")
    bob = b.login("bob")  # a member of Globex only
    acme = 1001

    def send_to_bob() -> dict[str, Any]:
        return a.call(
            "POST",
            "/api/message/admin/send",
            admin_a["authorization"],
            json={"toUsers": [bob["userId"]], "content": "<p>Welcome to Acme</p>"},
        )

    refused = send_to_bob()  # A now keeps Acme's members, without bob
    assert refused["code"] != 800 and str(bob["userId"]) in refused["msg"], refused
    membership = {"userId": bob["userId"], "tenantId": acme}
    added = b.call("POST", "/api/base/admin/users/memberships", admin_b["authorization"], json=membership)
    assert added["code"] == 800, added
    try:
        eventually(lambda: _equal(send_to_bob()["code"], 800))
    finally:
        b.call("POST", "/api/base/admin/users/memberships/remove", admin_b["authorization"], json=membership)
    eventually(lambda: _equal(send_to_bob()["code"] != 800, True))
