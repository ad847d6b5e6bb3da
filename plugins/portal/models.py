"""The portal's articles: announcements, hot topics, featured articles and company news, per tenant."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, Index, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from atrium.sdk.db import BigId, TenantScoped, Timestamps, new_metadata

CATEGORIES = ("announcement", "hot", "featured", "news")
DRAFT, PUBLISHED = "draft", "published"


class Base(DeclarativeBase):
    """The portal plugin's own metadata (its own migration history)."""

    metadata = new_metadata()


class Article(TenantScoped, Timestamps, Base):
    """An article; ``content`` is HTML already sanitised on the way in.

    Readers see it while ``status`` is published and now is inside the optional window
    ``[publish_start, publish_end)``; ``public`` articles may also be read without a session.
    """

    __tablename__ = "portal_article"
    __table_args__ = (Index("ix_portal_article_category_status", "category", "status"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    category: Mapped[str] = mapped_column(String(16))
    title: Mapped[str] = mapped_column(String(200))
    summary: Mapped[str] = mapped_column(String(500), default="")
    cover_url: Mapped[str] = mapped_column(String(1000), default="")
    content: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(16), default=DRAFT)
    pinned: Mapped[bool] = mapped_column(Boolean, default=False)
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    publish_start: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    publish_end: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    published_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    views: Mapped[int] = mapped_column(Integer, default=0)
    author_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    author_name: Mapped[str] = mapped_column(String(64), default="")
