"""tracking: sign-ins per user and tenant in the daily rollups

Revision ID: 0002_tracking
Revises: 0001_tracking
Create Date: 2026-11-26 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002_tracking"
down_revision = "0001_tracking"
branch_labels = None
depends_on = None

TABLES = ("tracking_daily_user", "tracking_daily_tenant")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("logins", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("logins")
