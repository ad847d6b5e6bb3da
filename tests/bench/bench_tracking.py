"""Usage tracking, each figure beside a baseline measured in the same run.

1. Ingestion through HTTP: wrk at 64 connections posting batches of 20 page and button records to
   `POST /api/log/tracking-web-page/tracking` on one server process; events per second counted as the
   rows the server actually wrote (its buffer drained after the run), beside a bare bulk insert of the
   same rows into the same database, 1,000 rows per statement (budget: at least 0.5x).
2. The home dashboard over many raw events (ATRIUM_BENCH_TRACKING_EVENTS, default 10,000,000, spread over
   90 days, 40 tenants, 2,000 users, 60 menus, one in fifty a sign-in): every data call of the usage cards
   (summary for 7 and 30 days, top tenants, menus, users and micro-apps) and the kernel's home cards (7-day
   sign-ins with today's counted live, clicks and top menus, for the platform and for a tenant) answered
   from the daily rollups, p99 over the rounds (budget: under 50 ms), as the server answers them (kept
   until the next rollup run) and computed on every call, beside the same questions asked of the raw table.

Run: `.venv/bin/python -m tests.bench.bench_tracking` (SQLite unless ATRIUM_BENCH_DATABASE_URL is set).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import Index, MetaData, Table, case, create_engine, func, insert, select, text

from atrium.sdk.testing import encrypt_password
from tests.bench.report import report
from tests.bench.servers import platform_server

DATABASE = os.environ.get("ATRIUM_BENCH_DATABASE_URL", "")
EVENTS = int(os.environ.get("ATRIUM_BENCH_TRACKING_EVENTS", "10000000"))
WRK_SECONDS = 10
BATCH = 20
ROUNDS = 30


def record(i: int) -> dict[str, Any]:
    path = f"/menu/{i % 60}"
    base = {
        "routePath": path,
        "routeCode": f"menu-{i % 60}",
        "routeName": f"Menu {i % 60}",
        "systemCode": "iotAutho",
        "systemName": "Portal",
        "browserName": "Chrome",
        "browserVersion": "131",
        "osName": "Linux",
        "screenWidth": 1920,
        "screenHeight": 1080,
        "timestamp": 1764000000000,
    }
    if i % 2:
        return {**base, "trackType": "button", "buttonName": f"button-{i % 7}"}
    return {**base, "trackType": "page", "pageStayTime": 4000 + i, "pageRenderTime": 120}


def sign_in(url: str, account: str = "alice", password: str = "Alice@123") -> str:
    with httpx.Client(base_url=url, timeout=30) as c:
        enc = c.post("/api/base/base-user/get-enryption").json()["data"]
        body = c.post(
            "/api/base/base-user/login",
            json={"account": account, "password": encrypt_password(enc["publicKey"], enc["nonce"], password)},
        ).json()
        assert body["code"] == 800, body
        token: str = body["data"]["authorization"]
        return token


def raw_count(engine: Any) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM tracking_event")).scalar() or 0)


def ingestion() -> None:
    with platform_server(DATABASE) as srv:
        token = sign_in(srv.url)
        body = json.dumps({"params": [record(i) for i in range(BATCH)]})
        folder = Path(tempfile.mkdtemp(prefix="atrium-bench-tracking-"))
        script = folder / "post.lua"
        script.write_text(
            'wrk.method = "POST"\nwrk.body = ' + json.dumps(body) + "\n"
            'wrk.headers["Content-Type"] = "application/json"\n'
        )
        engine = create_engine(
            srv.env["ATRIUM_DATABASE_URL"].replace("postgresql://", "postgresql+psycopg://")
            if srv.env["ATRIUM_DATABASE_URL"]
            else f"sqlite:///{srv.env['ATRIUM_VAR_DIR']}/atrium.db"
        )
        before = raw_count(engine)
        t0 = time.perf_counter()
        out = subprocess.run(
            [
                "wrk",
                "-t1",
                "-c64",
                f"-d{WRK_SECONDS}s",
                "-s",
                str(script),
                "-H",
                f"authorization: {token}",
                "-H",
                "language: en#us",
                srv.url + "/api/log/tracking-web-page/tracking",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        requests = int(re.search(r"(\d+) requests in", out).group(1))
        if "Non-2xx" in out or "Socket errors" in out:
            print(out)
        expected = before + requests * BATCH
        while raw_count(engine) < expected and time.perf_counter() - t0 < WRK_SECONDS + 60:
            time.sleep(0.05)
        elapsed = time.perf_counter() - t0
        written = raw_count(engine) - before
        http_eps = written / elapsed
        print(f"{requests} requests, {written:,} events written in {elapsed:.1f} s", flush=True)

        # the baseline: the same rows straight into a copy of the table (same columns and indexes)
        from atrium.plugins.tracking.service import EVENTS as SOURCE

        meta = MetaData()
        bench = Table("tracking_event_bench", meta, *[c._copy() for c in SOURCE.columns])
        Index("ix_tracking_event_bench_at", bench.c.at)
        now = time_now()
        rows = []
        for i in range(written):
            r = record(i)
            row: dict[str, Any] = {
                c.name: 0 if c.type.python_type is int else ""
                for c in SOURCE.columns
                if c.name not in ("id", "client_at")
            }
            row.update(
                tenant_id=1001,
                user_id=3,
                at=now,
                event_type=3 if i % 2 else 2,
                route_path=r["routePath"],
                route_code=r["routeCode"],
                route_name=r["routeName"],
            )
            rows.append(row)
        meta.drop_all(engine)
        meta.create_all(engine)
        t = time.perf_counter()
        with engine.begin() as conn:
            for start in range(0, len(rows), 1000):
                conn.execute(insert(bench), rows[start : start + 1000])
        bulk_eps = len(rows) / (time.perf_counter() - t)
        engine.dispose()
        shutil.rmtree(folder, ignore_errors=True)
    report(
        "tracking ingestion through HTTP (64 connections, batches of 20)",
        http_eps,
        bulk_eps,
        "events/s",
        ">= 0.5x",
        baseline_name="bare bulk insert of the same rows",
        higher_is_better=True,
    )


def time_now() -> Any:
    from atrium.sdk.db import utcnow

    return utcnow()


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def dashboard() -> None:
    from atrium.kernel.config import Settings
    from atrium.kernel.migrate import upgrade
    from atrium.kernel.runtime import Kernel
    from atrium.plugins.tracking import service
    from atrium.plugins.tracking.models import TrackingEvent
    from atrium.sdk import services as sdk_services
    from atrium.sdk.context import RequestContext, SessionUser, set_context, unscoped
    from atrium.sdk.db import session, utcnow

    var = Path(tempfile.mkdtemp(prefix="atrium-bench-dash-"))
    kernel = Kernel(Settings(var_dir=var, database_url=DATABASE, demo=False, scheduler=False))
    pg = kernel.engine.dialect.name == "postgresql"
    try:
        upgrade(kernel)
        sdk_services.bind(kernel)
        today = utcnow().date()
        start = f"{today - timedelta(days=89)} 08:00:00"
        t = time.perf_counter()
        cols = (
            "tenant_id, user_id, at, event_type, track_type, user_name, system_code, system_name, app_code, "
            "app_name, load_time, version, client_ip, browser_name, browser_version, os_name, screen_width, "
            "screen_height, menu_id, route_name, route_code, route_path, page_stay_time, page_render_time, "
            "button_name, button_code"
        )
        values = (
            "1000 + x % 40, x % 2000, {at}, CASE WHEN x % 50 = 0 THEN 4 ELSE 1 + x % 3 END, '', '', "
            "'iotAutho', '', 'app' || (x % 12), "
            "'', x % 900, '', '', 'Chrome', '131', 'Linux', 1920, 1080, '', 'Menu ' || (x % 60), "
            "'menu-' || (x % 60), '/menu/' || (x % 60), x % 60000, x % 800, '', ''"
        )
        step = 1_000_000
        with kernel.engine.begin() as conn:
            for lo in range(0, EVENTS, step):
                hi = min(EVENTS, lo + step)
                if pg:
                    at = (
                        f"timestamp '{start}' + (x % 90) * interval '1 day'"
                        " + (x % 36000) * interval '1 second'"
                    )
                    conn.execute(
                        text(
                            f"INSERT INTO tracking_event ({cols}) SELECT {values.format(at=at)} "
                            f"FROM generate_series({lo}, {hi - 1}) AS x"
                        )
                    )
                else:
                    at = f"datetime('{start}', '+' || (x % 90) || ' days', '+' || (x % 36000) || ' seconds')"
                    conn.execute(
                        text(
                            f"WITH RECURSIVE s(x) AS (SELECT {lo} UNION ALL SELECT x + 1 FROM s "
                            f"WHERE x < {hi - 1}) INSERT INTO tracking_event ({cols}) "
                            f"SELECT {values.format(at=at)} FROM s"
                        )
                    )
            if pg:
                conn.execute(text("ANALYZE tracking_event"))
        print(f"{EVENTS:,} raw events in {time.perf_counter() - t:.0f} s", flush=True)
        t = time.perf_counter()
        with kernel.db(), unscoped():
            service.rollup(today - timedelta(days=i) for i in range(90))
        print(f"rollups of 90 days in {time.perf_counter() - t:.0f} s", flush=True)

        user = SessionUser(
            user_id=1,
            account="admin",
            full_name="Admin",
            tenant_id=-999,
            system_code="iotAutho",
            is_super_admin=True,
            is_supervisor=False,
        )
        set_context(RequestContext(user=user, tenant_id=-999))

        def rollup_calls() -> None:
            with kernel.db():
                service.summary(7)
                service.summary(30)
                service.top_tenants(30)
                service.top_menus(30)
                service.top_users(30)
                service.top_apps(30)
                for tenant in (None, 1000):  # the kernel's home cards: 7-day sign-ins and behaviour totals
                    service.usage_totals(tenant, 7)

        e = TrackingEvent

        def raw_calls() -> None:
            with kernel.db(), unscoped():
                db = session()
                for days in (7, 30):
                    since = utcnow().replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(
                        days=days - 1
                    )
                    day = func.date(e.at)
                    db.execute(
                        select(day, func.count(), func.count(e.user_id.distinct()))
                        .where(e.at >= since)
                        .group_by(day)
                    ).all()
                    db.execute(
                        select(func.count(e.user_id.distinct()), func.count(e.tenant_id.distinct())).where(
                            e.at >= since
                        )
                    ).all()
                since = utcnow() - timedelta(days=30)
                total = func.count()
                for key in (e.tenant_id, e.route_code, e.user_id, e.app_code):
                    db.execute(
                        select(key, total).where(e.at >= since).group_by(key).order_by(total.desc()).limit(10)
                    ).all()
                db.execute(select(func.sum(case((e.event_type == 3, 1), else_=0))).where(e.at >= since)).all()
                week = utcnow().replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=6)
                for tenant in (None, 1000):
                    where = [e.at >= week] + ([] if tenant is None else [e.tenant_id == tenant])
                    db.execute(
                        select(func.date(e.at), func.sum(case((e.event_type == 4, 1), else_=0)))
                        .where(*where)
                        .group_by(func.date(e.at))
                    ).all()
                    db.execute(select(func.sum(case((e.event_type == 3, 1), else_=0))).where(*where)).all()
                    db.execute(
                        select(e.route_code, total)
                        .where(*where)
                        .group_by(e.route_code)
                        .order_by(total.desc())
                        .limit(10)
                    ).all()

        def timed(fn: Callable[[], None], rounds: int) -> list[float]:
            fn()  # warm
            out = []
            for _ in range(rounds):
                t0 = time.perf_counter()
                fn()
                out.append((time.perf_counter() - t0) * 1000)
            return out

        service.MEMO = False
        cold = timed(rollup_calls, ROUNDS * 3)
        service.MEMO = True
        kept = timed(rollup_calls, ROUNDS * 3)
        raw = timed(raw_calls, 3)
        report(
            f"home dashboard data calls over {EVENTS:,} raw events, p99 (rollups, answers kept)",
            p99(kept),
            statistics.median(raw),
            "ms",
            "p99 < 50 ms",
            baseline_name="same questions of the raw table",
        )
        report(
            f"home dashboard data calls over {EVENTS:,} raw events, p99 (rollups, every call computed)",
            p99(cold),
            statistics.median(raw),
            "ms",
            "p99 < 50 ms",
            baseline_name="same questions of the raw table",
        )
    finally:
        kernel.engine.dispose()
        shutil.rmtree(var, ignore_errors=True)


def main() -> None:
    ingestion()
    dashboard()


if __name__ == "__main__":
    main()
