"""Plugin discovery and loading: entry points, guards, SDK range, dependency order."""

from __future__ import annotations

import importlib.metadata as md
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pluggy
import structlog
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from atrium.sdk import SDK_VERSION, hookspecs
from atrium.sdk.types import PluginInfo

log = structlog.get_logger("atrium.plugins")
GROUP = "atrium.plugins"


@dataclass
class LoadedPlugin:
    name: str
    info: PluginInfo
    module: Any
    #: the folder of its built web module, as its `atrium_web_remote` answered (None: a built-in's remote,
    #: served from `web-plugins/<name>/dist`, or no web module)
    remote: Path | None = None
    #: whether it implements `atrium_web_remote` (then a None answer means no page)
    remote_hook: bool = False


@dataclass
class FailedPlugin:
    name: str
    error: str
    #: what it said it is, when it got that far (its prefixes place its error in the host)
    info: PluginInfo | None = None


@dataclass
class PluginRegistry:
    pm: pluggy.PluginManager
    loaded: dict[str, LoadedPlugin] = field(default_factory=dict)
    failed: dict[str, FailedPlugin] = field(default_factory=dict)

    @property
    def order(self) -> list[str]:
        return list(self.loaded)

    def call(self, hook: str, **kwargs: Any) -> dict[str, Any]:
        """Call a hook on every loaded plugin, one at a time, keeping which plugin answered what.

        An implementation that raises is logged and skipped; the others still answer.
        """
        caller = getattr(self.pm.hook, hook)
        results: dict[str, Any] = {}
        by_plugin = {impl.plugin_name: impl for impl in caller.get_hookimpls()}
        for name in self.order:
            impl = by_plugin.get(name)
            if impl is None:
                continue
            args = {k: kwargs[k] for k in impl.argnames if k in kwargs}
            try:
                results[name] = impl.function(**args)
            except Exception:
                log.exception("plugin hook failed", plugin=name, hook=hook)
        return results

    def call_one(self, name: str, hook: str, **kwargs: Any) -> Any:
        for impl in getattr(self.pm.hook, hook).get_hookimpls():
            if impl.plugin_name == name:
                return impl.function(**{k: kwargs[k] for k in impl.argnames if k in kwargs})
        return None

    def report(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = [
            {
                "name": p.name,
                "version": p.info.version,
                "status": "loaded",
                "error": None,
                "depends": p.info.depends,
                "services": p.info.services,
                "prefixes": p.info.prefixes,
            }
            for p in self.loaded.values()
        ]
        rows += [
            {
                "name": f.name,
                "version": f.info.version if f.info else None,
                "status": "failed",
                "error": f.error,
                "prefixes": f.info.prefixes if f.info else [],
            }
            for f in self.failed.values()
        ]
        return rows


def new_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    return pm


def discover(allow: Iterable[str] | None = None) -> list[tuple[str, Any]]:
    """Entry points of the `atrium.plugins` group as (name, loader) pairs, filtered by an allow-list."""
    allowed = {a for a in (allow or []) if a}
    eps = sorted(md.entry_points(group=GROUP), key=lambda e: e.name)
    return [(ep.name, ep.load) for ep in eps if not allowed or ep.name in allowed]


def sdk_admits(spec: str) -> bool:
    try:
        return Version(SDK_VERSION) in SpecifierSet(spec)
    except InvalidSpecifier:
        return False


def web_remote(pm: pluggy.PluginManager, name: str) -> tuple[bool, Path | None]:
    """Whether the registered plugin implements `atrium_web_remote`, and the folder it answers, which must
    hold a built remote (``remoteEntry.js``)."""
    for impl in pm.hook.atrium_web_remote.get_hookimpls():
        if impl.plugin_name != name:
            continue
        answer = impl.function()
        if answer is None:
            return True, None
        folder = Path(str(answer))
        if not (folder / "remoteEntry.js").is_file():
            raise ValueError(
                f"the web module folder {folder} has no remoteEntry.js: "
                "build the web module (npm run build in web/) before the wheel"
            )
        return True, folder.resolve()
    return False, None


def load(candidates: list[tuple[str, Any]], extra: Iterable[ModuleType | Any] = ()) -> PluginRegistry:
    """Import, check and register plugins; a plugin that fails is reported and left out."""
    reg = PluginRegistry(new_manager())
    found: dict[str, tuple[Any, PluginInfo]] = {}
    sources: list[tuple[str, Any]] = list(candidates) + [
        (getattr(m, "__name__", repr(m)), lambda m=m: m) for m in extra
    ]
    for ep_name, loader in sources:
        name = ep_name.rsplit(".", 1)[-1]
        info: PluginInfo | None = None
        try:
            module = loader()
            info_fn = getattr(module, "atrium_plugin_info", None)
            if info_fn is None:
                raise ValueError("the plugin does not implement atrium_plugin_info")
            raw = info_fn()
            info = raw if isinstance(raw, PluginInfo) else PluginInfo.model_validate(raw)
            if info.name in found:
                raise ValueError(f"plugin id {info.name!r} is already taken")
            name = info.name
            if not sdk_admits(info.sdk):
                raise ValueError(
                    f"needs SDK {info.sdk}, but this platform provides SDK {SDK_VERSION}: "
                    "install a version of the plugin built for it"
                )
            found[info.name] = (module, info)
        except Exception as exc:
            reg.failed[name] = FailedPlugin(name, f"{type(exc).__name__}: {exc}", info)
            log.error("plugin failed to load", plugin=name, error=f"{type(exc).__name__}: {exc}")
    for name in _dependency_order(found, reg):
        module, info = found[name]
        try:
            reg.pm.register(module, name=name)
            reg.pm.check_pending()
            remote_hook, remote = web_remote(reg.pm, name)
        except Exception as exc:
            if reg.pm.is_registered(module):
                reg.pm.unregister(module)
            reg.failed[name] = FailedPlugin(name, f"{type(exc).__name__}: {exc}", info)
            log.error("plugin failed to register", plugin=name, error=str(exc))
            continue
        reg.loaded[name] = LoadedPlugin(name, info, module, remote=remote, remote_hook=remote_hook)
    return reg


def _dependency_order(found: dict[str, tuple[Any, PluginInfo]], reg: PluginRegistry) -> list[str]:
    order: list[str] = []
    state: dict[str, str] = {}

    def visit(name: str, chain: list[str]) -> bool:
        if state.get(name) == "done":
            return True
        if state.get(name) == "bad":
            return False
        if name in chain:
            reg.failed[name] = FailedPlugin(name, f"dependency cycle: {' -> '.join([*chain, name])}")
            state[name] = "bad"
            return False
        if name not in found:
            return False
        for dep in found[name][1].depends:
            if not visit(dep, [*chain, name]):
                why = reg.failed[dep].error if dep in reg.failed else "not installed"
                failure = FailedPlugin(name, f"depends on {dep!r}, which is {why}", found[name][1])
                reg.failed.setdefault(name, failure)
                state[name] = "bad"
                return False
        state[name] = "done"
        order.append(name)
        return True

    for name in sorted(found, key=lambda n: (not found[n][1].essential, n)):
        visit(name, [])
    return order
