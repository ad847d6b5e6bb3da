"""sign-in mode switches: a tenant may switch off password, phone-code and e-mail-code sign-in

Revision ID: 0003_signin_switches
Revises: 0002_signin
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_signin_switches"
down_revision = "0002_signin"
branch_labels = None
depends_on = None

COLUMNS = ("password_enabled", "phone_code_enabled", "email_code_enabled")


def upgrade() -> None:
    with op.batch_alter_table("signin_config", schema=None) as batch_op:
        for name in COLUMNS:
            batch_op.add_column(sa.Column(name, sa.Boolean(), server_default=sa.true(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("signin_config", schema=None) as batch_op:
        for name in COLUMNS:
            batch_op.drop_column(name)
