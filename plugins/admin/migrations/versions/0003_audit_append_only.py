"""the audit trail refuses updates and deletes

Revision ID: 0003_admin
Revises: 0002_admin
Create Date: 2026-12-10 00:00:00
"""

from __future__ import annotations

from alembic import op

revision: str = "0003_admin"
down_revision = "0002_admin"
branch_labels = None
depends_on = None

MESSAGE = "admin_audit is append-only"

SQLITE_TRIGGERS = [
    f"""CREATE TRIGGER admin_audit_no_{verb.lower()} BEFORE {verb} ON admin_audit
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END"""
    for verb in ("UPDATE", "DELETE")
]

POSTGRES_STATEMENTS = [
    f"""CREATE FUNCTION admin_audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'restrict_violation'; END $$""",
    """CREATE TRIGGER admin_audit_no_change BEFORE UPDATE OR DELETE ON admin_audit
    FOR EACH ROW EXECUTE FUNCTION admin_audit_refuse_change()""",
    """CREATE TRIGGER admin_audit_no_truncate BEFORE TRUNCATE ON admin_audit
    FOR EACH STATEMENT EXECUTE FUNCTION admin_audit_refuse_change()""",
]


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    statements = {"sqlite": SQLITE_TRIGGERS, "postgresql": POSTGRES_STATEMENTS}.get(dialect, [])
    for statement in statements:
        op.execute(statement)


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS admin_audit_no_update")
        op.execute("DROP TRIGGER IF EXISTS admin_audit_no_delete")
    elif dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS admin_audit_no_change ON admin_audit")
        op.execute("DROP TRIGGER IF EXISTS admin_audit_no_truncate ON admin_audit")
        op.execute("DROP FUNCTION IF EXISTS admin_audit_refuse_change()")
