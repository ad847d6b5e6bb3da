"""Tables of {{title}}."""

from __future__ import annotations

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from atrium.sdk.db import BigId, TenantScoped, declarative_base

Base = declarative_base("{{name}}")


class Note(TenantScoped, Base):
    __tablename__ = "{{module}}_note"
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    text: Mapped[str] = mapped_column(String(200))
