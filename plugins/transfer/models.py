"""Tables of the transfer plugin: import batches, export tasks, and the demo contacts target."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Date, DateTime, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from atrium.sdk.db import BigId, TenantScoped, new_metadata, utcnow


class Base(DeclarativeBase):
    """The transfer plugin's own metadata (its own migration history)."""

    metadata = new_metadata()


# task states shared by imports and exports (export "done" is 2, as the web polls for)
WAITING, RUNNING, DONE, FAILED, EXPIRED = 0, 1, 2, 3, 4
UPLOADED = -1  # an import file uploaded in the wizard, not started yet


class ImportBatch(TenantScoped, Base):
    """One import of one file; its counters are committed together with the rows they count."""

    __tablename__ = "transfer_import_batch"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    batch: Mapped[str] = mapped_column(String(32), nullable=False, index=True)
    import_id: Mapped[str] = mapped_column(String(64), nullable=False, index=True)
    file_name: Mapped[str] = mapped_column(String(255), default="", nullable=False)
    file_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    header_row: Mapped[int] = mapped_column(Integer, default=1, nullable=False)
    mapping: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict, nullable=False)
    #: the first rows as text, kept at upload for the wizard's header and matching steps
    preview: Mapped[list[Any]] = mapped_column(JSON, default=list, nullable=False)
    status: Mapped[int] = mapped_column(Integer, default=UPLOADED, nullable=False, index=True)
    data_count: Mapped[int] = mapped_column(Integer, default=0, nullable=False)
    processed: Mapped[int] = mapped_column(Integer, default=0, nullable=False)
    success_count: Mapped[int] = mapped_column(Integer, default=0, nullable=False)
    fail_count: Mapped[int] = mapped_column(Integer, default=0, nullable=False)
    fail_file_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    error_msg: Mapped[str] = mapped_column(Text, default="", nullable=False)
    locale: Mapped[str] = mapped_column(String(8), default="zh-cn", nullable=False)
    user_snapshot: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict, nullable=False)
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_user_name: Mapped[str] = mapped_column(String(128), default="", nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False, index=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    heartbeat_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    owner: Mapped[str] = mapped_column(String(64), default="", nullable=False)


class ExportTask(TenantScoped, Base):
    """An asynchronous export (Excel) or a Word export, with its status, progress and file."""

    __tablename__ = "transfer_export_task"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    action: Mapped[str] = mapped_column(String(16), default="excel", nullable=False)
    request_url: Mapped[str] = mapped_column(String(512), default="", nullable=False)
    function_name: Mapped[str] = mapped_column(String(128), default="", nullable=False)
    file_name: Mapped[str] = mapped_column(String(255), default="", nullable=False)
    excel_type: Mapped[str] = mapped_column(String(8), default="xlsx", nullable=False)
    method: Mapped[str] = mapped_column(String(8), default="POST", nullable=False)
    sheet_max: Mapped[int] = mapped_column(Integer, default=100_000, nullable=False)
    page_rows: Mapped[int] = mapped_column(Integer, default=1000, nullable=False)
    columns: Mapped[list[Any]] = mapped_column(JSON, default=list, nullable=False)
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict, nullable=False)
    resource_id: Mapped[str] = mapped_column(String(64), default="", nullable=False)
    status: Mapped[int] = mapped_column(Integer, default=WAITING, nullable=False, index=True)
    progress: Mapped[int] = mapped_column(Integer, default=0, nullable=False)
    row_count: Mapped[int] = mapped_column(Integer, default=0, nullable=False)
    error_msg: Mapped[str] = mapped_column(Text, default="", nullable=False)
    file_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    file_url: Mapped[str] = mapped_column(String(512), default="", nullable=False)
    locale: Mapped[str] = mapped_column(String(8), default="zh-cn", nullable=False)
    user_snapshot: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict, nullable=False)
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)
    user_name: Mapped[str] = mapped_column(String(128), default="", nullable=False)
    attempts: Mapped[int] = mapped_column(Integer, default=0, nullable=False)
    owner: Mapped[str] = mapped_column(String(64), default="", nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False, index=True)
    heartbeat_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)


class Contact(TenantScoped, Base):
    """The demo import target and export source: a tenant's business contacts."""

    __tablename__ = "transfer_contact"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64), nullable=False)
    phone: Mapped[str] = mapped_column(String(32), default="", nullable=False)
    email: Mapped[str] = mapped_column(String(128), default="", nullable=False)
    company: Mapped[str] = mapped_column(String(128), default="", nullable=False)
    department: Mapped[str] = mapped_column(String(64), default="", nullable=False)
    level: Mapped[int | None] = mapped_column(Integer, nullable=True)
    joined_on: Mapped[date | None] = mapped_column(Date, nullable=True)
    batch_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)
