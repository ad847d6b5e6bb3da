"""sign-in modes: tenant sign-in options, domain (LDAP) servers and their links to users

Revision ID: 0002_signin
Revises: 0001_kernel
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_signin"
down_revision = "0001_kernel"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "signin_config",
        sa.Column("tenant_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("allow_register", sa.Boolean(), nullable=False),
        sa.Column("register_approval", sa.Boolean(), nullable=False),
        sa.Column("qrcode_enabled", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenant.id"], name=op.f("fk_signin_config_tenant_id_tenant"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("tenant_id", name=op.f("pk_signin_config")),
    )
    op.create_table(
        "ldap_config",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("domain", sa.String(length=64), nullable=False),
        sa.Column("server_url", sa.String(length=512), nullable=False),
        sa.Column("bind_dn", sa.String(length=512), nullable=False),
        sa.Column("bind_password", sa.String(length=1024), nullable=False),
        sa.Column("search_base", sa.String(length=512), nullable=False),
        sa.Column("user_filter", sa.String(length=512), nullable=False),
        sa.Column("attributes", sa.JSON(), nullable=False),
        sa.Column("start_tls", sa.Boolean(), nullable=False),
        sa.Column("timeout", sa.Integer(), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ldap_config")),
        sa.UniqueConstraint("tenant_id", "domain", name=op.f("uq_ldap_config_tenant_id_domain")),
    )
    with op.batch_alter_table("ldap_config", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ldap_config_tenant_id"), ["tenant_id"], unique=False)
    op.create_table(
        "ldap_link",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("config_id", BIG_ID, nullable=False),
        sa.Column("entry_key", sa.String(length=255), nullable=False),
        sa.Column("user_id", BIG_ID, nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["config_id"],
            ["ldap_config.id"],
            name=op.f("fk_ldap_link_config_id_ldap_config"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["user_account.id"],
            name=op.f("fk_ldap_link_user_id_user_account"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ldap_link")),
        sa.UniqueConstraint("config_id", "entry_key", name=op.f("uq_ldap_link_config_id_entry_key")),
    )
    with op.batch_alter_table("ldap_link", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ldap_link_config_id"), ["config_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_ldap_link_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_ldap_link_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_table("ldap_link")
    op.drop_table("ldap_config")
    op.drop_table("signin_config")
