"""data scope: row permissions of datasets and the panel's proxy user

Revision ID: 0004_reports
Revises: 0003_reports
Create Date: 2027-01-20 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004_reports"
down_revision = "0003_reports"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rpt_panel", schema=None) as batch_op:
        batch_op.add_column(sa.Column("proxy_user_id", sa.BigInteger(), nullable=True))
    op.create_table(
        "rpt_row_permission",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("dataset_id", sa.String(length=32), nullable=False),
        sa.Column("subject_type", sa.String(length=8), nullable=False),
        sa.Column("subject_id", sa.BigInteger(), nullable=False),
        sa.Column("field_id", sa.String(length=32), nullable=False),
        sa.Column("operator", sa.String(length=16), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rpt_row_permission")),
    )
    with op.batch_alter_table("rpt_row_permission", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rpt_row_permission_dataset_id"), ["dataset_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_rpt_row_permission_tenant_id"), ["tenant_id"], unique=False)


def downgrade() -> None:
    op.drop_table("rpt_row_permission")
    with op.batch_alter_table("rpt_panel", schema=None) as batch_op:
        batch_op.drop_column("proxy_user_id")
