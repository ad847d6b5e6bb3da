"""The help plugin's tables: help documents and each tenant's language-model endpoint."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, Integer, SmallInteger, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from atrium.sdk.db import BigId, TenantScoped, new_metadata, utcnow


class Base(DeclarativeBase):
    """The help plugin's own metadata (its own migration history)."""

    metadata = new_metadata()


class HelpDocument(TenantScoped, Base):
    """A help document in one locale, attached to a menu by its code (empty: a general article).

    ``content`` is sanitised HTML; ``text`` is its plain text, the source of retrieval passages.
    ``manual_url`` points at an external user manual the document stands for (optional).
    """

    __tablename__ = "help_document"
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    menu_code: Mapped[str] = mapped_column(String(64), default="", index=True)
    locale: Mapped[str] = mapped_column(String(8), default="zh-cn")
    title: Mapped[str] = mapped_column(String(200))
    content: Mapped[str] = mapped_column(Text, default="")
    text: Mapped[str] = mapped_column(Text, default="")
    manual_url: Mapped[str] = mapped_column(String(512), default="")
    sort: Mapped[int] = mapped_column(Integer, default=0)
    updated_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)


class AssistantEndpoint(TenantScoped, Base):
    """A tenant's OpenAI-compatible chat endpoint; the key is stored encrypted (Fernet)."""

    __tablename__ = "help_llm_endpoint"
    __table_args__ = (UniqueConstraint("tenant_id"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    base_url: Mapped[str] = mapped_column(String(512), default="")
    model: Mapped[str] = mapped_column(String(128), default="")
    key_enc: Mapped[str] = mapped_column(Text, default="")
    timeout_seconds: Mapped[int] = mapped_column(Integer, default=30)
    enabled: Mapped[int] = mapped_column(SmallInteger, default=1)
    updated_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)
