"""Routes of the `file` service (attachments) and the custom icons under `/api/base/base-custom-icon`."""

from __future__ import annotations

import re
import urllib.parse
from typing import Any

import anyio
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from atrium.sdk.context import current_context, tenant_scope
from atrium.sdk.errors import BadRequest, NotFound, NotLoggedIn
from atrium.sdk.routing import Router
from atrium.sdk.services import services

from . import icons, service, storage, streaming
from .editing import editor
from .editing.document_data import DocumentIn
from .editing.workbook_write import WorkbookIn
from .models import Attachment
from .multipart import read_multipart
from .policies import UploadPolicy, policy_for

router = Router()
BASE = "/api/file/iot-base-attachment"
ICONS = "/api/base/base-custom-icon"
CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox"
#: the button that saves, changes and deletes custom icons (administrators hold it)
MANAGE_ICONS = icons.MANAGE
FUNC_CODE = re.compile(r"^[A-Za-z0-9_.:-]{0,64}$")


def in_session(fn: Any, *args: Any) -> Any:
    with services().db():
        return fn(*args)


# -- attachments -----------------------------------------------------------------------------------------


@router.post(f"{BASE}/single/file-upload", raw=True, multipart=True)
async def upload(request: Request) -> dict[str, Any]:
    """Upload one file (multipart `file`); `funcCode` picks the rules (image, icon, or any file)."""
    current_context().require_user()
    func_code = request.query_params.get("funcCode", "")
    if not FUNC_CODE.match(func_code):
        raise BadRequest("files:upload.bad_func_code")
    policy = policy_for(func_code)
    if policy.is_image:
        att = await _store_checked(request, policy, func_code)
    else:
        att = await _store_streamed(request, policy, func_code)
    return {
        "fileId": att.id,
        "filePath": service.file_path(att),
        "sourceFileName": att.source_name,
        "contentType": att.content_type,
        "size": att.size,
        "url": service.signed_url(att),
    }


async def _store_checked(request: Request, policy: UploadPolicy, func_code: str) -> Attachment:
    """A picture or an icon: spooled whole (a few MB at most), checked, re-encoded or sanitised, stored."""
    form = await read_multipart(request, max_file_bytes=policy.max_bytes, too_big=policy.too_big())
    try:
        upload = form.file("file")
        if upload is None:
            raise BadRequest("files:upload.file_required")
        if upload.size == 0:
            raise BadRequest("files:upload.empty")
        att: Attachment = await run_in_threadpool(in_session, service.store_upload, upload, policy, func_code)
        return att
    finally:
        form.discard()


async def _store_streamed(request: Request, policy: UploadPolicy, func_code: str) -> Attachment:
    """Any file: streamed into the store while the body arrives, then recorded; an object whose record
    cannot be written is deleted again."""
    upload = await streaming.receive_upload(request, policy, current_context().tenant_id)
    try:
        record = service.record_upload
        att: Attachment = await run_in_threadpool(in_session, record, upload, policy, func_code)
        return att
    except BaseException:
        with anyio.CancelScope(shield=True):
            await run_in_threadpool(storage.delete, upload.tenant_id, upload.stored.key)
        raise


class IdQuery(BaseModel):
    id: int = Field(ge=1)


@router.get(f"{BASE}/delete-id", query=IdQuery)
def delete_id(query: IdQuery) -> None:
    """Delete an attachment: its uploader, a holder of the `file:delete` button, or an administrator."""
    service.delete_attachment(query.id)


class UrlQuery(BaseModel):
    url: str = Field(min_length=1, max_length=2048)


@router.get(f"{BASE}/getUrl", query=UrlQuery)
def get_url(query: UrlQuery) -> str:
    """A short-lived address for a stored file's address (to show it in <img> or a new window)."""
    return service.signed_url(service.by_url(query.url))


class DownQuery(BaseModel):
    fileName: str = Field(default="", max_length=255)
    oldUrl: str = Field(min_length=1, max_length=2048)


@router.get(f"{BASE}/getDownUrlByName", query=DownQuery)
def get_down_url_by_name(query: DownQuery) -> str:
    """A short-lived download address that saves the file under `fileName`."""
    att = service.by_url(query.oldUrl)
    return service.signed_url(att, query.fileName or att.source_name)


class ListQuery(BaseModel):
    funcCode: str = Field(default="", max_length=64)
    keyword: str = Field(default="", max_length=100)
    pageNum: int = Field(default=1, ge=1)
    pageSize: int = Field(default=20, ge=1, le=200)


@router.get(f"{BASE}/find-list", query=ListQuery)
def find_list(query: ListQuery) -> dict[str, Any]:
    """Uploaded documents of the tenant: file name, uploader, upload date, preview address."""
    return service.list_attachments(query.funcCode, query.keyword, query.pageNum, query.pageSize)


class FileQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")
    t: str = Field(default="", max_length=24)
    exp: str = Field(default="", max_length=16)
    sig: str = Field(default="", max_length=64)
    dl: str = Field(default="", max_length=1)
    fn: str = Field(default="", max_length=255)


@router.get(f"{BASE}/file/{{name}}", public=True, query=FileQuery)
def serve_file(name: str, query: FileQuery) -> Response:
    """A stored file: for signed-in users of its tenant, or anyone holding a valid signed address."""
    ctx = current_context()
    if query.sig:
        tenant = service.verify_signature(query.t, name, query.exp, query.sig, query.dl, query.fn)
    elif ctx.user is not None and ctx.tenant_id is not None:
        tenant = ctx.tenant_id
    else:
        raise NotLoggedIn()
    with tenant_scope(tenant):
        att = service.by_stored_name(name)
        wanted = ctx.headers.get("range", "")
        part = service.open_range(att, wanted) if wanted else None
        _, chunks = (None, None) if part else service.open_stream(att)
    download = query.dl == "1" or att.content_type not in service.RASTER_TYPES
    filename = query.fn or att.source_name
    quoted = urllib.parse.quote(filename, safe="")
    ascii_name = filename.encode("ascii", "replace").decode().replace('"', "_").replace("?", "_")
    headers = {
        "content-disposition": f'{"attachment" if download else "inline"}; filename="{ascii_name}"; '
        f"filename*=UTF-8''{quoted}",
        "x-content-type-options": "nosniff",
        "content-security-policy": CSP,
        "cache-control": "private, max-age=300",
        "accept-ranges": "bytes",
    }
    if part is not None:
        (start, end, size), body = part
        headers["content-range"] = f"bytes {start}-{end}/{size}"
        headers["content-length"] = str(end - start + 1)
        return StreamingResponse(body, status_code=206, media_type=att.content_type, headers=headers)
    if chunks is None:
        raise NotFound()
    return StreamingResponse(chunks, media_type=att.content_type, headers=headers)


# -- document editor -------------------------------------------------------------------------------------


@router.get(f"{BASE}/editor/open", query=IdQuery)
def editor_open(query: IdQuery) -> dict[str, Any]:
    """An xlsx or docx attachment as the editor's data (`kind` `sheet`: Univer's workbook data; `doc`: its
    document data), with the file name and the file it is a version of."""
    return editor.open_file(query.id)


class SaveBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: int = Field(ge=1)
    #: for a spreadsheet
    workbook: WorkbookIn | None = None
    #: for a Word document
    document: DocumentIn | None = None


@router.post(f"{BASE}/editor/save", body=SaveBody)
def editor_save(body: SaveBody) -> dict[str, Any]:
    """Save edited data as a new version of the attachment `id`: a new attachment with the same file name
    whose `previousId` is `id` (the original is kept). Anyone who may upload may save."""
    return editor.save_file(body.id, body.workbook, body.document)


# -- custom icons ----------------------------------------------------------------------------------------


@router.get(f"{ICONS}/get-all")
def icons_all() -> list[dict[str, Any]]:
    """Custom icons of the tenant and the platform's shared ones, with whether the user may change each."""
    return icons.list_icons()


class IconBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    ciId: int | None = None
    iconName: str = Field(default="", max_length=64)
    iconUrl: str = Field(default="", max_length=2048)
    iconFormat: str = Field(default="", max_length=64)
    tenantId: int | None = None
    fileId: int | None = None

    @field_validator("iconName")
    @classmethod
    def _strip(cls, v: str) -> str:
        return v.strip()

    def require_name(self) -> str:
        if not self.iconName:
            raise BadRequest("files:icon.name_required")
        return self.iconName


@router.post(f"{ICONS}/save", body=IconBody, grant=MANAGE_ICONS)
def icon_save(body: IconBody) -> dict[str, Any]:
    """Save a new icon (an existing `ciId` updates it)."""
    name = body.require_name()
    if body.ciId:
        return icons.update_icon(body.ciId, name, body.fileId, body.iconUrl)
    return icons.save_icon(name, body.fileId, body.iconUrl)


@router.post(f"{ICONS}/update", body=IconBody, grant=MANAGE_ICONS)
def icon_update(body: IconBody) -> dict[str, Any]:
    """Rename an icon or replace its picture."""
    name = body.require_name()
    if not body.ciId:
        raise BadRequest("files:icon.id_required")
    return icons.update_icon(body.ciId, name, body.fileId, body.iconUrl)


class CiQuery(BaseModel):
    ciId: int = Field(ge=1)


@router.get(f"{ICONS}/delete", query=CiQuery, grant=MANAGE_ICONS)
def icon_delete(query: CiQuery) -> None:
    """Delete an icon and its picture."""
    icons.delete_icon(query.ciId)
