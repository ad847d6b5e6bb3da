"""Asynchronous exports: a task row, a background run that streams rows from a registered source into a
workbook, and the result the web polls for (status 2 when done)."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import structlog
from sqlalchemy import func, select, update

from atrium.sdk.context import current_context
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import AtriumError, BadRequest, Forbidden, NotFound
from atrium.sdk.services import TaskInterrupted, services

from ..jobs import runtime
from ..models import DONE, FAILED, RUNNING, WAITING, ExportTask
from ..registry import ExportColumn, ExportRequest, ExportSource, Row, export_source, localise, normalise_url
from ..settings import transfer_settings
from .writer import CsvRowWriter, XlsxRowWriter

log = structlog.get_logger("atrium.transfer.export")
CONTENT_TYPES = {
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "csv": "text/csv",
}
KEY_NAMES = ("key", "field", "dataIndex", "dataeaseName", "prop", "name")
TITLE_NAMES = ("title", "label", "name", "key", "field")
PROGRESS_EVERY = 5000


def parse_columns(raw: Sequence[Any]) -> list[ExportColumn]:
    """Columns from the web's column list (``{title, key}`` and the other spellings the web uses)."""
    out = []
    for item in raw:
        if isinstance(item, str):
            out.append(ExportColumn(key=item, title=item))
            continue
        if not isinstance(item, Mapping):
            raise BadRequest("transfer:export.bad_columns")
        key = next((str(item[k]) for k in KEY_NAMES if item.get(k) not in (None, "")), "")
        title = next((str(item[k]) for k in TITLE_NAMES if item.get(k) not in (None, "")), key)
        width = item.get("width")
        if not key:
            raise BadRequest("transfer:export.bad_columns")
        out.append(
            ExportColumn(
                key=key[:128],
                title=title[:255],
                width=float(width) / 7 if isinstance(width, int | float) and width > 40 else None,
            )
        )
    return out


def _columns_json(cols: list[ExportColumn]) -> list[dict[str, Any]]:
    return [{"key": c.key, "title": c.title, "width": c.width} for c in cols]


# -- creating and reading tasks --------------------------------------------------------------------------


def create_task(
    *,
    url: str,
    file_name: str,
    excel_type: str,
    method: str,
    sheet_max: int,
    page_rows: int,
    columns: Sequence[Any],
    params: Any,
    function_name: str,
    resource_id: str,
) -> ExportTask:
    """A waiting export task (the caller commits, then submits ``run_export``)."""
    user = current_context().require_user()
    source = export_source(url)
    if source is None:
        raise BadRequest("transfer:export.unknown_source")
    if source.permission == "admin" and not user.is_admin:
        raise Forbidden()
    s = transfer_settings()
    cols = parse_columns(columns)
    name = services().attachments.clean_filename(file_name or localise(source.name) or "export")
    name = name.rsplit(".", 1)[0] if name.lower().endswith((".xlsx", ".xls", ".csv")) else name
    task = ExportTask(
        action="excel",
        request_url=normalise_url(url)[:512],
        function_name=(function_name or localise(source.name))[:128],
        file_name=name[:200],
        excel_type="csv" if excel_type == "csv" else "xlsx",
        method=method.upper()[:8],
        sheet_max=min(sheet_max, s.export_sheet_max) if sheet_max > 0 else s.export_sheet_max,
        page_rows=page_rows,
        columns=_columns_json(cols),
        params=params if isinstance(params, dict) else {"params": params},
        resource_id=resource_id[:64],
        status=WAITING,
        locale=current_context().locale,
        user_snapshot=runtime.snapshot(user),
        created_by=user.user_id,
        user_name=user.full_name,
        owner=runtime.owner(),
        heartbeat_at=utcnow(),
    )
    db = session()
    db.add(task)
    db.flush()
    return task


def own_task(export_id: int) -> ExportTask:
    """A task of the caller (any of the tenant's for an administrator); others are not found."""
    user = current_context().require_user()
    task = session().get(ExportTask, export_id)
    if task is None or (task.created_by != user.user_id and not user.is_admin):
        raise NotFound("transfer:export.not_found")
    return task


def describe(task: ExportTask) -> dict[str, Any]:
    download = ""
    if task.status == DONE and task.file_id:
        try:
            files = services().attachments
            att = files.get(task.file_id)
            download = files.signed_url(att, f"{task.file_name}.{att.name.rsplit('.', 1)[-1]}")
        except NotFound:
            download = ""
    ext = "docx" if task.action == "word" else task.excel_type
    return {
        "exportId": task.id,
        "status": task.status,
        "progress": task.progress,
        "requestUrl": task.request_url,
        "creationDate": task.created_at.strftime("%Y-%m-%d %H:%M:%S"),
        "functionName": task.function_name,
        "userName": task.user_name,
        "action": task.action,
        "errorMsg": task.error_msg,
        "fileName": f"{task.file_name}.{ext}" if task.file_name else "",
        "url": task.file_url,
        "downloadUrl": download,
        "rowCount": task.row_count,
        "finishDate": task.finished_at.strftime("%Y-%m-%d %H:%M:%S") if task.finished_at else "",
    }


def list_tasks(status: int | None, keyword: str, page: int, size: int) -> dict[str, Any]:
    user = current_context().require_user()
    q = select(ExportTask)
    if not user.is_admin:
        q = q.where(ExportTask.created_by == user.user_id)
    if status is not None:
        q = q.where(ExportTask.status == status)
    if keyword:
        q = q.where(
            ExportTask.function_name.contains(keyword, autoescape=True)
            | ExportTask.file_name.contains(keyword, autoescape=True)
        )
    db = session()
    total = db.execute(select(func.count()).select_from(q.subquery())).scalar_one()
    rows = db.execute(q.order_by(ExportTask.id.desc()).offset((page - 1) * size).limit(size)).scalars().all()
    return {"list": [describe(t) for t in rows], "total": total, "pageNum": page, "pageSize": size}


# -- the run ---------------------------------------------------------------------------------------------


def submit(task_id: int, tenant_id: int) -> None:
    runtime.submit(run_export, task_id, tenant_id)


def run_export(task_id: int, tenant_id: int) -> None:
    """Background task: run one waiting export (claimed first, so it runs once)."""
    with runtime.background(tenant_id, {}, "zh-cn"), services().db():
        snap = (
            session()
            .execute(select(ExportTask.user_snapshot, ExportTask.locale).where(ExportTask.id == task_id))
            .first()
        )
    if snap is None:
        return
    with runtime.background(tenant_id, snap[0], snap[1]):
        if not _claim(task_id):
            return
        try:
            _Export(task_id).run()
        except TaskInterrupted:
            _hand_back(task_id)
            raise
        except AtriumError as exc:
            fail(task_id, services().t(exc.key, **exc.params))
        except Exception:
            log.exception("export failed", task=task_id)
            fail(task_id, services().t("transfer:export.system_error"))


def _claim(task_id: int) -> bool:
    with services().db() as db:
        res = db.execute(
            update(ExportTask)
            .where(ExportTask.id == task_id, ExportTask.status == WAITING)
            .values(
                status=RUNNING,
                owner=runtime.owner(),
                heartbeat_at=utcnow(),
                attempts=ExportTask.attempts + 1,
                progress=0,
                error_msg="",
            )
        )
        return bool(getattr(res, "rowcount", 0))


def _hand_back(task_id: int) -> None:
    """The worker is stopping: the export waits again (this attempt not counted) for the task's next run."""
    with services().db() as db:
        db.execute(
            update(ExportTask)
            .where(ExportTask.id == task_id, ExportTask.status == RUNNING)
            .where(ExportTask.owner == runtime.owner())
            .values(status=WAITING, attempts=ExportTask.attempts - 1, progress=0, heartbeat_at=utcnow())
        )


def fail(task_id: int, message: str) -> None:
    with services().db() as db:
        db.execute(
            update(ExportTask)
            .where(ExportTask.id == task_id)
            .values(status=FAILED, error_msg=message[:2000], finished_at=utcnow(), heartbeat_at=utcnow())
        )


def _sequences(rows: Iterable[Row], keys: list[str]) -> Iterator[Sequence[Any]]:
    it = iter(rows)
    first = next(it, None)
    if first is None:
        return iter(())
    chain = itertools.chain((first,), it)
    if isinstance(first, Mapping):
        return ([m.get(k) for k in keys] for m in chain)  # type: ignore[union-attr]
    return chain  # type: ignore[return-value]


class _Export:
    def __init__(self, task_id: int) -> None:
        self.task_id = task_id

    def run(self) -> None:
        s = transfer_settings()
        with services().db() as db:
            task = db.get(ExportTask, self.task_id)
            assert task is not None
            source = export_source(task.request_url)
            ctx = current_context()
            req = ExportRequest(
                params=dict(task.params),
                columns=[ExportColumn(**c) for c in task.columns],
                page_rows=task.page_rows,
                file_name=task.file_name,
                user=ctx.user,
                tenant_id=task.tenant_id,
            )
            kind, sheet_max, file_name = task.excel_type, task.sheet_max, task.file_name
            created_by, user_name = task.created_by, task.user_name
        if source is None:
            raise BadRequest("transfer:export.unknown_source")
        if source.permission == "admin" and not (req.user and req.user.is_admin):
            raise Forbidden()
        if not req.columns and source.columns is not None:
            with services().db():
                req.columns = source.columns(req)
        if not req.columns:
            raise BadRequest("transfer:export.bad_columns")
        path = runtime.work_dir("exports") / f"{self.task_id}-{secrets.token_hex(6)}.{kind}"
        try:
            rows = self._write(source, req, path, kind, sheet_max, s.export_max_rows)
            with services().db() as db:
                att = services().attachments.store(
                    path,
                    f"{file_name}.{kind}",
                    CONTENT_TYPES[kind],
                    func_code="dataexport",
                    policy="export",
                    created_by=created_by,
                    creation_name=user_name,
                )
                db.execute(
                    update(ExportTask)
                    .where(ExportTask.id == self.task_id)
                    .values(
                        status=DONE,
                        progress=100,
                        row_count=rows,
                        file_id=att.id,
                        file_url=att.url,
                        finished_at=utcnow(),
                        heartbeat_at=utcnow(),
                        expires_at=utcnow() + timedelta(hours=s.export_retention_hours),
                    )
                )
        finally:
            path.unlink(missing_ok=True)

    def _write(
        self, source: ExportSource, req: ExportRequest, path: Path, kind: str, sheet_max: int, max_rows: int
    ) -> int:
        headers = [c.title for c in req.columns]
        keys = [c.key for c in req.columns]
        with services().db():
            total = source.count(req) if source.count is not None else None
            if kind == "csv":
                writer: XlsxRowWriter | CsvRowWriter = CsvRowWriter(path, headers)
            else:
                writer = XlsxRowWriter(
                    path,
                    headers,
                    sheet_max=sheet_max,
                    title=req.file_name or "Sheet1",
                    widths=[c.width for c in req.columns],
                    tmpdir=str(runtime.work_dir("xlsx")),
                )
            try:
                count = writer.write_rows(
                    _sequences(source.rows(req), keys),
                    every=min(PROGRESS_EVERY, max_rows + 1),
                    on_progress=lambda n: self._progress(n, total, max_rows),
                )
                if count > max_rows:
                    raise BadRequest("transfer:export.too_many_rows", limit=max_rows)
            finally:
                writer.close()
        return count

    def _progress(self, rows: int, total: int | None, max_rows: int) -> None:
        """Every few thousand rows: progress and heartbeat; stop a result past the row limit."""
        if rows > max_rows:
            raise BadRequest("transfer:export.too_many_rows", limit=max_rows)
        pct = min(99, rows * 100 // total) if total else min(95, 5 + rows // 10_000)
        with services().db() as db:
            db.execute(
                update(ExportTask)
                .where(ExportTask.id == self.task_id)
                .values(progress=pct, row_count=rows, heartbeat_at=utcnow())
            )
