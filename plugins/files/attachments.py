"""The SDK's ``Attachments`` service (``services().attachments``), backed by this plugin's records."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from sqlalchemy import select
from starlette.requests import Request

from atrium.sdk.context import unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import AtriumError
from atrium.sdk.files import AttachmentInfo, UploadForm
from atrium.sdk.services import StoredObject

from . import multipart, policies, service
from .models import Attachment


def info(att: Attachment) -> AttachmentInfo:
    return AttachmentInfo(
        id=att.id,
        tenant_id=att.tenant_id,
        name=att.source_name,
        content_type=att.content_type,
        size=att.size,
        stored_name=att.stored_name,
        url=service.file_path(att),
    )


class FileAttachments:
    """Implements :class:`atrium.sdk.files.Attachments`."""

    def store(
        self,
        src: Path | BinaryIO | bytes,
        name: str,
        content_type: str = "application/octet-stream",
        *,
        func_code: str = "",
        policy: str = "file",
        tenant_id: int | None = None,
        created_by: int | None = None,
        creation_name: str | None = None,
    ) -> AttachmentInfo:
        att = service.store_file(
            src,
            name,
            content_type,
            func_code=func_code,
            policy=policy,
            tenant_id=tenant_id,
            created_by=created_by,
            creation_name=creation_name,
        )
        return info(att)

    def record(
        self,
        tenant_id: int,
        stored_name: str,
        name: str,
        content_type: str,
        *,
        size: int = 0,
        func_code: str = "",
        policy: str = "file",
        creation_name: str | None = None,
    ) -> AttachmentInfo:
        att = service.add_attachment(
            tenant_id,
            StoredObject(key=stored_name, size=size),
            name,
            content_type,
            func_code=func_code,
            policy=policy,
            creation_name=creation_name,
        )
        return info(att)

    def get(self, file_id: int) -> AttachmentInfo:
        return info(service.get_attachment(file_id))

    def tenants_of(self, stored_name: str) -> list[int]:
        with unscoped():
            rows = session().execute(
                select(Attachment.tenant_id).where(Attachment.stored_name == stored_name)
            )
            return [tid for (tid,) in rows]

    def open(self, file_id: int) -> Iterator[bytes]:
        _, chunks = service.open_stream(service.get_attachment(file_id))
        assert chunks is not None
        return chunks

    def remove(self, file_id: int) -> None:
        service.remove_attachment(service.get_attachment(file_id))

    def signed_url(
        self, att: AttachmentInfo, download_name: str | None = None, ttl: int | None = None
    ) -> str:
        return service.signed_url(service.get_attachment(att.id), download_name, ttl)

    async def read_multipart(
        self,
        request: Request,
        *,
        max_file_bytes: int,
        too_big: AtriumError,
        max_files: int = 1,
        max_fields: int = 20,
        max_field_bytes: int = 64 * 1024,
        file_fields: tuple[str, ...] = ("file",),
    ) -> UploadForm:
        return await multipart.read_multipart(
            request,
            max_file_bytes=max_file_bytes,
            too_big=too_big,
            max_files=max_files,
            max_fields=max_fields,
            max_field_bytes=max_field_bytes,
            file_fields=file_fields,
        )

    def clean_filename(self, raw: str) -> str:
        return multipart.clean_filename(raw)

    def human_size(self, n: int) -> str:
        return policies.human_size(n)
