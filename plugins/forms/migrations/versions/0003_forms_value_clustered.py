"""forms: on SQLite the submission index table is clustered on its key (WITHOUT ROWID)

Each submission writes one index row per searchable field; clustered on (submission_id, field) a row goes
into two b-trees (the table and the lookup index) instead of three, which halves the cost of a submit's
index rows. PostgreSQL has no such table kind and is left as it is.

Revision ID: 0003_forms_value_clustered
Revises: 0002_forms_value_lookup
Create Date: 2026-11-25 03:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003_forms_value_clustered"
down_revision = "0002_forms_value_lookup"
branch_labels = None
depends_on = None

TABLE = "form_submission_value"
LOOKUP = ("tenant_id", "form_id", "field", "value", "submission_id")


def _rebuild(with_rowid: bool) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.drop_index("ix_form_submission_value_lookup", table_name=TABLE)
    op.create_table(
        f"{TABLE}_new",
        sa.Column("submission_id", sa.BigInteger(), nullable=False),
        sa.Column("field", sa.String(length=64), nullable=False),
        sa.Column("form_id", sa.BigInteger(), nullable=False),
        sa.Column("value", sa.String(length=200), nullable=False),
        sa.Column("tenant_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("submission_id", "field", name=op.f("pk_form_submission_value")),
        sqlite_with_rowid=with_rowid,
    )
    op.execute(
        f"INSERT INTO {TABLE}_new (submission_id, field, form_id, value, tenant_id) "
        f"SELECT submission_id, field, form_id, value, tenant_id FROM {TABLE}"
    )
    op.drop_table(TABLE)
    op.rename_table(f"{TABLE}_new", TABLE)
    op.create_index("ix_form_submission_value_lookup", TABLE, list(LOOKUP))


def upgrade() -> None:
    _rebuild(with_rowid=False)


def downgrade() -> None:
    _rebuild(with_rowid=True)
