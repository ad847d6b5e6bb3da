"""Upload and download of a 100 MB file through the platform on an S3 bucket, beside the S3 client alone.

The platform is `atrium serve` (SQLite, demo data) with ``ATRIUM_STORAGE_URL`` on moto's S3 server, which
runs in a process of its own on loopback. The platform's upload is the files plugin's multipart
``POST /api/file/iot-base-attachment/single/file-upload`` (the file part streams into the bucket while the
body arrives, in 8 MiB parts, four in flight) and its download the attachment's address (streamed from the
bucket); the baseline is boto3's ``upload_fileobj`` / ``download_fileobj`` of the same file to the same
server. Both read the file from and write it to the same disk.

- Throughput (MB/s) of each direction beside the S3 client's: median of seven alternating rounds,
  budget at least 0.8x.
- The server process's resident set size (psutil) before each transfer, sampled every 10 ms during it and
  after it: the growth, budget at most 64 MB.

Run: .venv/bin/python -m tests.bench.bench_s3_files   (ATRIUM_BENCH_S3_MB=20 for a quick look)
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import psutil

from atrium.sdk.testing import AtriumClient
from tests.bench.rounds import ROUNDS, Rounds, report_limit, report_rounds
from tests.bench.s3_infra import moto_s3, node_on_s3

MB = 1024 * 1024
SIZE = int(os.environ.get("ATRIUM_BENCH_S3_MB", "100")) * MB
BASE = "/api/file/iot-base-attachment"
UPLOAD = f"{BASE}/single/file-upload"
CHUNK = 1 << 20
BUDGET_RATIO = 0.8
BUDGET_MB = 64.0
#: a 100 MB transfer on a shared two-core machine varies by half from one run to the next: seven rounds
RUNS = max(ROUNDS, int(os.environ.get("ATRIUM_BENCH_ROUNDS", "7")))


class Rss:
    """The server's resident set size before a block, its peak during it (sampled every 10 ms), after it."""

    def __init__(self, pid: int) -> None:
        self.proc = psutil.Process(pid)

    def _rss(self) -> int:
        return int(self.proc.memory_info().rss)

    def __enter__(self) -> Rss:
        self.before = self.peak = self._rss()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(0.01):
            self.peak = max(self.peak, self._rss())

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()
        self.after = self._rss()
        self.peak = max(self.peak, self.after)

    @property
    def peak_growth_mb(self) -> float:
        return (self.peak - self.before) / MB

    @property
    def growth_mb(self) -> float:
        return (self.after - self.before) / MB


def make_file(folder: Path, size: int) -> Path:
    path = folder / f"payload-{size // MB}mb.bin"
    with path.open("wb") as f:
        left = size
        while left:
            n = min(left, 8 * MB)
            f.write(os.urandom(n))
            left -= n
    return path


class Transfers:
    """The four transfers of a round, each answering its throughput in MB/s."""

    def __init__(self, url: str, admin: AtriumClient, s3: Any, bucket: str, pid: int, folder: Path) -> None:
        self.http = httpx.Client(base_url=url, timeout=600, headers=admin.headers)
        self.s3, self.bucket, self.pid, self.folder = s3, bucket, pid, folder
        self.uploaded: dict[str, Any] = {}
        self.upload_memory: list[Rss] = []
        self.download_memory: list[Rss] = []

    def platform_upload(self, path: Path) -> float:
        with path.open("rb") as f, Rss(self.pid) as mem:
            t0 = time.perf_counter()
            resp = self.http.post(UPLOAD, files={"file": (path.name, f, "application/octet-stream")})
            elapsed = time.perf_counter() - t0
        body = resp.json()
        assert resp.status_code == 200 and body["code"] == 800, body
        assert body["data"]["size"] == path.stat().st_size, body
        self.uploaded = body["data"]
        self.upload_memory.append(mem)
        return path.stat().st_size / MB / elapsed

    def platform_download(self, size: int) -> float:
        out = self.folder / "platform-download.bin"
        with out.open("wb") as f, Rss(self.pid) as mem:
            t0 = time.perf_counter()
            with self.http.stream("GET", self.uploaded["filePath"]) as resp:
                assert resp.status_code == 200, resp.status_code
                for chunk in resp.iter_raw(CHUNK):
                    f.write(chunk)
            elapsed = time.perf_counter() - t0
        assert out.stat().st_size == size
        out.unlink()
        self.download_memory.append(mem)
        resp2 = self.http.get(f"{BASE}/delete-id", params={"id": self.uploaded["fileId"]})
        assert resp2.json()["code"] == 800, resp2.text[:300]
        return size / MB / elapsed

    def s3_upload(self, path: Path) -> float:
        with path.open("rb") as f:
            t0 = time.perf_counter()
            self.s3.upload_fileobj(f, self.bucket, "baseline.bin")
            elapsed = time.perf_counter() - t0
        return path.stat().st_size / MB / elapsed

    def s3_download(self, size: int) -> float:
        out = self.folder / "s3-download.bin"
        with out.open("wb") as f:
            t0 = time.perf_counter()
            self.s3.download_fileobj(self.bucket, "baseline.bin", f)
            elapsed = time.perf_counter() - t0
        assert out.stat().st_size == size
        out.unlink()
        self.s3.delete_object(Bucket=self.bucket, Key="baseline.bin")
        return size / MB / elapsed


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="atrium-bench-s3files-"))
    try:
        with moto_s3() as s3:
            bucket = s3.bucket()
            with node_on_s3(s3.url(bucket)) as (url, proc, _var), httpx.Client(base_url=url, timeout=60) as c:
                admin = AtriumClient(c).signed_in("admin")
                payload = make_file(folder, SIZE)
                warm = make_file(folder, 16 * MB)
                t = Transfers(url, admin, s3.client, bucket, proc.pid, folder)
                # warm-up: both clients connected, the server's upload and download paths loaded
                t.platform_upload(warm), t.platform_download(warm.stat().st_size)
                t.s3_upload(warm), t.s3_download(warm.stat().st_size)
                first_up, first_down = t.upload_memory.pop(), t.download_memory.pop()
                print(
                    "first transfers on the fresh server (16 MB, warm-up): RSS "
                    f"+{first_up.peak_growth_mb:.1f} MB at the upload's peak, "
                    f"+{first_down.peak_growth_mb:.1f} MB at the download's",
                    flush=True,
                )
                up, down = Rounds(), Rounds()
                for n in range(RUNS):
                    if n % 2 == 0:
                        up.values.append(t.platform_upload(payload))
                        up.baselines.append(t.s3_upload(payload))
                        down.values.append(t.platform_download(SIZE))
                        down.baselines.append(t.s3_download(SIZE))
                    else:
                        up.baselines.append(t.s3_upload(payload))
                        up.values.append(t.platform_upload(payload))
                        down.baselines.append(t.s3_download(SIZE))
                        down.values.append(t.platform_download(SIZE))
                t.http.close()
                mb = SIZE // MB
                print(f"moto's S3 server: {s3.rss() / MB:.0f} MB resident at the end", flush=True)
        report_rounds(
            f"upload {mb} MB through the platform to S3 (multipart POST, then the bucket)",
            up,
            "MB/s",
            BUDGET_RATIO,
            baseline_name="boto3 upload_fileobj to the same server",
            higher_is_better=True,
        )
        report_rounds(
            f"download {mb} MB through the platform from S3 (attachment address, streamed)",
            down,
            "MB/s",
            BUDGET_RATIO,
            baseline_name="boto3 download_fileobj from the same server",
            higher_is_better=True,
        )
        for label, mems in (("upload", t.upload_memory), ("download", t.download_memory)):
            report_limit(
                f"server RSS growth at the peak of a {mb} MB {label} (before -> peak)",
                [m.peak_growth_mb for m in mems],
                BUDGET_MB,
                "MB",
            )
            after = [m.growth_mb for m in mems]
            print(
                f"  before -> after the {label}: median {statistics.median(after):.1f} MB "
                f"(rounds {', '.join(f'{a:.1f}' for a in after)})",
                flush=True,
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
