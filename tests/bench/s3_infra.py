"""Object storage for the storage benchmarks: moto's S3 server in a process of its own on loopback (so its
work never shares this process's interpreter with the client being timed), and `atrium serve` nodes using
it. Every piece is a context manager that stops what it started."""

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
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import boto3
import httpx

from tests.bench.servers import ROOT, free_port

REGION = "us-east-1"
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "atrium-bench", "AWS_SECRET_ACCESS_KEY": "atrium-bench-secret"}
#: what boto3 reads from the environment: these credentials and nothing from the machine's AWS files
AWS_ENV = {
    **CREDENTIALS,
    "AWS_CONFIG_FILE": "/nonexistent/atrium-aws-config",
    "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/atrium-aws-credentials",
}
AWS_DROP = ("AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_DEFAULT_PROFILE")


def aws_environ() -> None:
    """This process's boto3 clients use the bench credentials."""
    os.environ.update(AWS_ENV)
    for name in AWS_DROP:
        os.environ.pop(name, None)


@dataclass
class S3:
    endpoint: str
    process: subprocess.Popen[bytes]
    client: Any

    def bucket(self) -> str:
        name = f"atrium-bench-{secrets.token_hex(6)}"
        self.client.create_bucket(Bucket=name)
        return name

    def url(self, bucket: str) -> str:
        return f"s3://{bucket}?endpoint={self.endpoint}&region={REGION}"

    def rss(self) -> int:
        import psutil

        return int(psutil.Process(self.process.pid).memory_info().rss)


@contextmanager
def moto_s3() -> Iterator[S3]:
    """moto's S3 server (`python -m moto.server`) on a free loopback port."""
    aws_environ()
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    endpoint = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(endpoint + "/moto-api/", timeout=1)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("moto's S3 server did not start") from None
                time.sleep(0.2)
        client = boto3.client("s3", endpoint_url=endpoint, region_name=REGION)
        yield S3(endpoint, proc, client)
    finally:
        stop(proc)


def stop(proc: subprocess.Popen[Any] | None, sig: int = signal.SIGTERM, wait: float = 60) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(sig)
    try:
        proc.wait(wait)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def node_env(
    var: Path, storage_url: str, database_url: str = "", redis_url: str = "", **extra: str
) -> dict[str, str]:
    env = {
        **os.environ,
        **AWS_ENV,
        "ATRIUM_VAR_DIR": str(var),
        "ATRIUM_DEMO": "1",
        "ATRIUM_DATABASE_URL": database_url,
        "ATRIUM_REDIS_URL": redis_url,
        "ATRIUM_REDIS_PREFIX": f"atrium-bench-{secrets.token_hex(4)}:",
        "ATRIUM_STORAGE_URL": storage_url,
        "ATRIUM_SCHEDULER": "0",
        "ATRIUM_SECRET_KEY": secrets.token_hex(32),
        "ATRIUM_LOG_JSON": "0",
        **extra,
    }
    for name in AWS_DROP:
        env.pop(name, None)
    return env


def load_demo(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "-m", "atrium.kernel.cli", "demo"],
        env=env,
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
        timeout=300,
    )


def start_node(env: dict[str, str], port: int, log: IO[bytes]) -> subprocess.Popen[bytes]:
    """`atrium serve` (one process: uvicorn runs in it) on a loopback port, once it answers /healthz."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "atrium.kernel.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 90
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"atrium serve on port {port} exited with {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            stop(proc, signal.SIGKILL)
            raise RuntimeError(f"atrium serve on port {port} did not start")
        time.sleep(0.2)


@contextmanager
def node_on_s3(storage_url: str) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    """One `atrium serve` node on SQLite with demo data and the given object storage: its address, its
    process, its var folder."""
    var = Path(tempfile.mkdtemp(prefix="atrium-bench-s3-"))
    try:
        env = node_env(var, storage_url)
        load_demo(env)
        port = free_port()
        with (var / "serve.log").open("wb") as log:
            proc = start_node(env, port, log)
            try:
                yield f"http://127.0.0.1:{port}", proc, var
            finally:
                stop(proc)
    finally:
        shutil.rmtree(var, ignore_errors=True)
