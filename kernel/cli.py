"""The `atrium` command: serve, db, demo, plugins, user, storage, plugin scaffolding and builds, SDK pack."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click

from atrium.kernel.config import ROOT, Settings


def _kernel(settings: Settings | None = None):  # type: ignore[no-untyped-def]
    from atrium.kernel.runtime import Kernel

    return Kernel(settings or Settings())


@click.group()
def main() -> None:
    """Atrium: a multi-tenant enterprise portal."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--workers", default=1, show_default=True, type=int)
def serve(host: str, port: int, workers: int) -> None:
    """Start the server."""
    import uvicorn

    settings = Settings()
    settings.check_secret()
    if workers > 1 and not settings.redis_url:
        raise click.ClickException(
            "several workers share sessions, menus and pushes through Redis: set ATRIUM_REDIS_URL"
        )
    uvicorn.run(
        "atrium.kernel.asgi:app",
        host=host,
        port=port,
        workers=workers,
        log_level="warning",
        proxy_headers=True,
    )


@main.command()
@click.option("--burst", is_flag=True, help="Stop once the queue is empty.")
def worker(burst: bool) -> None:
    """Run background tasks from the Redis queue (exports, imports) in this process."""
    import asyncio
    import threading

    settings = Settings(scheduler=False, task_threads=0)
    if not settings.redis_url:
        raise click.ClickException(
            "the task queue lives in Redis: set ATRIUM_REDIS_URL (without it, tasks run in the server)"
        )
    kernel = _kernel(settings)
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="atrium-worker-loop", daemon=True).start()
    asyncio.run_coroutine_threadsafe(kernel.start(), loop).result()
    try:
        kernel.tasks.work(burst=burst)
    finally:
        asyncio.run_coroutine_threadsafe(kernel.stop(), loop).result(timeout=30)
        loop.call_soon_threadsafe(loop.stop)


@main.group()
def db() -> None:
    """Database migrations."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Upgrade the kernel's and every plugin's tables to their latest version."""
    from atrium.kernel.migrate import upgrade

    for name in upgrade(_kernel()):
        click.echo(f"upgraded {name}")


@db.command("revision")
@click.option("--plugin", "name", default="kernel", show_default=True)
@click.option("-m", "--message", required=True)
def db_revision(name: str, message: str) -> None:
    """Autogenerate a migration for one plugin's tables."""
    from atrium.kernel.migrate import revision, upgrade

    k = _kernel()
    upgrade(k)
    revision(k, name, message)


@main.command()
@click.option("--serve/--no-serve", "and_serve", default=False, help="start the server afterwards")
@click.option("--port", default=8000, type=int)
def demo(and_serve: bool, port: int) -> None:
    """Load demo data (tenants, users of each role, systems, menus, plugin content)."""
    os.environ.setdefault("ATRIUM_DEMO", "1")
    from atrium.kernel.demo import ACCOUNTS, load_demo
    from atrium.kernel.migrate import upgrade

    settings = Settings()
    first_start = and_serve and not (settings.web_dir / "index.html").exists()
    # the web packages download while the database is migrated and filled
    npm_install = (
        subprocess.Popen(["npm", "install", "--no-audit", "--no-fund"], cwd=ROOT) if first_start else None
    )
    k = _kernel(settings)
    upgrade(k)
    load_demo(k)
    click.echo("Demo data loaded. Accounts (password / role):")
    for account, password, role in ACCOUNTS:
        click.echo(f"  {account:<12} {password:<12} {role}")
    if and_serve:
        if npm_install is not None:
            click.echo("Building the web bundles (first start only)...")
            if npm_install.wait() != 0:
                raise click.ClickException("npm install failed (see its output above)")
            subprocess.run(["npm", "run", "build"], cwd=ROOT, check=True)
        click.echo(f"Atrium is running at http://127.0.0.1:{port}/")
        import uvicorn

        uvicorn.run("atrium.kernel.asgi:app", host="127.0.0.1", port=port, log_level="warning")


@main.group()
def plugins() -> None:
    """Installed plugins and per-tenant enablement."""


@plugins.command("list")
@click.option("--tenant", type=int, default=None, help="show enablement for this tenant")
def plugins_list(tenant: int | None) -> None:
    """List installed plugins, their load status and errors."""
    k = _kernel()
    for row in k.plugins.report():
        state = ""
        if tenant is not None and row["status"] == "loaded":
            state = " enabled" if k.enablement.is_enabled(tenant, row["name"]) else " disabled"
        err = f"  error: {row['error']}" if row["error"] else ""
        click.echo(f"{row['name']:<16} {row['status']:<7} {row['version'] or '-':<8}{state}{err}")


def _set_plugin(name: str, tenant: int, enabled: bool) -> None:
    from atrium.kernel.menus import MENUS
    from atrium.kernel.models import Tenant
    from atrium.sdk.context import unscoped
    from atrium.sdk.db import session

    k = _kernel()
    if name not in k.plugins.loaded:
        raise click.ClickException(f"plugin {name!r} is not installed or failed to load")
    if k.plugins.loaded[name].info.essential and not enabled:
        raise click.ClickException(f"plugin {name!r} is essential and cannot be disabled")
    with unscoped(), k.db():
        if session().get(Tenant, tenant) is None:
            raise click.ClickException(f"tenant {tenant} does not exist")
        k.enablement.set(tenant, name, enabled)
    k.local.invalidate(MENUS)
    click.echo(f"{name} {'enabled' if enabled else 'disabled'} for tenant {tenant}")


@plugins.command("enable")
@click.argument("name")
@click.option("--tenant", type=int, required=True)
def plugins_enable(name: str, tenant: int) -> None:
    """Enable a plugin for a tenant."""
    _set_plugin(name, tenant, True)


@plugins.command("disable")
@click.argument("name")
@click.option("--tenant", type=int, required=True)
def plugins_disable(name: str, tenant: int) -> None:
    """Disable a plugin for a tenant (its data is kept)."""
    _set_plugin(name, tenant, False)


@main.group()
def user() -> None:
    """Users."""


@user.command("create")
@click.argument("account")
@click.option("--password", prompt=True, hide_input=True, confirmation_prompt=True)
@click.option("--name", "full_name", required=True)
@click.option("--tenant", type=int, required=True)
@click.option("--supervisor", is_flag=True)
@click.option("--super-admin", is_flag=True)
def user_create(
    account: str, password: str, full_name: str, tenant: int, supervisor: bool, super_admin: bool
) -> None:
    """Create a user in a tenant."""
    from atrium.kernel.accounts import create_user
    from atrium.sdk.errors import AtriumError

    k = _kernel()
    try:
        with k.db():
            u = create_user(
                account, password, full_name, tenant, supervisor=supervisor, super_admin=super_admin
            )
            uid = u.id
    except AtriumError as exc:
        raise click.ClickException(k.i18n.t(exc.key, "en-us", **exc.params)) from exc
    click.echo(f"created user {account} (id {uid}) in tenant {tenant}")


@main.group()
def storage() -> None:
    """Object storage: move a node's files to a bucket, find records whose files are missing."""


@storage.command("migrate")
@click.option(
    "--to", "url", required=True, help="the bucket: s3://BUCKET?endpoint=http(s)://HOST:PORT&region=R"
)
@click.option("--dry-run", is_flag=True, help="only print what would be copied")
def storage_migrate(url: str, dry_run: bool) -> None:
    """Copy this node's files (under ATRIUM_VAR_DIR) into a bucket, verifying each; safe to run again."""
    from atrium.kernel.services.storage import LocalStorage, build_storage
    from atrium.kernel.services.storage_moves import move_to_bucket
    from atrium.kernel.services.storage_s3 import S3Storage
    from atrium.sdk.errors import StorageUnavailable

    try:
        target = build_storage(url, Path())
    except (SystemExit, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    if not isinstance(target, S3Storage):
        raise click.ClickException("--to must name a bucket: s3://BUCKET?endpoint=...")
    source = LocalStorage(Settings().var_dir / "files")
    if not target.ready():
        raise click.ClickException(f"the bucket {target.bucket!r} cannot be reached (or does not exist)")
    try:
        report = move_to_bucket(source, target, dry_run=dry_run, say=click.echo)
    except StorageUnavailable as exc:
        raise click.ClickException("the object storage stopped answering; run the command again") from exc
    verb = "would copy" if dry_run else "copied"
    click.echo(
        f"{verb} {len(report.copied)}, already there {len(report.skipped)}, failed {len(report.failed)}"
    )
    if report.failed:
        raise SystemExit(1)


@storage.command("check")
def storage_check() -> None:
    """List database records that point at objects missing from the configured storage."""
    from atrium.kernel.services.storage_moves import missing_references
    from atrium.sdk.context import unscoped
    from atrium.sdk.errors import StorageUnavailable

    k = _kernel()
    with unscoped(), k.db():
        references = [
            ref for refs in k.plugins.call("atrium_storage_references").values() for ref in refs or ()
        ]
        references += _avatar_references()
    try:
        missing = list(missing_references(k.storage, references))
    except StorageUnavailable as exc:
        raise click.ClickException(k.i18n.t(exc.key, "en-us")) from exc
    for tenant_id, key, description in missing:
        click.echo(f"missing  tenant {tenant_id}  {key}  {description}")
    click.echo(f"{len(references)} references, {len(missing)} missing")
    if missing:
        raise SystemExit(1)


def _avatar_references() -> list[tuple[int, str, str]]:
    """Users' uploaded avatars (``/api/base/base-user/avatar/<tenant>/<name>``), the kernel's own objects."""
    from sqlalchemy import select

    from atrium.kernel.models import User
    from atrium.sdk.db import session

    prefix = "/api/base/base-user/avatar/"
    rows = session().execute(select(User.id, User.avatar_url).where(User.avatar_url.startswith(prefix)))
    found = []
    for user_id, url in rows:
        tenant, _, name = url[len(prefix) :].partition("/")
        if tenant.lstrip("-").isdigit() and name:
            found.append((int(tenant), name, f"avatar of user {user_id}"))
    return found


@main.group()
def plugin() -> None:
    """Plugin authoring."""


@plugin.command("new")
@click.argument("name")
@click.option("--dest", type=click.Path(path_type=Path), default=None, help="folder to create it in")
def plugin_new(name: str, dest: Path | None) -> None:
    """Scaffold a plugin (Python package and web module) from templates/plugin."""
    from atrium.kernel.scaffold import scaffold

    try:
        out = scaffold(name, dest or Path.cwd() / f"atrium-{name}")
    except (ValueError, OSError, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(
        f"created {out}\n"
        f"develop: {sys.executable} -m pip install -e {out} && pytest {out}\n"
        f"release: atrium plugin build {out}  (its web module, then the wheel in {out / 'dist'})"
    )


@plugin.command("build")
@click.argument("folder", type=click.Path(path_type=Path, file_okay=False), default=".")
@click.option(
    "--no-isolation",
    is_flag=True,
    help="build the wheel with this environment's setuptools instead of a fresh one (no package index)",
)
def plugin_build(folder: Path, no_isolation: bool) -> None:
    """Build a plugin: npm install and npm run build in its web/, then its wheel (with the built remote)."""
    from atrium.kernel.scaffold import build_plugin

    try:
        wheel = build_plugin(folder.resolve(), isolation=not no_isolation)
    except (OSError, RuntimeError, subprocess.CalledProcessError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"built {wheel}\ninstall it beside Atrium: pip install {wheel}")


@main.group()
def sdk() -> None:
    """The JS SDK for plugins built outside this checkout."""


@sdk.command("pack")
@click.option(
    "--dest",
    type=click.Path(path_type=Path, file_okay=False),
    default=".",
    show_default=True,
    help="folder to write the tarball to",
)
def sdk_pack(dest: Path) -> None:
    """Pack @atrium/sdk (the JS SDK and its webpack helper) as atrium-sdk-<version>.tgz for npm install."""
    from atrium.kernel.scaffold import pack_sdk

    try:
        tarball = pack_sdk(dest.resolve())
    except (OSError, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(str(tarball))


if __name__ == "__main__":
    main()
