"""Process: a 6-step approval driven to completion, and my pending with 10,000 open tasks.

1. ATRIUM_BENCH_PROCESS_INSTANCES instances (default 10,000) of a six-step approval started and completed
   step by step through the plugin's service, one transaction per step as the API runs it (engine state
   loaded and stored, task rows, candidates, history, notifications), in instances per second, beside
   SpiffWorkflow alone running the same parsed model in memory in the same run (budget: at least 0.5x).
2. My pending for a user with ATRIUM_BENCH_PROCESS_OPEN open tasks (default 10,000): p99 of the list call
   (page of 20 with its total; budget under 50 ms), beside the bare indexed lookup of the same page of task
   ids in SQL.

Rounds alternate between the two sides so a busy machine slows both alike.

Run: `.venv/bin/python -m tests.bench.bench_process` (SQLite in a temporary folder; ATRIUM_BENCH_DB=pg
uses ATRIUM_BENCH_PG instead).
"""

from __future__ import annotations

import os
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import insert, select, text
from starlette.testclient import TestClient

from atrium.kernel.config import Settings
from atrium.plugins.process import engine, service
from atrium.plugins.process.models import (
    OPEN,
    USER,
    ProcessInstance,
    ProcessModel,
    ProcessTask,
    ProcessVersion,
    TaskCandidate,
)
from atrium.sdk.context import SessionUser, tenant_scope
from atrium.sdk.db import session, utcnow
from atrium.sdk.testing import build_app
from tests.bench.report import report
from tests.process.diagrams import chain

INSTANCES = int(os.environ.get("ATRIUM_BENCH_PROCESS_INSTANCES", "10000"))
OPEN_TASKS = int(os.environ.get("ATRIUM_BENCH_PROCESS_OPEN", "10000"))
STEPS = 6
ROUNDS = 10
QUERIES = 300
TABLES = (
    "process_task_candidate",
    "process_task",
    "process_history",
    "process_instance",
    "process_version",
    "process_model",
)


def p99(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100)[98] * 1000


def spiff_alone(comp: engine.Compiled, count: int) -> None:
    for _ in range(count):
        wf = engine.new(comp, {"amount": 10})
        engine.advance(wf)
        while ready := engine.ready_user_tasks(wf):
            ready[0].run()
            engine.advance(wf)
        if not wf.is_completed():
            raise AssertionError("workflow did not complete")


def through_service(kernel: Any, tenant: int, user: SessionUser, count: int) -> None:
    for _ in range(count):
        with tenant_scope(tenant) as ctx, kernel.db():
            ctx.user = user
            pid = int(service.start("bench6", {"amount": 10}, None)["processId"])
        for _step in range(STEPS):
            with tenant_scope(tenant) as ctx, kernel.db():
                ctx.user = user
                task = (
                    session()
                    .execute(
                        select(ProcessTask.id).where(
                            ProcessTask.instance_id == pid, ProcessTask.status == OPEN
                        )
                    )
                    .scalar_one()
                )
                service.complete(task, {}, None, "")
        with tenant_scope(tenant), kernel.db():
            status = (
                session().execute(select(ProcessInstance.status).where(ProcessInstance.id == pid)).scalar()
            )
            if status != "completed":
                raise AssertionError(status)


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="atrium-bench-process-"))
    settings = Settings(
        var_dir=tmp / "var",
        demo=False,
        scheduler=False,
        secret_key=secrets.token_hex(24),
        database_url=os.environ.get("ATRIUM_BENCH_PG", "")
        if os.environ.get("ATRIUM_BENCH_DB") == "pg"
        else "",
    )
    app = build_app(settings)
    kernel = app.state.kernel
    tenant = 9_000_000 + secrets.randbelow(1_000_000)
    user = SessionUser(1, "bench", "Bench", tenant, "iotAutho", False, True)
    print(
        f"process bench on {kernel.engine.dialect.name}: {INSTANCES:,} instances, {OPEN_TASKS:,} open",
        flush=True,
    )
    with TestClient(app):
        try:
            run(kernel, tenant, user)
        finally:
            with tenant_scope(tenant), kernel.db():
                for table in TABLES:
                    session().execute(text(f"DELETE FROM {table} WHERE tenant_id = :t"), {"t": tenant})


def run(kernel: Any, tenant: int, user: SessionUser) -> None:
    xml = chain("bench6", STEPS, user.user_id)
    with tenant_scope(tenant) as ctx, kernel.db():
        ctx.user = user
        service.save_model("bench6", "Bench approval", "bench", xml)
        service.deploy("bench6", None)
    comp = engine.Compiled(xml, "bench6")

    through_service(kernel, tenant, user, 20)
    spiff_alone(comp, 20)
    per_round = max(1, INSTANCES // ROUNDS)
    alone = stored = 0.0
    for _ in range(ROUNDS):
        start = time.perf_counter()
        spiff_alone(comp, per_round)
        alone += time.perf_counter() - start
        start = time.perf_counter()
        through_service(kernel, tenant, user, per_round)
        stored += time.perf_counter() - start
    done = per_round * ROUNDS
    report(
        f"process {done:,} instances x {STEPS} steps (service, state stored per step)",
        done / stored,
        done / alone,
        "instances/s",
        "at least 0.5x",
        baseline_name="SpiffWorkflow alone, same model, in memory",
        higher_is_better=True,
    )
    pending(kernel, tenant, user)


def pending(kernel: Any, tenant: int, user: SessionUser) -> None:
    """Seed open tasks for one user (bulk rows as the engine writes them), then time my pending."""
    me = SessionUser(7_777_777, "pending", "Pending", tenant, "iotAutho", False, False)
    with tenant_scope(tenant), kernel.db():
        db = session()
        model = db.execute(select(ProcessModel).where(ProcessModel.key == "bench6")).scalar_one()
        version = db.execute(
            select(ProcessVersion.id).where(ProcessVersion.model_id == model.id)
        ).scalar_one()
        now = utcnow()
        for lo in range(0, OPEN_TASKS, 2000):
            n = min(2000, OPEN_TASKS - lo)
            inst_ids = list(
                db.execute(
                    insert(ProcessInstance).returning(ProcessInstance.id),
                    [
                        {
                            "tenant_id": tenant,
                            "model_id": model.id,
                            "version_id": version,
                            "model_key": "bench6",
                            "model_name": model.name,
                            "status": "running",
                            "started_by": 1,
                            "state": "",
                            "error": "",
                            "created_at": now,
                            "updated_at": now,
                        }
                        for _ in range(n)
                    ],
                ).scalars()
            )
            task_ids = list(
                db.execute(
                    insert(ProcessTask).returning(ProcessTask.id),
                    [
                        {
                            "tenant_id": tenant,
                            "instance_id": i,
                            "engine_id": secrets.token_hex(8),
                            "node_id": "s1",
                            "name": "Step 1",
                            "form_key": "",
                            "status": OPEN,
                            "candidates": {"users": [me.user_id]},
                            "comment": "",
                            "created_at": now,
                        }
                        for i in inst_ids
                    ],
                ).scalars()
            )
            db.execute(
                insert(TaskCandidate),
                [{"tenant_id": tenant, "task_id": t, "kind": USER, "ref": me.user_id} for t in task_ids],
            )
    bare_sql = text(
        "SELECT task_id FROM process_task_candidate WHERE tenant_id = :t AND kind = 'u' AND ref = :u "
        "ORDER BY task_id DESC LIMIT 20"
    )
    listed: list[float] = []
    bare: list[float] = []
    with tenant_scope(tenant) as ctx, kernel.db():
        ctx.user = me
        first = service.my_tasks(OPEN, 1, 20)
        if first["total"] != OPEN_TASKS or len(first["list"]) != 20:
            raise AssertionError(first["total"])
        for i in range(QUERIES):
            page = 1 + i % 50
            start = time.perf_counter()
            service.my_tasks(OPEN, page, 20)
            listed.append(time.perf_counter() - start)
            start = time.perf_counter()
            session().execute(bare_sql, {"t": tenant, "u": me.user_id}).all()
            bare.append(time.perf_counter() - start)
    report(
        f"process my pending p99 ({OPEN_TASKS:,} open tasks, page of 20 with total)",
        p99(listed),
        p99(bare),
        "ms",
        "p99 under 50 ms",
        baseline_name="bare indexed candidate lookup",
    )


if __name__ == "__main__":
    main()
