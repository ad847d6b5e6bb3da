"""reports tables

Revision ID: 0001_reports
Revises:
Create Date: 2026-11-21 22:58:46.848289
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_reports"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table(
        "rpt_chart_view",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("panel_id", sa.String(length=32), nullable=True),
        sa.Column("dataset_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("type", sa.String(length=32), nullable=False),
        sa.Column("render", sa.String(length=16), nullable=False),
        sa.Column("style_priority", sa.String(length=16), nullable=False),
        sa.Column("custom_attr", sa.Text(), nullable=False),
        sa.Column("custom_style", sa.Text(), nullable=False),
        sa.Column("custom_filter", sa.Text(), nullable=False),
        sa.Column("senior", sa.Text(), nullable=False),
        sa.Column("xaxis", sa.Text(), nullable=False),
        sa.Column("xaxis_ext", sa.Text(), nullable=False),
        sa.Column("yaxis", sa.Text(), nullable=False),
        sa.Column("yaxis_ext", sa.Text(), nullable=False),
        sa.Column("ext_bubble", sa.Text(), nullable=False),
        sa.Column("drill_fields", sa.Text(), nullable=False),
        sa.Column("result_mode", sa.String(length=16), nullable=False),
        sa.Column("result_count", sa.Integer(), nullable=False),
        sa.Column("page_size", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rpt_chart_view")),
    )
    with op.batch_alter_table("rpt_chart_view", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rpt_chart_view_dataset_id"), ["dataset_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_rpt_chart_view_panel_id"), ["panel_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_rpt_chart_view_tenant_id"), ["tenant_id"], unique=False)

    op.create_table(
        "rpt_dataset",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("datasource_id", sa.String(length=32), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("table_name", sa.String(length=255), nullable=False),
        sa.Column("sql_text", sa.Text(), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("sync_interval", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("extract_file", sa.String(length=255), nullable=False),
        sa.Column("extract_rows", sa.BigInteger(), nullable=False),
        sa.Column("sync_status", sa.String(length=16), nullable=False),
        sa.Column("sync_error", sa.Text(), nullable=False),
        sa.Column("sync_started_at", sa.DateTime(), nullable=True),
        sa.Column("last_sync_at", sa.DateTime(), nullable=True),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rpt_dataset")),
    )
    with op.batch_alter_table("rpt_dataset", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rpt_dataset_datasource_id"), ["datasource_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_rpt_dataset_tenant_id"), ["tenant_id"], unique=False)

    op.create_table(
        "rpt_dataset_field",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("dataset_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("origin_name", sa.String(length=255), nullable=False),
        sa.Column("dataease_name", sa.String(length=64), nullable=False),
        sa.Column("type", sa.String(length=16), nullable=False),
        sa.Column("source_type", sa.String(length=16), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("sort", sa.Integer(), nullable=False),
        sa.Column("checked", sa.Boolean(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rpt_dataset_field")),
    )
    with op.batch_alter_table("rpt_dataset_field", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rpt_dataset_field_dataset_id"), ["dataset_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_rpt_dataset_field_tenant_id"), ["tenant_id"], unique=False)

    op.create_table(
        "rpt_datasource",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("driver", sa.String(length=32), nullable=False),
        sa.Column("url_enc", sa.Text(), nullable=False),
        sa.Column("description", sa.String(length=500), nullable=False),
        sa.Column("query_timeout", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rpt_datasource")),
    )
    with op.batch_alter_table("rpt_datasource", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rpt_datasource_tenant_id"), ["tenant_id"], unique=False)

    op.create_table(
        "rpt_link_jump",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("panel_id", sa.String(length=32), nullable=False),
        sa.Column("source_view_id", sa.String(length=32), nullable=False),
        sa.Column("source_field_id", sa.String(length=32), nullable=False),
        sa.Column("link_type", sa.String(length=8), nullable=False),
        sa.Column("jump_type", sa.String(length=16), nullable=False),
        sa.Column("target_panel_id", sa.String(length=32), nullable=True),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("target_view_info", sa.Text(), nullable=False),
        sa.Column("attach_params", sa.Boolean(), nullable=False),
        sa.Column("checked", sa.Boolean(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rpt_link_jump")),
    )
    with op.batch_alter_table("rpt_link_jump", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rpt_link_jump_panel_id"), ["panel_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_rpt_link_jump_tenant_id"), ["tenant_id"], unique=False)

    op.create_table(
        "rpt_linkage",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("panel_id", sa.String(length=32), nullable=False),
        sa.Column("source_view_id", sa.String(length=32), nullable=False),
        sa.Column("target_view_id", sa.String(length=32), nullable=False),
        sa.Column("fields", sa.Text(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rpt_linkage")),
    )
    with op.batch_alter_table("rpt_linkage", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rpt_linkage_panel_id"), ["panel_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_rpt_linkage_tenant_id"), ["tenant_id"], unique=False)

    op.create_table(
        "rpt_owned_table",
        sa.Column("table_name", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("table_name", name=op.f("pk_rpt_owned_table")),
    )
    with op.batch_alter_table("rpt_owned_table", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rpt_owned_table_tenant_id"), ["tenant_id"], unique=False)

    op.create_table(
        "rpt_panel",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("panel_data", sa.Text(), nullable=False),
        sa.Column("panel_style", sa.Text(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rpt_panel")),
    )
    with op.batch_alter_table("rpt_panel", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rpt_panel_tenant_id"), ["tenant_id"], unique=False)

    op.create_table(
        "rpt_panel_grant",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("panel_id", sa.String(length=32), nullable=False),
        sa.Column("subject_type", sa.String(length=8), nullable=False),
        sa.Column("subject_id", sa.BigInteger(), nullable=False),
        sa.Column("can_view", sa.Boolean(), nullable=False),
        sa.Column("can_export", sa.Boolean(), nullable=False),
        sa.Column("can_manage", sa.Boolean(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rpt_panel_grant")),
        sa.UniqueConstraint(
            "panel_id",
            "subject_type",
            "subject_id",
            name=op.f("uq_rpt_panel_grant_panel_id_subject_type_subject_id"),
        ),
    )
    with op.batch_alter_table("rpt_panel_grant", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rpt_panel_grant_panel_id"), ["panel_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_rpt_panel_grant_tenant_id"), ["tenant_id"], unique=False)

    op.create_table(
        "rpt_panel_link",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("panel_id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("valid", sa.Boolean(), nullable=False),
        sa.Column("enable_pwd", sa.Boolean(), nullable=False),
        sa.Column("pwd_enc", sa.Text(), nullable=False),
        sa.Column("pwd_version", sa.Integer(), nullable=False),
        sa.Column("over_time", sa.DateTime(), nullable=True),
        sa.Column("failed_attempts", sa.Integer(), nullable=False),
        sa.Column("locked", sa.Boolean(), nullable=False),
        sa.Column("owner_admin", sa.Boolean(), nullable=False),
        sa.Column("owner_roles", sa.Text(), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rpt_panel_link")),
    )
    with op.batch_alter_table("rpt_panel_link", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rpt_panel_link_panel_id"), ["panel_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_rpt_panel_link_tenant_id"), ["tenant_id"], unique=False)


def downgrade() -> None:
    op.drop_table("rpt_panel_link")
    op.drop_table("rpt_panel_grant")
    op.drop_table("rpt_panel")
    op.drop_table("rpt_owned_table")
    op.drop_table("rpt_linkage")
    op.drop_table("rpt_link_jump")
    op.drop_table("rpt_datasource")
    op.drop_table("rpt_dataset_field")
    op.drop_table("rpt_dataset")
    op.drop_table("rpt_chart_view")
