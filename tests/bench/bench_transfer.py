"""Excel export and import through the transfer plugin, each beside its baseline measured in the same run.

- Export of 100,000 rows x 10 columns, streamed from the database in batches by the export engine (task
  claim, progress, storing the file included), beside writing the same rows, already in memory, with
  xlsxwriter's constant_memory mode. Budget 1.2x; peak memory at most 50 MB above the process before the
  export (resident set size sampled every 5 ms).
- Import of that workbook (zip pre-scan, preview, conversion, validation, chunked inserts with the batch
  record) beside python-calamine reading it plus one bulk insert. Budget 1.5x. openpyxl's read_only read
  of the same file is shown for reference.

Each figure is CPU seconds of this process (``time.process_time``), the best of two runs taken in turn with
its baseline: on a shared machine wall time mostly measures the neighbours. Wall seconds are printed too.

Run: .venv/bin/python -m tests.bench.bench_transfer   (ROWS=20000 for a quick look; ATRIUM_BENCH_DB=pg to
use ATRIUM_BENCH_PG instead of SQLite)
"""

from __future__ import annotations

import gc
import os
import secrets
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import python_calamine as pc
import xlsxwriter
from sqlalchemy import Boolean, Column, Date, Float, Integer, MetaData, String, Table, insert, select, text
from starlette.testclient import TestClient

from tests.bench.report import report

ROWS = int(os.environ.get("ROWS", "100000"))
TENANT = 1001
PAGE = os.sysconf("SC_PAGE_SIZE")

meta = MetaData()


def rows_table(name: str) -> Table:
    return Table(
        name,
        meta,
        Column("id", Integer, primary_key=True),
        Column("name", String(64)),
        Column("email", String(128)),
        Column("city", String(64)),
        Column("amount", Float),
        Column("qty", Integer),
        Column("created", Date),
        Column("note", String(255)),
        Column("code", String(32)),
        Column("active", Boolean),
    )


SOURCE = rows_table("bench_export_rows")
TARGET = rows_table("bench_import_rows")
BASELINE = rows_table("bench_baseline_rows")
TITLES = ["Id", "Name", "Email", "City", "Amount", "Qty", "Created", "Note", "Code", "Active"]
KEYS = [c.name for c in SOURCE.columns]


class Clock:
    """Wall and CPU seconds of a block."""

    def __enter__(self) -> Clock:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


class PeakRss:
    """Samples the resident set size in a thread while a block runs."""

    def __enter__(self) -> PeakRss:
        gc.collect()
        self.before = rss()
        self.peak = self.before
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, rss())
            time.sleep(0.005)

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._t.join()
        self.peak = max(self.peak, rss())


def make_app() -> tuple[Any, TestClient]:
    from atrium.kernel.config import Settings
    from atrium.sdk.testing import build_app

    var = Path(tempfile.mkdtemp(prefix="atrium-bench-transfer-"))
    db_url = os.environ.get("ATRIUM_BENCH_PG", "") if os.environ.get("ATRIUM_BENCH_DB") == "pg" else ""
    settings = Settings(
        var_dir=var,
        database_url=db_url,
        demo=True,
        scheduler=False,
        secret_key="bench-" + secrets.token_hex(24),
    )
    app = build_app(settings)
    http = TestClient(app, base_url="http://testserver")
    http.__enter__()
    return app.state.kernel, http


def fill_source(kernel: Any) -> None:
    """Generate the rows inside the database, so the process holds none of them before the export."""
    with kernel.engine.begin() as conn:
        meta.drop_all(conn)
        meta.create_all(conn)
        if conn.dialect.name == "sqlite":
            numbers = "WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < :n - 1) "
            created = "date('2020-01-01', '+' || (i % 3000) || ' days')"
            code = "'C' || substr('0000000' || i, -7)"
            source = "FROM s"
        else:
            numbers = ""
            created = "DATE '2020-01-01' + (i % 3000)"
            code = "'C' || lpad(i::text, 7, '0')"
            source = "FROM generate_series(0, :n - 1) AS g(i)"
        conn.execute(
            text(
                f"{numbers}INSERT INTO bench_export_rows "
                "(id, name, email, city, amount, qty, created, note, code, active) "
                "SELECT i + 1, 'Person ' || i, 'p' || i || '@corp.example', 'City ' || (i % 50), i * 1.25, "
                f"i % 1000, {created}, CASE WHEN i % 1000 = 0 THEN '=cmd' ELSE 'note ' || (i % 7) END, "
                f"{code}, (i % 2 = 0) "
                f"{source}"
            ),
            {"n": ROWS},
        )


def register(kernel: Any) -> None:
    from atrium.plugins.transfer.registry import (
        ExportSource,
        ImportField,
        ImportTarget,
        query_rows,
        register_export_source,
        register_import_target,
    )

    register_export_source(
        ExportSource(
            url="bench/rows",
            name="Bench rows",
            rows=query_rows(lambda req: select(*SOURCE.columns).order_by(SOURCE.c.id)),
            count=lambda req: ROWS,
        )
    )
    types = {"id": "int", "amount": "float", "qty": "int", "created": "date", "active": "bool"}

    def write(rows: list[dict[str, Any]]) -> None:
        from atrium.sdk.db import session

        session().execute(insert(TARGET), rows)

    register_import_target(
        ImportTarget(
            code="bench",
            name="Bench",
            write=write,
            fields=[
                ImportField(k, t, type=types.get(k, "str"), required=k == "id")
                for k, t in zip(KEYS, TITLES, strict=True)
            ],
        )
    )


def queue_export_task(kernel: Any) -> int:
    """A waiting export task over the bench rows, its id (run it with `exporter.run_export`)."""
    from atrium.plugins.transfer.jobs import runtime
    from atrium.plugins.transfer.models import WAITING, ExportTask
    from atrium.sdk.context import tenant_scope

    with tenant_scope(TENANT), kernel.db() as db:
        task = ExportTask(
            request_url="bench/rows",
            function_name="Bench",
            file_name="bench",
            status=WAITING,
            columns=[{"key": k, "title": t, "width": None} for k, t in zip(KEYS, TITLES, strict=True)],
            params={},
            sheet_max=100_000,
            page_rows=1000,
            owner=runtime.owner(),
            locale="en-us",
            user_snapshot={"user_id": 1, "tenant_id": TENANT, "full_name": "Bench"},
        )
        db.add(task)
        db.flush()
        return int(task.id)


def run_export(kernel: Any) -> tuple[Clock, Path, int]:
    from atrium.plugins.files import service as files
    from atrium.plugins.transfer.exporting import exporter
    from atrium.plugins.transfer.models import ExportTask
    from atrium.sdk.context import tenant_scope

    task_id = queue_export_task(kernel)
    with Clock() as elapsed:
        exporter.run_export(task_id, TENANT)
    with tenant_scope(TENANT), kernel.db() as db:
        task = db.get(ExportTask, task_id)
        assert task is not None and task.status == 2, (task.status, task.error_msg) if task else None
        path, _ = files.open_stream(files.get_attachment(task.file_id))
        rows = task.row_count
    assert path is not None
    return elapsed, path, rows


def baseline_export(kernel: Any, out: Path) -> Clock:
    with kernel.engine.connect() as conn:
        data = [tuple(r) for r in conn.execute(select(*SOURCE.columns).order_by(SOURCE.c.id))]
    gc.collect()
    with Clock() as elapsed:
        wb = xlsxwriter.Workbook(str(out), {"constant_memory": True, "default_date_format": "yyyy-mm-dd"})
        ws = wb.add_worksheet()
        ws.write_row(0, 0, TITLES)
        for r, row in enumerate(data, start=1):
            ws.write_row(r, 0, row)
        wb.close()
    del data
    return elapsed


def run_import(kernel: Any, path: Path) -> tuple[Clock, int]:
    """What import-data does: checks and preview at upload, automatic matching, then the run."""
    import shutil

    from atrium.plugins.files.multipart import UploadedFile
    from atrium.plugins.transfer.importing import importer
    from atrium.plugins.transfer.jobs import runtime
    from atrium.plugins.transfer.models import ImportBatch

    with kernel.engine.begin() as conn:
        conn.execute(TARGET.delete())
    spooled = kernel.root / "upload.part"
    shutil.copyfile(path, spooled)  # the multipart reader's temporary file
    upload = UploadedFile("file", "bench.xlsx", "application/octet-stream", spooled, spooled.stat().st_size)
    who = {"user_id": 1, "tenant_id": TENANT, "full_name": "Bench"}
    with runtime.background(TENANT, who, "en-us"), Clock() as clock:
        with kernel.db():
            batch_id = importer.accept_upload(upload, "bench")["batchId"]
        with kernel.db():
            importer.prepare_start(batch_id, 1, None)
        importer.run_import(batch_id, TENANT)
    spooled.unlink()
    with runtime.background(TENANT, who, "en-us"), kernel.db() as db:
        b = db.get(ImportBatch, batch_id)
        assert b is not None and b.status == 2, (b.status, b.error_msg) if b else None
        ok = b.success_count
    return clock, ok


def baseline_import(kernel: Any, path: Path) -> Clock:
    with kernel.engine.begin() as conn:
        conn.execute(BASELINE.delete())
    with Clock() as clock:
        rows = pc.CalamineWorkbook.from_path(str(path)).get_sheet_by_index(0).to_python()
        records = [dict(zip(KEYS, r, strict=False)) for r in rows[1:]]
        with kernel.engine.begin() as conn:
            conn.execute(insert(BASELINE), records)
    del rows, records
    return clock


def openpyxl_read(path: Path) -> Clock:
    import openpyxl

    with Clock() as clock:
        wb = openpyxl.load_workbook(str(path), read_only=True)
        n = sum(1 for _ in wb.active.iter_rows(values_only=True))
        wb.close()
    assert n == ROWS + 1
    return clock


def best(clocks: list[Clock]) -> Clock:
    return min(clocks, key=lambda c: c.cpu)


def main() -> None:
    kernel, http = make_app()
    try:
        fill_source(kernel)
        register(kernel)
        with PeakRss() as mem:
            first, exported, n = run_export(kernel)
        assert n == ROWS
        grown = (mem.peak - mem.before) / 2**20
        exports, bases = [first], [baseline_export(kernel, kernel.root / "baseline.xlsx")]
        exports.append(run_export(kernel)[0])
        bases.append(baseline_export(kernel, kernel.root / "baseline.xlsx"))
        e, b = best(exports), best(bases)
        report(
            f"export {ROWS:,} rows x 10 columns (engine, from the database)",
            e.cpu,
            b.cpu,
            "CPU s",
            "1.2x",
            baseline_name="xlsxwriter constant_memory, rows in memory",
        )
        report("  same, wall time", e.wall, b.wall, "s", baseline_name="xlsxwriter constant_memory")
        report(
            "export peak memory above the process before it",
            grown,
            50.0,
            "MB",
            "<= 50 MB",
            baseline_name="allowed",
        )
        imports, ibases = [], []
        for _ in range(2):
            clock, ok = run_import(kernel, exported)
            assert ok == ROWS, ok
            imports.append(clock)
            ibases.append(baseline_import(kernel, exported))
        i, ib = best(imports), best(ibases)
        report(
            f"import {ROWS:,} rows x 10 columns (checks, conversion, validation, chunked inserts)",
            i.cpu,
            ib.cpu,
            "CPU s",
            "1.5x",
            baseline_name="python-calamine read + one bulk insert",
        )
        report(
            "  same, wall time", i.wall, ib.wall, "s", baseline_name="python-calamine read + one bulk insert"
        )
        ref = openpyxl_read(exported)
        report(
            "openpyxl read_only read of the same workbook (reference)",
            ref.cpu,
            ib.cpu,
            "CPU s",
            baseline_name="python-calamine read + one bulk insert",
        )
    finally:
        http.__exit__(None, None, None)


if __name__ == "__main__":
    main()
