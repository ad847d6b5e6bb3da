"""shared links: per-link framing

Revision ID: 0002_reports
Revises: 0001_reports
Create Date: 2026-12-03 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002_reports"
down_revision = "0001_reports"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rpt_panel_link", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("embed_allowed", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(sa.Column("embed_origins", sa.Text(), nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("rpt_panel_link", schema=None) as batch_op:
        batch_op.drop_column("embed_origins")
        batch_op.drop_column("embed_allowed")
