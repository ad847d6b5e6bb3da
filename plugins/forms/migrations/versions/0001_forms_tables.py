"""forms tables

Revision ID: 0001_forms
Revises:
Create Date: 2026-11-25 00:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001_forms"
down_revision = None
branch_labels = None
depends_on = None

BIG = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "form_def",
        sa.Column("id", BIG, autoincrement=True, nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("name", sa.JSON(), nullable=False),
        sa.Column("description", sa.String(length=500), nullable=False),
        sa.Column("latest_version", sa.Integer(), nullable=False),
        sa.Column("published_version", sa.Integer(), nullable=True),
        sa.Column("allow_edit", sa.Boolean(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_form_def")),
        sa.UniqueConstraint("tenant_id", "code", name=op.f("uq_form_def_tenant_id_code")),
    )
    op.create_index(op.f("ix_form_def_tenant_id"), "form_def", ["tenant_id"])
    op.create_table(
        "form_version",
        sa.Column("id", BIG, autoincrement=True, nullable=False),
        sa.Column("form_id", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("schema", sa.JSON(), nullable=False),
        sa.Column("ui_schema", sa.JSON(), nullable=False),
        sa.Column("layouts", sa.JSON(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_form_version")),
        sa.UniqueConstraint("form_id", "version", name=op.f("uq_form_version_form_id_version")),
    )
    op.create_index(op.f("ix_form_version_tenant_id"), "form_version", ["tenant_id"])
    op.create_index(op.f("ix_form_version_form_id"), "form_version", ["form_id"])
    op.create_table(
        "form_submission",
        sa.Column("id", BIG, autoincrement=True, nullable=False),
        sa.Column("form_id", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("created_by_name", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_form_submission")),
    )
    op.create_index(op.f("ix_form_submission_tenant_id"), "form_submission", ["tenant_id"])
    op.create_index("ix_form_submission_tenant_form_id", "form_submission", ["tenant_id", "form_id", "id"])
    op.create_table(
        "form_submission_value",
        sa.Column("submission_id", sa.BigInteger(), nullable=False),
        sa.Column("field", sa.String(length=64), nullable=False),
        sa.Column("form_id", sa.BigInteger(), nullable=False),
        sa.Column("value", sa.String(length=200), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("submission_id", "field", name=op.f("pk_form_submission_value")),
    )
    op.create_index(op.f("ix_form_submission_value_tenant_id"), "form_submission_value", ["tenant_id"])
    op.create_index(
        "ix_form_submission_value_lookup", "form_submission_value", ["tenant_id", "form_id", "field", "value"]
    )


def downgrade() -> None:
    op.drop_table("form_submission_value")
    op.drop_table("form_submission")
    op.drop_table("form_version")
    op.drop_table("form_def")
