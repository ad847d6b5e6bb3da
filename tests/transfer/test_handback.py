"""A worker that is stopping interrupts its running task (`TaskInterrupted`) and hands it back to the queue:
an export waits again and the next run finishes it; an import fails saying how far it got, keeps the rows it
saved and the refused ones, and its next run does nothing."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import func, select

from atrium.plugins.transfer.exporting import exporter
from atrium.plugins.transfer.importing import importer
from atrium.plugins.transfer.models import DONE, FAILED, WAITING, Contact, ExportTask
from atrium.plugins.transfer.registry import (
    ExportRequest,
    ExportSource,
    ImportField,
    ImportTarget,
    bulk_insert,
    registry,
)
from atrium.plugins.transfer.settings import transfer_settings
from atrium.sdk.context import tenant_scope
from atrium.sdk.services import TaskInterrupted
from atrium.sdk.testing import AtriumClient

from .util import EXPORT, IMPORT, wait_export, wizard_upload, xlsx_bytes

ACME = 1001


@pytest.fixture
def stopping_source() -> Iterator[threading.Event]:
    """An export source whose first run is interrupted after 300 rows, as a stopping worker does."""
    interrupted = threading.Event()

    def rows(req: ExportRequest) -> Iterator[tuple[Any, ...]]:
        for i in range(1000):
            if i == 300 and not interrupted.is_set():
                interrupted.set()
                raise TaskInterrupted()
            yield (i, f"row {i}")

    registry.sources["test/stopping"] = ExportSource(url="test/stopping", name="Stopping", rows=rows)
    yield interrupted
    registry.sources.pop("test/stopping", None)


def export_row(task_id: int) -> ExportTask:
    from atrium.sdk.services import services

    with tenant_scope(ACME), services().db() as db:
        task = db.get(ExportTask, task_id)
        assert task is not None
        db.expunge(task)
        return task


def test_an_interrupted_export_waits_again_and_its_next_run_finishes_it(
    user_client: AtriumClient, stopping_source: threading.Event
) -> None:
    created = user_client.post(
        f"{EXPORT}/export/",
        json={"url": "test/stopping", "fileName": "stopping", "columnList": [{"title": "N", "key": "n"}]},
    )
    export_id = created["data"]["exportId"]
    assert stopping_source.wait(60)
    res = user_client.ok("POST", f"{EXPORT}/get-export-result?exportId={export_id}")
    for _ in range(100):
        if res["status"] == WAITING:
            break
        res = user_client.ok("POST", f"{EXPORT}/get-export-result?exportId={export_id}")
    assert res["status"] == WAITING and res["progress"] == 0
    assert export_row(export_id).attempts == 0  # handing back is not a failed attempt

    exporter.run_export(export_id, ACME)  # the handed-back job, on the next worker
    done = wait_export(user_client, export_id)
    assert done["status"] == DONE and done["rowCount"] == 1000
    assert export_row(export_id).attempts == 1


@pytest.fixture
def stopping_target() -> Iterator[threading.Event]:
    """An import target whose third chunk is interrupted by a stopping worker."""
    interrupted = threading.Event()
    calls = {"n": 0}

    def write(rows: list[dict[str, Any]]) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            interrupted.set()
            raise TaskInterrupted()
        bulk_insert(Contact, [{"name": r["name"], "company": "handback-test"} for r in rows])

    registry.targets["stopping"] = ImportTarget(
        code="stopping",
        name="Stopping",
        fields=[ImportField("name", "Name", required=True, max_length=8)],
        write=write,
    )
    yield interrupted
    registry.targets.pop("stopping", None)


def saved() -> int:
    from atrium.sdk.services import services

    with tenant_scope(ACME), services().db() as db:
        q = select(func.count()).select_from(Contact).where(Contact.company == "handback-test")
        return int(db.execute(q).scalar_one())


def test_an_interrupted_import_fails_saying_how_far_it_got_and_keeps_its_rows(
    user_client: AtriumClient, stopping_target: threading.Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transfer_settings(), "import_chunk_rows", 100)
    monkeypatch.setattr(transfer_settings(), "import_wait_seconds", 0.0)
    names = [["far too long a name"] if i == 5 else [f"h{i}"] for i in range(500)]
    up = wizard_upload(user_client, xlsx_bytes([["Name"], *names]), import_id="stopping")["data"]
    user_client.ok("POST", f"{IMPORT}/start", json={"batchId": up["batchId"], "mapping": {"name": 0}})
    assert stopping_target.wait(60)
    res = user_client.ok("GET", f"{IMPORT}/result", params={"batchId": up["batchId"]})
    for _ in range(100):
        if res["status"] == FAILED:
            break
        res = user_client.ok("GET", f"{IMPORT}/result", params={"batchId": up["batchId"]})
    assert res["status"] == FAILED
    assert (
        res["errorMsg"]
        == "The import was interrupted by a server restart after 200 rows; 199 rows were saved"
    )
    assert res["successCount"] == 199 == saved() and res["failCount"] == 1
    assert res["hasExcel"]  # the refused row is kept with its reason

    importer.run_import(up["batchId"], ACME)  # the handed-back job, on the next worker: nothing to do
    again = user_client.ok("GET", f"{IMPORT}/result", params={"batchId": up["batchId"]})
    assert again["status"] == FAILED and again["successCount"] == 199 == saved()
