"""Two `atrium serve` nodes behind Debian's nginx, restarted one at a time under signed-in load.

The nodes share a PostgreSQL schema of their own (on ATRIUM_BENCH_PG, dropped at the end), Redis (a prefix
of their own on ATRIUM_BENCH_REDIS) and an S3 bucket on moto's server; an `atrium worker` runs beside them,
as deployed. nginx runs deploy/nginx.conf itself, only its ports and files changed (`local_edits`): on
127.0.0.1, both nodes in one upstream with keep-alive connections, and ``proxy_next_upstream error timeout
http_502``: a read that finds a node gone (the connection refused or closed before an answer) is passed to
the other node. A write (POST) is passed on only when it never reached the node (nginx does not resend a
request body a node may have acted on).

Load, a bounded loop through the proxy: three threads of signed-in reads (profile, menus, the files list),
one thread of small writes (a 256 KB upload: a database row and an object in the bucket), and, from a second
before each node is told to stop until it has exited, six more threads of such writes back to back,
so that some are in flight on it. Each node in turn
gets SIGTERM (uvicorn stops listening, finishes the requests it holds, then exits), is started again on its
port, and takes traffic again before the other one goes.

- Failed reads (anything but HTTP 200 with code 800) among the reads made: budget 0.
- Writes in flight (sent before the SIGTERM, answered after it) that finished: budget all, and each one's
  file downloads afterwards with its size.
- Read latency p50/p99 across the restarts beside the same reads before the first restart (no budget).

Run: .venv/bin/python -m tests.bench.bench_rolling_restart   (needs nginx: apt-get install -y nginx)
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
import psycopg

from atrium.sdk.testing import AtriumClient
from tests.bench.report import report
from tests.bench.s3_infra import load_demo, moto_s3, node_env, start_node, stop
from tests.bench.servers import ROOT, free_port

NGINX = "/usr/sbin/nginx"
PG_URL = os.environ.get("ATRIUM_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("ATRIUM_BENCH_REDIS", "redis://127.0.0.1:6379/0")
FILES = "/api/file/iot-base-attachment"
READS = [
    ("profile", "GET", "/api/base/base-user/get-login-user"),
    ("menus", "GET", "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho"),
    ("files", "GET", f"{FILES}/find-list?pageNum=1&pageSize=5"),
]
WRITE_BYTES = 256 * 1024
BURST = 6
BURST_WRITES = 40
READ_THREADS = 3
#: the loop's bounds: it stops when the restarts are done, at the latest after this many seconds or requests
MAX_SECONDS = 240
MAX_REQUESTS = 60_000
#: traffic before the first restart (the steady baseline) and after each node is back
SETTLE_SECONDS = 6.0

DEPLOY_NGINX = ROOT / "deploy" / "nginx.conf"
TEMP_PATHS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


def local_edits(tmp: Path, a: int, b: int, port: int, prefix: str = "") -> dict[str, str]:
    """What deploy/nginx.conf needs to run here: its files under `tmp`, the nodes' and its own loopback ports,
    no access log; and which node answered in a header (both when the first failed), for the accounting.
    With a `prefix` (``/atrium``), the platform is proxied under that path only, the prefix passed on."""
    files = [f"pid {tmp}/nginx.pid;", f"error_log {tmp}/error.log warn;", "daemon off;"]
    temp = [f"    {name}_temp_path {tmp}/{name};" for name in TEMP_PATHS]
    under = (
        {"location /ws {": f"location {prefix}/ws {{", "location / {": f"location {prefix}/ {{"}
        if prefix
        else {}
    )
    return {
        **under,
        "worker_processes auto;": "\n".join(["worker_processes 1;", *files]),
        "\nhttp {\n": "\nhttp {\n" + "\n".join(temp) + "\n\n",
        "access_log /var/log/nginx/access.log atrium;": "access_log off;",
        "server atrium-1:8000 ": f"server 127.0.0.1:{a} ",
        "server atrium-2:8000 ": f"server 127.0.0.1:{b} ",
        "listen 80;": "\n        ".join(
            [
                f"listen 127.0.0.1:{port};",
                "add_header X-Upstream $upstream_addr always;",
                "# the small writes' bodies stay in memory",
                "client_body_buffer_size 1m;",
            ]
        ),
    }


def nginx_conf(tmp: Path, a: int, b: int, port: int, prefix: str = "") -> str:
    """deploy/nginx.conf as it runs here: every directive of the proxy deployed (upstream, retries,
    timeouts, headers), only `local_edits` made."""
    text = DEPLOY_NGINX.read_text()
    for old, new in local_edits(tmp, a, b, port, prefix).items():
        if text.count(old) != 1:
            raise SystemExit(f"{DEPLOY_NGINX}: expected {old.strip()!r} once; update local_edits here")
        text = text.replace(old, new)
    return text


@dataclass
class Sample:
    kind: str
    start: float
    end: float
    status: int  # 0: no answer from nginx at all
    code: int | None
    upstream: str
    data: Any = None

    @property
    def ok(self) -> bool:
        return self.status == 200 and self.code == 800


def call(c: httpx.Client, kind: str, method: str, path: str, **kw: Any) -> Sample:
    start = time.monotonic()
    try:
        resp = c.request(method, path, **kw)
    except httpx.HTTPError:
        return Sample(kind, start, time.monotonic(), 0, None, "")
    end = time.monotonic()
    try:
        body = resp.json()
        code, data = body.get("code"), body.get("data")
    except ValueError:
        code, data = None, None
    return Sample(kind, start, end, resp.status_code, code, resp.headers.get("x-upstream", ""), data)


def write(c: httpx.Client, kind: str) -> Sample:
    payload = os.urandom(WRITE_BYTES)
    return call(
        c,
        kind,
        "POST",
        f"{FILES}/single/file-upload",
        files={"file": (f"note-{secrets.token_hex(4)}.bin", payload, "application/octet-stream")},
    )


@dataclass
class Traffic:
    """Signed-in reads and small writes through the proxy from a few threads until stopped, within bounds."""

    url: str
    headers: dict[str, str]
    samples: list[Sample] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=60, headers=self.headers)

    def _reads(self, offset: int, deadline: float) -> None:
        with self.client() as c:
            n = offset
            while (
                not self._stop.is_set() and time.monotonic() < deadline and len(self.samples) < MAX_REQUESTS
            ):
                kind, method, path = READS[n % len(READS)]
                n += 1
                sample = call(c, kind, method, path)
                self.samples.append(sample)
                if sample.status == 0:
                    time.sleep(0.05)

    def _writes(self, deadline: float) -> None:
        with self.client() as c:
            while (
                not self._stop.wait(0.2) and time.monotonic() < deadline and len(self.samples) < MAX_REQUESTS
            ):
                self.samples.append(write(c, "write"))

    def burst(self, until: threading.Event) -> list[threading.Thread]:
        """BURST threads of back-to-back writes, each on a connection of its own, until `until` is set (at
        most BURST_WRITES each). The clients are made first: under load, making one takes a good part of a
        second."""

        def loop(c: httpx.Client) -> None:
            with c:
                for _ in range(BURST_WRITES):
                    if until.is_set():
                        return
                    self.samples.append(write(c, "burst"))

        clients = [self.client() for _ in range(BURST)]
        threads = [threading.Thread(target=loop, args=(c,), daemon=True) for c in clients]
        for t in threads:
            t.start()
        return threads

    def __enter__(self) -> Traffic:
        deadline = time.monotonic() + MAX_SECONDS
        self._threads = [
            threading.Thread(target=self._reads, args=(i, deadline), daemon=True) for i in range(READ_THREADS)
        ]
        self._threads.append(threading.Thread(target=self._writes, args=(deadline,), daemon=True))
        for t in self._threads:
            t.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(90)


@contextmanager
def nginx(a: int, b: int, prefix: str = "") -> Iterator[str]:
    """deploy/nginx.conf in front of the nodes at ports `a` and `b` (see `nginx_conf`); yields its address."""
    if not Path(NGINX).exists():
        raise SystemExit("this benchmark needs nginx: apt-get install -y nginx (nox -s bench installs it)")
    tmp = Path(tempfile.mkdtemp(prefix="atrium-bench-nginx-"))
    tmp.chmod(0o755)
    for sub in TEMP_PATHS:
        (tmp / sub).mkdir()
        (tmp / sub).chmod(0o777)  # nginx's workers run as nobody when the master runs as root
    port = free_port()
    conf = tmp / "nginx.conf"
    conf.write_text(nginx_conf(tmp, a, b, port, prefix))
    proc = subprocess.Popen([NGINX, "-p", str(tmp), "-e", str(tmp / "error.log"), "-c", str(conf)])
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                httpx.get(f"{url}{prefix}/healthz", timeout=1)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError(
                        f"nginx did not start: {(tmp / 'error.log').read_text()[-2000:]}"
                    ) from None
                time.sleep(0.1)
        yield url
    finally:
        stop(proc, signal.SIGQUIT, wait=30)  # graceful: finish what it holds
        errors = (tmp / "error.log").read_text() if (tmp / "error.log").exists() else ""
        noted = [line for line in errors.splitlines() if "[error]" in line or "[warn]" in line]
        if noted:
            print(f"nginx logged {len(noted)} warnings or errors, the last ones:", flush=True)
            for line in noted[-6:]:
                print("  " + line[:300], flush=True)
        shutil.rmtree(tmp, ignore_errors=True)


@contextmanager
def schema() -> Iterator[str]:
    name = f"bench_roll_{secrets.token_hex(4)}"
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    try:
        yield f"{PG_URL}{'&' if '?' in PG_URL else '?'}options=-csearch_path%3D{name}"
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")


@dataclass
class Node:
    name: str
    port: int
    env: dict[str, str]
    log: IO[bytes]
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = start_node(self.env, self.port, self.log)


def stop_node(node: Node) -> None:
    stop(node.process)


@dataclass
class Restart:
    node: str
    port: int
    term: float
    exited: float
    ready: float


def restart(node: Node, traffic: Traffic) -> Restart:
    """Writes back to back, SIGTERM once they are under way, the wait for the exit, a start on its port."""
    assert node.process is not None
    stopped = threading.Event()
    burst = traffic.burst(stopped)
    time.sleep(1.0)  # writes under way on both nodes
    term = time.monotonic()
    node.process.send_signal(signal.SIGTERM)
    node.process.wait(120)
    exited = time.monotonic()
    stopped.set()
    node.start()
    ready = time.monotonic()
    for t in burst:
        t.join(60)
    return Restart(node.name, node.port, term, exited, ready)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="atrium-bench-roll-"))
    restarts: list[Restart] = []
    try:
        with ExitStack() as stack:
            s3 = stack.enter_context(moto_s3())
            db_url = stack.enter_context(schema())
            env = node_env(tmp / "setup", s3.url(s3.bucket()), db_url, REDIS_URL, ATRIUM_TASK_THREADS="0")
            load_demo(env)
            nodes = []
            for name in ("a", "b"):
                log = stack.enter_context((tmp / f"{name}.log").open("wb"))
                node = Node(name, free_port(), {**env, "ATRIUM_VAR_DIR": str(tmp / name)}, log)
                nodes.append(node)
                stack.callback(stop_node, node)
                node.start()
            worker_log = stack.enter_context((tmp / "worker.log").open("wb"))
            worker = subprocess.Popen(
                [sys.executable, "-m", "atrium.kernel.cli", "worker"],
                env={**env, "ATRIUM_VAR_DIR": str(tmp / "worker")},
                cwd=ROOT,
                stdout=worker_log,
                stderr=subprocess.STDOUT,
            )
            stack.callback(stop, worker)
            proxy = stack.enter_context(nginx(nodes[0].port, nodes[1].port))
            with httpx.Client(base_url=proxy, timeout=60) as c:
                headers = AtriumClient(c).signed_in("admin").headers
            began = time.monotonic()
            with Traffic(proxy, headers) as traffic:
                time.sleep(SETTLE_SECONDS)
                for node in nodes:
                    restarts.append(restart(node, traffic))
                    time.sleep(SETTLE_SECONDS)
            ended = time.monotonic()
            samples = list(traffic.samples)
            with httpx.Client(base_url=proxy, timeout=60, headers=headers) as c:
                checked = check_writes(c, samples, restarts)
        summarise(samples, restarts, checked, began, ended)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def in_flight(samples: list[Sample], restarts: list[Restart]) -> list[tuple[Sample, Restart]]:
    """Writes sent before a node's SIGTERM and answered after it (on either node)."""
    return [
        (s, r)
        for s in samples
        if s.kind in ("write", "burst")
        for r in restarts
        if s.start <= r.term <= s.end
    ]


def check_writes(c: httpx.Client, samples: list[Sample], restarts: list[Restart]) -> dict[int, bool]:
    """For each finished write in flight at a restart: its file downloads with its size."""
    found: dict[int, bool] = {}
    for s, _r in in_flight(samples, restarts):
        if s.ok:
            got = c.get(s.data["filePath"])
            found[id(s)] = got.status_code == 200 and len(got.content) == WRITE_BYTES
    return found


def summarise(
    samples: list[Sample], restarts: list[Restart], checked: dict[int, bool], began: float, ended: float
) -> None:
    for r in restarts:
        near = [s for s in samples if s.kind in ("write", "burst") and r.term - 1.5 <= s.start <= r.exited]
        held = [s for s in near if s.start <= r.term <= s.end and f":{r.port}" in s.upstream.split(",")[0]]
        print(
            f"node {r.node}: exited {r.exited - r.term:.2f} s after SIGTERM, answering again "
            f"{r.ready - r.exited:.2f} s after its start; {len(near)} writes sent from 1.5 s before the "
            f"SIGTERM to the exit, {len(held)} of them held by this node at the SIGTERM",
            flush=True,
        )
    reads = [s for s in samples if s.kind in {k for k, _, _ in READS}]
    failed = [s for s in reads if not s.ok]
    first = restarts[0].term
    steady = [s.end - s.start for s in reads if s.end < first]
    during = [s.end - s.start for s in reads if s.start >= first]
    print(
        f"{len(reads):,} signed-in reads and {sum(s.kind == 'write' for s in samples)} "
        f"writes plus {sum(s.kind == 'burst' for s in samples)} in bursts over {ended - began:.0f} s through "
        f"nginx; retried on the other node: {sum(',' in s.upstream for s in samples)}",
        flush=True,
    )
    for s in failed[:10]:
        print(f"  failed read {s.kind}: HTTP {s.status} code {s.code} via {s.upstream or '-'}", flush=True)
    report(
        "failed signed-in reads through nginx, each node restarted in turn (SIGTERM, start)",
        len(failed),
        len(reads),
        "reads",
        "0",
        baseline_name="reads made",
    )
    print(f"  {'within budget' if not failed else 'OVER BUDGET'}", flush=True)
    flight = in_flight(samples, restarts)
    on_node = [(s, r) for s, r in flight if f":{r.port}" in s.upstream.split(",")[0]]
    finished = [s for s, _ in flight if s.ok and checked.get(id(s))]
    report(
        "writes in flight at a node's SIGTERM that finished (answered 800, file downloadable)",
        len(finished),
        len(flight),
        "writes",
        "all",
        baseline_name="writes in flight",
        higher_is_better=True,
    )
    on_node_done = sum(1 for s, _ in on_node if s.ok and checked.get(id(s)))
    verdict = (
        "not settled (no write was in flight)"
        if not flight
        else ("within budget" if len(finished) == len(flight) else "OVER BUDGET")
    )
    print(
        f"  of them on the node being stopped: {on_node_done} of {len(on_node)} finished; {verdict}",
        flush=True,
    )
    for s, _ in flight:
        if not (s.ok and checked.get(id(s))):
            print(f"  unfinished write: HTTP {s.status} code {s.code} via {s.upstream or '-'}", flush=True)
    writes = [s for s in samples if s.kind in ("write", "burst")]
    lost = [s for s in writes if not s.ok]
    print(f"  all writes: {len(writes) - len(lost)} of {len(writes)} answered 800", flush=True)
    for s in lost[:10]:
        print(f"  failed write ({s.kind}): HTTP {s.status} code {s.code} via {s.upstream or '-'}", flush=True)
    if steady and during:
        for label, p in (("p50", 0.5), ("p99", 0.99)):
            report(
                f"read latency {label} across the restarts",
                percentile(during, p) * 1000,
                percentile(steady, p) * 1000,
                "ms",
                baseline_name="same reads before the first restart",
            )
        print(f"  (median read {statistics.median(during) * 1000:.1f} ms across the restarts)", flush=True)


if __name__ == "__main__":
    main()
