"""designer: calculated fields, panel drafts and published versions

Revision ID: 0003_reports
Revises: 0002_reports
Create Date: 2026-12-10 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003_reports"
down_revision = "0002_reports"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rpt_dataset_field", schema=None) as batch_op:
        batch_op.add_column(sa.Column("expression", sa.Text(), nullable=False, server_default=""))
    with op.batch_alter_table("rpt_panel", schema=None) as batch_op:
        batch_op.add_column(sa.Column("draft_data", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("draft_style", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("draft_name", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("draft_updated_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("published_version", sa.Integer(), nullable=False, server_default="0"))
    op.create_table(
        "rpt_panel_version",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("panel_id", sa.String(length=32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("panel_data", sa.Text(), nullable=False),
        sa.Column("panel_style", sa.Text(), nullable=False),
        sa.Column("views", sa.Text(), nullable=False),
        sa.Column("note", sa.String(length=500), nullable=False),
        sa.Column("published_by", sa.BigInteger(), nullable=True),
        sa.Column("published_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rpt_panel_version")),
        sa.UniqueConstraint(
            "tenant_id", "panel_id", "version", name=op.f("uq_rpt_panel_version_tenant_id_panel_id_version")
        ),
    )
    with op.batch_alter_table("rpt_panel_version", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rpt_panel_version_panel_id"), ["panel_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_rpt_panel_version_tenant_id"), ["tenant_id"], unique=False)


def downgrade() -> None:
    op.drop_table("rpt_panel_version")
    with op.batch_alter_table("rpt_panel", schema=None) as batch_op:
        for column in ("published_version", "draft_updated_at", "draft_name", "draft_style", "draft_data"):
            batch_op.drop_column(column)
    with op.batch_alter_table("rpt_dataset_field", schema=None) as batch_op:
        batch_op.drop_column("expression")
