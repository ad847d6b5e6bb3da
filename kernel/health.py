"""What a load balancer and an orchestrator probe on each node.

`GET /healthz`: the process answers (nothing else is touched). `GET /readyz`: the node can serve: the
database and Redis answer, file storage is writable, and the database is at every migration head.
Both are public and plain JSON; a failing check names the error's kind only (no URLs, hosts or paths
reach an anonymous caller).
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import redis
from alembic.script import ScriptDirectory
from redis.backoff import NoBackoff
from redis.retry import Retry
from sqlalchemy import text
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from atrium.kernel.migrate import KERNEL_MIGRATIONS, current_heads, databases

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

#: how long one check may take before it counts as failing (seconds)
CHECK_TIMEOUT_SECONDS = 3.0
#: how long a comparison of the migration heads with the database is reused (seconds)
MIGRATIONS_CACHE_SECONDS = 5.0

NO_STORE = {"cache-control": "no-store"}


class NotReady(Exception):
    """A check's failure whose message is safe to show to anyone."""


def redis_probe(url: str) -> redis.Redis:
    """A client that asks once (no retries with back-off) and gives up within the check's time."""
    return redis.Redis.from_url(
        url,
        socket_timeout=CHECK_TIMEOUT_SECONDS,
        socket_connect_timeout=CHECK_TIMEOUT_SECONDS,
        retry=Retry(NoBackoff(), 0),
    )


async def healthz(_request: Request) -> Response:
    return JSONResponse({"status": "ok"}, headers=NO_STORE)


class Readiness:
    """The checks behind `/readyz`, each run in a worker thread under `CHECK_TIMEOUT_SECONDS`."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        redis_url = kernel.settings.redis_url
        self.redis = redis_probe(redis_url) if redis_url else None
        self._script_heads: dict[str, frozenset[str]] | None = None
        self._migrations: tuple[float, str | None] = (0.0, None)
        self._migrations_lock = threading.Lock()

    def checks(self) -> dict[str, Callable[[], None] | None]:
        """The checks by name; None for one that does not apply (Redis when it is not configured)."""
        return {
            "database": self.database,
            "redis": self.check_redis if self.redis is not None else None,
            "storage": self.storage,
            "migrations": self.migrations,
        }

    def database(self) -> None:
        with self.kernel.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def check_redis(self) -> None:
        assert self.redis is not None
        self.redis.ping()

    def storage(self) -> None:
        """Ask the storage backend when it can tell (`ready()` or `check()`); on local disk, write a file."""
        storage: Any = self.kernel.storage
        probe = getattr(storage, "ready", None) or getattr(storage, "check", None)
        if callable(probe):
            if probe() is False:
                raise NotReady("storage not ready")
            return
        root = Path(storage.root)
        root.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=root, prefix=".ready-"):
            pass

    def migrations(self) -> None:
        with self._migrations_lock:
            checked_at, behind = self._migrations
            if time.monotonic() - checked_at > MIGRATIONS_CACHE_SECONDS:
                behind = self._behind()
                self._migrations = (time.monotonic(), behind)
        if behind:
            raise NotReady(f"not at head: {behind}")

    def _behind(self) -> str | None:
        """The histories (kernel, plugins) whose database version is not their head, or None."""
        wanted = self.script_heads()
        found = current_heads(self.kernel)
        names = [name for name, heads in wanted.items() if frozenset(found.get(name, ())) != heads]
        return ", ".join(names) or None

    def script_heads(self) -> dict[str, frozenset[str]]:
        """Each history's heads as its version files declare them (read once: they change on deploy)."""
        if self._script_heads is None:
            heads = {}
            for name, spec in databases(self.kernel).items():
                script = ScriptDirectory(
                    str(KERNEL_MIGRATIONS), version_locations=[str(Path(spec.migrations) / "versions")]
                )
                heads[name] = frozenset(script.get_heads())
            self._script_heads = heads
        return self._script_heads

    async def report(self) -> tuple[bool, dict[str, dict[str, str]]]:
        results: dict[str, dict[str, str]] = {}

        async def run(name: str, check: Callable[[], None]) -> None:
            with anyio.move_on_after(CHECK_TIMEOUT_SECONDS) as scope:
                try:
                    await anyio.to_thread.run_sync(check, abandon_on_cancel=True)
                    results[name] = {"state": "ok"}
                except NotReady as exc:
                    results[name] = {"state": "failing", "error": str(exc)}
                except Exception as exc:
                    results[name] = {"state": "failing", "error": type(exc).__name__}
            if scope.cancelled_caught:
                results[name] = {"state": "failing", "error": f"no answer within {CHECK_TIMEOUT_SECONDS:g} s"}

        checks = self.checks()
        async with anyio.create_task_group() as group:
            for name, check in checks.items():
                if check is None:
                    results[name] = {"state": "skipped"}
                else:
                    group.start_soon(run, name, check)
        ordered = {name: results[name] for name in checks}
        return all(r["state"] != "failing" for r in ordered.values()), ordered


def make_readyz_endpoint(readiness: Readiness) -> Callable[[Request], Any]:
    async def readyz(_request: Request) -> Response:
        ready, checks = await readiness.report()
        return JSONResponse(
            {"status": "ok" if ready else "unavailable", "checks": checks},
            status_code=200 if ready else 503,
            headers=NO_STORE,
        )

    return readyz
