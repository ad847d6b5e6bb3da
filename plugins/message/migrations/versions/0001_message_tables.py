"""message tables

Revision ID: 0001_message
Revises:
Create Date: 2026-11-21 22:51:08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001_message"
down_revision = None
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "message_letter",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("system_code", sa.String(length=64), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("sender_id", sa.BigInteger(), nullable=True),
        sa.Column("audience", sa.JSON(), nullable=False),
        sa.Column("recipient_count", sa.Integer(), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_message_letter")),
    )
    op.create_index(op.f("ix_message_letter_sent_at"), "message_letter", ["sent_at"])
    op.create_index(op.f("ix_message_letter_tenant_id"), "message_letter", ["tenant_id"])
    op.create_table(
        "message_instance",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("letter_id", BIG_ID, nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("system_code", sa.String(length=64), nullable=False),
        sa.Column("read_status", sa.SmallInteger(), nullable=False),
        sa.Column("read_at", sa.DateTime(), nullable=True),
        sa.Column("sent_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["letter_id"], ["message_letter.id"],
                                name=op.f("fk_message_instance_letter_id_message_letter"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_message_instance")),
    )
    op.create_index("ix_message_instance_inbox", "message_instance",
                    ["tenant_id", "user_id", "system_code", "read_status"])
    op.create_index("ix_message_instance_sent", "message_instance", ["tenant_id", "user_id", "sent_at"])
    op.create_index(op.f("ix_message_instance_letter_id"), "message_instance", ["letter_id"])
    op.create_index(op.f("ix_message_instance_tenant_id"), "message_instance", ["tenant_id"])


def downgrade() -> None:
    op.drop_table("message_instance")
    op.drop_table("message_letter")
