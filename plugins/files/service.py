"""Attachments: store, describe, sign links, delete. No HTTP here.

Python API for other plugins::

    from atrium.plugins.files.service import store_file, file_path, signed_url

    att = store_file(path_or_stream, "report.xlsx", "application/vnd...", func_code="dataexport")
    file_path(att)            # the stable address stored in other records
    signed_url(att, "Q3.xlsx")  # a short-lived download address a browser can open
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import re
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from sqlalchemy import func, select

from atrium.sdk.context import current_context, tenant_scope
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, Conflict, Forbidden, NotFound
from atrium.sdk.grants import holds_grant
from atrium.sdk.services import StoredObject, services

from . import storage
from .images import check_image
from .models import Attachment, CustomIcon
from .multipart import UploadedFile, clean_filename, extension
from .policies import UploadPolicy
from .settings import files_settings
from .storage import valid_name
from .streaming import StreamedUpload
from .svg import sanitise_svg

BASE = "/api/file/iot-base-attachment"
#: files people uploaded (the document list); exports and import workbooks are the platform's own
USER_POLICIES = ("file", "image", "icon")
FILE_ROUTE = f"{BASE}/file/"
BYTE_RANGE = re.compile(r"^bytes=(\d{0,18})-(\d{0,18})$")
#: types served with their own Content-Type; everything else is application/octet-stream
SAFE_TYPES = {
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "image/svg+xml",
    "application/pdf",
    "text/plain",
    "text/csv",
    "application/zip",
    "application/json",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "application/vnd.ms-excel",
    "application/msword",
}
#: types a browser may show inline (they cannot run script once sanitised and served with nosniff + CSP)
INLINE_TYPES = {"image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"}
# Shown in the browser when opened; anything else (SVG included: it can carry script) is a download.
RASTER_TYPES = INLINE_TYPES - {"image/svg+xml"}
#: files the document editor opens, by extension, and the editor that opens them
EDITABLE = {"xlsx": "sheet", "docx": "doc"}
#: the platform event (`atrium_event`) sent when an attachment is deleted, in the deleting transaction, with
#: `file_id` and `stored_name` (its object's name in the store) in its data: plugins drop what they keep of it
FILE_DELETED = "file_deleted"


# -- storing ---------------------------------------------------------------------------------------------


def store_file(
    src: Path | BinaryIO | bytes,
    source_name: str,
    content_type: str = "application/octet-stream",
    *,
    func_code: str = "",
    policy: str = "file",
    tenant_id: int | None = None,
    created_by: int | None = None,
    creation_name: str | None = None,
) -> Attachment:
    """Store bytes as a new attachment of the current tenant (or ``tenant_id``) and answer its record.

    Runs inside a database session (a request's, or ``services().db()`` in a job).
    """
    tid = tenant_id if tenant_id is not None else current_context().tenant_id
    if tid is None:
        raise Forbidden()
    name = clean_filename(source_name)
    suffix = extension(name)
    if isinstance(src, bytes):
        stream: BinaryIO = io.BytesIO(src)
    elif isinstance(src, Path):
        stream = src.open("rb")
    else:
        stream = src
    try:
        stored = storage.put(tid, stream, suffix, content_type)
    finally:
        if isinstance(src, Path):
            stream.close()
    return add_attachment(
        tid,
        stored,
        name,
        content_type,
        func_code=func_code,
        policy=policy,
        created_by=created_by,
        creation_name=creation_name,
    )


def add_attachment(
    tenant_id: int,
    stored: StoredObject,
    source_name: str,
    content_type: str,
    *,
    func_code: str = "",
    policy: str = "file",
    created_by: int | None = None,
    creation_name: str | None = None,
) -> Attachment:
    """The record of an object already in the store (``stored``), added to the tenant's attachments."""
    user = current_context().user
    att = Attachment(
        stored_name=stored.key,
        backend=storage.store().kind,
        source_name=source_name,
        size=stored.size,
        content_type=content_type if content_type in SAFE_TYPES else "application/octet-stream",
        func_code=func_code[:64],
        policy=policy,
        created_by=created_by if created_by is not None else (user.user_id if user else None),
        creation_name=creation_name if creation_name is not None else (user.full_name if user else ""),
    )
    with tenant_scope(tenant_id):
        db = session()
        db.add(att)
        db.flush()
    return att


def record_upload(upload: StreamedUpload, policy: UploadPolicy, func_code: str) -> Attachment:
    """The record of an upload streamed into the store (any-file policies: nothing to check or convert)."""
    part = upload.part
    return add_attachment(
        upload.tenant_id,
        upload.stored,
        part.filename,
        part.content_type,
        func_code=func_code,
        policy=policy.name,
    )


def store_upload(upload: UploadedFile, policy: UploadPolicy, func_code: str) -> Attachment:
    """Check an uploaded file against its policy and store it (images re-encoded, SVG sanitised)."""
    if policy.is_image:
        ext = upload.extension
        if policy.allow_svg and ext == "svg":
            if upload.content_type not in ("image/svg+xml", "application/octet-stream", ""):
                raise policy.bad_type()
            data = sanitise_svg(upload.path.read_bytes(), policy.bad_type())
            return store_file(data, upload.filename, "image/svg+xml", func_code=func_code, policy=policy.name)
        checked = check_image(
            upload.path.read_bytes(),
            ext,
            upload.content_type,
            set(policy.image_formats),
            max_pixels=files_settings().image_max_pixels,
            type_error=policy.bad_type(),
            too_big_error=BadRequest("files:image.too_many_pixels"),
        )
        stem = upload.filename.rsplit(".", 1)[0] if "." in upload.filename else upload.filename
        return store_file(
            checked.data, f"{stem}.{checked.suffix}", checked.mime, func_code=func_code, policy=policy.name
        )
    return store_file(
        upload.path, upload.filename, upload.content_type, func_code=func_code, policy=policy.name
    )


# -- addresses -------------------------------------------------------------------------------------------


def file_path(att: Attachment) -> str:
    """The stable address of an attachment (served to signed-in users of its tenant)."""
    return FILE_ROUTE + att.stored_name


def _sign(payload: str) -> str:
    key = str(services().settings.secret_key).encode()
    digest = hmac.new(key, payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")


def _payload(tenant_id: int, name: str, exp: int, dl: str, fn: str) -> str:
    return f"files|{tenant_id}|{name}|{exp}|{dl}|{fn}"


def signed_url(att: Attachment, download_name: str | None = None, ttl: int | None = None) -> str:
    """A short-lived address that serves the file without a session (for <img>, window.open, links)."""
    exp = int(time.time()) + (ttl or files_settings().link_ttl)
    dl = "1" if download_name is not None else ""
    fn = ""
    if download_name is not None:
        fn = clean_filename(download_name)
        ext = extension(att.source_name)
        if ext and extension(fn) != ext:
            fn = f"{fn}.{ext}"
    params = {
        "t": str(att.tenant_id),
        "exp": str(exp),
        "sig": _sign(_payload(att.tenant_id, att.stored_name, exp, dl, fn)),
    }
    if dl:
        params["dl"] = dl
        params["fn"] = fn
    return FILE_ROUTE + att.stored_name + "?" + urllib.parse.urlencode(params)


def verify_signature(tenant: str, name: str, exp: str, sig: str, dl: str, fn: str) -> int:
    """The tenant a signed address was issued for; NotFound when it is forged or expired."""
    if not (tenant.lstrip("-").isdigit() and exp.isdigit()):
        raise NotFound()
    expected = _sign(_payload(int(tenant), name, int(exp), dl, fn))
    if not hmac.compare_digest(expected, sig) or int(exp) < time.time():
        raise NotFound()
    return int(tenant)


def name_from_url(url: str) -> str:
    """The stored name in an address a client sends back (full URL, path, or bare name)."""
    path = urllib.parse.urlsplit(url.strip()).path
    name = path.rstrip("/").rsplit("/", 1)[-1]
    if not valid_name(name):
        raise NotFound()
    return name


# -- reading ---------------------------------------------------------------------------------------------


def get_attachment(file_id: int) -> Attachment:
    att = session().get(Attachment, file_id)
    if att is None:
        raise NotFound("files:file.not_found")
    return att


def by_stored_name(name: str) -> Attachment:
    if not valid_name(name):
        raise NotFound("files:file.not_found")
    att: Attachment | None = (
        session().execute(select(Attachment).where(Attachment.stored_name == name)).scalar()
    )
    if att is None:
        raise NotFound("files:file.not_found")
    return att


def shared_url(tenant_id: int, url: str) -> str | None:
    """A signed address of one of the tenant's stored files, for content published without a session;
    None for an address this plugin does not store for that tenant."""
    if not url.startswith(FILE_ROUTE):
        return None
    with tenant_scope(tenant_id):
        try:
            return signed_url(by_url(url))
        except NotFound:
            return None


def by_url(url: str) -> Attachment:
    try:
        return by_stored_name(name_from_url(url))
    except NotFound:
        raise NotFound("files:file.not_found") from None


def describe(att: Attachment) -> dict[str, Any]:
    created = att.created_at.strftime("%Y-%m-%d %H:%M:%S")
    return {
        "fileId": att.id,
        "filePath": file_path(att),
        "sourceFileName": att.source_name,
        "creationName": att.creation_name,
        "creationDate": created,
        "uploadDate": created,
        "contentType": att.content_type,
        "size": att.size,
        "funcCode": att.func_code,
        "previewUrl": signed_url(att) if att.content_type in INLINE_TYPES else None,
        "canDelete": may_delete(att),
        "editorKind": EDITABLE.get(extension(att.source_name)),
        "previousId": att.previous_id,
    }


def list_attachments(func_code: str, keyword: str, page: int, size: int) -> dict[str, Any]:
    q = select(Attachment).where(Attachment.policy.in_(USER_POLICIES))
    if func_code:
        q = q.where(Attachment.func_code == func_code)
    if keyword:
        q = q.where(Attachment.source_name.contains(keyword, autoescape=True))
    db = session()
    total = db.execute(select(func.count()).select_from(q.subquery())).scalar_one()
    rows = db.execute(q.order_by(Attachment.id.desc()).offset((page - 1) * size).limit(size)).scalars().all()
    return {"list": [describe(a) for a in rows], "total": total, "pageNum": page, "pageSize": size}


def open_stream(att: Attachment) -> tuple[Path | None, Iterator[bytes] | None]:
    """The attachment's bytes as an iterator of chunks, opened now (a missing object raises NotFound, an
    unreachable store StorageUnavailable). The path is always None: objects may live in a bucket, and a
    caller that needs a file copies the chunks to a temporary one."""
    return None, storage.iter_bytes(att.tenant_id, att.stored_name)


def open_range(att: Attachment, header: str) -> tuple[tuple[int, int, int], Iterator[bytes]] | None:
    """For a ``Range: bytes=...`` request of one satisfiable range: ``(start, end, size)`` (end inclusive)
    and those bytes, opened now; None when the whole file should be sent instead (a server may ignore a
    range it does not serve, such as several ranges at once)."""
    m = BYTE_RANGE.match(header.strip())
    if m is None or (not m[1] and not m[2]):
        return None
    size = storage.size(att.tenant_id, att.stored_name)
    if m[1]:
        start = int(m[1])
        end = min(int(m[2]), size - 1) if m[2] else size - 1
    else:  # the last N bytes
        start, end = max(size - int(m[2]), 0), size - 1
    if start > end or start >= size:
        return None
    return (start, end, size), storage.iter_bytes(att.tenant_id, att.stored_name, start, end - start + 1)


# -- deleting --------------------------------------------------------------------------------------------


def storage_references() -> list[tuple[int, str, str]]:
    """Every attachment's object, for the platform's storage check (all tenants)."""
    rows = session().execute(
        select(Attachment.tenant_id, Attachment.stored_name, Attachment.id, Attachment.source_name)
    )
    return [(tid, name, f"files attachment {id_} ({source})") for tid, name, id_, source in rows]


def may_delete(att: Attachment) -> bool:
    """Its uploader, a holder of the `file:delete` button (any file of the tenant) or an administrator."""
    user = current_context().user
    if user is None:
        return False
    if user.is_admin or (att.created_by is not None and att.created_by == user.user_id):
        return True
    return holds_grant("file:delete")


def remove_attachment(att: Attachment) -> None:
    """Delete an attachment's record and bytes (no permission check: for plugins' own files), and tell other
    plugins with the platform event `file_deleted` (`FILE_DELETED`)."""
    db = session()
    storage.delete(att.tenant_id, att.stored_name)
    db.delete(att)
    db.flush()
    user = current_context().user
    services().emit(
        FILE_DELETED,
        tenant_id=att.tenant_id,
        user_id=user.user_id if user else None,
        file_id=att.id,
        stored_name=att.stored_name,
    )


def delete_attachment(file_id: int) -> None:
    att = get_attachment(file_id)
    if not may_delete(att):
        raise Forbidden()
    in_use = session().execute(select(func.count()).where(CustomIcon.file_id == att.id)).scalar_one()
    if in_use:
        raise Conflict("files:file.in_use")
    remove_attachment(att)
