"""Start servers for benchmarks: the platform (demo data on a throw-away database) and a bare Starlette app,
each in its own uvicorn process with the same settings."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
BARE_APP = """
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

async def hello(request):
    if request.method == "POST":
        await request.json()
    return JSONResponse({"code": 800, "msg": "ok", "data": {"hello": "world"}})

app = Starlette(routes=[Route("/bare", hello, methods=["GET", "POST"])])
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(url: str, timeout: float = 90) -> None:
    """Until the server answers (generous: several processes starting on a busy two-core machine are slow)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError(f"server at {url} did not start")


@dataclass
class Server:
    url: str
    env: dict[str, str]
    process: subprocess.Popen[bytes]


def uvicorn_cmd(app: str, port: int, workers: int = 1) -> list[str]:
    return [
        sys.executable,
        "-m",
        "uvicorn",
        app,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--log-level",
        "warning",
        "--no-access-log",
    ]


@contextmanager
def platform_server(
    database_url: str = "", redis_url: str = "", extra_env: dict[str, str] | None = None, workers: int = 1
) -> Iterator[Server]:
    """The platform on a free port with demo data; ``workers`` server processes share the port."""
    var = Path(tempfile.mkdtemp(prefix="atrium-bench-"))
    env = {
        **os.environ,
        "ATRIUM_VAR_DIR": str(var),
        "ATRIUM_DEMO": "1",
        "ATRIUM_DATABASE_URL": database_url,
        "ATRIUM_REDIS_URL": redis_url,
        "ATRIUM_REDIS_PREFIX": f"atrium-bench-{secrets.token_hex(4)}:",
        "ATRIUM_SCHEDULER": "0",
        "ATRIUM_SECRET_KEY": secrets.token_hex(32),
        **(extra_env or {}),
    }
    subprocess.run(
        [sys.executable, "-m", "atrium.kernel.cli", "demo"],
        env=env,
        check=True,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    port = free_port()
    proc = subprocess.Popen(uvicorn_cmd("atrium.kernel.asgi:app", port, workers), env=env, cwd=ROOT)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/api/openapi.json")
        yield Server(f"http://127.0.0.1:{port}", env, proc)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(var, ignore_errors=True)


@contextmanager
def bare_server() -> Iterator[Server]:
    folder = Path(tempfile.mkdtemp(prefix="atrium-bare-"))
    (folder / "bare_app.py").write_text(BARE_APP)
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(folder)}
    proc = subprocess.Popen(uvicorn_cmd("bare_app:app", port), env=env, cwd=folder)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/bare")
        yield Server(f"http://127.0.0.1:{port}", env, proc)
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Load:
    rps: float
    p50_ms: float
    p99_ms: float


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def _ms(text: str) -> float:
    m = re.match(r"([\d.]+)(us|ms|s)", text)
    assert m, text
    return float(m.group(1)) * _UNITS[m.group(2)]


def latencies(out: str) -> tuple[float, float]:
    """p50 and p99 in ms from wrk's "Latency Distribution" block."""
    p50, p99 = (_ms(latency_percentile(out, p)) for p in ("50%", "99%"))
    return p50, p99


def latency_percentile(out: str, percent: str) -> str:
    """A value of wrk's "Latency Distribution" block. Only that block is read: the thread statistics above
    it end their "+/- Stdev" column in a percent too (e.g. "71.99%"), which a looser match mistook for p99."""
    block = out.split("Latency Distribution", 1)[1] if "Latency Distribution" in out else ""
    for line in block.splitlines()[1:]:
        parts = line.split()
        if len(parts) != 2 or not parts[0].endswith("%"):
            break
        if parts[0] == percent:
            return parts[1]
    raise ValueError(f"wrk printed no {percent} latency:\n{out}")


def wrk(
    url: str,
    headers: dict[str, str] | None = None,
    connections: int = 64,
    seconds: int = 10,
    threads: int = 1,
    json_body: str | None = None,
) -> Load:
    """Load a URL with wrk (Debian's package) and read requests per second and latency percentiles;
    with ``json_body``, every request is a POST of it."""
    if shutil.which("wrk") is None:
        raise SystemExit("the benchmarks need wrk: apt-get install -y wrk")
    cmd = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"]
    for k, v in (headers or {}).items():
        cmd += ["-H", f"{k}: {v}"]
    with tempfile.TemporaryDirectory(prefix="atrium-wrk-") as folder:
        if json_body is not None:
            script = Path(folder) / "post.lua"
            script.write_text(
                f'wrk.method = "POST"\nwrk.body = {json.dumps(json_body)}\n'
                'wrk.headers["Content-Type"] = "application/json"\n'
            )
            cmd += ["-s", str(script)]
        out = subprocess.run([*cmd, url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50, p99 = latencies(out)
    if "Non-2xx" in out or "Socket errors" in out:
        print(out)
    return Load(rps, p50, p99)
