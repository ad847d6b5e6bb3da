"""help tables

Revision ID: 0001_help
Revises:
Create Date: 2026-11-25 00:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001_help"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "help_document",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("menu_code", sa.String(length=64), nullable=False),
        sa.Column("locale", sa.String(length=8), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("manual_url", sa.String(length=512), nullable=False),
        sa.Column("sort", sa.Integer(), nullable=False),
        sa.Column("updated_by", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_help_document")),
    )
    op.create_index(op.f("ix_help_document_menu_code"), "help_document", ["menu_code"])
    op.create_index(op.f("ix_help_document_tenant_id"), "help_document", ["tenant_id"])
    op.create_table(
        "help_llm_endpoint",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("base_url", sa.String(length=512), nullable=False),
        sa.Column("model", sa.String(length=128), nullable=False),
        sa.Column("key_enc", sa.Text(), nullable=False),
        sa.Column("timeout_seconds", sa.Integer(), nullable=False),
        sa.Column("enabled", sa.SmallInteger(), nullable=False),
        sa.Column("updated_by", sa.BigInteger(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_help_llm_endpoint")),
        sa.UniqueConstraint("tenant_id", name=op.f("uq_help_llm_endpoint_tenant_id")),
    )
    op.create_index(op.f("ix_help_llm_endpoint_tenant_id"), "help_llm_endpoint", ["tenant_id"])


def downgrade() -> None:
    op.drop_table("help_llm_endpoint")
    op.drop_table("help_document")
