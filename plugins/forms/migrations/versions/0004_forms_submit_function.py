"""forms: on PostgreSQL a submission and its index rows are written by one function call

`form_submission_insert` inserts the submission and one lookup row per indexed field (given as a JSON
object of field to text) and answers the submission's id. Its plans are kept by PL/pgSQL for the session,
so a submit is one short statement that needs no client-side prepared statement. SQLite is left as it is.

Revision ID: 0004_forms_submit_function
Revises: 0003_forms_value_clustered
Create Date: 2026-11-25 06:30:00
"""

from __future__ import annotations

from alembic import op

revision: str = "0004_forms_submit_function"
down_revision = "0003_forms_value_clustered"
branch_labels = None
depends_on = None

CREATE = """
CREATE FUNCTION form_submission_insert(
    p_tenant bigint, p_form bigint, p_version integer, p_data json, p_status varchar,
    p_by bigint, p_by_name varchar, p_at timestamp, p_index json
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    new_id bigint;
BEGIN
    INSERT INTO form_submission (tenant_id, form_id, version, data, status, created_by, created_by_name,
                                 created_at, updated_at)
    VALUES (p_tenant, p_form, p_version, p_data, p_status, p_by, p_by_name, p_at, p_at)
    RETURNING id INTO new_id;
    INSERT INTO form_submission_value (tenant_id, form_id, submission_id, field, value)
    SELECT p_tenant, p_form, new_id, key, value FROM json_each_text(p_index);
    RETURN new_id;
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(CREATE)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "DROP FUNCTION IF EXISTS form_submission_insert(bigint, bigint, integer, json, varchar, bigint,"
            " varchar, timestamp, json)"
        )
