"""sso tables

Revision ID: 0001_sso
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001_sso"
down_revision = None
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "sso_config",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("sort", sa.Integer(), nullable=False),
        sa.Column("on_unknown", sa.String(length=16), nullable=False),
        sa.Column("redirect_uri", sa.String(length=512), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sso_config")),
        sa.UniqueConstraint("tenant_id", "code", name=op.f("uq_sso_config_tenant_id_code")),
    )
    op.create_index(op.f("ix_sso_config_tenant_id"), "sso_config", ["tenant_id"], unique=False)
    op.create_table(
        "sso_identity",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("provider", sa.String(length=64), nullable=False),
        sa.Column("subject", sa.String(length=255), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("display_name", sa.String(length=128), nullable=False),
        sa.Column("email", sa.String(length=255), nullable=False),
        sa.Column("last_login_at", sa.DateTime(), nullable=True),
        sa.Column("owns_user", sa.Boolean(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sso_identity")),
        sa.UniqueConstraint(
            "tenant_id", "provider", "subject", name=op.f("uq_sso_identity_tenant_id_provider_subject")
        ),
    )
    op.create_index(op.f("ix_sso_identity_tenant_id"), "sso_identity", ["tenant_id"], unique=False)
    op.create_index(op.f("ix_sso_identity_user_id"), "sso_identity", ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_table("sso_identity")
    op.drop_table("sso_config")
