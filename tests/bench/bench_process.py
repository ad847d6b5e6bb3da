"""Process: a 6-step approval driven to completion, and my pending with 10,000 open tasks.

1. ATRIUM_BENCH_PROCESS_INSTANCES instances (default 10,000) of a six-step approval started and completed
   step by step through the plugin's service, one transaction per step as the API runs it (engine state
   loaded and stored, task rows, candidates, history, notifications delivered to the assignee's inbox), in
   instances per second, beside the baselines measured in the same run:
   - the ceiling of any engine built on this stack (budget: at least 0.5x of it, per-round ratios and their
     spread shown): SpiffWorkflow alone plus, for the start and each step, only the rows a step must write
     (the instance locked and updated, the task done, the next task and its candidate, a history entry, the
     assignee's notification), as bare SQLAlchemy Core statements in one transaction each, with no engine,
     no state and no framework around them;
   - the same ceiling with each step's letter written in a transaction of its own after the step commits,
     as the engine must send its letters (shown for comparison, per-round ratios and spread);
   - SpiffWorkflow alone running the same parsed model in memory (shown for comparison, and the ceiling's
     ratio to it: the most any persisted engine could score here);
   - SpiffWorkflow with its state stored after every step: the workflow serialized with Spiff's own
     serializer as it comes (which writes the spec along with the state) and written with one UPDATE of
     one row of the same database, one transaction per step, the least any deployment that survives a
     restart must do (shown for comparison).
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

from SpiffWorkflow.bpmn.serializer.workflow import BpmnWorkflowSerializer
from sqlalchemy import bindparam, insert, select, text
from starlette.testclient import TestClient

from atrium.kernel import accounts
from atrium.kernel.config import Settings
from atrium.plugins.process import service
from atrium.plugins.process.engine import spiff as engine
from atrium.plugins.process.models import (
    OPEN,
    USER,
    ProcessInstance,
    ProcessModel,
    ProcessTask,
    ProcessVersion,
    TaskCandidate,
)
from atrium.sdk.context import SessionUser, tenant_scope, unscoped
from atrium.sdk.db import session, utcnow
from atrium.sdk.testing import build_app
from tests.bench.report import report
from tests.bench.rounds import Rounds, report_rounds
from tests.process.diagrams import chain

INSTANCES = int(os.environ.get("ATRIUM_BENCH_PROCESS_INSTANCES", "10000"))
OPEN_TASKS = int(os.environ.get("ATRIUM_BENCH_PROCESS_OPEN", "10000"))
STEPS = 6
ROUNDS = 10
#: the budget: at least this share of the ceiling
CEILING_SHARE = 0.5
QUERIES = 300
TABLES = (
    "process_task_candidate",
    "process_task",
    "process_history",
    "process_instance",
    "process_version",
    "process_model",
    "message_instance",
    "message_letter",
)
#: the persisted baseline's one table: an instance's serialized workflow, one row per instance
STATE_TABLE = "bench_spiff_state"
#: the floor's tables: the rows a step writes, nothing more
FLOOR_TABLES = {
    "bench_floor_instance": "id BIGINT PRIMARY KEY, tenant_id BIGINT NOT NULL, status VARCHAR(16) NOT NULL",
    "bench_floor_task": "id BIGINT PRIMARY KEY, tenant_id BIGINT NOT NULL, instance_id BIGINT NOT NULL, "
    "status VARCHAR(16) NOT NULL",
    "bench_floor_candidate": "task_id BIGINT NOT NULL, tenant_id BIGINT NOT NULL, ref BIGINT NOT NULL",
    "bench_floor_history": "instance_id BIGINT NOT NULL, tenant_id BIGINT NOT NULL, "
    "action VARCHAR(16) NOT NULL",
    "bench_floor_letter": "id BIGINT PRIMARY KEY, tenant_id BIGINT NOT NULL, title VARCHAR(64) NOT NULL",
    "bench_floor_inbox": "letter_id BIGINT NOT NULL, tenant_id BIGINT NOT NULL, user_id BIGINT NOT NULL",
}
SPIFF_SERIALIZER = BpmnWorkflowSerializer()


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


def spiff_persisted(kernel: Any, comp: engine.Compiled, count: int, first_id: int) -> int:
    """The same runs as `spiff_alone`, storing the state after the start and after every step: Spiff's own
    serializer, one UPDATE of one row, one transaction each. Answers the next free row id."""
    db = kernel.engine
    put = text(f"INSERT INTO {STATE_TABLE} (id, state) VALUES (:id, :state)")
    store = text(f"UPDATE {STATE_TABLE} SET state = :state WHERE id = :id")
    for row_id in range(first_id, first_id + count):
        wf = engine.new(comp, {"amount": 10})
        engine.advance(wf)
        with db.begin() as conn:
            conn.execute(put, {"id": row_id, "state": SPIFF_SERIALIZER.serialize_json(wf)})
        while ready := engine.ready_user_tasks(wf):
            ready[0].run()
            engine.advance(wf)
            with db.begin() as conn:
                conn.execute(store, {"id": row_id, "state": SPIFF_SERIALIZER.serialize_json(wf)})
        if not wf.is_completed():
            raise AssertionError("workflow did not complete")
    return first_id + count


class Floor:
    """The rows a step must write, as bare Core statements on the same database: ids are counted here rather
    than read back, so every statement is one round trip."""

    def __init__(self, kernel: Any) -> None:
        self.db = kernel.engine
        self.next_id = 1
        lock = "SELECT status FROM bench_floor_instance WHERE id = :i"
        self.lock = text(lock + (" FOR UPDATE" if self.db.dialect.name == "postgresql" else ""))
        self.open = text("INSERT INTO bench_floor_instance (id, tenant_id, status) VALUES (:i, 1, 'running')")
        self.done = text("UPDATE bench_floor_task SET status = 'done' WHERE id = :t")
        self.task = text(
            "INSERT INTO bench_floor_task (id, tenant_id, instance_id, status) VALUES (:t, 1, :i, 'open')"
        )
        self.candidate = text("INSERT INTO bench_floor_candidate (task_id, tenant_id, ref) VALUES (:t, 1, 5)")
        self.history = text(
            "INSERT INTO bench_floor_history (instance_id, tenant_id, action) VALUES (:i, 1, 'step')"
        )
        self.letter = text("INSERT INTO bench_floor_letter (id, tenant_id, title) VALUES (:t, 1, 'New task')")
        self.inbox = text("INSERT INTO bench_floor_inbox (letter_id, tenant_id, user_id) VALUES (:t, 1, 5)")
        self.status = text("UPDATE bench_floor_instance SET status = :s WHERE id = :i")

    def create(self) -> None:
        with self.db.begin() as conn:
            for table, columns in FLOOR_TABLES.items():
                conn.execute(text(f"DROP TABLE IF EXISTS {table}"))
                conn.execute(text(f"CREATE TABLE {table} ({columns})"))
            conn.execute(
                text("CREATE INDEX ix_bench_floor_candidate ON bench_floor_candidate (tenant_id, ref)")
            )

    def drop(self) -> None:
        with self.db.begin() as conn:
            for table in FLOOR_TABLES:
                conn.execute(text(f"DROP TABLE IF EXISTS {table}"))

    def step(self, conn: Any, instance: int, last: int | None, status: str, letter: bool = True) -> int:
        task = self.next_id
        self.next_id += 1
        conn.execute(self.lock, {"i": instance})
        if last is not None:
            conn.execute(self.done, {"t": last})
        conn.execute(self.task, {"t": task, "i": instance})
        conn.execute(self.candidate, {"t": task})
        conn.execute(self.history, {"i": instance})
        if letter:
            self.send(conn, task)
        conn.execute(self.status, {"s": status, "i": instance})
        return task

    def send(self, conn: Any, task: int) -> None:
        conn.execute(self.letter, {"t": task})
        conn.execute(self.inbox, {"t": task})

    def run(self, count: int, letters_apart: bool = False) -> None:
        """The writes of `count` instances: the start, then each of the six steps, a transaction each; with
        ``letters_apart`` each step's letter goes in a transaction of its own once the step has committed,
        as the engine's letters must."""
        for _ in range(count):
            instance = self.next_id
            self.next_id += 1
            last: int | None = None
            for n in range(STEPS + 1):
                with self.db.begin() as conn:
                    if last is None:
                        conn.execute(self.open, {"i": instance})
                    status = "completed" if n == STEPS else "running"
                    last = self.step(conn, instance, last, status, letter=not letters_apart)
                if letters_apart:
                    with self.db.begin() as conn:
                        self.send(conn, int(last))


#: the instance's open task, as the client completing it knows it from my pending
OPEN_TASK = select(ProcessTask.id).where(
    ProcessTask.tenant_id == bindparam("tenant"),
    ProcessTask.instance_id == bindparam("instance"),
    ProcessTask.status == OPEN,
)


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
                    .connection()
                    .execute(OPEN_TASK, {"tenant": tenant, "instance": pid})
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
    print(
        f"process bench on {kernel.engine.dialect.name}: {INSTANCES:,} instances, {OPEN_TASKS:,} open",
        flush=True,
    )
    with TestClient(app):
        tenant, user = bench_tenant(kernel)
        with kernel.engine.begin() as conn:  # a run stopped half-way may have left it behind
            conn.execute(text(f"DROP TABLE IF EXISTS {STATE_TABLE}"))
            conn.execute(text(f"CREATE TABLE {STATE_TABLE} (id BIGINT PRIMARY KEY, state TEXT NOT NULL)"))
        floor = Floor(kernel)
        floor.create()
        try:
            run(kernel, tenant, user, floor)
        finally:
            floor.drop()
            with kernel.engine.begin() as conn:
                conn.execute(text(f"DROP TABLE {STATE_TABLE}"))
            with tenant_scope(tenant), kernel.db():
                for table in TABLES:
                    session().execute(text(f"DELETE FROM {table} WHERE tenant_id = :t"), {"t": tenant})


def bench_tenant(kernel: Any) -> tuple[int, SessionUser]:
    """A tenant with the default system and a supervisor who does every step, as a real tenant has: the
    new-task notifications reach the supervisor's inbox."""
    tenant = 9_000_000 + secrets.randbelow(1_000_000)
    account = f"bench{secrets.token_hex(4)}"
    with unscoped(), kernel.db():
        accounts.create_tenant(tenant, f"Bench {tenant}")
        uid = accounts.create_user(account, "Passw0rd1", "Bench", tenant, supervisor=True).id
    return tenant, SessionUser(uid, account, "Bench", tenant, "iotAutho", False, True)


def run(kernel: Any, tenant: int, user: SessionUser, floor: Floor) -> None:
    xml = chain("bench6", STEPS, user.user_id)
    with tenant_scope(tenant) as ctx, kernel.db():
        ctx.user = user
        service.save_model("bench6", "Bench approval", "bench", xml)
        service.deploy("bench6", None)
    comp = engine.Compiled(xml, "bench6")

    through_service(kernel, tenant, user, 20)
    spiff_alone(comp, 20)
    next_row = spiff_persisted(kernel, comp, 20, 1)
    floor.run(20)
    per_round = max(1, INSTANCES // ROUNDS)
    against_ceiling, against_apart = Rounds(), Rounds()
    alone = persisted = stored = writes = 0.0
    for _ in range(ROUNDS):
        start = time.perf_counter()
        spiff_alone(comp, per_round)
        alone_round = time.perf_counter() - start
        start = time.perf_counter()
        next_row = spiff_persisted(kernel, comp, per_round, next_row)
        persisted += time.perf_counter() - start
        start = time.perf_counter()
        through_service(kernel, tenant, user, per_round)
        stored_round = time.perf_counter() - start
        start = time.perf_counter()
        floor.run(per_round)
        writes_round = time.perf_counter() - start
        start = time.perf_counter()
        floor.run(per_round, letters_apart=True)
        apart_round = time.perf_counter() - start
        against_ceiling.values.append(per_round / stored_round)
        against_ceiling.baselines.append(per_round / (alone_round + writes_round))
        against_apart.values.append(per_round / stored_round)
        against_apart.baselines.append(per_round / (alone_round + apart_round))
        alone, stored, writes = alone + alone_round, stored + stored_round, writes + writes_round
    done = per_round * ROUNDS
    name = f"process {done:,} instances x {STEPS} steps (service, state stored per step)"
    report_rounds(
        name,
        against_ceiling,
        "instances/s",
        CEILING_SHARE,
        baseline_name="the ceiling: SpiffWorkflow alone plus only the rows each step must write (bare Core)",
        higher_is_better=True,
    )
    report_rounds(
        name,
        against_apart,
        "instances/s",
        baseline_name="the same ceiling with each step's letter in a transaction of its own, after the step "
        "(as the engine's letters must go)",
        higher_is_better=True,
    )
    report(
        name,
        done / stored,
        done / alone,
        "instances/s",
        "shown for comparison",
        baseline_name="SpiffWorkflow alone, same model, in memory",
        higher_is_better=True,
    )
    report(
        name,
        done / stored,
        done / persisted,
        "instances/s",
        "shown for comparison",
        baseline_name="SpiffWorkflow, state stored per step (one UPDATE)",
        higher_is_better=True,
    )
    report(
        "ceiling: SpiffWorkflow alone plus only the rows each step must write (bare Core)",
        done / (alone + writes),
        done / alone,
        "instances/s",
        "the most a persisted engine could score",
        baseline_name="SpiffWorkflow alone, same model, in memory",
        higher_is_better=True,
    )
    notified = inbox_count(kernel, tenant, user)
    if notified < done * STEPS:
        raise AssertionError(f"{notified} notifications for {done * STEPS} tasks")
    pending(kernel, tenant, user)


def inbox_count(kernel: Any, tenant: int, user: SessionUser) -> int:
    """The new-task notifications that reached the assignee's inbox."""
    with tenant_scope(tenant), kernel.db():
        found: int = (
            session()
            .execute(
                text("SELECT count(*) FROM message_instance WHERE tenant_id = :t AND user_id = :u"),
                {"t": tenant, "u": user.user_id},
            )
            .scalar_one()
        )
    return found


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
