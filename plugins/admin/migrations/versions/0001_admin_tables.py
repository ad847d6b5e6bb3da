"""admin tables

Revision ID: 0001_admin
Revises:
Create Date: 2026-11-25 00:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001_admin"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "admin_audit",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=True),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("account", sa.String(length=64), nullable=False),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("target", sa.String(length=128), nullable=False),
        sa.Column("before", sa.Text(), nullable=False),
        sa.Column("after", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_audit")),
    )
    op.create_index(op.f("ix_admin_audit_at"), "admin_audit", ["at"])
    op.create_index(op.f("ix_admin_audit_tenant_id"), "admin_audit", ["tenant_id"])
    op.create_index(op.f("ix_admin_audit_action"), "admin_audit", ["action"])
    op.create_table(
        "admin_tenant_profile",
        sa.Column("tenant_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("company_name", sa.String(length=16), nullable=False),
        sa.Column("approval_state", sa.String(length=16), nullable=False),
        sa.Column("contact", sa.String(length=64), nullable=False),
        sa.Column("contact_phone", sa.String(length=32), nullable=False),
        sa.Column("contact_email", sa.String(length=128), nullable=False),
        sa.Column("tenant_type", sa.String(length=32), nullable=False),
        sa.Column("enterprise_code", sa.String(length=64), nullable=False),
        sa.Column("country", sa.String(length=8), nullable=False),
        sa.Column("state", sa.String(length=64), nullable=False),
        sa.Column("effective_date", sa.Date(), nullable=False),
        sa.Column("expiration_date", sa.Date(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("extra", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", name=op.f("pk_admin_tenant_profile")),
    )


def downgrade() -> None:
    op.drop_table("admin_tenant_profile")
    op.drop_table("admin_audit")
