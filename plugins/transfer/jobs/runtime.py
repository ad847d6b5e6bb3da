"""Running work outside a request: the caller's identity carried into a background task, and liveness.

A task row records who runs it (``owner``: host, process id and a per-start id) and when it last showed
signs of life (``heartbeat_at``). A task whose owner process is gone, or whose heartbeat is stale, is
interrupted: it is resumed or marked failed, never left running forever.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from atrium.sdk.context import RequestContext, SessionUser, reset_context, set_context
from atrium.sdk.db import utcnow
from atrium.sdk.services import services

from ..settings import transfer_settings

HOST = socket.gethostname()[:30]
_owner = [f"{HOST}:{os.getpid()}:{uuid.uuid4().hex[:8]}"]


def owner() -> str:
    """Who runs tasks here: host, process id and an id of this start of the platform."""
    return _owner[0]


def new_start() -> None:
    """Called at start-up: tasks owned by an earlier start of this process count as interrupted."""
    _owner[0] = f"{HOST}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def snapshot(user: SessionUser | None) -> dict[str, Any]:
    if user is None:
        return {}
    return {
        "user_id": user.user_id,
        "account": user.account,
        "full_name": user.full_name,
        "tenant_id": user.tenant_id,
        "system_code": user.system_code,
        "is_super_admin": user.is_super_admin,
        "is_supervisor": user.is_supervisor,
        "roles": sorted(user.roles),
    }


def restore(snap: dict[str, Any]) -> SessionUser | None:
    if not snap:
        return None
    return SessionUser(
        user_id=int(snap["user_id"]),
        account=str(snap.get("account", "")),
        full_name=str(snap.get("full_name", "")),
        tenant_id=int(snap["tenant_id"]),
        system_code=str(snap.get("system_code", "")),
        is_super_admin=bool(snap.get("is_super_admin")),
        is_supervisor=bool(snap.get("is_supervisor")),
        roles=frozenset(int(r) for r in snap.get("roles", [])),
    )


@contextmanager
def background(tenant_id: int, snap: dict[str, Any], locale: str) -> Iterator[RequestContext]:
    """A request-like context for a task: the user who asked, their tenant and language."""
    user = restore(snap)
    ctx = RequestContext(
        locale=locale, user=user, tenant_id=tenant_id, system_code=user.system_code if user else ""
    )
    token = set_context(ctx)
    try:
        yield ctx
    finally:
        reset_context(token)


def stale_before() -> datetime:
    return utcnow() - timedelta(seconds=transfer_settings().stale_seconds)


def owner_gone(who: str) -> bool:
    """True when the owner was a process on this host that no longer runs (or an earlier start of us)."""
    if who == owner():
        return False
    host, _, rest = who.partition(":")
    pid_text = rest.partition(":")[0]
    if host != HOST or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return True  # the same process id, started again
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def submit(fn: Callable[..., Any], *args: Any) -> None:
    """Run ``fn(*args)`` in the background (a module-level function and plain ids: the platform's
    task queue may run it in another process)."""
    services().tasks.submit(fn, *args)


def work_dir(kind: str) -> Path:
    d = Path(services().settings.var_dir) / "tmp" / kind
    d.mkdir(parents=True, exist_ok=True)
    return d
