"""failed sign-ins

Revision ID: 0002_admin
Revises: 0001_admin
Create Date: 2026-12-02 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002_admin"
down_revision = "0001_admin"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "admin_signin_failure",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=True),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("account", sa.String(length=128), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=32), nullable=False),
        sa.Column("ip", sa.String(length=64), nullable=False),
        sa.Column("user_agent", sa.String(length=256), nullable=False),
        sa.Column("locked_until", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_signin_failure")),
    )
    op.create_index(op.f("ix_admin_signin_failure_at"), "admin_signin_failure", ["at"])
    op.create_index(op.f("ix_admin_signin_failure_tenant_id"), "admin_signin_failure", ["tenant_id"])
    op.create_index(op.f("ix_admin_signin_failure_user_id"), "admin_signin_failure", ["user_id"])


def downgrade() -> None:
    op.drop_table("admin_signin_failure")
