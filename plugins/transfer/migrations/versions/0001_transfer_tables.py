"""transfer tables

Revision ID: 0001_transfer
Revises:
Create Date: 2026-11-21 23:03:29.924023
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_transfer"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "transfer_contact",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("phone", sa.String(length=32), nullable=False),
        sa.Column("email", sa.String(length=128), nullable=False),
        sa.Column("company", sa.String(length=128), nullable=False),
        sa.Column("department", sa.String(length=64), nullable=False),
        sa.Column("level", sa.Integer(), nullable=True),
        sa.Column("joined_on", sa.Date(), nullable=True),
        sa.Column("batch_id", sa.BigInteger(), nullable=True),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_transfer_contact")),
    )
    with op.batch_alter_table("transfer_contact", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_transfer_contact_batch_id"), ["batch_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_transfer_contact_tenant_id"), ["tenant_id"], unique=False)
    op.create_table(
        "transfer_export_task",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("request_url", sa.String(length=512), nullable=False),
        sa.Column("function_name", sa.String(length=128), nullable=False),
        sa.Column("file_name", sa.String(length=255), nullable=False),
        sa.Column("excel_type", sa.String(length=8), nullable=False),
        sa.Column("method", sa.String(length=8), nullable=False),
        sa.Column("sheet_max", sa.Integer(), nullable=False),
        sa.Column("page_rows", sa.Integer(), nullable=False),
        sa.Column("columns", sa.JSON(), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("resource_id", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("progress", sa.Integer(), nullable=False),
        sa.Column("row_count", sa.Integer(), nullable=False),
        sa.Column("error_msg", sa.Text(), nullable=False),
        sa.Column("file_id", sa.BigInteger(), nullable=True),
        sa.Column("file_url", sa.String(length=512), nullable=False),
        sa.Column("locale", sa.String(length=8), nullable=False),
        sa.Column("user_snapshot", sa.JSON(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("user_name", sa.String(length=128), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("expires_at", sa.DateTime(), nullable=True),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_transfer_export_task")),
    )
    with op.batch_alter_table("transfer_export_task", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_transfer_export_task_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_transfer_export_task_created_by"), ["created_by"], unique=False)
        batch_op.create_index(batch_op.f("ix_transfer_export_task_expires_at"), ["expires_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_transfer_export_task_status"), ["status"], unique=False)
        batch_op.create_index(batch_op.f("ix_transfer_export_task_tenant_id"), ["tenant_id"], unique=False)
    op.create_table(
        "transfer_import_batch",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("batch", sa.String(length=32), nullable=False),
        sa.Column("import_id", sa.String(length=64), nullable=False),
        sa.Column("file_name", sa.String(length=255), nullable=False),
        sa.Column("file_id", sa.BigInteger(), nullable=True),
        sa.Column("header_row", sa.Integer(), nullable=False),
        sa.Column("mapping", sa.JSON(), nullable=False),
        sa.Column("preview", sa.JSON(), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("data_count", sa.Integer(), nullable=False),
        sa.Column("processed", sa.Integer(), nullable=False),
        sa.Column("success_count", sa.Integer(), nullable=False),
        sa.Column("fail_count", sa.Integer(), nullable=False),
        sa.Column("fail_file_id", sa.BigInteger(), nullable=True),
        sa.Column("error_msg", sa.Text(), nullable=False),
        sa.Column("locale", sa.String(length=8), nullable=False),
        sa.Column("user_snapshot", sa.JSON(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("created_user_name", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("heartbeat_at", sa.DateTime(), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_transfer_import_batch")),
    )
    with op.batch_alter_table("transfer_import_batch", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_transfer_import_batch_batch"), ["batch"], unique=False)
        batch_op.create_index(batch_op.f("ix_transfer_import_batch_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_transfer_import_batch_import_id"), ["import_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_transfer_import_batch_status"), ["status"], unique=False)
        batch_op.create_index(batch_op.f("ix_transfer_import_batch_tenant_id"), ["tenant_id"], unique=False)


def downgrade() -> None:
    op.drop_table("transfer_contact")
    op.drop_table("transfer_export_task")
    op.drop_table("transfer_import_batch")
