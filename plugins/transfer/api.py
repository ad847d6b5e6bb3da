"""Routes of the `import` service (wizard, import-data, history) and the `dataexport` service."""

from __future__ import annotations

import asyncio
import io
import time
import urllib.parse
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from atrium.sdk.context import current_context
from atrium.sdk.errors import BadRequest
from atrium.sdk.routing import Router
from atrium.sdk.services import services

from .exporting import exporter, word
from .exporting.writer import XlsxRowWriter
from .importing import importer
from .jobs import runtime
from .models import DONE, FAILED
from .registry import localise
from .settings import transfer_settings

router = Router()
IMPORT = "/api/import/import-header"
EXPORT = "/api/dataexport/data-export/v2"


def in_session(fn: Any, *args: Any, **kwargs: Any) -> Any:
    with services().db():
        return fn(*args, **kwargs)


async def call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a database function in the thread pool, in its own committed transaction."""
    return await run_in_threadpool(in_session, fn, *args, **kwargs)


# -- import ----------------------------------------------------------------------------------------------


async def _read_workbook(request: Request) -> tuple[Any, str]:
    s = transfer_settings()
    files = services().attachments
    form = await files.read_multipart(
        request,
        max_file_bytes=s.import_max_bytes,
        too_big=BadRequest("transfer:import.too_big", limit=files.human_size(s.import_max_bytes)),
    )
    upload = form.file("file")
    if upload is None:
        form.discard()
        raise BadRequest("transfer:import.file_required")
    import_id = (form.fields.get("importId") or request.query_params.get("importId") or "").strip()
    if not import_id:
        form.discard()
        raise BadRequest("transfer:import.target_required")
    return form, import_id[:64]


async def _wait(batch_id: int, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    delay = 0.05
    while True:
        res: dict[str, Any] = await call(importer.result, batch_id)
        if res["status"] in (DONE, FAILED) or time.monotonic() >= deadline:
            return res
        await asyncio.sleep(delay)
        delay = min(delay * 1.5, 0.5)


async def _start_and_wait(
    batch_id: int, header_row: int, mapping: dict[str, int | None] | None
) -> dict[str, Any]:
    tenant_id = await call(importer.prepare_start, batch_id, header_row, mapping)
    runtime.submit(importer.run_import, batch_id, tenant_id)
    return await _wait(batch_id, transfer_settings().import_wait_seconds)


@router.post(f"{IMPORT}/import-data", raw=True, multipart=True)
async def import_data(request: Request) -> dict[str, Any]:
    """Import a workbook in one go: header on the first row, fields matched by their titles."""
    current_context().require_user()
    form, import_id = await _read_workbook(request)
    try:
        upload = form.file("file")
        assert upload is not None
        accepted = await call(importer.accept_upload, upload, import_id)
    finally:
        form.discard()
    return await _start_and_wait(accepted["batchId"], 1, None)


@router.post(f"{IMPORT}/upload", raw=True, multipart=True)
async def wizard_upload(request: Request) -> dict[str, Any]:
    """Wizard step 1: upload one xls or xlsx file; answers the batch and the first 50 rows."""
    current_context().require_user()
    form, import_id = await _read_workbook(request)
    try:
        upload = form.file("file")
        assert upload is not None
        result: dict[str, Any] = await call(importer.accept_upload, upload, import_id)
        return result
    finally:
        form.discard()


class ColumnsBody(BaseModel):
    batchId: int = Field(ge=1)
    headerRow: int = Field(default=1, ge=1, le=50)


@router.post(f"{IMPORT}/columns", body=ColumnsBody)
def wizard_columns(body: ColumnsBody) -> dict[str, Any]:
    """Wizard steps 2 and 3: the header row's titles, the target's fields and the automatic matching."""
    return importer.columns(body.batchId, body.headerRow)


class StartBody(BaseModel):
    batchId: int = Field(ge=1)
    headerRow: int = Field(default=1, ge=1, le=50)
    mapping: dict[str, int | None] = Field(default_factory=dict)

    @field_validator("mapping")
    @classmethod
    def _size(cls, v: dict[str, int | None]) -> dict[str, int | None]:
        if len(v) > 500:
            raise ValueError("too many fields")
        return v


@router.post(f"{IMPORT}/start", body=StartBody)
async def wizard_start(body: StartBody) -> dict[str, Any]:
    """Wizard step 4: run the import with the chosen matching; answers the result (or that it runs on)."""
    current_context().require_user()
    return await _start_and_wait(body.batchId, body.headerRow, body.mapping)


class BatchQuery(BaseModel):
    batchId: int = Field(ge=1)


@router.get(f"{IMPORT}/result", query=BatchQuery)
def wizard_result(query: BatchQuery) -> dict[str, Any]:
    """A batch's state: total, successes, failures, the failed-rows Excel."""
    return importer.result(query.batchId)


class HistoryBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    importId: str = Field(default="", max_length=64)
    pageNum: int = Field(default=1, ge=1)
    pageSize: int = Field(default=20, ge=1, le=200)


@router.post(f"{IMPORT}/history", body=HistoryBody)
def import_history(body: HistoryBody) -> dict[str, Any]:
    """Import history: batch, status, dataCount, successCount, creationDate, createdUserName."""
    return importer.history(body.importId, body.pageNum, body.pageSize)


@router.get(f"{IMPORT}/targets")
def import_targets() -> list[dict[str, Any]]:
    """The import targets the user may import into, with their fields."""
    return importer.list_targets()


class TargetQuery(BaseModel):
    importId: str = Field(min_length=1, max_length=64)


@router.get(f"{IMPORT}/template", query=TargetQuery)
def import_template(query: TargetQuery) -> Response:
    """An empty workbook with the target's field titles (required ones marked with *)."""
    target = importer.require_target(query.importId)
    titles = [("*" if f.required else "") + localise(f.label) for f in target.fields]
    buf = io.BytesIO()
    path = runtime.work_dir("xlsx") / f"template-{time.time_ns()}.xlsx"
    try:
        XlsxRowWriter(path, titles, title=localise(target.name)).close()
        buf.write(path.read_bytes())
    finally:
        path.unlink(missing_ok=True)
    name = f"{localise(target.name)}.xlsx"
    return Response(
        buf.getvalue(),
        media_type=importer.XLSX,
        headers={
            "content-disposition": 'attachment; filename="template.xlsx"; '
            f"filename*=UTF-8''{urllib.parse.quote(name)}",
            "x-content-type-options": "nosniff",
        },
    )


# -- export ----------------------------------------------------------------------------------------------


class ExportBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    url: str = Field(min_length=1, max_length=512)
    fileName: str = Field(default="", max_length=128)
    excelType: str = Field(default="xlsx", pattern=r"^(xlsx|xls|csv)$")
    method: str = Field(default="POST", pattern=r"^(GET|POST|get|post)$")
    singleSheetMaxRows: int = Field(default=100_000, ge=1, le=1_000_000)
    pageIndex: int = Field(default=1, ge=1)
    pageRows: int = Field(default=1000, ge=1, le=10_000)
    columnList: list[Any] = Field(default_factory=list, max_length=500)
    params: Any = None
    functionName: str = Field(default="", max_length=128)
    resourceId: str | int | None = None


async def _create_export(body: ExportBody) -> dict[str, Any]:
    current_context().require_user()

    def create() -> tuple[int, int]:
        task = exporter.create_task(
            url=body.url,
            file_name=body.fileName,
            excel_type=body.excelType,
            method=body.method,
            sheet_max=body.singleSheetMaxRows,
            page_rows=body.pageRows,
            columns=body.columnList,
            params=body.params if body.params is not None else {},
            function_name=body.functionName,
            resource_id=str(body.resourceId or ""),
        )
        return task.id, task.tenant_id

    task_id, tenant_id = await call(create)
    exporter.submit(task_id, tenant_id)
    return {"exportId": task_id, "status": 0}


@router.post(f"{EXPORT}/export/", body=ExportBody)
async def export_create(body: ExportBody) -> dict[str, Any]:
    """Create an asynchronous export task; poll get-export-result until its status is 2."""
    return await _create_export(body)


@router.post(f"{EXPORT}/export", body=ExportBody)
async def export_create_no_slash(body: ExportBody) -> dict[str, Any]:
    """The same as `export/`."""
    return await _create_export(body)


class ExportIdQuery(BaseModel):
    exportId: int = Field(ge=1)


@router.post(f"{EXPORT}/get-export-result", query=ExportIdQuery)
def export_result(query: ExportIdQuery) -> dict[str, Any]:
    """A task's status (2 when done), progress, file address and failure reason."""
    return exporter.describe(exporter.own_task(query.exportId))


class ListBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    pageNum: int = Field(default=1, ge=1)
    pageSize: int = Field(default=20, ge=1, le=200)
    status: int | None = Field(default=None, ge=0, le=4)
    keyword: str = Field(default="", max_length=100)


@router.post(f"{EXPORT}/list", body=ListBody)
def export_list(body: ListBody) -> dict[str, Any]:
    """Export records: exportId, status, requestUrl, creationDate, functionName, userName, action, errorMsg"""
    return exporter.list_tasks(body.status, body.keyword, body.pageNum, body.pageSize)


class WordBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    tempCode: str = Field(min_length=1, max_length=64)
    apiParams: dict[str, Any] = Field(default_factory=dict)
    resourceId: str | int | None = None


@router.post(f"{EXPORT}/export-word", body=WordBody)
def export_word(body: WordBody) -> dict[str, Any]:
    """Fill a Word template; answers fileUrl and fileName, or code 805 with the reason."""
    params = body.apiParams.get("params", body.apiParams)
    return word.export_word(
        body.tempCode, params if isinstance(params, dict) else {"params": params}, str(body.resourceId or "")
    )


@router.get(f"{EXPORT}/templates")
def word_templates() -> list[str]:
    """The Word templates that can be filled."""
    return word.template_codes()
