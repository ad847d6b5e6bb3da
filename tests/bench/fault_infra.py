"""Private services for the fault benchmarks: a PostgreSQL cluster and a Redis server of their own (never the
shared ones others test against), and the platform on them as `atrium serve --workers 2` plus `atrium worker`
processes. Every piece is a context manager that stops what it started, even when the benchmark fails."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

from atrium.sdk.testing import encrypt_password
from tests.bench.servers import ROOT, free_port

PG_BIN = Path(os.environ.get("ATRIUM_BENCH_PG_BIN", "/usr/lib/postgresql/15/bin"))


def _as_postgres(cmd: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as root, run its tools as the `postgres` user."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def _stop(proc: subprocess.Popen[Any] | None, sig: int = signal.SIGTERM, wait: float = 20) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(sig)
    try:
        proc.wait(wait)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


@dataclass
class Postgres:
    folder: Path
    port: int

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/atrium"

    def _ctl(self, *args: str, check: bool = True) -> None:
        subprocess.run(
            _as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.folder / "data"), *args]),
            check=check,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=120,
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
        self._ctl("-o", options, "-l", str(self.folder / "log"), "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._ctl("-m", mode, "-w", "stop", check=False)

    def ready(self) -> bool:
        done = subprocess.run(
            [str(PG_BIN / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return done.returncode == 0


@contextmanager
def private_postgres() -> Iterator[Postgres]:
    """A throw-away cluster on a free port, trust authentication on loopback, database `atrium`."""
    folder = Path(tempfile.mkdtemp(prefix="atrium-fault-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    pg = Postgres(folder, free_port())
    try:
        subprocess.run(
            _as_postgres(
                [
                    str(PG_BIN / "initdb"),
                    "-D",
                    str(folder / "data"),
                    "-A",
                    "trust",
                    "-U",
                    "postgres",
                    "-E",
                    "UTF8",
                ]
            ),
            check=True,
            stdout=subprocess.DEVNULL,
        )
        pg.start()
        subprocess.run(
            [str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(pg.port), "-U", "postgres", "atrium"],
            check=True,
        )
        yield pg
    finally:
        pg.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Redis:
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                import redis

                redis.Redis(port=self.port).ping()
                return
            except Exception:
                time.sleep(0.1)
        raise RuntimeError("the private Redis did not start")

    def stop(self) -> None:
        _stop(self.process)
        self.process = None


@contextmanager
def private_redis() -> Iterator[Redis]:
    """A Redis of its own on a free port, without persistence."""
    if shutil.which("redis-server") is None:
        raise SystemExit("the fault benchmarks need redis-server: apt-get install -y redis-server")
    r = Redis(free_port())
    try:
        r.start()
        yield r
    finally:
        r.stop()


@dataclass
class Platform:
    url: str
    env: dict[str, str]
    var: Path
    port: int
    server: subprocess.Popen[bytes] | None = None
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def cli(self, *args: str) -> subprocess.Popen[bytes]:
        log = open(self.var / "processes.log", "ab")  # noqa: SIM115 - the child keeps it
        return subprocess.Popen(
            [sys.executable, "-m", "atrium.kernel.cli", *args], env=self.env, cwd=ROOT, stdout=log, stderr=log
        )

    def start_server(self) -> None:
        self.server = self.cli("serve", "--port", str(self.port), "--workers", "2")
        self.wait_up()

    def wait_up(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/api/openapi.json", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the platform at {self.url} did not start; see {self.var / 'processes.log'}")

    def stop_server(self, sig: int = signal.SIGTERM) -> None:
        _stop(self.server, sig, wait=60)
        self.server = None

    def start_worker(self) -> subprocess.Popen[bytes]:
        proc = self.cli("worker")
        self.workers.append(proc)
        return proc

    def stop_workers(self, sig: int = signal.SIGTERM) -> None:
        for proc in self.workers:
            _stop(proc, sig, wait=60)
        self.workers = [p for p in self.workers if p.poll() is None]

    def server_processes(self) -> list[psutil.Process]:
        """The uvicorn workers that answer requests (children of the `serve` process)."""
        if self.server is None:
            return []
        parent = psutil.Process(self.server.pid)
        return [p for p in parent.children() if "resource_tracker" not in " ".join(p.cmdline())]

    def sign_in(self, account: str, password: str) -> dict[str, str]:
        with httpx.Client(base_url=self.url, timeout=30) as c:
            enc = c.post("/api/base/base-user/get-enryption").json()["data"]
            body = c.post(
                "/api/base/base-user/login",
                json={
                    "account": account,
                    "password": encrypt_password(enc["publicKey"], enc["nonce"], password),
                },
            ).json()
        assert body["code"] == 800, body
        return {"authorization": body["data"]["authorization"], "language": "en#us"}


@contextmanager
def platform(pg: Postgres, redis_url: str, **extra_env: str) -> Iterator[Platform]:
    """Demo data loaded into the private database; the server and worker are started by the caller."""
    var = Path(tempfile.mkdtemp(prefix="atrium-fault-"))
    port = free_port()
    env = {
        **os.environ,
        "ATRIUM_VAR_DIR": str(var),
        "ATRIUM_DEMO": "1",
        "ATRIUM_DATABASE_URL": pg.url,
        "ATRIUM_REDIS_URL": redis_url,
        "ATRIUM_REDIS_PREFIX": f"atrium-fault-{secrets.token_hex(4)}:",
        "ATRIUM_SECRET_KEY": secrets.token_hex(32),
        "ATRIUM_TASK_THREADS": "0",
        "ATRIUM_LOG_JSON": "0",
        **extra_env,
    }
    plat = Platform(f"http://127.0.0.1:{port}", env, var, port)
    try:
        subprocess.run(
            [sys.executable, "-m", "atrium.kernel.cli", "demo"],
            env=env,
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        yield plat
    finally:
        for proc in plat.workers:
            _stop(proc, signal.SIGKILL)
        plat.stop_server(signal.SIGTERM)
        shutil.rmtree(var, ignore_errors=True)
