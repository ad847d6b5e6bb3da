"""Alembic environment for `atrium db revision`; upgrades run in-process (atrium.kernel.migrate)."""

from __future__ import annotations

from alembic import context

config = context.config
connect = config.attributes["connection_factory"]
with connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=config.attributes["target_metadata"],
        version_table=config.attributes["version_table"],
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()
