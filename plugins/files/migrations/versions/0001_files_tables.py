"""files tables

Revision ID: 0001_files
Revises:
Create Date: 2026-11-21 22:50:51.712827
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_files"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "files_attachment",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("stored_name", sa.String(length=80), nullable=False),
        sa.Column("backend", sa.String(length=16), nullable=False),
        sa.Column("source_name", sa.String(length=255), nullable=False),
        sa.Column("content_type", sa.String(length=100), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("func_code", sa.String(length=64), nullable=False),
        sa.Column("policy", sa.String(length=16), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("creation_name", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_files_attachment")),
        sa.UniqueConstraint(
            "tenant_id", "stored_name", name=op.f("uq_files_attachment_tenant_id_stored_name")
        ),
    )
    with op.batch_alter_table("files_attachment", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_files_attachment_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_files_attachment_func_code"), ["func_code"], unique=False)
        batch_op.create_index(batch_op.f("ix_files_attachment_tenant_id"), ["tenant_id"], unique=False)

    op.create_table(
        "files_custom_icon",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("icon_name", sa.String(length=64), nullable=False),
        sa.Column("icon_format", sa.String(length=64), nullable=False),
        sa.Column("file_id", sa.BigInteger(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("sort", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_files_custom_icon")),
    )
    with op.batch_alter_table("files_custom_icon", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_files_custom_icon_file_id"), ["file_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_files_custom_icon_tenant_id"), ["tenant_id"], unique=False)


def downgrade() -> None:
    op.drop_table("files_custom_icon")
    op.drop_table("files_attachment")
