"""The running platform: settings, database, plugins and the services handed to them."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import structlog

from atrium.kernel.administration.facade import KernelAdministration
from atrium.kernel.config import Settings
from atrium.kernel.db import (
    TenantSession,
    lazy_session_scope,
    make_engine,
    make_session_factory,
    session_scope,
)
from atrium.kernel.directory import DIRECTORY, KernelDirectory
from atrium.kernel.directory import TABLES as DIRECTORY_TABLES
from atrium.kernel.enablement import Enablement
from atrium.kernel.i18n import Translator
from atrium.kernel.identity import modes
from atrium.kernel.identity.crypto import TransitCrypto
from atrium.kernel.identity.facade import KernelIdentity
from atrium.kernel.identity.service import LogCodeSender
from atrium.kernel.identity.sessions import Authenticator
from atrium.kernel.ops import KernelOperations
from atrium.kernel.plugins import PluginRegistry, discover, load
from atrium.kernel.services.cache import MemoryCache, RedisCache
from atrium.kernel.services.local_cache import LocalCache
from atrium.kernel.services.pubsub import MemoryPubSub, RedisPubSub
from atrium.kernel.services.storage import build_storage
from atrium.kernel.services.tasks import QueueTaskRunner, ThreadTaskRunner
from atrium.kernel.services.ws import Hub
from atrium.sdk import services as sdk_services
from atrium.sdk.accounts import Administration
from atrium.sdk.context import current_context
from atrium.sdk.files import Attachments
from atrium.sdk.services import FileStorage
from atrium.sdk.types import Event

log = structlog.get_logger("atrium.kernel")
#: allocations between collections of the youngest generation (Python's default is 700)
GC_YOUNG_THRESHOLD = 20_000


class Kernel:
    """Everything one server process shares; implements the SDK's `Services`."""

    def __init__(self, settings: Settings, extra_plugins: list[Any] | None = None) -> None:
        self.settings = settings
        settings.var_dir.mkdir(parents=True, exist_ok=True)
        self.engine = make_engine(settings.effective_database_url)
        self.sessions = make_session_factory(self.engine)
        allow = [p.strip() for p in settings.load_plugins.split(",") if p.strip()]
        self.plugins: PluginRegistry = load(discover(allow), extra_plugins or [])
        self.cache: MemoryCache | RedisCache = (
            RedisCache(settings.redis_url, settings.redis_prefix) if settings.redis_url else MemoryCache()
        )
        self.pubsub: MemoryPubSub | RedisPubSub = (
            RedisPubSub(settings.redis_url, settings.redis_prefix + "ps:")
            if settings.redis_url
            else MemoryPubSub()
        )
        self.local = LocalCache(self.pubsub)
        self.local.drop_on_writes(self.engine, {DIRECTORY: DIRECTORY_TABLES, modes.SPACE: modes.TABLES})
        self.ws = Hub(self.pubsub)
        self.tasks: ThreadTaskRunner | QueueTaskRunner = (
            QueueTaskRunner(
                self,  # type: ignore[arg-type]
                settings.redis_url,
                settings.redis_prefix + "tasks",
                settings.task_threads,
                settings.task_timeout_seconds,
                settings.task_lease_seconds,
                settings.task_grace_seconds,
            )
            if settings.redis_url
            else ThreadTaskRunner(self)  # type: ignore[arg-type]
        )
        self.storage: FileStorage = build_storage(settings.storage_url, settings.var_dir / "files")
        namespaces = [
            ns for res in self.plugins.call("atrium_i18n_namespaces").values() for ns in (res or [])
        ]
        self.i18n = Translator(settings.i18n_dir, namespaces)
        #: services plugins provide to each other (`atrium_services`), by name
        self.provided: dict[str, Any] = {
            name: impl
            for res in self.plugins.call("atrium_services").values()
            for name, impl in (res or {}).items()
        }
        self.crypto = TransitCrypto(settings.var_dir / "keys" / "transit-key.pem", self.cache)
        self.auth = Authenticator(self)
        self.identity = KernelIdentity(self)
        self.directory = KernelDirectory(self.local)
        self.administration: Administration = KernelAdministration(self)
        self.codes = LogCodeSender(settings.dev_outbox or settings.demo)
        self.enablement = Enablement(self)
        self.scheduler: Any = None
        self.operations = KernelOperations(self)
        self._lifespans = 0  # the app's lifespan may be entered again while running (test tools do)

    # -- Services protocol -------------------------------------------------

    @property
    def attachments(self) -> Attachments:
        found = self.provided.get("attachments")
        if found is None:
            raise RuntimeError("no loaded plugin provides the attachments service (the files plugin)")
        return cast(Attachments, found)

    @contextmanager
    def db(self) -> Iterator[TenantSession]:
        with session_scope(self.sessions) as s:
            yield s

    session = db

    def run_in_session(self, fn: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
        with lazy_session_scope(self.sessions):
            return fn(**kwargs)

    def t(self, key: str, /, **params: Any) -> str:
        return self.i18n.t(key, current_context().locale, **params)

    def emit(
        self, name: str, *, tenant_id: int | None = None, user_id: int | None = None, **data: Any
    ) -> None:
        self.plugins.call("atrium_event", event=Event(name, tenant_id, user_id, data))

    def iter_plugins(self) -> Iterator[str]:
        return iter(self.plugins.order)

    def is_enabled(self, tenant_id: int, plugin: str) -> bool:
        """For a plugin's public routes, which resolve their tenant themselves."""
        return self.enablement.is_enabled(tenant_id, plugin)

    def call_hook(self, name: str, /, **kwargs: Any) -> dict[str, Any]:
        return dict(self.plugins.call(name, **kwargs))

    def plugin_settings(self, tenant_id: int, plugin: str) -> dict[str, Any]:
        return self.enablement.settings(tenant_id, plugin)

    def save_plugin_settings(self, tenant_id: int, plugin: str, values: dict[str, Any]) -> dict[str, Any]:
        return self.enablement.save_settings(tenant_id, plugin, values)

    # -- lifecycle -----------------------------------------------------------

    async def start(self) -> None:
        self._lifespans += 1
        if self._lifespans > 1:
            return  # already running: a nested lifespan must not restart (nor later stop) the services
        await self.pubsub.start()
        try:  # another app of the same process (tests) gets its services back when this one stops
            self._outer_services: Any = sdk_services.services()
        except RuntimeError:
            self._outer_services = None
        sdk_services.install(self)  # type: ignore[arg-type]
        self.plugins.call("atrium_startup", services=self)
        self.tasks.start()
        if self.settings.scheduler:
            from atrium.kernel.scheduler import start_scheduler

            self.scheduler = start_scheduler(self)
        self.operations.start()
        # What start-up built lives as long as the process: keep it out of the collector's way, so full
        # collections stay short on the hot paths.
        gc.collect()
        gc.freeze()
        # A request allocates a few hundred short-lived objects: with the default threshold the youngest
        # generation is collected every few requests, and the older ones often enough to show in the tail.
        gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])

    async def stop(self) -> None:
        self._lifespans -= 1
        if self._lifespans > 0:
            return
        self.plugins.call("atrium_shutdown")
        if self.scheduler is not None:
            self.scheduler.shutdown(wait=False)
        self.operations.stop()
        self.tasks.shutdown()
        await self.pubsub.stop()
        self.engine.dispose()
        try:
            current: Any = sdk_services.services()
        except RuntimeError:
            current = None
        if current is self:
            sdk_services.install(getattr(self, "_outer_services", None))

    @property
    def root(self) -> Path:
        return self.settings.var_dir
