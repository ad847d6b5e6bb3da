"""files: an attachment's previous version

Revision ID: 0002_files
Revises: 0001_files
Create Date: 2026-11-29 12:40:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_files"
down_revision = "0001_files"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("files_attachment", schema=None) as batch_op:
        batch_op.add_column(sa.Column("previous_id", sa.BigInteger(), nullable=True))
        batch_op.create_index(batch_op.f("ix_files_attachment_previous_id"), ["previous_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("files_attachment", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_files_attachment_previous_id"))
        batch_op.drop_column("previous_id")
