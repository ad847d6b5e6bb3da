"""Tables of the files plugin: attachments and custom icons, both tenant-scoped."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from atrium.sdk.db import BigId, TenantScoped, new_metadata, utcnow


class Base(DeclarativeBase):
    """The files plugin's own metadata (its own migration history)."""

    metadata = new_metadata()


class Attachment(TenantScoped, Base):
    """A stored file: the server-generated name in the blob store plus what the uploader told us."""

    __tablename__ = "files_attachment"
    __table_args__ = (UniqueConstraint("tenant_id", "stored_name"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    stored_name: Mapped[str] = mapped_column(String(80), nullable=False)
    backend: Mapped[str] = mapped_column(String(16), default="local", nullable=False)
    source_name: Mapped[str] = mapped_column(String(255), default="", nullable=False)
    content_type: Mapped[str] = mapped_column(String(100), default="application/octet-stream", nullable=False)
    size: Mapped[int] = mapped_column(BigInteger, default=0, nullable=False)
    func_code: Mapped[str] = mapped_column(String(64), default="", nullable=False, index=True)
    policy: Mapped[str] = mapped_column(String(16), default="file", nullable=False)
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    creation_name: Mapped[str] = mapped_column(String(128), default="", nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False, index=True)
    #: the attachment this one is an edited version of (saved from the document editor)
    previous_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)


class CustomIcon(TenantScoped, Base):
    """An icon a tenant uploaded for its menus and reports."""

    __tablename__ = "files_custom_icon"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    icon_name: Mapped[str] = mapped_column(String(64), nullable=False)
    icon_format: Mapped[str] = mapped_column(String(64), nullable=False)
    file_id: Mapped[int] = mapped_column(BigInteger, nullable=False, index=True)
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    sort: Mapped[int] = mapped_column(Integer, default=0, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow, nullable=False)
