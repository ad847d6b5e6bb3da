"""{{name}} tables

Revision ID: 0001_{{module}}
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_{{module}}"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "{{module}}_note",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True, autoincrement=True),
        sa.Column("text", sa.String(length=200), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("{{module}}_note")
