"""The audit trail in words, in the request's language: who did what to which object, and what changed.

The words come from ``i18n/<locale>/admin.json`` under ``audit``: ``audit.action.<code>`` (an action code,
dots included, as one key: ``"reports.link.enable": "turned on the shared link of"``), ``audit.type.<type>``,
``audit.field.<field>``, ``audit.value.<marker>`` and the templates ``audit.sentence`` and ``audit.target``.
A code without words reads as itself.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from atrium.sdk.audit import CHANGED, REMOVED, SET
from atrium.sdk.services import services

FALLBACK = "en-us"
MAX_VALUE = 200
_bundles: dict[Path, tuple[float, dict[str, Any]]] = {}


def bundle(locale: str) -> dict[str, Any]:
    """The ``audit`` part of a locale's admin bundle (read again when the file changes)."""
    path = Path(services().settings.i18n_dir) / locale / "admin.json"
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return {}
    cached = _bundles.get(path)
    if cached is None or cached[0] != mtime:
        try:
            words = json.loads(path.read_text("utf-8")).get("audit", {})
        except (OSError, ValueError):
            words = {}
        cached = _bundles[path] = (mtime, words if isinstance(words, dict) else {})
    return cached[1]


def word(locale: str, group: str, key: str) -> str | None:
    """``audit.<group>.<key>`` in the locale, else in English, else None."""
    for loc in (locale, FALLBACK):
        node = bundle(loc).get(group)
        if isinstance(node, dict) and isinstance(node.get(key), str):
            return str(node[key])
    return None


def template(locale: str, key: str, default: str, **params: str) -> str:
    text = None
    for loc in (locale, FALLBACK):
        found = bundle(loc).get(key)
        if isinstance(found, str):
            text = found
            break
    out = text or default
    for name, value in params.items():
        out = out.replace("{{" + name + "}}", value)
    return out


def known_actions(locale: str) -> dict[str, str]:
    """Every action code with words, and the words."""
    codes = set()
    for loc in (locale, FALLBACK):
        node = bundle(loc).get("action")
        if isinstance(node, dict):
            codes |= set(node)
    return {code: action_text(locale, code) for code in codes}


def action_text(locale: str, code: str) -> str:
    return word(locale, "action", code) or code


def type_text(locale: str, target_type: str) -> str:
    return (word(locale, "type", target_type) or target_type) if target_type else ""


def field_text(locale: str, field: str) -> str:
    """A field's label: ``settings.clientId`` reads as the label of ``clientId`` under ``settings``."""
    if not field:
        return word(locale, "field", "value") or "value"
    found = word(locale, "field", field)
    if found:
        return found
    parts = field.split(".")
    return " / ".join(word(locale, "field", p) or p for p in parts)


def value_text(locale: str, value: Any) -> str:
    """A value as a person reads it: yes/no, a dash for nothing, markers in words, lists joined."""
    if value is None or value == "" or value == [] or value == {}:
        return word(locale, "value", "empty") or "—"
    if isinstance(value, bool):
        return word(locale, "value", "true" if value else "false") or str(value).lower()
    if isinstance(value, str) and value in (SET, CHANGED, REMOVED):
        return word(locale, "value", value.strip("[]")) or value
    if isinstance(value, list):
        text = ", ".join(value_text(locale, v) for v in value)
    elif isinstance(value, dict):
        text = ", ".join(f"{k}: {value_text(locale, v)}" for k, v in value.items())
    else:
        text = str(value)
    return text if len(text) <= MAX_VALUE else text[: MAX_VALUE - 1] + "…"


def _parse(text: str) -> Any:
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict) and value:
        out: dict[str, Any] = {}
        for key, inner in value.items():
            out.update(_flatten(inner, f"{prefix}{key}."))
        return out
    return {prefix.rstrip("."): value}


def changes(locale: str, before_text: str, after_text: str) -> list[dict[str, str]]:
    """The fields that differ, each with its label and both values in words (no JSON)."""
    before, after = _parse(before_text), _parse(after_text)
    if before is None and after is None:
        return []
    if isinstance(before, dict) or isinstance(after, dict):
        old = _flatten(before) if isinstance(before, dict) else {}
        new = _flatten(after) if isinstance(after, dict) else {}
    else:
        old, new = {"": before}, {"": after}
    out = []
    for field in dict.fromkeys([*old, *new]):
        b, a = old.get(field), new.get(field)
        if b == a or (_empty(b) and _empty(a)):
            continue
        out.append(
            {
                "field": field,
                "label": field_text(locale, field),
                "before": value_text(locale, b),
                "after": value_text(locale, a),
            }
        )
    return out


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def changes_text(items: list[dict[str, str]]) -> str:
    """``label: old → new; ...`` on one line."""
    return "; ".join(f"{c['label']}: {c['before']} → {c['after']}" for c in items)


def person(full_name: str, account: str) -> str:
    if full_name and account and full_name != account:
        return f"{full_name} ({account})"
    return full_name or account


def stamp(at: datetime) -> str:
    return at.strftime("%Y-%m-%d %H:%M:%S")
