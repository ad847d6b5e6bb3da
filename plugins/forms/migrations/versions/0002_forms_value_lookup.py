"""forms: the submission index looked up by (tenant, form, field, value) in submission order

The lookup index gains ``submission_id`` so a filtered list reads its newest page straight from the index
(and counts from it alone); the separate ``tenant_id`` index on the value table, a prefix of the lookup
index, is dropped (one index fewer to write per indexed field).

Revision ID: 0002_forms_value_lookup
Revises: 0001_forms
Create Date: 2026-11-25 01:00:00
"""

from __future__ import annotations

from alembic import op

revision: str = "0002_forms_value_lookup"
down_revision = "0001_forms"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_form_submission_value_lookup", table_name="form_submission_value")
    op.drop_index(op.f("ix_form_submission_value_tenant_id"), table_name="form_submission_value")
    op.create_index(
        "ix_form_submission_value_lookup",
        "form_submission_value",
        ["tenant_id", "form_id", "field", "value", "submission_id"],
    )


def downgrade() -> None:
    op.drop_index("ix_form_submission_value_lookup", table_name="form_submission_value")
    op.create_index(op.f("ix_form_submission_value_tenant_id"), "form_submission_value", ["tenant_id"])
    op.create_index(
        "ix_form_submission_value_lookup", "form_submission_value", ["tenant_id", "form_id", "field", "value"]
    )
