"""Server-side translations from the same `i18n/<locale>/<ns>.json` bundles the web reads."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from atrium.sdk.context import DEFAULT_LOCALE, LOCALES

_PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")


def normalise_locale(raw: str | None) -> str:
    """`zh#cn`, `zh-CN`, `en_US` and `en` all map to a supported locale; anything else to zh-cn."""
    if not raw:
        return DEFAULT_LOCALE
    value = raw.strip().lower().replace("#", "-").replace("_", "-")
    if value in LOCALES:
        return value
    lang = value.split("-")[0]
    for loc in LOCALES:
        if loc.startswith(lang + "-"):
            return loc
    return DEFAULT_LOCALE


class Translator:
    def __init__(self, root: Path, namespaces: list[str]) -> None:
        self.root = root
        self.namespaces = ["server", *[n for n in namespaces if n != "server"]]
        self._bundles: dict[tuple[str, str], dict[str, Any]] = {}
        self._plain: dict[tuple[str, str], str] = {}

    def _bundle(self, locale: str, ns: str) -> dict[str, Any]:
        key = (locale, ns)
        if key not in self._bundles:
            path = self.root / locale / f"{ns}.json"
            try:
                self._bundles[key] = json.loads(path.read_text("utf-8"))
            except (OSError, ValueError):
                self._bundles[key] = {}
        return self._bundles[key]

    def _lookup(self, locale: str, ns: str, key: str) -> str | None:
        node: Any = self._bundle(locale, ns)
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                return None
            node = node[part]
        return node if isinstance(node, str) else None

    def t(self, key: str, locale: str = DEFAULT_LOCALE, /, **params: Any) -> str:
        if not params:
            cached = self._plain.get((key, locale))
            if cached is None:
                cached = self._plain[(key, locale)] = self._translate(key, locale)
            return cached
        return self._translate(key, locale, **params)

    def _translate(self, key: str, locale: str, /, **params: Any) -> str:
        ns, _, bare = key.rpartition(":")
        spaces = [ns] if ns else self.namespaces
        text = None
        for loc in (locale, DEFAULT_LOCALE):
            for space in spaces:
                text = self._lookup(loc, space, bare)
                if text is not None:
                    break
            if text is not None:
                break
        if text is None:
            text = bare
        return _PLACEHOLDER.sub(lambda m: str(params.get(m.group(1), m.group(0))), text)

    def has(self, key: str) -> bool:
        ns, _, bare = key.rpartition(":")
        return any(
            self._lookup(DEFAULT_LOCALE, s, bare) is not None for s in ([ns] if ns else self.namespaces)
        )
