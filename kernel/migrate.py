"""Alembic per plugin: each plugin (the kernel being one) has its own versions folder and version table."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from alembic import command
from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

from atrium.sdk.context import unscoped
from atrium.sdk.types import DatabaseSpec

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

KERNEL_MIGRATIONS = Path(__file__).parent / "migrations"


def databases(kernel: Kernel) -> dict[str, DatabaseSpec]:
    from atrium.kernel.models import Base

    specs = {"kernel": DatabaseSpec(metadata=Base.metadata, migrations=str(KERNEL_MIGRATIONS))}
    for plugin, spec in kernel.plugins.call("atrium_database").items():
        if spec is not None:
            specs[plugin] = spec
    return specs


def _version_table(name: str) -> str:
    return "alembic_version" if name == "kernel" else f"alembic_version_{name.replace('-', '_')}"


def _config(name: str, spec: DatabaseSpec) -> Config:
    cfg = Config()
    cfg.set_main_option("path_separator", "os")
    cfg.set_main_option("script_location", str(KERNEL_MIGRATIONS))
    cfg.set_main_option("version_locations", str(Path(spec.migrations) / "versions"))
    cfg.attributes["atrium_name"] = name
    return cfg


def _run(conn: Connection, name: str, spec: DatabaseSpec, fn: Any) -> None:
    cfg = _config(name, spec)
    script = ScriptDirectory.from_config(cfg)
    with EnvironmentContext(cfg, script, fn=fn) as env:
        env.configure(
            connection=conn,
            target_metadata=spec.metadata,
            version_table=_version_table(name),
            render_as_batch=conn.dialect.name == "sqlite",
            compare_type=True,
        )
        with env.begin_transaction():
            env.run_migrations()


def upgrade(kernel: Kernel, target: str = "heads") -> list[str]:
    """Upgrade the kernel, then every plugin in dependency order; answers the names upgraded."""
    done = []
    with unscoped(), kernel.engine.begin() as conn:
        for name, spec in databases(kernel).items():
            script = ScriptDirectory.from_config(_config(name, spec))

            def fn(rev: Any, _ctx: Any, script: ScriptDirectory = script) -> Any:
                return script._upgrade_revs(target, rev)

            _run(conn, name, spec, fn)
            done.append(name)
    return done


def current_heads(kernel: Kernel) -> dict[str, tuple[str, ...]]:
    out = {}
    with kernel.engine.connect() as conn:
        for name in databases(kernel):
            ctx = MigrationContext.configure(conn, opts={"version_table": _version_table(name)})
            out[name] = ctx.get_current_heads()
    return out


def revision(kernel: Kernel, name: str, message: str) -> None:
    """Autogenerate a new version for one plugin from the difference between its tables and the database."""
    spec = databases(kernel)[name]
    cfg = _config(name, spec)
    cfg.set_main_option("sqlalchemy.url", str(kernel.engine.url))
    cfg.attributes["connection_factory"] = kernel.engine.connect
    cfg.attributes["target_metadata"] = spec.metadata
    cfg.attributes["version_table"] = _version_table(name)
    command.revision(cfg, message=message, autogenerate=True, branch_label=None)
