"""The forms plugin's tables: forms, their schema versions, submissions and the per-field search index."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from atrium.sdk.db import BigId, TenantScoped, new_metadata, utcnow

DRAFT = "draft"
SUBMITTED = "submitted"


class Base(DeclarativeBase):
    """The forms plugin's own metadata (its own migration history)."""

    metadata = new_metadata()


class Form(TenantScoped, Base):
    """A form of a tenant: its code (`diy_code`), names per locale and the version published under it."""

    __tablename__ = "form_def"
    __table_args__ = (UniqueConstraint("tenant_id", "code"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    code: Mapped[str] = mapped_column(String(64))
    name: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    description: Mapped[str] = mapped_column(String(500), default="")
    latest_version: Mapped[int] = mapped_column(Integer, default=0)
    published_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    allow_edit: Mapped[bool] = mapped_column(default=False)
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)


class FormVersion(TenantScoped, Base):
    """One saved design of a form: the JSON Schema, the UI hints and the layouts; never changed once saved."""

    __tablename__ = "form_version"
    __table_args__ = (UniqueConstraint("form_id", "version"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    form_id: Mapped[int] = mapped_column(BigInteger, index=True)
    version: Mapped[int] = mapped_column(Integer)
    schema: Mapped[dict[str, Any]] = mapped_column(JSON)
    ui_schema: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    layouts: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Submission(TenantScoped, Base):
    """A filled form, kept with the schema version it was made against."""

    __tablename__ = "form_submission"
    __table_args__ = (Index("ix_form_submission_tenant_form_id", "tenant_id", "form_id", "id"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    form_id: Mapped[int] = mapped_column(BigInteger)
    version: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default=SUBMITTED)
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_by_name: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)


class SubmissionValue(TenantScoped, Base):
    """The searchable text of one top-level field of a submission (the index the list filters on)."""

    __tablename__ = "form_submission_value"
    __table_args__ = (
        Index("ix_form_submission_value_lookup", "tenant_id", "form_id", "field", "value", "submission_id"),
        {"sqlite_with_rowid": False},
    )
    #: no index of its own: it leads the lookup index
    tenant_id: Mapped[int] = mapped_column(BigInteger, nullable=False)
    submission_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    field: Mapped[str] = mapped_column(String(64), primary_key=True)
    form_id: Mapped[int] = mapped_column(BigInteger)
    value: Mapped[str] = mapped_column(String(200))
