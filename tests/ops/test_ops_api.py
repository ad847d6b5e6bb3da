"""The ops API: nodes, readiness, queues, storage, scheduled jobs (run now, pause, resume), tasks."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select

from atrium.kernel import jobruns
from atrium.kernel.metrics import JOB_OUTCOMES
from atrium.kernel.models import ScheduledJobRun
from atrium.kernel.scheduler import HOUSEKEEPING_ID, _Claimed
from atrium.kernel.services.tasks import ThreadTaskRunner
from atrium.sdk.testing import AtriumClient

#: these assert the embedded mode (in-process tasks, heartbeats in the database); with Redis the same calls
#: read the RQ queue and the heartbeat keys instead
IN_PROCESS_ONLY = pytest.mark.skipif(
    bool(os.environ.get("ATRIUM_TEST_REDIS_URL")), reason="asserts the embedded (no Redis) mode"
)

GETS = ["nodes", "readiness", "queues", "storage", "jobs", "tasks"]
POSTS = ["jobs/run", "jobs/pause", "jobs/resume"]


def _jobs(c: AtriumClient) -> dict[str, dict[str, Any]]:
    return {job["id"]: job for job in c.ok("GET", "/api/ops/jobs")["jobs"]}


def _wait(check: Callable[[], Any], seconds: float = 10.0) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


@IN_PROCESS_ONLY
def test_nodes_list_this_process(admin_client: AtriumClient) -> None:
    nodes = admin_client.ok("GET", "/api/ops/nodes")
    mine = [n for n in nodes if n["current"]]
    assert len(mine) == 1
    node = mine[0]
    assert node["node"] == f"{socket.gethostname()}:{os.getpid()}"
    assert node["pid"] == os.getpid() and node["version"]
    assert node["lastSeenSeconds"] <= 60 and node["uptimeSeconds"] >= 0
    assert node["tasks"] == "in-process" and len(node["load"]) == 3
    assert datetime.fromisoformat(node["startedAt"]).tzinfo is not None


@IN_PROCESS_ONLY
def test_readiness_queues_and_storage(admin_client: AtriumClient) -> None:
    checks = {c["name"]: c for c in admin_client.ok("GET", "/api/ops/readiness")}
    assert list(checks) == ["database", "redis", "storage", "migrations"]
    assert checks["database"]["state"] == "ok" and checks["storage"]["state"] == "ok"
    assert checks["migrations"]["state"] == "ok", checks["migrations"]
    assert checks["redis"]["state"] == "skipped"
    queues = admin_client.ok("GET", "/api/ops/queues")
    assert queues["mode"] == "in-process" and queues["workers"] >= 1 and queues["error"] == ""
    storage = admin_client.ok("GET", "/api/ops/storage")
    assert storage["kind"] == "local" and storage["reachable"] is True and storage["folder"]


def test_jobs_list_every_scheduled_job_with_its_trigger(admin_client: AtriumClient) -> None:
    answer = admin_client.ok("GET", "/api/ops/jobs")
    assert answer["scheduler"] is False  # the tests' app runs without its scheduler
    jobs = {job["id"]: job for job in answer["jobs"]}
    assert {HOUSEKEEPING_ID, "tracking:rollup", "reports:extract-sync"} <= set(jobs)
    housekeeping = jobs[HOUSEKEEPING_ID]
    assert housekeeping["plugin"] == "kernel" and housekeeping["trigger"] == "interval"
    assert housekeeping["intervalSeconds"] == 3600 and housekeeping["triggerText"].startswith("interval[")
    assert housekeeping["nextRunAt"] is None


@IN_PROCESS_ONLY
def test_run_now_records_its_outcome(admin_client: AtriumClient) -> None:
    run = admin_client.ok("POST", "/api/ops/jobs/run", json={"jobId": HOUSEKEEPING_ID})
    assert run["jobId"] == HOUSEKEEPING_ID and run["taskId"]

    def finished() -> dict[str, Any] | None:
        last = _jobs(admin_client)[HOUSEKEEPING_ID]["lastRun"]
        return last if last and last["manual"] and last["outcome"] == "ok" and last["endedAt"] else None

    last = _wait(finished)
    assert last, _jobs(admin_client)[HOUSEKEEPING_ID]
    assert last["node"] == [n for n in admin_client.ok("GET", "/api/ops/nodes") if n["current"]][0]["node"]
    assert last["durationMs"] is not None and last["error"] == ""
    done = admin_client.ok("GET", "/api/ops/tasks", params={"state": "done"})
    assert run["taskId"] in {t["id"] for t in done}


def test_a_manual_run_runs_once_per_slot(kernel: Any) -> None:
    slot = datetime(2030, 1, 1, 0, 0, 0, 5)
    assert kernel.operations.execute(HOUSEKEEPING_ID, slot) == "ok"
    assert kernel.operations.execute(HOUSEKEEPING_ID, slot) == "skipped"  # handed out twice by the queue


def _paused_count(job_id: str) -> float:
    return float(JOB_OUTCOMES.labels(job=job_id, outcome="paused")._value.get())


def test_pause_skips_the_scheduled_claim_until_resumed(admin_client: AtriumClient, kernel: Any) -> None:
    job_id = "tracking:rollup"
    calls: list[int] = []
    claimed = _Claimed(kernel.engine, kernel.db, job_id, lambda: calls.append(1))

    def rows() -> list[Any]:
        with kernel.engine.connect() as conn:
            stmt = select(ScheduledJobRun.slot).where(ScheduledJobRun.job_id == job_id)
            return list(conn.execute(stmt).scalars())

    before = rows()
    assert admin_client.ok("POST", "/api/ops/jobs/pause", json={"jobId": job_id}) == {
        "jobId": job_id,
        "paused": True,
    }
    try:
        job = _jobs(admin_client)[job_id]
        assert job["paused"] is True and job["pausedBy"] == "admin" and job["pausedAt"]
        assert jobruns.is_paused(kernel.engine, job_id)
        paused = _paused_count(job_id)
        claimed()
        assert calls == [] and rows() == before  # no slot claimed, nothing run
        assert _paused_count(job_id) == paused + 1
    finally:
        resumed = admin_client.ok("POST", "/api/ops/jobs/resume", json={"jobId": job_id})
    assert resumed == {"jobId": job_id, "paused": False}
    assert _jobs(admin_client)[job_id]["paused"] is False
    claimed()
    assert calls == [1] and len(rows()) == len(before) + 1
    assert _jobs(admin_client)[job_id]["lastRun"]["outcome"] == "ok"


@IN_PROCESS_ONLY
def test_a_failed_in_process_task_is_listed_and_retried(admin_client: AtriumClient, kernel: Any) -> None:
    tasks = kernel.tasks
    assert isinstance(tasks, ThreadTaskRunner)
    from tests.ops import task_funcs

    task_funcs.ATTEMPTS.clear()
    task_id = tasks.submit(task_funcs.fail_first)
    failed = _wait(
        lambda: [
            t
            for t in admin_client.ok("GET", "/api/ops/tasks", params={"state": "failed"})
            if t["id"] == task_id
        ]
    )
    assert failed and failed[0]["error"] == "RuntimeError: first attempt fails"
    assert failed[0]["func"] == "tests.ops.task_funcs.fail_first"
    assert admin_client.ok("GET", "/api/ops/queues")["failed"] >= 1
    retried = admin_client.ok("POST", "/api/ops/tasks/retry", json={"taskId": task_id})
    assert retried["retriedFrom"] == task_id and retried["taskId"] != task_id
    assert _wait(lambda: len(task_funcs.ATTEMPTS) == 2)
    assert _wait(lambda: tasks.records.get(retried["taskId"]).state == "done")
    again = admin_client.post("/api/ops/tasks/retry", json={"taskId": retried["taskId"]})
    assert again["code"] == 409 and retried["taskId"] in again["msg"]
    gone = admin_client.post("/api/ops/tasks/retry", json={"taskId": "nope"})
    assert gone["code"] == 404 and gone["msg"] == "Background task nope does not exist or is no longer kept"


@pytest.mark.parametrize(
    ("locale", "message"),
    [("en-us", "Scheduled job plugin:none does not exist"), ("zh-cn", "定时任务 plugin:none 不存在")],
)
def test_an_unknown_job_is_a_translated_404(client: AtriumClient, locale: str, message: str) -> None:
    admin = AtriumClient(client.http, locale).signed_in("admin")
    for path in POSTS:
        answer = admin.post(f"/api/ops/{path}", json={"jobId": "plugin:none"})
        assert (answer["code"], answer["msg"]) == (404, message), path


def test_a_missing_job_id_is_refused(admin_client: AtriumClient) -> None:
    assert admin_client.post("/api/ops/jobs/run", json={})["code"] == 400
    assert admin_client.post("/api/ops/jobs/pause", json={"jobId": "  "})["code"] == 400
    assert admin_client.get("/api/ops/tasks", params={"state": "odd"})["code"] == 400


def test_tenant_admins_and_users_are_refused(tenant_admin: AtriumClient, user_client: AtriumClient) -> None:
    for c in (tenant_admin, user_client):
        for path in GETS:
            assert c.get(f"/api/ops/{path}")["code"] == 403, path
        for path in POSTS:
            assert c.post(f"/api/ops/{path}", json={"jobId": HOUSEKEEPING_ID})["code"] == 403, path
        assert c.post("/api/ops/tasks/retry", json={"taskId": "x"})["code"] == 403


def test_anonymous_callers_must_sign_in(client: AtriumClient) -> None:
    assert client.get("/api/ops/nodes")["code"] == -1


def test_the_menus_are_for_administrators(admin_client: AtriumClient, user_client: AtriumClient) -> None:
    def urls(c: AtriumClient) -> set[str]:
        out: set[str] = set()
        stack = list(c.ok("GET", "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho")["menus"])
        while stack:
            m = stack.pop()
            out.add(m["menuUrl"])
            stack.extend(m["children"])
        return out

    assert {"/actuator-management", "/schedule"} <= urls(admin_client)
    assert not {"/actuator-management", "/schedule"} & urls(user_client)
    manifest = admin_client.ok("GET", "/api/kernel/manifest")
    ops = [p for p in manifest["plugins"] if p["name"] == "ops"]
    assert ops and set(ops[0]["prefixes"]) == {"/actuator-management", "/schedule"}
    assert manifest["services"]["ops"] == "/api/ops"


def test_heartbeats_expire(kernel: Any) -> None:
    ops = kernel.operations
    assert ops.beat()
    now = datetime.now(UTC).replace(tzinfo=None)
    rows = ops.beats.read(now.replace(year=2000))
    assert any(r["node"] == ops.node and (now - r["last_seen"]).total_seconds() < 5 for r in rows)
