"""Two real server nodes and a worker, sharing PostgreSQL, Redis and an S3 bucket, each with its own var dir.

Sign in on one node and use the token on the other; an upload, an export, an extract sync, a letter and a
menu rename made through node A are seen through node B; with the bucket away an upload answers the clear
storage error while a chart over a cached extract still answers, and once it is back no half-written object
shows; every scheduled job ran once per slot across both nodes. Last, a node is killed (SIGKILL) while it
holds a period of the extract check: its claim stays, never run again, and the other node runs the next
periods.

Runs when ATRIUM_TEST_DATABASE_URL and ATRIUM_TEST_REDIS_URL are set (the PostgreSQL + Redis pass).
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import IO, Any

import boto3
import httpx
import pytest
import sqlalchemy as sa
import websockets
from moto.server import ThreadedMotoServer

from atrium.sdk.testing import DEMO_PASSWORDS, encrypt_password
from tests.kernel.s3_server import CREDENTIALS, REGION

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".venv" / "bin"
PG = os.environ.get("ATRIUM_TEST_DATABASE_URL", "")
REDIS = os.environ.get("ATRIUM_TEST_REDIS_URL", "")
SYNC_CHECK_SECONDS = 2
SYNC_JOB = "reports:extract-sync"
#: longer than any run of the extract check takes unhindered: a run not ended after it is held up
HELD_AFTER_SECONDS = 1.0
EXTRACT_VIEW = ("表格与文本", "抽取模式：大区销售额")
UPLOAD = "/api/file/iot-base-attachment/single/file-upload"
EXPORT = "/api/dataexport/data-export/v2"
MENUS = "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho"
STORAGE_DOWN = "File storage is unavailable at the moment"

pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(
        not (PG and REDIS),
        reason="two nodes share PostgreSQL and Redis: set ATRIUM_TEST_DATABASE_URL and ATRIUM_TEST_REDIS_URL",
    ),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def within(seconds: float, check: Callable[[], Any], what: str) -> Any:
    """`check()`'s first true answer (an AssertionError counts as not yet), or a failure after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            found = check()
            if found:
                return found
        except AssertionError:
            if time.monotonic() > deadline:
                raise
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.1)


class Bucket:
    """moto's S3 server on a fixed loopback port, so it can be stopped and brought back (its objects are
    kept in this process meanwhile)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.name = f"atrium-{secrets.token_hex(6)}"
        self.server: ThreadedMotoServer | None = None
        self.start()
        self.client: Any = boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name=REGION,
            aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
        )
        self.client.create_bucket(Bucket=self.name)

    @property
    def url(self) -> str:
        return f"s3://{self.name}?endpoint={self.endpoint}&region={REGION}"

    def start(self) -> None:
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=self.port, verbose=False)
        server.start()
        self.server = server

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None

    def objects(self) -> dict[str, int]:
        answer = self.client.list_objects_v2(Bucket=self.name)
        return {item["Key"]: int(item["Size"]) for item in answer.get("Contents", [])}

    def open_uploads(self) -> list[Any]:
        return list(self.client.list_multipart_uploads(Bucket=self.name).get("Uploads", []))


class Node:
    def __init__(self, name: str, url: str, var_dir: Path, proc: subprocess.Popen[bytes]) -> None:
        self.name, self.url, self.var_dir, self.proc = name, url, var_dir, proc
        self.http = httpx.Client(base_url=url, timeout=30, headers={"language": "en#us"})

    @property
    def claims_as(self) -> str:
        """The node column of the scheduled job runs this process claims (`jobruns.node_name`)."""
        return f"{socket.gethostname()}:{self.proc.pid}"

    def call(self, method: str, path: str, token: str = "", **kw: Any) -> dict[str, Any]:
        headers = {"authorization": token} if token else {}
        resp = self.http.request(method, path, headers=headers, **kw)
        assert resp.status_code == 200, (
            f"{self.name} {method} {path}: HTTP {resp.status_code} {resp.text[:300]}"
        )
        body: dict[str, Any] = resp.json()
        return body

    def ok(self, method: str, path: str, token: str = "", **kw: Any) -> Any:
        body = self.call(method, path, token, **kw)
        assert body["code"] == 800, f"{self.name} {method} {path}: {body}"
        return body["data"]

    def extracts(self) -> list[Path]:
        return sorted((self.var_dir / "reports" / "extracts").rglob("*.parquet"))


def sign_in(key_from: Node, on: Node, account: str) -> dict[str, Any]:
    """The sign-in page's key and nonce from one node, the encrypted password sent to another."""
    enc = key_from.ok("POST", "/api/base/base-user/get-enryption")
    password = encrypt_password(enc["publicKey"], enc["nonce"], DEMO_PASSWORDS[account])
    data: dict[str, Any] = on.ok(
        "POST", "/api/base/base-user/login", json={"account": account, "password": password}
    )
    return data


@dataclass
class Platform:
    a: Node
    b: Node
    bucket: Bucket
    db_url: str
    logs: Path


def _start(argv: list[str], env: dict[str, str], log: IO[bytes]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(argv, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)


def _ready(node: Node, proc: subprocess.Popen[bytes], deadline: float) -> None:
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"node {node.name} exited with {proc.returncode}")
        try:
            if httpx.get(f"{node.url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise TimeoutError(f"node {node.name} did not start")


@pytest.fixture(scope="module")
def platform(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    tmp = tmp_path_factory.mktemp("two-nodes")
    schema = f"tn_{secrets.token_hex(5)}"
    base = PG.replace("postgresql://", "postgresql+psycopg://", 1)
    eng = sa.create_engine(base)
    with eng.begin() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    eng.dispose()
    db_url = f"{PG}{'&' if '?' in PG else '?'}options=-csearch_path%3D{schema}"
    bucket = Bucket()
    env = {
        **os.environ,
        **CREDENTIALS,
        "AWS_CONFIG_FILE": "/nonexistent/atrium-aws-config",
        "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/atrium-aws-credentials",
        "ATRIUM_DATABASE_URL": db_url,
        "ATRIUM_REDIS_URL": REDIS,
        "ATRIUM_REDIS_PREFIX": f"atrium-{schema}:",
        "ATRIUM_STORAGE_URL": bucket.url,
        "ATRIUM_TASK_THREADS": "0",
        "ATRIUM_SECRET_KEY": secrets.token_hex(32),
        "ATRIUM_DEMO": "1",
        "ATRIUM_REPORTS_SYNC_CHECK_SECONDS": str(SYNC_CHECK_SECONDS),
    }
    for name in ("AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_DEFAULT_PROFILE"):
        env.pop(name, None)
    procs: list[subprocess.Popen[bytes]] = []
    logs: list[IO[bytes]] = []

    def log(name: str) -> IO[bytes]:
        f = (tmp / f"{name}.log").open("wb")
        logs.append(f)
        return f

    try:
        loaded = subprocess.run(
            [str(VENV / "atrium"), "demo"],
            env={**env, "ATRIUM_VAR_DIR": str(tmp / "setup")},
            cwd=ROOT,
            capture_output=True,
            timeout=120,
        )
        assert loaded.returncode == 0, loaded.stderr.decode()[-2000:]
        nodes = []
        for name in ("a", "b"):
            port = free_port()
            var_dir = tmp / name
            node_env = {**env, "ATRIUM_VAR_DIR": str(var_dir)}
            argv = [str(VENV / "atrium"), "serve", "--host", "127.0.0.1", "--port", str(port)]
            procs.append(_start(argv, node_env, log(name)))
            nodes.append(Node(name, f"http://127.0.0.1:{port}", var_dir, procs[-1]))
        worker_env = {**env, "ATRIUM_VAR_DIR": str(tmp / "worker")}
        procs.append(_start([str(VENV / "atrium"), "worker"], worker_env, log("worker")))
        deadline = time.monotonic() + 60
        for node in nodes:
            _ready(node, node.proc, deadline)
        yield Platform(nodes[0], nodes[1], bucket, db_url, tmp)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        for f in logs:
            f.close()
        bucket.stop()
        eng = sa.create_engine(base)
        with eng.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        eng.dispose()


def _extract_view(node: Node, token: str) -> tuple[str, dict[str, Any]]:
    """The demo's extract dataset id and its view on the extract."""
    datasets = {d["name"]: d for d in node.ok("GET", "/api/dyreport/dataset/list", token)}
    panels = {p["name"]: p["id"] for p in node.ok("GET", "/api/dyreport/panel/list", token)}
    views = node.ok("GET", f"/api/dyreport/chart/view/listByPanel/{panels[EXTRACT_VIEW[0]]}", token)
    view = next(v for v in views if v["name"] == EXTRACT_VIEW[1])
    return datasets["销售明细（抽取）"]["id"], view


def _chart(node: Node, token: str, view: dict[str, Any]) -> dict[str, Any]:
    url = f"/api/dyreport/chart/view/getData/{view['id']}/{view['panelId']}"
    return node.call("POST", url, token, json={"cache": False})


def test_two_nodes_are_one_platform(platform: Platform) -> None:
    a, b, bucket = platform.a, platform.b, platform.bucket
    started = time.monotonic()

    # sign in on A (the key and nonce from B), use the token on B
    admin = sign_in(b, a, "admin")
    token = admin["authorization"]
    assert b.ok("GET", MENUS, token)["menus"]
    alice = sign_in(a, b, "alice")

    # an upload on A downloads from B
    data = os.urandom(300_000)
    up = a.ok("POST", UPLOAD, token, files={"file": ("survey.bin", data, "application/octet-stream")})
    got = b.http.get(up["filePath"], headers={"authorization": token})
    assert got.status_code == 200 and got.content == data

    # an export started on A runs on the worker and downloads through B
    dataset_id, view = _extract_view(a, token)
    task = a.ok(
        "POST",
        f"{EXPORT}/export/",
        token,
        json={
            "url": "api/dyreport/chart/view/exportData",
            "fileName": "regions",
            "excelType": "xlsx",
            "method": "POST",
            "singleSheetMaxRows": 100000,
            "pageIndex": 1,
            "pageRows": 1000,
            "columnList": [],
            "params": {"view": {"id": view["id"], "panelId": view["panelId"]}, "requestList": {"filter": []}},
        },
    )

    def exported() -> dict[str, Any] | None:
        res: dict[str, Any] = b.ok("POST", f"{EXPORT}/get-export-result?exportId={task['exportId']}", token)
        return res if res["status"] in (2, 3, 4) else None

    done = within(30, exported, "the export")
    assert done["status"] == 2, done
    sheet = b.http.get(done["downloadUrl"], headers={"authorization": token})
    assert sheet.status_code == 200 and sheet.content[:2] == b"PK"

    # an extract synced through A is charted by B from an empty cache
    def synced() -> dict[str, Any] | None:
        body = a.call("POST", f"/api/dyreport/dataset/sync/{dataset_id}", token)
        if body["code"] == 409:  # the scheduled sync (on the worker) is running it: try again
            return None
        assert body["code"] == 800, body
        result: dict[str, Any] = body["data"]
        return result

    status = within(30, synced, "the extract sync")
    assert status["status"] == "ok" and status["ready"] is True
    assert b.extracts() == []
    chart = _chart(b, token, view)
    assert chart["code"] == 800 and chart["data"]["data"]["x"], chart
    assert len(b.extracts()) == 1
    assert _chart(a, token, view)["data"]["data"] == chart["data"]["data"]

    # a letter sent on A reaches alice's socket held on B
    async def letter() -> dict[str, Any]:
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
            assert ack["type"] == "subscribed", ack
            await asyncio.to_thread(
                a.ok,
                "POST",
                "/api/message/admin/send",
                token,
                json={"toUsers": [alice["userId"]], "content": "<p>From node A</p>"},
            )
            frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
            return frame

    frame = asyncio.run(letter())
    assert frame["subKey"] == "systemNotify" and frame["data"]["preview"] == "From node A"

    # a menu renamed on A is in B's menu tree at once
    def find(menus: list[dict[str, Any]], code: str) -> dict[str, Any] | None:
        for m in menus:
            if m["menuCode"] == code:
                return m
            found = find(m.get("children") or [], code)
            if found:
                return found
        return None

    menu = find(b.ok("GET", MENUS, token)["menus"], "leave-request")
    assert menu is not None
    renamed = f"Leave {secrets.token_hex(3)}"
    a.ok(
        "POST",
        "/api/base/admin/menus",
        token,
        json={
            "menuId": int(menu["menuId"]),
            "menuCode": menu["menuCode"],
            "menuName": renamed,
            "menuUrl": menu["menuUrl"],
            "parentId": int(menu["parentId"]) if menu.get("parentId") else None,
            "parameter": menu.get("parameter") or "",
        },
    )
    within(
        2,
        lambda: find(b.ok("GET", MENUS, token)["menus"], "leave-request")["menuName"] == renamed,
        "the rename",
    )

    # the bucket away: an upload answers the storage error, a chart over the cached extract still answers
    before = bucket.objects()
    bucket.stop()
    try:
        refused = a.call(
            "POST", UPLOAD, token, files={"file": ("late.bin", os.urandom(200_000), "text/plain")}
        )
        assert refused["code"] == 503 and STORAGE_DOWN in refused["msg"], refused
        assert _chart(b, token, view)["data"]["data"] == chart["data"]["data"]
    finally:
        bucket.start()
    assert bucket.objects() == before and bucket.open_uploads() == []
    assert up["filePath"].rsplit("/", 1)[-1] in {k.rsplit("/", 1)[-1] for k in before}

    # every scheduled job ran once per slot across the nodes; the shortened one in every slot since it began
    eng = _engine(platform)

    def runs() -> list[Any]:
        with eng.connect() as conn:
            return list(
                conn.execute(sa.text("SELECT job_id, slot, node, outcome FROM scheduled_job_run")).all()
            )

    def grid() -> list[Any]:
        # each node's first check runs at its start, off the grid; from then on, one run per 2 s slot
        syncs = sorted(r.slot for r in runs() if r.job_id.endswith("extract-sync"))
        return [s for s in syncs if s.timestamp() % SYNC_CHECK_SECONDS == 0]

    try:
        slots = within(15, lambda: grid() if len(grid()) >= 4 else None, "four slots of the extract check")
        every = runs()
    finally:
        eng.dispose()
    keys = [(r.job_id, r.slot) for r in every]
    assert len(keys) == len(set(keys))
    steps = {y - x for x, y in zip(slots, slots[1:], strict=False)}
    assert steps == {timedelta(seconds=SYNC_CHECK_SECONDS)}, slots
    assert {r.outcome for r in every} <= {"ok", "running"}, every
    assert time.monotonic() - started < 90

    _a_node_killed_holding_a_period(platform)


def _engine(platform: Platform) -> sa.Engine:
    return sa.create_engine(platform.db_url.replace("postgresql://", "postgresql+psycopg://", 1))


def _held_run(eng: sa.Engine) -> Any:
    """The extract check's earliest run not ended, if any."""
    with eng.connect() as conn:
        return conn.execute(
            sa.text(
                "SELECT slot, node FROM scheduled_job_run WHERE job_id = :job AND ended_at IS NULL"
                " ORDER BY slot LIMIT 1"
            ),
            {"job": SYNC_JOB},
        ).first()


def _sync_runs(eng: sa.Engine, since: datetime) -> dict[datetime, Any]:
    """The extract check's runs from the slot `since` on, by slot."""
    with eng.connect() as conn:
        rows = conn.execute(
            sa.text(
                "SELECT slot, node, outcome, ended_at FROM scheduled_job_run"
                " WHERE job_id = :job AND slot >= :since"
            ),
            {"job": SYNC_JOB, "since": since},
        ).all()
    return {r.slot: r for r in rows}


def _a_node_killed_holding_a_period(platform: Platform) -> None:
    """The extract check's table is locked, so the first node to claim a period of the check hangs in it
    holding the claim (a run takes milliseconds otherwise); that node is killed with SIGKILL and the lock let
    go. The other node never waited on the lock before, so it claims the next period, whether before the
    lock is let go (then it waits, and ends) or after. The dead node's period stays claimed and is not run
    again (it reads as lost once an hour has passed)."""
    period = timedelta(seconds=SYNC_CHECK_SECONDS)
    began = time.monotonic()
    eng = _engine(platform)
    try:
        with eng.connect() as lock:
            lock.execute(sa.text("SET LOCAL lock_timeout = '10s'"))
            lock.execute(sa.text("LOCK TABLE rpt_dataset IN ACCESS EXCLUSIVE MODE"))
            time.sleep(HELD_AFTER_SECONDS)  # runs claimed before the lock have ended by now
            held = within(3 * SYNC_CHECK_SECONDS, lambda: _held_run(eng), "a node holding a period")
            victim, survivor = (
                (platform.a, platform.b) if held.node == platform.a.claims_as else (platform.b, platform.a)
            )
            assert held.node == victim.claims_as, (held, platform.a.claims_as, platform.b.claims_as)
            victim.proc.send_signal(signal.SIGKILL)
            assert victim.proc.wait(10) == -signal.SIGKILL
            lock.rollback()

        def next_two() -> dict[datetime, Any] | None:
            runs = _sync_runs(eng, held.slot)
            done = [runs.get(held.slot + n * period) for n in (1, 2)]
            return runs if all(r is not None and r.ended_at is not None for r in done) else None

        runs = within(5 * SYNC_CHECK_SECONDS, next_two, "the next two periods on the other node")
    finally:
        eng.dispose()
    dead = runs[held.slot]
    assert dead.node == victim.claims_as and dead.ended_at is None and dead.outcome == "running", dead
    for n in (1, 2):
        after = runs[held.slot + n * period]
        assert after.node == survivor.claims_as and after.outcome == "ok", after
    assert survivor.http.get("/healthz").status_code == 200
    assert time.monotonic() - began < 20
