"""The services the kernel hands to plugins, typed as protocols so plugins depend on the SDK only."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from contextvars import ContextVar, Token
from dataclasses import dataclass
from typing import Any, BinaryIO, Protocol

from atrium.sdk.accounts import Administration
from atrium.sdk.files import Attachments
from atrium.sdk.types import Person, SystemInfo, TenantInfo

Subscriber = Callable[[dict[str, Any]], Awaitable[None]]


class Cache(Protocol):
    """A key-value store shared by all server processes (Redis when configured)."""

    def get(self, key: str) -> Any: ...
    def set(self, key: str, value: Any, ttl: float | None = None) -> None: ...
    def delete(self, key: str) -> None: ...
    def pop(self, key: str) -> Any: ...
    def incr(self, key: str, ttl: float | None = None) -> int: ...


class PubSub(Protocol):
    """Publish and subscribe across server processes (Redis when configured, else in-process)."""

    def publish(self, channel: str, message: dict[str, Any]) -> None: ...
    def subscribe(self, channel: str, callback: Subscriber) -> None: ...


class WebSocketHub(Protocol):
    """Deliver a payload to every WebSocket subscribed to a key, in every server process."""

    def send(self, key: str, payload: dict[str, Any]) -> None: ...
    def send_many(self, items: list[tuple[str, dict[str, Any]]]) -> None: ...
    def close_user(self, user_id: int, reason: str) -> None: ...
    def connection_count(self) -> int: ...


class TaskRunner(Protocol):
    """Run work in the background (in-process by default, an RQ queue when Redis is configured).

    With the queue a task runs at least once: a task whose process stopped before it ended (handed back
    on SIGTERM, or found abandoned once its worker died) runs again on another worker. A task therefore
    claims its work first (e.g. a conditional update of its row's status) and does nothing when the claim
    fails.
    """

    def submit(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> str: ...


class TaskInterrupted(BaseException):  # noqa: N818 - a stop request, not an error of the task
    """Raised inside a running task when its process is stopping and the grace period is over: the task is
    handed back to the queue. The task leaves its work resumable (its transaction rolls back; a row it
    claimed goes back to waiting) and lets this propagate. It is not an `Exception`, so `except Exception`
    blocks do not swallow it."""


@dataclass(frozen=True)
class StoredObject:
    """What a store knows of one object: its key within the tenant, its size, and checksums when known
    (``etag`` as the store reports it, an MD5 for objects written in one part; ``sha256`` in hex)."""

    key: str
    size: int
    etag: str = ""
    sha256: str = ""


class ObjectWriter(Protocol):
    """An object written piece by piece: visible once committed, nothing left once aborted."""

    def write(self, data: bytes | bytearray | memoryview) -> None: ...
    def commit(self) -> StoredObject: ...
    def abort(self) -> None: ...


class FileStorage(Protocol):
    """Kept bytes (attachments, exports, extracts), keyed per tenant, that every server node can read.

    Local disk under the var directory by default; any S3-compatible bucket when ``ATRIUM_STORAGE_URL``
    is set. A key is one or more ``/``-separated segments of letters, digits, ``._-`` (none starting with a
    dot); a key outside those rules reads as missing. No local path is handed out (there is none in a
    bucket): read through :meth:`get`, or copy to a temporary file where a library needs a path.

    A partly written object is never visible: a failed or interrupted :meth:`put` leaves nothing. A
    missing object raises ``NotFound``; an unreachable store raises ``StorageUnavailable`` (503).

    Example::

        storage = services().storage
        storage.put(tenant_id, "extracts/42/data.parquet", stream, content_type="application/x-parquet")
        with storage.get(tenant_id, "extracts/42/data.parquet") as f:
            head = f.read(4)
    """

    #: ``local`` or ``s3``
    kind: str

    def put(
        self,
        tenant_id: int,
        key: str,
        stream: BinaryIO,
        content_type: str = "application/octet-stream",
    ) -> StoredObject:
        """Store a stream under a key (replacing what was there), read in bounded parts."""
        ...

    def get(self, tenant_id: int, key: str, offset: int = 0, length: int | None = None) -> BinaryIO:
        """An open stream of the object's bytes, from ``offset`` for ``length`` bytes (to the end when
        None); the caller closes it. Raises NotFound before returning when the object is missing."""
        ...

    def read_range(self, tenant_id: int, key: str, offset: int, length: int) -> bytes: ...
    def writer(
        self, tenant_id: int, key: str, content_type: str = "application/octet-stream"
    ) -> ObjectWriter:
        """A writer of the object ``key`` for bytes that arrive piece by piece (an upload's body): the
        store sends them on while more are written where it can (S3 multipart)."""
        ...

    def delete(self, tenant_id: int, key: str) -> None:
        """Remove an object; a missing one is not an error."""
        ...

    def exists(self, tenant_id: int, key: str) -> bool: ...
    def size(self, tenant_id: int, key: str) -> int: ...
    def stat(self, tenant_id: int, key: str) -> StoredObject: ...
    def list(self, tenant_id: int, prefix: str = "") -> Iterator[StoredObject]:
        """The tenant's objects whose keys start with ``prefix``, in key order."""
        ...

    def signed_url(self, tenant_id: int, key: str, expires_in: int = 300) -> str | None:
        """A short-lived address a browser can fetch the object from directly, or None when the store has
        no such addresses (local disk)."""
        ...

    def ready(self) -> bool:
        """Whether the store answers now (for readiness checks); never raises."""
        ...

    # Names the server generates, for plugins that only keep one file per record.
    def save(self, tenant_id: int, stream: BinaryIO, suffix: str) -> str:
        """Store a stream under a new random name ending in ``.suffix`` and answer the name."""
        ...

    def open(self, tenant_id: int, name: str) -> BinaryIO: ...


class Identity(Protocol):
    """Sign-in for plugins that authenticate users themselves (single sign-on providers)."""

    def sign_in(
        self, user_id: int, tenant_id: int | None = None, system_code: str | None = None, **profile: str
    ) -> dict[str, Any]: ...
    def find_user(self, account: str) -> int | None: ...
    def create_user(self, account: str, full_name: str, tenant_id: int, **fields: Any) -> int: ...
    def user_tenants(self, user_id: int) -> list[int]: ...
    def create_tenant(self, tenant: dict[str, Any]) -> dict[str, Any]:
        """Create a tenant with the systems offered to it (the admin API's tenant fields: tenantId,
        tenantName, domain, parentTenantId, systems), in the caller's transaction; audited."""
        ...

    def send_code(self, channel: str, target: str, code: str) -> None:
        """Send a verification code by ``sms`` or ``email`` through the platform's sender."""
        ...


class Directory(Protocol):
    """Read-only look-ups of the platform's tenants, users, roles and systems.

    Every call names its tenant: plugins use these outside a request's tenant too (single sign-on before
    anyone is signed in, background tasks). Disabled users, memberships and tenants are left out.

    Example::

        people = services().directory.members(tenant_id, user_ids=[3, 4])
        names = {p.user_id: p.full_name for p in people}
    """

    def tenant(self, tenant_id: int | None = None, domain: str = "") -> TenantInfo | None: ...
    def users(self, user_ids: Iterable[int]) -> dict[int, Person]: ...
    def members(self, tenant_id: int, user_ids: Iterable[int] | None = None) -> list[Person]: ...
    def member_ids(self, tenant_id: int) -> frozenset[int]:
        """The ids of the tenant's enabled members; cheap to call often (kept until a user or a membership
        changes)."""
        ...

    def members_with_contact(self, tenant_id: int, channel: str, target: str) -> list[int]: ...
    def roles(self, tenant_id: int, role_ids: Iterable[int] | None = None) -> dict[int, str]: ...
    def role_members(self, tenant_id: int, role_ids: Iterable[int]) -> set[int]: ...
    def systems(self, tenant_id: int) -> list[SystemInfo]: ...
    def granted_codes(self, tenant_id: int, role_ids: Iterable[int]) -> frozenset[str]: ...


class Operations(Protocol):
    """What platform operators see and do (the ops screens; super administrators only).

    Every answer is plain JSON-able data (dates as ISO 8601 UTC text). A job is named by its id as the
    scheduler knows it (``<plugin>:<job id>``); an unknown job or task raises ``LookupError``, a task
    that cannot be retried (it did not fail) ``ValueError``.

    Example::

        ops = services().operations
        failed = [j["id"] for j in ops.jobs()["jobs"] if (j["lastRun"] or {}).get("outcome") == "failed"]
    """

    def nodes(self) -> list[dict[str, Any]]:
        """The server processes seen in the last minute: name (``host:pid``), version, start time,
        uptime, load average, last heartbeat, whether it runs the scheduler, and which one answers."""
        ...

    def readiness(self) -> list[dict[str, Any]]:
        """This node's readiness checks (database, redis, storage, migrations): state, error, time."""
        ...

    def queues(self) -> dict[str, Any]:
        """The task queue: mode (``in-process`` or ``redis``), queued, running, failed, workers."""
        ...

    def storage(self) -> dict[str, Any]:
        """The file store: kind (``local`` or ``s3``), its folder or bucket, and whether it answers."""
        ...

    def jobs(self) -> dict[str, Any]:
        """The scheduled jobs (``jobs``: id, plugin, trigger, next run on this node, paused, last run),
        this ``node`` and whether its ``scheduler`` runs."""
        ...

    def run_job(self, job_id: str) -> dict[str, Any]:
        """Run a job now, once, on whichever node's task worker takes it (through the task queue)."""
        ...

    def pause_job(self, job_id: str, by: str = "") -> dict[str, Any]:
        """Pause a job on every node: its periods are skipped until it is resumed."""
        ...

    def resume_job(self, job_id: str, by: str = "") -> dict[str, Any]: ...

    def tasks(self, state: str | None = None) -> list[dict[str, Any]]:
        """Recent background tasks (``queued``, ``running``, ``failed``, and ``done`` in-process), newest
        first, failed ones with their error."""
        ...

    def retry_task(self, task_id: str) -> dict[str, Any]:
        """Run a failed task again (with Redis: put the failed job back in the queue)."""
        ...


class Services(Protocol):
    cache: Cache
    directory: Directory
    identity: Identity
    #: tenants, users, roles, menus, systems, settings and sign-in options, as the admin console changes them
    administration: Administration
    pubsub: PubSub
    ws: WebSocketHub
    tasks: TaskRunner
    storage: FileStorage
    operations: Operations
    settings: Any

    @property
    def attachments(self) -> Attachments:
        """Stored files, provided by the files plugin (through ``atrium_services``); raises RuntimeError
        when no loaded plugin provides them."""
        ...

    def db(self) -> AbstractContextManager[Any]: ...
    def emit(
        self, name: str, *, tenant_id: int | None = None, user_id: int | None = None, **data: Any
    ) -> None: ...
    def t(self, key: str, /, **params: Any) -> str: ...
    def iter_plugins(self) -> Iterator[str]: ...
    def is_enabled(self, tenant_id: int, plugin: str) -> bool: ...
    def call_hook(self, name: str, /, **kwargs: Any) -> dict[str, Any]:
        """Every enabled plugin's answer to a hook, keyed by plugin id (for plugins that define hooks
        of their own, such as single sign-on providers)."""
        ...

    def plugin_settings(self, tenant_id: int, plugin: str) -> dict[str, Any]:
        """A plugin's settings for one tenant (a JSON object; empty until some are saved), read through the
        current database session."""
        ...

    def save_plugin_settings(self, tenant_id: int, plugin: str, values: dict[str, Any]) -> dict[str, Any]:
        """Merge `values` into a plugin's settings for one tenant, in the current session (the caller's
        transaction); answers the settings as saved."""
        ...


_services: Services | None = None
_request_services: ContextVar[Services | None] = ContextVar("atrium_services", default=None)


def install(services: Services | None) -> None:
    global _services
    _services = services


def bind(services: Services | None) -> Token[Services | None]:
    """Make `services()` answer this platform for the running request (several apps in one process)."""
    return _request_services.set(services)


def unbind(token: Token[Services | None]) -> None:
    _request_services.reset(token)


def services() -> Services:
    """The running platform's services: the request's own app, else the one started last."""
    found = _request_services.get() or _services
    if found is None:
        raise RuntimeError("the platform is not started")
    return found
