"""process tables

Revision ID: 0001_process
Revises:
Create Date: 2026-11-25 03:35:55
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001_process"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "process_history",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("instance_id", sa.BigInteger(), nullable=False),
        sa.Column("node_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("comment", sa.String(length=500), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_process_history")),
    )
    with op.batch_alter_table("process_history", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_process_history_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index(
            "ix_process_history_tenant_instance", ["tenant_id", "instance_id", "id"], unique=False
        )

    op.create_table(
        "process_instance",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("model_id", sa.BigInteger(), nullable=False),
        sa.Column("version_id", sa.BigInteger(), nullable=False),
        sa.Column("model_key", sa.String(length=64), nullable=False),
        sa.Column("model_name", sa.String(length=100), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("started_by", sa.BigInteger(), nullable=True),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("error", sa.String(length=500), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_process_instance")),
    )
    with op.batch_alter_table("process_instance", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_process_instance_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_process_instance_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index(
            "ix_process_instance_tenant_starter", ["tenant_id", "started_by", "id"], unique=False
        )
        batch_op.create_index("ix_process_instance_tenant_status", ["tenant_id", "status"], unique=False)

    op.create_table(
        "process_model",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("category", sa.String(length=64), nullable=False),
        sa.Column("latest_version", sa.Integer(), nullable=False),
        sa.Column("deployed_version", sa.Integer(), nullable=True),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_process_model")),
        sa.UniqueConstraint("tenant_id", "key", name=op.f("uq_process_model_tenant_id_key")),
    )
    with op.batch_alter_table("process_model", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_process_model_tenant_id"), ["tenant_id"], unique=False)

    op.create_table(
        "process_task",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("instance_id", sa.BigInteger(), nullable=False),
        sa.Column("engine_id", sa.String(length=36), nullable=False),
        sa.Column("node_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("form_key", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("candidates", sa.JSON(), nullable=False),
        sa.Column("claimed_by", sa.BigInteger(), nullable=True),
        sa.Column("done_by", sa.BigInteger(), nullable=True),
        sa.Column("comment", sa.String(length=500), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("done_at", sa.DateTime(), nullable=True),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_process_task")),
    )
    with op.batch_alter_table("process_task", schema=None) as batch_op:
        batch_op.create_index(
            "ix_process_task_tenant_claimed", ["tenant_id", "claimed_by", "status"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_process_task_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index("ix_process_task_tenant_instance", ["tenant_id", "instance_id"], unique=False)

    op.create_table(
        "process_task_candidate",
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.Column("task_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=1), nullable=False),
        sa.Column("ref", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("task_id", "kind", "ref", name=op.f("pk_process_task_candidate")),
        sqlite_with_rowid=False,
    )
    with op.batch_alter_table("process_task_candidate", schema=None) as batch_op:
        batch_op.create_index(
            "ix_process_task_candidate_lookup", ["tenant_id", "kind", "ref", "task_id"], unique=False
        )

    op.create_table(
        "process_version",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("model_id", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("xml", sa.Text(), nullable=False),
        sa.Column("deployed_at", sa.DateTime(), nullable=True),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_process_version")),
        sa.UniqueConstraint("model_id", "version", name=op.f("uq_process_version_model_id_version")),
    )
    with op.batch_alter_table("process_version", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_process_version_model_id"), ["model_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_process_version_tenant_id"), ["tenant_id"], unique=False)


def downgrade() -> None:
    op.drop_table("process_version")
    op.drop_table("process_task_candidate")
    op.drop_table("process_task")
    op.drop_table("process_model")
    op.drop_table("process_instance")
    op.drop_table("process_history")
