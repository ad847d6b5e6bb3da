"""Excel export of 100,000 rows x 10 columns into an S3 bucket, beside the same export onto local disk.

The platform runs in this process (SQLite, demo data) with ``ATRIUM_STORAGE_URL`` on moto's S3 server, in a
process of its own on loopback; the rows are generated inside the database as bench_transfer does and
exported through a transfer export source over that table. Each figure is the export task end to end
(``exporter.run_export``: claim, rows streamed from the database in pages, the workbook written, the file
stored, the task recorded done), wall seconds: the bucket's part of it is waiting on the network, which CPU
time would leave out. The baseline is the same task with the platform's storage set to local disk under
its var folder (the default without ``ATRIUM_STORAGE_URL``). Median of five alternating rounds, budget at
most 1.1x.

Run: .venv/bin/python -m tests.bench.bench_s3_export   (ROWS=20000 for a quick look)
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from tests.bench.bench_transfer import ROWS, TENANT, fill_source, queue_export_task, register
from tests.bench.rounds import alternate, report_rounds
from tests.bench.s3_infra import moto_s3

BUDGET = 1.1


def make_app(storage_url: str) -> tuple[Any, TestClient]:
    from atrium.kernel.config import Settings
    from atrium.sdk.testing import build_app

    var = Path(tempfile.mkdtemp(prefix="atrium-bench-s3export-"))
    settings = Settings(
        var_dir=var,
        demo=True,
        scheduler=False,
        storage_url=storage_url,
        secret_key="bench-" + secrets.token_hex(24),
    )
    app = build_app(settings)
    http = TestClient(app, base_url="http://testserver")
    http.__enter__()
    return app.state.kernel, http


def export_once(kernel: Any, storage: Any, cpu: list[float]) -> float:
    """One export task with the platform's storage set to `storage`: wall seconds from its run to done."""
    from atrium.plugins.files import service as files
    from atrium.plugins.transfer.exporting import exporter
    from atrium.plugins.transfer.models import DONE, ExportTask
    from atrium.sdk.context import tenant_scope

    kernel.storage = storage
    task_id = queue_export_task(kernel)
    c0, t0 = time.process_time(), time.perf_counter()
    exporter.run_export(task_id, TENANT)
    elapsed, cpu_s = time.perf_counter() - t0, time.process_time() - c0
    cpu.append(cpu_s)
    with tenant_scope(TENANT), kernel.db() as db:
        done = db.get(ExportTask, task_id)
        assert done is not None and done.status == DONE, (done.status, done.error_msg) if done else None
        assert done.row_count == ROWS, done.row_count
        att = files.get_attachment(done.file_id)
        assert att.backend == storage.kind, (att.backend, storage.kind)
        size = storage.stat(TENANT, att.stored_name).size
        assert size > 0
        storage.delete(TENANT, att.stored_name)  # the bucket (moto keeps it in memory) stays small
    return elapsed


def main() -> None:
    from atrium.kernel.services.storage_local import LocalStorage

    with moto_s3() as s3:
        bucket = s3.bucket()
        kernel, http = make_app(s3.url(bucket))
        try:
            fill_source(kernel)
            register(kernel)
            on_s3 = kernel.storage
            assert on_s3.kind == "s3", on_s3.kind
            on_disk = LocalStorage(kernel.settings.var_dir / "files")
            s3_cpu: list[float] = []
            disk_cpu: list[float] = []
            export_once(kernel, on_s3, []), export_once(kernel, on_disk, [])  # warm-up
            rounds = alternate(
                lambda: export_once(kernel, on_s3, s3_cpu),
                lambda: export_once(kernel, on_disk, disk_cpu),
            )
            kernel.storage = on_s3
        finally:
            http.__exit__(None, None, None)
            shutil.rmtree(kernel.settings.var_dir, ignore_errors=True)
    report_rounds(
        f"export {ROWS:,} rows x 10 columns to S3 (task end to end, wall)",
        rounds,
        "s",
        BUDGET,
        baseline_name="same export to local disk",
    )
    s3_med, disk_med = sorted(s3_cpu)[len(s3_cpu) // 2], sorted(disk_cpu)[len(disk_cpu) // 2]
    print(
        f"  CPU seconds of this process: median {s3_med:.2f} to S3, {disk_med:.2f} to local disk", flush=True
    )


if __name__ == "__main__":
    main()
