"""tracking tables: raw events (partitioned by month on PostgreSQL) and daily rollups

Revision ID: 0001_tracking
Revises:
Create Date: 2026-11-25 00:20:00
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0001_tracking"
down_revision = None
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _event_columns() -> list[sa.Column[Any]]:
    return [
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("client_at", sa.DateTime(), nullable=True),
        sa.Column("event_type", sa.SmallInteger(), nullable=False),
        sa.Column("track_type", sa.String(16), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("user_name", sa.String(64), nullable=False),
        sa.Column("system_code", sa.String(64), nullable=False),
        sa.Column("system_name", sa.String(128), nullable=False),
        sa.Column("app_code", sa.String(64), nullable=False),
        sa.Column("app_name", sa.String(128), nullable=False),
        sa.Column("load_time", sa.Integer(), nullable=False),
        sa.Column("version", sa.String(32), nullable=False),
        sa.Column("client_ip", sa.String(64), nullable=False),
        sa.Column("browser_name", sa.String(32), nullable=False),
        sa.Column("browser_version", sa.String(32), nullable=False),
        sa.Column("os_name", sa.String(32), nullable=False),
        sa.Column("screen_width", sa.Integer(), nullable=False),
        sa.Column("screen_height", sa.Integer(), nullable=False),
        sa.Column("menu_id", sa.String(64), nullable=False),
        sa.Column("route_name", sa.String(128), nullable=False),
        sa.Column("route_code", sa.String(128), nullable=False),
        sa.Column("route_path", sa.String(512), nullable=False),
        sa.Column("page_stay_time", sa.Integer(), nullable=False),
        sa.Column("page_render_time", sa.Integer(), nullable=False),
        sa.Column("button_name", sa.String(128), nullable=False),
        sa.Column("button_code", sa.String(128), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
    ]


def _month(first: date, months: int) -> tuple[date, date]:
    start = (first + timedelta(days=32 * months)).replace(day=1)
    return start, (start + timedelta(days=32)).replace(day=1)


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.create_table(
            "tracking_event",
            *_event_columns(),
            sa.PrimaryKeyConstraint("id", "at", name=op.f("pk_tracking_event")),
            postgresql_partition_by="RANGE (at)",
        )
        op.execute("CREATE TABLE tracking_event_default PARTITION OF tracking_event DEFAULT")
        first = date.today().replace(day=1)
        for months in (0, 1):
            start, end = _month(first, months)
            op.execute(
                f"CREATE TABLE tracking_event_{start:%Y%m} PARTITION OF tracking_event "
                f"FOR VALUES FROM ('{start}') TO ('{end}')"
            )
    else:
        op.create_table(
            "tracking_event",
            *_event_columns(),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_tracking_event")),
        )
    op.create_index(op.f("ix_tracking_event_at"), "tracking_event", ["at"])
    op.create_index(op.f("ix_tracking_event_tenant_id"), "tracking_event", ["tenant_id"])

    op.create_table(
        "tracking_daily_user",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("loads", sa.Integer(), nullable=False),
        sa.Column("visits", sa.Integer(), nullable=False),
        sa.Column("clicks", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("day", "tenant_id", "user_id", name=op.f("pk_tracking_daily_user")),
    )
    op.create_table(
        "tracking_daily_tenant",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.Column("loads", sa.Integer(), nullable=False),
        sa.Column("visits", sa.Integer(), nullable=False),
        sa.Column("clicks", sa.Integer(), nullable=False),
        sa.Column("users", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("day", "tenant_id", name=op.f("pk_tracking_daily_tenant")),
    )
    op.create_table(
        "tracking_daily_menu",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.Column("menu_key", sa.String(512), nullable=False),
        sa.Column("menu_name", sa.String(128), nullable=False),
        sa.Column("visits", sa.Integer(), nullable=False),
        sa.Column("clicks", sa.Integer(), nullable=False),
        sa.Column("stay_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("day", "tenant_id", "menu_key", name=op.f("pk_tracking_daily_menu")),
    )
    op.create_table(
        "tracking_daily_app",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.Column("app_code", sa.String(64), nullable=False),
        sa.Column("app_name", sa.String(128), nullable=False),
        sa.Column("loads", sa.Integer(), nullable=False),
        sa.Column("load_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("day", "tenant_id", "app_code", name=op.f("pk_tracking_daily_app")),
    )
    for table in (
        "tracking_daily_user",
        "tracking_daily_tenant",
        "tracking_daily_menu",
        "tracking_daily_app",
    ):
        op.create_index(op.f(f"ix_{table}_tenant_id"), table, ["tenant_id"])


def downgrade() -> None:
    for table in (
        "tracking_daily_app",
        "tracking_daily_menu",
        "tracking_daily_tenant",
        "tracking_daily_user",
        "tracking_event",
    ):
        op.drop_table(table)
