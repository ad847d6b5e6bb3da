"""portal articles

Revision ID: 0001_portal
Revises:
Create Date: 2026-11-25 00:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001_portal"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "portal_article",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("category", sa.String(16), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("summary", sa.String(500), nullable=False),
        sa.Column("cover_url", sa.String(1000), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("pinned", sa.Boolean(), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("publish_start", sa.DateTime(), nullable=True),
        sa.Column("publish_end", sa.DateTime(), nullable=True),
        sa.Column("published_at", sa.DateTime(), nullable=True),
        sa.Column("views", sa.Integer(), nullable=False),
        sa.Column("author_id", sa.BigInteger(), nullable=True),
        sa.Column("author_name", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_portal_article")),
    )
    op.create_index(op.f("ix_portal_article_tenant_id"), "portal_article", ["tenant_id"])
    op.create_index("ix_portal_article_category_status", "portal_article", ["category", "status"])


def downgrade() -> None:
    op.drop_table("portal_article")
