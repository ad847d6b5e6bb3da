"""Tables of {{title}}."""

from __future__ import annotations

from sqlalchemy import String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from atrium.sdk.db import BigId, TenantScoped, new_metadata


class Base(DeclarativeBase):
    """{{title}}'s own metadata (its own migration history)."""

    metadata = new_metadata()


class Note(TenantScoped, Base):
    __tablename__ = "{{module}}_note"
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    text: Mapped[str] = mapped_column(String(200))
