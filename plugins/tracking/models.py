"""Tracking tables: raw events (partitioned by month on PostgreSQL) and narrow daily rollups: per tenant (the
tenant's figures) and per user (a member's own figures, when her roles do not show her the tenant's).

Every dashboard question reads the rollups; the raw table is only written in bulk and read by the rollup job.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import BigInteger, Date, DateTime, Index, Integer, SmallInteger, String, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from atrium.sdk.db import BigId, TenantScoped, new_metadata

APP_LOAD, PAGE_VISIT, BUTTON_CLICK = 1, 2, 3
TYPES = (APP_LOAD, PAGE_VISIT, BUTTON_CLICK)
SIGN_IN = 4
"""Recorded by the server from the platform's ``login`` event, never accepted from the browser."""


class Base(DeclarativeBase):
    """The tracking plugin's own metadata (its own migration history)."""

    metadata = new_metadata()


SIGN_INS = text(f"event_type = {SIGN_IN}")
"""The sign-in rows: two partial indexes (platform, tenant) count today's live without reading the rest.
Queries use this same text (a constant, not a bound value), so the databases match them to the indexes."""


class TrackingEvent(TenantScoped, Base):
    """One record as the browser sent it, stamped with the session's tenant and user and the client IP.

    ``at`` is when the server received it (the rollups' day); ``client_at`` the browser's own timestamp.
    On PostgreSQL the table is partitioned by month on ``at`` and its primary key is ``(id, at)``.
    """

    __tablename__ = "tracking_event"
    __table_args__ = (
        Index("ix_tracking_event_at", "at"),
        Index("ix_tracking_event_sign_in", "at", sqlite_where=SIGN_INS, postgresql_where=SIGN_INS),
        Index(
            "ix_tracking_event_tenant_sign_in",
            "tenant_id",
            "at",
            sqlite_where=SIGN_INS,
            postgresql_where=SIGN_INS,
        ),
    )
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime, nullable=False)
    client_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    event_type: Mapped[int] = mapped_column(SmallInteger)
    track_type: Mapped[str] = mapped_column(String(16), default="")
    user_id: Mapped[int] = mapped_column(BigInteger)
    user_name: Mapped[str] = mapped_column(String(64), default="")
    system_code: Mapped[str] = mapped_column(String(64), default="")
    system_name: Mapped[str] = mapped_column(String(128), default="")
    app_code: Mapped[str] = mapped_column(String(64), default="")
    app_name: Mapped[str] = mapped_column(String(128), default="")
    load_time: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[str] = mapped_column(String(32), default="")
    client_ip: Mapped[str] = mapped_column(String(64), default="")
    browser_name: Mapped[str] = mapped_column(String(32), default="")
    browser_version: Mapped[str] = mapped_column(String(32), default="")
    os_name: Mapped[str] = mapped_column(String(32), default="")
    screen_width: Mapped[int] = mapped_column(Integer, default=0)
    screen_height: Mapped[int] = mapped_column(Integer, default=0)
    menu_id: Mapped[str] = mapped_column(String(64), default="")
    route_name: Mapped[str] = mapped_column(String(128), default="")
    route_code: Mapped[str] = mapped_column(String(128), default="")
    route_path: Mapped[str] = mapped_column(String(512), default="")
    page_stay_time: Mapped[int] = mapped_column(Integer, default=0)
    page_render_time: Mapped[int] = mapped_column(Integer, default=0)
    button_name: Mapped[str] = mapped_column(String(128), default="")
    button_code: Mapped[str] = mapped_column(String(128), default="")


class DailyUser(TenantScoped, Base):
    """Per tenant, day and user: events of each type and sign-ins (tenant totals are sums of these)."""

    __tablename__ = "tracking_daily_user"
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    tenant_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, index=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    loads: Mapped[int] = mapped_column(Integer, default=0)
    visits: Mapped[int] = mapped_column(Integer, default=0)
    clicks: Mapped[int] = mapped_column(Integer, default=0)
    logins: Mapped[int] = mapped_column(Integer, default=0)


class DailyTenant(TenantScoped, Base):
    """Per tenant and day: events of each type and active users (the dashboard's totals and series)."""

    __tablename__ = "tracking_daily_tenant"
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    tenant_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, index=True)
    loads: Mapped[int] = mapped_column(Integer, default=0)
    visits: Mapped[int] = mapped_column(Integer, default=0)
    clicks: Mapped[int] = mapped_column(Integer, default=0)
    users: Mapped[int] = mapped_column(Integer, default=0)
    logins: Mapped[int] = mapped_column(Integer, default=0)


class DailyMenu(TenantScoped, Base):
    """Per tenant, day and menu (route code, else path): visits, clicks and time spent."""

    __tablename__ = "tracking_daily_menu"
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    tenant_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, index=True)
    menu_key: Mapped[str] = mapped_column(String(512), primary_key=True)
    menu_name: Mapped[str] = mapped_column(String(128), default="")
    visits: Mapped[int] = mapped_column(Integer, default=0)
    clicks: Mapped[int] = mapped_column(Integer, default=0)
    stay_ms: Mapped[int] = mapped_column(BigInteger, default=0)


class DailyApp(TenantScoped, Base):
    """Per tenant, day and micro-app: loads and their summed load time."""

    __tablename__ = "tracking_daily_app"
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    tenant_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, index=True)
    app_code: Mapped[str] = mapped_column(String(64), primary_key=True)
    app_name: Mapped[str] = mapped_column(String(128), default="")
    loads: Mapped[int] = mapped_column(Integer, default=0)
    load_ms: Mapped[int] = mapped_column(BigInteger, default=0)


class DailyUserMenu(TenantScoped, Base):
    """Per tenant, day, user and menu: that user's visits and clicks (her own most used menus)."""

    __tablename__ = "tracking_daily_user_menu"
    __table_args__ = (Index("ix_tracking_daily_user_menu_user", "tenant_id", "user_id", "day"),)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    tenant_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, index=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    menu_key: Mapped[str] = mapped_column(String(512), primary_key=True)
    menu_name: Mapped[str] = mapped_column(String(128), default="")
    visits: Mapped[int] = mapped_column(Integer, default=0)
    clicks: Mapped[int] = mapped_column(Integer, default=0)


class DailyUserApp(TenantScoped, Base):
    """Per tenant, day, user and micro-app: that user's loads and their summed load time."""

    __tablename__ = "tracking_daily_user_app"
    __table_args__ = (Index("ix_tracking_daily_user_app_user", "tenant_id", "user_id", "day"),)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    tenant_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, index=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    app_code: Mapped[str] = mapped_column(String(64), primary_key=True)
    app_name: Mapped[str] = mapped_column(String(128), default="")
    loads: Mapped[int] = mapped_column(Integer, default=0)
    load_ms: Mapped[int] = mapped_column(BigInteger, default=0)
