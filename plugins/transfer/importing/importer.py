"""Importing a workbook into a target: the wizard's steps and the background run.

Rows are converted and validated one by one; good rows are written in chunks, each chunk in its own
transaction together with the batch's counters, so the batch record always says exactly what was written,
even after a crash. A chunk the database refuses is split in halves until the offending rows are isolated:
a row is written whole or not at all.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import structlog
from sqlalchemy import func, select, update

from atrium.sdk.context import current_context
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import AtriumError, BadRequest, Forbidden, NotFound
from atrium.sdk.files import Upload
from atrium.sdk.services import TaskInterrupted, services

from ..exporting.writer import XlsxRowWriter
from ..jobs import runtime
from ..models import DONE, FAILED, RUNNING, UPLOADED, WAITING, ImportBatch
from ..registry import ImportTarget, _batch, import_target, import_targets, localise
from ..settings import transfer_settings
from . import reader
from .convert import RowConverter, auto_match
from .safety import check_extension, check_spreadsheet

log = structlog.get_logger("atrium.transfer.import")
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
XLS = "application/vnd.ms-excel"


# -- targets ---------------------------------------------------------------------------------------------


def require_target(import_id: str) -> ImportTarget:
    target = import_target(import_id)
    if target is None:
        raise NotFound("transfer:import.unknown_target")
    if target.permission == "admin" and not current_context().require_user().is_admin:
        raise Forbidden()
    return target


def describe_target(t: ImportTarget) -> dict[str, Any]:
    return {
        "importId": t.code,
        "name": localise(t.name),
        "fields": [
            {
                "key": f.key,
                "label": localise(f.label),
                "type": f.type,
                "required": f.required,
                "maxLength": f.max_length,
            }
            for f in t.fields
        ],
    }


def list_targets() -> list[dict[str, Any]]:
    user = current_context().require_user()
    return [describe_target(t) for t in import_targets().values() if t.permission == "user" or user.is_admin]


# -- step 1: upload --------------------------------------------------------------------------------------


def new_batch_code() -> str:
    return "IMP" + utcnow().strftime("%Y%m%d%H%M%S") + f"{secrets.randbelow(1000):03d}"


def accept_upload(upload: Upload, import_id: str) -> dict[str, Any]:
    """Check and keep an uploaded workbook; answers the new batch and the first rows."""
    user = current_context().require_user()
    require_target(import_id)
    ext = check_extension(upload.filename)
    check_spreadsheet(upload.path, ext)
    sheet = reader.Sheet(upload.path)
    try:
        info = reader.preview_of(sheet)
        if info["totalRows"] == 0:
            raise BadRequest("transfer:import.empty")
    except BaseException:
        sheet.close()
        raise
    att = services().attachments.store(
        upload.path, upload.filename, XLSX if ext == "xlsx" else XLS, func_code="import", policy="import"
    )
    ctx = current_context()
    batch = ImportBatch(
        batch=new_batch_code(),
        import_id=import_id,
        file_name=att.name,
        file_id=att.id,
        status=UPLOADED,
        data_count=max(info["totalRows"] - 1, 0),
        preview=info["rows"],
        locale=ctx.locale,
        user_snapshot=runtime.snapshot(user),
        created_by=user.user_id,
        created_user_name=user.full_name,
    )
    db = session()
    db.add(batch)
    db.flush()
    reader.sheets.put(batch.id, sheet)
    return {"batchId": batch.id, "batch": batch.batch, "fileName": batch.file_name, **info}


@contextmanager
def local_copy(file_id: int) -> Iterator[Path]:
    """The uploaded workbook as a local file (copied from a remote store when needed)."""
    files = services().attachments
    with services().db():
        att = files.get(file_id)
        chunks = files.open(file_id)
    tmp = runtime.work_dir("imports") / f"{secrets.token_hex(8)}.{att.name.rsplit('.', 1)[-1]}"
    try:
        with tmp.open("wb") as out:
            for chunk in chunks:
                out.write(chunk)
        yield tmp
    finally:
        tmp.unlink(missing_ok=True)


def _own_batch(batch_id: int, *, states: tuple[int, ...] | None = None) -> ImportBatch:
    user = current_context().require_user()
    batch = session().get(ImportBatch, batch_id)
    if batch is None or (batch.created_by != user.user_id and not user.is_admin):
        raise NotFound("transfer:import.batch_not_found")
    if states is not None and batch.status not in states:
        raise BadRequest("transfer:import.already_started")
    return batch


# -- steps 2 and 3: header row and field matching --------------------------------------------------------


def columns(batch_id: int, header_row: int) -> dict[str, Any]:
    batch = _own_batch(batch_id, states=(UPLOADED,))
    target = require_target(batch.import_id)
    titles = _titles(batch, header_row)
    matched = auto_match(target, titles)
    return {
        "batchId": batch.id,
        "headerRow": header_row,
        "columns": [{"index": i, "title": t} for i, t in enumerate(titles)],
        "fields": describe_target(target)["fields"],
        "autoMatch": [{"field": k, "column": v} for k, v in matched.items()],
    }


def _titles(batch: ImportBatch, header_row: int) -> list[str]:
    """The titles of the header row, from the rows kept at upload (the header is among the first 50)."""
    rows = batch.preview or []
    if header_row > len(rows):
        raise BadRequest("transfer:import.header_out_of_range", rows=batch.data_count + 1)
    return [str(t).strip() for t in rows[header_row - 1]]


def check_mapping(target: ImportTarget, mapping: dict[str, int | None], width: int) -> dict[str, int]:
    clean: dict[str, int] = {}
    seen: dict[int, str] = {}
    for key, col in mapping.items():
        f = target.field(key)
        if f is None:
            raise BadRequest("transfer:import.unknown_field", field=key[:40])
        if col is None:
            continue
        if col < 0 or col >= max(width, 1):
            raise BadRequest("transfer:import.bad_column", field=localise(f.label))
        if col in seen:
            other = target.field(seen[col])
            raise BadRequest(
                "transfer:import.duplicate_match",
                field=localise(f.label),
                other=localise(other.label) if other else seen[col],
            )
        seen[col] = key
        clean[key] = col
    for f in target.fields:
        if f.required and f.key not in clean:
            raise BadRequest("transfer:import.required_unmatched", field=localise(f.label))
    return clean


def prepare_start(batch_id: int, header_row: int, mapping: dict[str, int | None] | None) -> int:
    """Fix the header row and the field matching; the batch is then waiting for its run."""
    batch = _own_batch(batch_id, states=(UPLOADED,))
    target = require_target(batch.import_id)
    titles = _titles(batch, header_row)
    chosen = auto_match(target, titles) if mapping is None else mapping
    clean = check_mapping(target, dict(chosen), len(titles))
    batch.header_row = header_row
    batch.mapping = {k: v for k, v in clean.items()}
    batch.status = WAITING
    batch.data_count = max(batch.data_count - (header_row - 1), 0)
    batch.heartbeat_at = utcnow()
    batch.owner = runtime.owner()
    session().flush()
    return batch.tenant_id


# -- results and history ---------------------------------------------------------------------------------


def result_of(batch: ImportBatch) -> dict[str, Any]:
    t = services().t
    fail_url = ""
    if batch.fail_file_id:
        try:
            fail_url = services().attachments.get(batch.fail_file_id).url
        except NotFound:
            fail_url = ""
    check = ""
    if batch.status in (WAITING, RUNNING):
        check = t("transfer:import.too_long")
    elif batch.fail_count:
        check = t("transfer:import.rows_failed", count=batch.fail_count)
    return {
        "batchId": batch.id,
        "batch": batch.batch,
        "importId": batch.import_id,
        "status": batch.status,
        "fileName": batch.file_name,
        "dataCount": batch.data_count,
        "totalCount": batch.processed,
        "processed": batch.processed,
        "successCount": batch.success_count,
        "failCount": batch.fail_count,
        "hasExcel": bool(fail_url),
        "excelUrl": fail_url,
        "checkMsg": check,
        "errorMsg": batch.error_msg if batch.status == FAILED else "",
        "creationDate": batch.created_at.strftime("%Y-%m-%d %H:%M:%S"),
        "createdUserName": batch.created_user_name,
    }


def result(batch_id: int) -> dict[str, Any]:
    return result_of(_own_batch(batch_id))


def history(import_id: str, page: int, size: int) -> dict[str, Any]:
    user = current_context().require_user()
    q = select(ImportBatch).where(ImportBatch.status != UPLOADED)
    if import_id:
        q = q.where(ImportBatch.import_id == import_id)
    if not user.is_admin:
        q = q.where(ImportBatch.created_by == user.user_id)
    db = session()
    total = db.execute(select(func.count()).select_from(q.subquery())).scalar_one()
    rows = db.execute(q.order_by(ImportBatch.id.desc()).offset((page - 1) * size).limit(size)).scalars().all()
    return {"list": [result_of(b) for b in rows], "total": total, "pageNum": page, "pageSize": size}


# -- the run ---------------------------------------------------------------------------------------------


def run_import(batch_id: int, tenant_id: int) -> None:
    """Background task: import one waiting batch (claimed first, so it runs once)."""
    with runtime.background(tenant_id, {}, "zh-cn"):
        with services().db():
            snap = (
                session()
                .execute(
                    select(ImportBatch.user_snapshot, ImportBatch.locale).where(ImportBatch.id == batch_id)
                )
                .first()
            )
        if snap is None:
            return
    with runtime.background(tenant_id, snap[0], snap[1]):
        if not _claim(batch_id):
            return
        run = _Run(batch_id)
        try:
            run.run()
        except TaskInterrupted:
            run.interrupted()
            _release_source(batch_id)
            raise
        except AtriumError as exc:
            _finish_failed(batch_id, services().t(exc.key, **exc.params))
        except Exception:
            log.exception("import failed", batch=batch_id)
            _finish_failed(batch_id, services().t("transfer:import.system_error"))
        _release_source(batch_id)


def _release_source(batch_id: int) -> None:
    """Drop a finished import's uploaded workbook (the failed-rows file stays with the history)."""
    try:
        with services().db() as db:
            batch = db.get(ImportBatch, batch_id)
            if batch is not None and batch.status in (DONE, FAILED) and batch.file_id:
                services().attachments.remove(batch.file_id)
                batch.file_id = None
    except Exception:
        log.exception("could not drop an import's workbook", batch=batch_id)


def _claim(batch_id: int) -> bool:
    with services().db() as db:
        res = db.execute(
            update(ImportBatch)
            .where(ImportBatch.id == batch_id, ImportBatch.status == WAITING)
            .values(status=RUNNING, owner=runtime.owner(), heartbeat_at=utcnow())
        )
        return bool(getattr(res, "rowcount", 0))


def _finish_failed(batch_id: int, message: str) -> None:
    with services().db() as db:
        db.execute(
            update(ImportBatch)
            .where(ImportBatch.id == batch_id)
            .values(status=FAILED, error_msg=message[:2000], finished_at=utcnow(), heartbeat_at=utcnow())
        )


class _Run:
    def __init__(self, batch_id: int) -> None:
        self.batch_id = batch_id
        self.s = transfer_settings()
        self.fail_writer: XlsxRowWriter | None = None
        self.fail_path: Path | None = None
        self.titles: list[str] = []

    def run(self) -> None:
        with services().db() as db:
            batch = db.get(ImportBatch, self.batch_id)
            assert batch is not None
            target = import_target(batch.import_id)
            if target is None:
                raise NotFound("transfer:import.unknown_target")
            file_id, header_row, mapping = batch.file_id, batch.header_row, dict(batch.mapping)
            locale = batch.locale
        if file_id is None:
            raise NotFound("transfer:import.batch_not_found")
        convert = RowConverter(target, {k: int(v) for k, v in mapping.items()}, locale)
        token = _batch.set(self.batch_id)
        try:
            sheet = reader.sheets.take(self.batch_id)
            if sheet is not None:
                self._import(sheet, header_row, target, convert)
            else:
                with local_copy(file_id) as path:
                    self._import(reader.Sheet(path), header_row, target, convert)
        finally:
            _batch.reset(token)
            if self.fail_writer is not None:
                self.fail_writer.close()
        fail_file = self._store_failures()
        with services().db() as db:
            db.execute(
                update(ImportBatch)
                .where(ImportBatch.id == self.batch_id)
                .values(
                    status=DONE,
                    fail_file_id=fail_file,
                    data_count=ImportBatch.processed,
                    finished_at=utcnow(),
                    heartbeat_at=utcnow(),
                )
            )

    def _store_failures(self) -> int | None:
        """Keep the refused rows so far as a workbook beside the batch; its file id."""
        if self.fail_path is None:
            return None
        with services().db():
            att = services().attachments.store(
                self.fail_path,
                f"failed-{self.batch_id}.xlsx",
                XLSX,
                func_code="import-failed",
                policy="import",
            )
        self.fail_path.unlink(missing_ok=True)
        return att.id

    def interrupted(self) -> None:
        """The worker is stopping mid-import: the rows saved so far stay (each chunk was committed with its
        counters), the refused ones are kept as a workbook, and the batch fails saying how far it got
        (importing the rest again is the user's choice: a second run would save the first rows twice)."""
        fail_file = self._store_failures()
        with services().db() as db:
            batch = db.get(ImportBatch, self.batch_id)
            if batch is None or batch.status not in (WAITING, RUNNING):
                return
            batch.status, batch.finished_at, batch.heartbeat_at = FAILED, utcnow(), utcnow()
            batch.data_count, batch.fail_file_id = batch.processed, fail_file
            batch.error_msg = services().t(
                "transfer:import.interrupted", processed=batch.processed, saved=batch.success_count
            )

    def _import(
        self, sheet: reader.Sheet, header_row: int, target: ImportTarget, convert: RowConverter
    ) -> None:
        chunk_rows = self.s.import_chunk_rows
        good: list[dict[str, Any]] = []
        good_raw: list[list[Any]] = []
        bad: list[tuple[list[Any], str]] = []
        try:
            for i, row in enumerate(sheet.rows(), start=1):
                if i < header_row:
                    continue
                if i == header_row:
                    self.titles = [reader.display(v) for v in row]
                    continue
                if row.count("") + row.count(None) == len(row):
                    continue
                data, reason = convert(row)
                if data is None:
                    bad.append((row, reason))
                else:
                    good.append(data)
                    good_raw.append(row)
                if len(good) + len(bad) >= chunk_rows:
                    self._flush(target, good, good_raw, bad)
                    good, good_raw, bad = [], [], []
            self._flush(target, good, good_raw, bad)
        finally:
            sheet.close()

    def _flush(
        self,
        target: ImportTarget,
        good: list[dict[str, Any]],
        raw: list[list[Any]],
        bad: list[tuple[list[Any], str]],
    ) -> None:
        if not good and not bad:
            return
        failed = self._write(target, good, raw, extra_failed=len(bad))
        rejected = bad + failed
        if rejected:
            self._record_failures(rejected)

    def _write(
        self, target: ImportTarget, rows: list[dict[str, Any]], raw: list[list[Any]], extra_failed: int = 0
    ) -> list[tuple[list[Any], str]]:
        """Write rows with the counters in one transaction; on refusal split until bad rows are alone."""
        try:
            with services().db() as db:
                if rows:
                    target.save(rows)
                self._count(db, len(rows), extra_failed)
            return []
        except AtriumError as exc:
            if len(rows) <= 1:
                return self._one_failed(raw, extra_failed, services().t(exc.key, **exc.params))
        except Exception as exc:
            if len(rows) <= 1:
                log.info("import row refused", batch=self.batch_id, error=str(exc)[:200])
                return self._one_failed(raw, extra_failed, services().t("transfer:cell.save_failed"))
        mid = len(rows) // 2
        return self._write(target, rows[:mid], raw[:mid], extra_failed) + self._write(
            target, rows[mid:], raw[mid:]
        )

    def _one_failed(
        self, raw: list[list[Any]], extra_failed: int, reason: str
    ) -> list[tuple[list[Any], str]]:
        with services().db() as db:
            self._count(db, 0, extra_failed + len(raw))
        return [(r, reason) for r in raw]

    def _count(self, db: Any, ok: int, failed: int) -> None:
        db.execute(
            update(ImportBatch)
            .where(ImportBatch.id == self.batch_id)
            .values(
                processed=ImportBatch.processed + ok + failed,
                success_count=ImportBatch.success_count + ok,
                fail_count=ImportBatch.fail_count + failed,
                heartbeat_at=utcnow(),
            )
        )

    def _record_failures(self, rows: list[tuple[list[Any], str]]) -> None:
        if self.fail_writer is None:
            self.fail_path = (
                runtime.work_dir("imports") / f"failed-{self.batch_id}-{secrets.token_hex(4)}.xlsx"
            )
            reason = services().t("transfer:import.reason_column")
            self.fail_writer = XlsxRowWriter(
                self.fail_path,
                [*self.titles, reason],
                sheet_max=1_000_000,
                title="Failed",
                tmpdir=str(runtime.work_dir("xlsx")),
            )
        width = len(self.titles)
        self.fail_writer.write_rows([*(list(r[:width]) + [""] * (width - len(r))), why] for r, why in rows)
