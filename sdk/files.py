"""Attachments: the files plugin's stored files, as a service other plugins use without importing it.

The files plugin provides it (hook ``atrium_services``); reach it as ``services().attachments``. Calls that
touch records run inside a database session (a request's, or ``services().db()`` in a job)::

    att = services().attachments.store(path, "report.xlsx", XLSX, func_code="dataexport", policy="export")
    link = services().attachments.signed_url(att, "report.xlsx")
    for chunk in services().attachments.open(att.id):
        ...
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Protocol

if TYPE_CHECKING:
    from starlette.requests import Request

    from atrium.sdk.errors import AtriumError


@dataclass(frozen=True)
class AttachmentInfo:
    """What a plugin sees of one attachment."""

    id: int
    tenant_id: int
    #: the file name the uploader (or the generating code) gave
    name: str
    content_type: str
    size: int
    #: the server-generated name of its object in the store
    stored_name: str
    #: its stable address, served to signed-in users of its tenant
    url: str


class Upload(Protocol):
    """A file part of a multipart body, spooled to a temporary file (removed by ``discard``)."""

    field_name: str
    filename: str
    content_type: str
    path: Path
    size: int

    def discard(self) -> None: ...


class UploadForm(Protocol):
    """A multipart body read with limits: its text fields and its spooled files."""

    @property
    def fields(self) -> dict[str, str]: ...
    def file(self, name: str = "file") -> Upload | None: ...
    def discard(self) -> None:
        """Remove the spooled files."""
        ...


class Attachments(Protocol):
    """Tenant-owned stored files (``services().attachments``, provided by the files plugin).

    A missing attachment raises ``NotFound``; an unreachable store ``StorageUnavailable``.
    """

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
        """Store bytes as a new attachment of the current tenant (or ``tenant_id``), made by the signed-in
        user unless ``created_by``/``creation_name`` say otherwise (background jobs)."""
        ...

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
        """Add the record of an object already in (or later put in) the store under ``stored_name``."""
        ...

    def get(self, file_id: int) -> AttachmentInfo: ...

    def tenants_of(self, stored_name: str) -> list[int]:
        """The tenants with an attachment stored under ``stored_name`` (all tenants, no scope needed)."""
        ...

    def open(self, file_id: int) -> Iterator[bytes]:
        """The attachment's bytes in chunks, opened now."""
        ...

    def remove(self, file_id: int) -> None:
        """Delete an attachment's record and bytes (no permission check: for a plugin's own files)."""
        ...

    def signed_url(
        self, att: AttachmentInfo, download_name: str | None = None, ttl: int | None = None
    ) -> str:
        """A short-lived address serving the file without a session; a download under ``download_name``."""
        ...

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
        """Read a multipart body, spooling its files to disk; raises ``too_big`` as soon as a file passes
        ``max_file_bytes``. The caller calls ``discard()`` on the answer when done."""
        ...

    def clean_filename(self, raw: str) -> str:
        """A file name safe to keep and to send back (no folders, control characters or odd length)."""
        ...

    def human_size(self, n: int) -> str:
        """``1048576`` -> ``1MB``, ``512000`` -> ``500KB``, as the upload widgets show sizes."""
        ...
