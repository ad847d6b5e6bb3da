"""process instances: when a waiting instance is next due (timers, HTTP task attempts)

Revision ID: 0002_process
Revises: 0001_process
Create Date: 2026-11-26 12:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002_process"
down_revision = "0001_process"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("process_instance", schema=None) as batch_op:
        batch_op.add_column(sa.Column("wake_at", sa.DateTime(), nullable=True))
        batch_op.create_index("ix_process_instance_wake_at", ["wake_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("process_instance", schema=None) as batch_op:
        batch_op.drop_index("ix_process_instance_wake_at")
        batch_op.drop_column("wake_at")
