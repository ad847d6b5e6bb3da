"""tracking: per-user daily rollups of menus and micro-apps, so a member's own figures read rollups too

A member whose roles do not show her the tenant's usage sees her own: her most used menus and micro-apps
come from these, filled here from the raw events still kept and from then on by the rollup job.

Revision ID: 0004_tracking
Revises: 0003_tracking
Create Date: 2026-12-02 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004_tracking"
down_revision = "0003_tracking"
branch_labels = None
depends_on = None

PAGE_VISIT, BUTTON_CLICK, APP_LOAD = 2, 3, 1


def upgrade() -> None:
    menus = op.create_table(
        "tracking_daily_user_menu",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("menu_key", sa.String(512), nullable=False),
        sa.Column("menu_name", sa.String(128), nullable=False),
        sa.Column("visits", sa.Integer(), nullable=False),
        sa.Column("clicks", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint(
            "day", "tenant_id", "user_id", "menu_key", name=op.f("pk_tracking_daily_user_menu")
        ),
    )
    apps = op.create_table(
        "tracking_daily_user_app",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("app_code", sa.String(64), nullable=False),
        sa.Column("app_name", sa.String(128), nullable=False),
        sa.Column("loads", sa.Integer(), nullable=False),
        sa.Column("load_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint(
            "day", "tenant_id", "user_id", "app_code", name=op.f("pk_tracking_daily_user_app")
        ),
    )
    for table in ("tracking_daily_user_menu", "tracking_daily_user_app"):
        op.create_index(op.f(f"ix_{table}_tenant_id"), table, ["tenant_id"])
        op.create_index(f"ix_{table}_user", table, ["tenant_id", "user_id", "day"])
    _backfill(menus, apps)


def _backfill(menus: sa.Table, apps: sa.Table) -> None:
    """The per-user rollups of the days whose raw events are still kept (the rollup job keeps them from
    now on)."""
    events = sa.table(
        "tracking_event",
        *(
            sa.column(name)
            for name in (
                "at",
                "tenant_id",
                "user_id",
                "event_type",
                "route_code",
                "route_path",
                "route_name",
                "app_code",
                "app_name",
                "load_time",
            )
        ),
    )
    c = events.c
    day = sa.func.date(c.at)
    key = sa.case((c.route_code != "", c.route_code), else_=c.route_path)

    def count(kind: int) -> sa.ColumnElement[int]:
        return sa.func.sum(sa.case((c.event_type == kind, 1), else_=0))

    op.execute(
        menus.insert().from_select(
            ["day", "tenant_id", "user_id", "menu_key", "menu_name", "visits", "clicks"],
            sa.select(
                day,
                c.tenant_id,
                c.user_id,
                key,
                sa.func.max(c.route_name),
                count(PAGE_VISIT),
                count(BUTTON_CLICK),
            )
            .where(c.event_type.in_((PAGE_VISIT, BUTTON_CLICK)), key != "")
            .group_by(day, c.tenant_id, c.user_id, key),
        )
    )
    op.execute(
        apps.insert().from_select(
            ["day", "tenant_id", "user_id", "app_code", "app_name", "loads", "load_ms"],
            sa.select(
                day,
                c.tenant_id,
                c.user_id,
                c.app_code,
                sa.func.max(c.app_name),
                sa.func.count(),
                sa.func.sum(c.load_time),
            )
            .where(c.event_type == APP_LOAD)
            .group_by(day, c.tenant_id, c.user_id, c.app_code),
        )
    )


def downgrade() -> None:
    op.drop_table("tracking_daily_user_app")
    op.drop_table("tracking_daily_user_menu")
