"""Interrupted work: an export or import left running by a dead server is resumed or failed with a reason
when the platform starts again, and a crash mid-import leaves a record of exactly what was written."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select, update
from starlette.testclient import TestClient

from atrium.plugins.transfer.jobs import runtime, scheduled
from atrium.plugins.transfer.models import FAILED, RUNNING, Contact, ExportTask, ImportBatch
from atrium.plugins.transfer.registry import ImportField, ImportTarget, bulk_insert, registry
from atrium.plugins.transfer.settings import transfer_settings
from atrium.sdk import services as sdk_services
from atrium.sdk.context import tenant_scope
from atrium.sdk.db import utcnow
from atrium.sdk.testing import AtriumClient, build_app

from .util import IMPORT, wait_import, wizard_upload, xlsx_bytes

GHOST = "ghost-host:4242:deadbeef"


@contextmanager
def restarted(atrium_app: Any, atrium_settings: Any) -> Iterator[Any]:
    """Start a second platform on the same database (what a restart after a crash looks like)."""
    app = build_app(atrium_settings)
    try:
        with TestClient(app, base_url="http://testserver"):
            yield app.state.kernel
    finally:
        sdk_services.install(atrium_app.state.kernel)


def export_task(kernel: Any, *, attempts: int, heartbeat_age: timedelta, owner: str = GHOST) -> int:
    with tenant_scope(1001), kernel.db() as db:
        task = ExportTask(
            action="excel",
            request_url="transfer/contacts/exportData",
            function_name="Contacts",
            file_name="resumed",
            columns=[{"key": "name", "title": "Name", "width": None}],
            params={},
            status=RUNNING,
            progress=40,
            attempts=attempts,
            owner=owner,
            heartbeat_at=utcnow() - heartbeat_age,
            locale="en-us",
            user_name="Alice Zhang",
            user_snapshot={"user_id": 3, "tenant_id": 1001, "full_name": "Alice Zhang"},
        )
        db.add(task)
        db.flush()
        return task.id


def task_state(kernel: Any, task_id: int) -> ExportTask:
    with tenant_scope(1001), kernel.db() as db:
        task = db.get(ExportTask, task_id)
        assert task is not None
        db.expunge(task)
        return task


def wait_until(check: Callable[[], bool], limit: float = 120) -> None:
    import time

    deadline = time.monotonic() + limit
    while not check() and time.monotonic() < deadline:
        time.sleep(0.2)


def test_interrupted_export_is_resumed_at_start_up(
    atrium_app: Any, atrium_settings: Any, kernel: Any
) -> None:
    task_id = export_task(kernel, attempts=1, heartbeat_age=timedelta(hours=1))
    with restarted(atrium_app, atrium_settings) as k2:
        wait_until(lambda: task_state(k2, task_id).status not in (0, 1))
        task = task_state(k2, task_id)
    assert task.status == 2 and task.file_url and task.attempts == 2 and task.error_msg == ""


def test_export_interrupted_too_often_fails_with_a_reason(
    atrium_app: Any, atrium_settings: Any, kernel: Any
) -> None:
    task_id = export_task(kernel, attempts=transfer_settings().max_attempts, heartbeat_age=timedelta(hours=1))
    with restarted(atrium_app, atrium_settings) as k2:
        task = task_state(k2, task_id)
    assert task.status == FAILED
    assert task.error_msg == "The export was interrupted by a server restart and could not be finished"


def test_fresh_task_of_another_server_is_left_until_its_heartbeat_is_stale(
    kernel: Any, user_client: AtriumClient
) -> None:
    task_id = export_task(kernel, attempts=1, heartbeat_age=timedelta(seconds=5), owner="other-host:1:abc")
    scheduled.recover()
    assert task_state(kernel, task_id).status == RUNNING  # may be alive on the other server
    with tenant_scope(1001), kernel.db() as db:
        db.execute(
            update(ExportTask)
            .where(ExportTask.id == task_id)
            .values(heartbeat_at=utcnow() - timedelta(seconds=transfer_settings().stale_seconds + 5))
        )
    assert scheduled.recover()["resumed"] >= 1  # what the scheduled job does every minute
    wait_until(lambda: task_state(kernel, task_id).status not in (0, 1))
    assert task_state(kernel, task_id).status == 2


# -- imports ---------------------------------------------------------------------------------------------


@pytest.fixture
def crashing_target() -> Iterator[threading.Event]:
    """A target whose third chunk kills the run the way a dying process would (nothing catches it)."""
    crashed = threading.Event()
    calls = {"n": 0}

    def write(rows: list[dict[str, Any]]) -> None:
        calls["n"] += 1
        bulk_insert(Contact, [{"name": r["name"], "company": "crash-test"} for r in rows])
        if calls["n"] == 3:
            crashed.set()
            raise SystemExit("power cut")

    registry.targets["crashy"] = ImportTarget(
        code="crashy", name="Crashy", fields=[ImportField("name", "Name", required=True)], write=write
    )
    yield crashed
    registry.targets.pop("crashy", None)


def test_crash_mid_import_leaves_a_true_record(
    user_client: AtriumClient,
    kernel: Any,
    atrium_app: Any,
    atrium_settings: Any,
    crashing_target: threading.Event,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(transfer_settings(), "import_chunk_rows", 100)
    monkeypatch.setattr(transfer_settings(), "import_wait_seconds", 0.0)
    up = wizard_upload(
        user_client, xlsx_bytes([["Name"]] + [[f"c{i}"] for i in range(500)]), import_id="crashy"
    )["data"]
    user_client.ok("POST", f"{IMPORT}/start", json={"batchId": up["batchId"], "mapping": {"name": 0}})
    assert crashing_target.wait(60)
    wait_until(lambda: True, 0)

    def written() -> int:
        with tenant_scope(1001), kernel.db() as db:
            return int(
                db.execute(
                    select(func.count())
                    .select_from(Contact)
                    .where(Contact.batch_id.is_(None), Contact.company == "crash-test")
                ).scalar_one()
            )

    res = user_client.ok("GET", f"{IMPORT}/result", params={"batchId": up["batchId"]})
    assert res["status"] == RUNNING  # the run died; nothing marked it finished
    assert res["processed"] == res["successCount"] == 200 == written()  # two chunks committed, not the third
    with tenant_scope(1001), kernel.db() as db:
        db.execute(
            update(ImportBatch)
            .where(ImportBatch.id == up["batchId"])
            .values(heartbeat_at=utcnow() - timedelta(hours=1))
        )
    runtime.new_start()
    with restarted(atrium_app, atrium_settings):
        pass
    res = user_client.ok("GET", f"{IMPORT}/result", params={"batchId": up["batchId"]})
    assert res["status"] == FAILED and res["successCount"] == 200 == written()
    assert (
        res["errorMsg"]
        == "The import was interrupted by a server restart after 200 rows; 200 rows were saved"
    )
    history = user_client.ok("POST", f"{IMPORT}/history", json={"importId": "crashy"})
    assert history["list"][0]["status"] == FAILED and history["list"][0]["dataCount"] == 200


def test_an_import_still_waiting_is_queued_again_not_failed(
    user_client: AtriumClient, kernel: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import that never reached a worker (a long job ahead of it, or a queue that lost it) has read
    nothing: the recovery job queues it again, and it ends done with every row."""
    up = wizard_upload(user_client, xlsx_bytes([["Name"]] + [[f"w{i}"] for i in range(30)]))["data"]
    with monkeypatch.context() as m:
        m.setattr(runtime, "submit", lambda *_args: None)  # the queued job is lost
        user_client.ok("POST", f"{IMPORT}/start", json={"batchId": up["batchId"], "mapping": {"name": 0}})
    with tenant_scope(1001), kernel.db() as db:
        db.execute(
            update(ImportBatch)
            .where(ImportBatch.id == up["batchId"])
            .values(owner=GHOST, heartbeat_at=utcnow() - timedelta(hours=1))
        )
    assert user_client.ok("GET", f"{IMPORT}/result", params={"batchId": up["batchId"]})["status"] == 0
    assert scheduled.recover()["resumed"] == 1
    res = wait_import(user_client, up["batchId"])
    assert res["status"] == 2 and res["successCount"] == 30
