"""The message tables: one row per letter sent, one inbox row per recipient."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, Index, Integer, SmallInteger, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from atrium.sdk.db import BigId, TenantScoped, new_metadata, utcnow


class Base(DeclarativeBase):
    """The message plugin's own metadata (its own migration history)."""

    metadata = new_metadata()


UNREAD = 0
READ = 1


class Letter(TenantScoped, Base):
    """A system letter as it was sent: sanitised content, the system it belongs to, who it was for."""

    __tablename__ = "message_letter"
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    system_code: Mapped[str] = mapped_column(String(64))
    content: Mapped[str] = mapped_column(Text)
    sender_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    audience: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    recipient_count: Mapped[int] = mapped_column(Integer, default=0)
    sent_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)


class Inbox(TenantScoped, Base):
    """One recipient's copy of a letter (its id is the `msgInstanceId`), with its read state."""

    __tablename__ = "message_instance"
    __table_args__ = (
        Index("ix_message_instance_inbox", "tenant_id", "user_id", "system_code", "read_status"),
        Index("ix_message_instance_sent", "tenant_id", "user_id", "sent_at"),
    )
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    letter_id: Mapped[int] = mapped_column(ForeignKey("message_letter.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(BigInteger)
    system_code: Mapped[str] = mapped_column(String(64))
    read_status: Mapped[int] = mapped_column(SmallInteger, default=UNREAD)
    read_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    sent_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
