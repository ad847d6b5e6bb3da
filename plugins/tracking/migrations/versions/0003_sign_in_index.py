"""tracking: partial indexes of the sign-in rows, so today's live sign-in count reads only those

Revision ID: 0003_tracking
Revises: 0002_tracking
Create Date: 2026-11-26 12:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003_tracking"
down_revision = "0002_tracking"
branch_labels = None
depends_on = None

SIGN_IN_ROWS = sa.text("event_type = 4")


INDEXES = {"ix_tracking_event_sign_in": ["at"], "ix_tracking_event_tenant_sign_in": ["tenant_id", "at"]}


def upgrade() -> None:
    for name, columns in INDEXES.items():
        op.create_index(
            name, "tracking_event", columns, sqlite_where=SIGN_IN_ROWS, postgresql_where=SIGN_IN_ROWS
        )


def downgrade() -> None:
    for name in INDEXES:
        op.drop_index(name, table_name="tracking_event")
