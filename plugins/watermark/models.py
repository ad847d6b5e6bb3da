"""The watermark settings table: one row per tenant, function and system."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, Integer, SmallInteger, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from atrium.sdk.db import BigId, TenantScoped, new_metadata, utcnow


class Base(DeclarativeBase):
    """The watermark plugin's own metadata (its own migration history)."""

    metadata = new_metadata()


class WatermarkSetting(TenantScoped, Base):
    """How the watermark of a function (empty: every function) in a system (empty: every system) looks.

    ``fw_content`` is literal text for the ``static`` type and a template with ``{field}`` placeholders,
    filled in from the signed-in user, for the ``dynamic`` type.
    """

    __tablename__ = "watermark_setting"
    __table_args__ = (UniqueConstraint("tenant_id", "function_code", "system_code"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    function_code: Mapped[str] = mapped_column(String(64), default="")
    system_code: Mapped[str] = mapped_column(String(64), default="")
    fw_content: Mapped[str] = mapped_column(String(200))
    fw_type: Mapped[str] = mapped_column(String(16), default="dynamic")
    fw_font: Mapped[str] = mapped_column(String(64), default="Microsoft YaHei")
    fw_font_size: Mapped[int] = mapped_column(Integer, default=18)
    fw_color: Mapped[str] = mapped_column(String(32), default="#000000")
    fw_rotation_angle: Mapped[int] = mapped_column(Integer, default=-20)
    fw_transparent: Mapped[int] = mapped_column(Integer, default=85)
    is_take_effect: Mapped[int] = mapped_column(SmallInteger, default=1)
    is_view: Mapped[int] = mapped_column(SmallInteger, default=1)
    updated_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)
