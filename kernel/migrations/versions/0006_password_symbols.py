"""password strategies say whether a password may hold symbols besides letters and digits

Revision ID: 0006_password_symbols
Revises: 0005_ops_tables
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_password_symbols"
down_revision = "0005_ops_tables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("password_strategy") as batch:
        batch.add_column(sa.Column("allow_symbols", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("password_strategy") as batch:
        batch.drop_column("allow_symbols")
