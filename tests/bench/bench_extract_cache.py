"""The first chart over a report extract on a node that has not cached it, beside the warm chart on the same
node: the extract (Parquet, in the S3 bucket) fetched into the node's cache, then queried, against the query
over the file already there.

The platform runs in this process (SQLite, demo data) with ``ATRIUM_STORAGE_URL`` on moto's S3 server, in a
process of its own on loopback. The dataset is bench_reports' 1,000,000 order lines (from a SQLite file) in
extract mode, synced once; its view is the table of two dimensions and two measures with a filter that
bench_reports times. Each round forgets the node's cached copy (what a node that never charted it holds:
nothing), charts once (cold), then again (warm). Median of seven rounds, both times and the ratio shown;
no budget.

Run: .venv/bin/python -m tests.bench.bench_extract_cache
"""

from __future__ import annotations

import math
import secrets
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from tests.bench.bench_reports import ROWS, generate, get_data, load_sqlite, view_for
from tests.bench.rounds import Rounds, report_rounds
from tests.bench.s3_infra import moto_s3

RUNS = 7


def forget_cached(var: Path, dataset_id: str) -> int:
    """Remove this node's cached copies of the dataset's extract, as if it had never fetched them; answers
    the bytes removed."""
    from atrium.plugins.reports.store import extract_store

    removed = 0
    for path in (var / "reports" / "extracts").glob(f"*/{dataset_id}/*.parquet"):
        removed += path.stat().st_size
        extract_store.forget(path)
        path.unlink()
    return removed


def same_rows(got: list[dict[str, Any]], expected: list[dict[str, Any]]) -> bool:
    """The same table, sums equal to a float's rounding (DuckDB adds in parallel, in no fixed order)."""

    def close(a: Any, b: Any) -> bool:
        if isinstance(a, float) or isinstance(b, float):
            return math.isclose(float(a), float(b), rel_tol=1e-9)
        return bool(a == b)

    return len(got) == len(expected) and all(
        g.keys() == e.keys() and all(close(g[k], e[k]) for k in g) for g, e in zip(got, expected, strict=True)
    )


def timed(fn: Any) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> None:
    from atrium.kernel.config import Settings
    from atrium.sdk.testing import AtriumClient, build_app

    tmp = Path(tempfile.mkdtemp(prefix="atrium-bench-extract-"))
    try:
        duck = generate(tmp)
        load_sqlite(duck, tmp / "sales.db")
        duck.close()
        with moto_s3() as s3:
            var = tmp / "var"
            settings = Settings(
                var_dir=var,
                demo=True,
                scheduler=False,
                storage_url=s3.url(s3.bucket()),
                secret_key="bench-" + secrets.token_hex(24),
            )
            with TestClient(build_app(settings), base_url="http://testserver") as http:
                admin = AtriumClient(http).signed_in("admin")
                view = view_for(admin, f"sqlite:///{tmp / 'sales.db'}", "sales", "extract")
                dataset_id = view["dataset"]["id"]
                t0 = time.perf_counter()
                status = admin.ok("POST", f"/api/dyreport/dataset/sync/{dataset_id}")
                assert status["rows"] == ROWS, status
                print(f"extract of {ROWS:,} rows synced in {time.perf_counter() - t0:.1f} s", flush=True)
                expected = get_data(view)["data"]["tableRow"]
                size = 0
                rounds = Rounds()
                for _ in range(RUNS):
                    size = forget_cached(var, dataset_id)
                    assert size > 0, "the node held no cached copy"
                    rounds.values.append(timed(lambda: get_data(view)))
                    rounds.baselines.append(timed(lambda: get_data(view)))
                assert same_rows(get_data(view)["data"]["tableRow"], expected)
        report_rounds(
            f"first chart on a node without the extract cached ({size / 2**20:.1f} MB Parquet from S3)",
            rounds,
            "s",
            baseline_name="warm chart on the same node",
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
