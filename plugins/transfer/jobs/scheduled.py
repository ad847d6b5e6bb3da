"""Start-up recovery and the scheduled jobs: interrupted tasks resumed or failed, expired files removed."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import structlog
from sqlalchemy import delete, select, update

from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.db import utcnow
from atrium.sdk.errors import NotFound
from atrium.sdk.services import services
from atrium.sdk.types import JobSpec

from ..exporting.exporter import submit
from ..importing.importer import run_import
from ..models import DONE, EXPIRED, FAILED, RUNNING, UPLOADED, WAITING, ExportTask, ImportBatch
from ..settings import transfer_settings
from . import runtime

log = structlog.get_logger("atrium.transfer.jobs")
TEMP_KINDS = ("exports", "imports", "xlsx", "uploads")


def _interrupted(owner: str, heartbeat: Any) -> bool:
    if owner == runtime.owner():
        return False
    return runtime.owner_gone(owner) or heartbeat < runtime.stale_before()


def _resubmit_waiting_import(batch_id: int, tenant_id: int, owner: str, heartbeat: Any, locale: str) -> int:
    """An import still waiting for a worker has read nothing yet: queue it again (a long job ahead of it, or
    a queue that lost it) rather than fail it. The first copy to claim it runs it; the others do nothing."""
    with runtime.background(tenant_id, {}, locale), unscoped(), services().db() as db:
        res = db.execute(
            update(ImportBatch)
            .where(
                ImportBatch.id == batch_id,
                ImportBatch.owner == owner,
                ImportBatch.heartbeat_at == heartbeat,
                ImportBatch.status == WAITING,
            )
            .values(owner=runtime.owner(), heartbeat_at=utcnow())
        )
        if not getattr(res, "rowcount", 0):
            return 0
        db.commit()
    runtime.submit(run_import, batch_id, tenant_id)
    return 1


def recover() -> dict[str, int]:
    """Resume interrupted exports (or fail them after ``max_attempts``) and fail interrupted imports."""
    s = transfer_settings()
    done = {"resumed": 0, "failed": 0, "imports_failed": 0}
    with unscoped(), services().db() as db:
        tasks = db.execute(
            select(
                ExportTask.id,
                ExportTask.tenant_id,
                ExportTask.owner,
                ExportTask.heartbeat_at,
                ExportTask.attempts,
                ExportTask.locale,
            ).where(ExportTask.status.in_([WAITING, RUNNING]))
        ).all()
        batches = db.execute(
            select(
                ImportBatch.id,
                ImportBatch.tenant_id,
                ImportBatch.owner,
                ImportBatch.heartbeat_at,
                ImportBatch.locale,
                ImportBatch.processed,
                ImportBatch.success_count,
                ImportBatch.status,
            ).where(ImportBatch.status.in_([WAITING, RUNNING]))
        ).all()
    for t in tasks:
        if not _interrupted(t.owner, t.heartbeat_at):
            continue
        guard = (
            ExportTask.id == t.id,
            ExportTask.owner == t.owner,
            ExportTask.heartbeat_at == t.heartbeat_at,
            ExportTask.status.in_([WAITING, RUNNING]),
        )
        with runtime.background(t.tenant_id, {}, t.locale), unscoped(), services().db() as db:
            if t.attempts < s.max_attempts:
                res = db.execute(
                    update(ExportTask)
                    .where(*guard)
                    .values(status=WAITING, owner=runtime.owner(), heartbeat_at=utcnow(), progress=0)
                )
                if getattr(res, "rowcount", 0):
                    done["resumed"] += 1
                    db.commit()
                    submit(t.id, t.tenant_id)
            else:
                res = db.execute(
                    update(ExportTask)
                    .where(*guard)
                    .values(
                        status=FAILED,
                        error_msg=services().t("transfer:export.interrupted"),
                        finished_at=utcnow(),
                    )
                )
                done["failed"] += int(bool(getattr(res, "rowcount", 0)))
    for b in batches:
        if not _interrupted(b.owner, b.heartbeat_at):
            continue
        if b.status == WAITING:
            done["resumed"] += _resubmit_waiting_import(b.id, b.tenant_id, b.owner, b.heartbeat_at, b.locale)
            continue
        with runtime.background(b.tenant_id, {}, b.locale), unscoped(), services().db() as db:
            res = db.execute(
                update(ImportBatch)
                .where(
                    ImportBatch.id == b.id,
                    ImportBatch.owner == b.owner,
                    ImportBatch.heartbeat_at == b.heartbeat_at,
                    ImportBatch.status.in_([WAITING, RUNNING]),
                )
                .values(
                    status=FAILED,
                    finished_at=utcnow(),
                    data_count=ImportBatch.processed,
                    error_msg=services().t(
                        "transfer:import.interrupted", processed=b.processed, saved=b.success_count
                    ),
                )
            )
            done["imports_failed"] += int(bool(getattr(res, "rowcount", 0)))
    if any(done.values()):
        log.info("interrupted transfer tasks", **done)
    return done


def cleanup() -> dict[str, int]:
    """Remove expired export files, abandoned wizard uploads and stale temporary files."""
    now = utcnow()
    out = {"exports": 0, "uploads": 0, "temp": 0}
    with unscoped(), services().db() as db:
        expired = db.execute(
            select(ExportTask.id, ExportTask.tenant_id, ExportTask.file_id).where(
                ExportTask.status == DONE, ExportTask.expires_at < now
            )
        ).all()
        abandoned = db.execute(
            select(ImportBatch.id, ImportBatch.tenant_id, ImportBatch.file_id).where(
                ImportBatch.status == UPLOADED, ImportBatch.created_at < now - timedelta(days=1)
            )
        ).all()
    for task_id, tenant_id, file_id in expired:
        with tenant_scope(tenant_id), services().db() as db:
            _drop_file(file_id)
            db.execute(update(ExportTask).where(ExportTask.id == task_id).values(status=EXPIRED, file_url=""))
            out["exports"] += 1
    for batch_id, tenant_id, file_id in abandoned:
        with tenant_scope(tenant_id), services().db() as db:
            _drop_file(file_id)
            db.execute(delete(ImportBatch).where(ImportBatch.id == batch_id))
            out["uploads"] += 1
    cutoff = time.time() - 86400
    for kind in TEMP_KINDS:
        for p in runtime.work_dir(kind).glob("*"):
            try:
                if p.is_file() and p.stat().st_mtime < cutoff:
                    p.unlink()
                    out["temp"] += 1
            except OSError:
                continue
    return out


def _drop_file(file_id: int | None) -> None:
    if not file_id:
        return
    try:
        services().attachments.remove(file_id)
    except NotFound:
        pass


def scheduled_jobs() -> list[JobSpec]:
    return [
        JobSpec(id="transfer-recover", func=recover, trigger="interval", trigger_args={"minutes": 1}),
        JobSpec(id="export-cleanup", func=cleanup, trigger="interval", trigger_args={"minutes": 30}),
    ]
