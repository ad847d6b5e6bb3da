"""ops: operators' pauses of scheduled jobs, and the server processes' heartbeats

Revision ID: 0005_ops_tables
Revises: 0004_scheduled_job_runs
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_ops_tables"
down_revision = "0004_scheduled_job_runs"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "scheduled_job_state",
        sa.Column("job_id", sa.String(length=160), nullable=False),
        sa.Column("paused", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("changed_at", sa.DateTime(), nullable=False),
        sa.Column("changed_by", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("job_id", name=op.f("pk_scheduled_job_state")),
    )
    op.create_table(
        "node_heartbeat",
        sa.Column("node", sa.String(length=255), nullable=False),
        sa.Column("hostname", sa.String(length=255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("version", sa.String(length=64), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("last_seen", sa.DateTime(), nullable=False),
        sa.Column("info", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("node", name=op.f("pk_node_heartbeat")),
    )
    with op.batch_alter_table("node_heartbeat", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_node_heartbeat_last_seen"), ["last_seen"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("node_heartbeat", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_node_heartbeat_last_seen"))
    op.drop_table("node_heartbeat")
    op.drop_table("scheduled_job_state")
