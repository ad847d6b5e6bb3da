"""the audit trail names its objects: their type and name

Revision ID: 0004_admin
Revises: 0003_admin
Create Date: 2027-01-15 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004_admin"
down_revision = "0003_admin"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN on both SQLite and PostgreSQL: no table copy, so the append-only triggers stay and no
    # existing row is updated (older records read with an empty type and name).
    op.add_column(
        "admin_audit", sa.Column("target_type", sa.String(length=32), server_default="", nullable=False)
    )
    op.add_column(
        "admin_audit", sa.Column("target_name", sa.String(length=200), server_default="", nullable=False)
    )


def downgrade() -> None:
    # SQLite drops a column by copying the table, which the append-only triggers would refuse row by row;
    # they go first and come back afterwards.
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS admin_audit_no_update")
        op.execute("DROP TRIGGER IF EXISTS admin_audit_no_delete")
    with op.batch_alter_table("admin_audit") as batch:
        batch.drop_column("target_name")
        batch.drop_column("target_type")
    if dialect == "sqlite":
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER admin_audit_no_{verb.lower()} BEFORE {verb} ON admin_audit "
                "BEGIN SELECT RAISE(ABORT, 'admin_audit is append-only'); END"
            )
