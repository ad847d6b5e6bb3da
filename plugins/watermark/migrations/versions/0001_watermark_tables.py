"""watermark tables

Revision ID: 0001_watermark
Revises:
Create Date: 2026-11-21 23:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001_watermark"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "watermark_setting",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("function_code", sa.String(length=64), nullable=False),
        sa.Column("system_code", sa.String(length=64), nullable=False),
        sa.Column("fw_content", sa.String(length=200), nullable=False),
        sa.Column("fw_type", sa.String(length=16), nullable=False),
        sa.Column("fw_font", sa.String(length=64), nullable=False),
        sa.Column("fw_font_size", sa.Integer(), nullable=False),
        sa.Column("fw_color", sa.String(length=32), nullable=False),
        sa.Column("fw_rotation_angle", sa.Integer(), nullable=False),
        sa.Column("fw_transparent", sa.Integer(), nullable=False),
        sa.Column("is_take_effect", sa.SmallInteger(), nullable=False),
        sa.Column("is_view", sa.SmallInteger(), nullable=False),
        sa.Column("updated_by", sa.BigInteger(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_watermark_setting")),
        sa.UniqueConstraint(
            "tenant_id",
            "function_code",
            "system_code",
            name=op.f("uq_watermark_setting_tenant_id_function_code_system_code"),
        ),
    )
    op.create_index(op.f("ix_watermark_setting_tenant_id"), "watermark_setting", ["tenant_id"])


def downgrade() -> None:
    op.drop_table("watermark_setting")
