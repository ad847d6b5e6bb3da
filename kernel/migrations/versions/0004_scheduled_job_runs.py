"""scheduled job runs: each period of a scheduled job is claimed by one process and recorded

Revision ID: 0004_scheduled_job_runs
Revises: 0003_signin_switches
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_scheduled_job_runs"
down_revision = "0003_signin_switches"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "scheduled_job_run",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("job_id", sa.String(length=160), nullable=False),
        sa.Column("slot", sa.DateTime(), nullable=False),
        sa.Column("node", sa.String(length=255), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.Column("outcome", sa.String(length=16), nullable=False),
        sa.Column("error", sa.Text(), nullable=False),
        sa.Column("duration_ms", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_scheduled_job_run")),
        sa.UniqueConstraint("job_id", "slot", name=op.f("uq_scheduled_job_run_job_id_slot")),
    )
    with op.batch_alter_table("scheduled_job_run", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_scheduled_job_run_started_at"), ["started_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("scheduled_job_run", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_scheduled_job_run_started_at"))
    op.drop_table("scheduled_job_run")
