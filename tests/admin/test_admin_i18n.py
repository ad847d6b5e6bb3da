"""The console speaks all five languages: every bundle has the same keys, and every key the screens use."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ("zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu")


def keys(node: Any, prefix: str = "") -> set[str]:
    if isinstance(node, dict):
        return set().union(*(keys(v, f"{prefix}{k}.") for k, v in node.items()))
    return {prefix.rstrip(".")}


def test_every_locale_has_every_key():
    bundles = {loc: json.loads((ROOT / "i18n" / loc / "admin.json").read_text("utf-8")) for loc in LOCALES}
    expected = keys(bundles["en-us"])
    for loc, bundle in bundles.items():
        assert keys(bundle) == expected, loc


def test_every_key_the_screens_use_exists():
    bundle = keys(json.loads((ROOT / "i18n" / "en-us" / "admin.json").read_text("utf-8")))
    used = set()
    for src in (ROOT / "web-plugins" / "admin" / "src").rglob("*.tsx"):
        used |= set(re.findall(r"\bt\('([a-z_][\w.]*)'", src.read_text("utf-8")))
    assert used and used <= bundle, sorted(used - bundle)


def test_server_messages_are_translated():
    bundle = {loc: json.loads((ROOT / "i18n" / loc / "admin.json").read_text("utf-8")) for loc in LOCALES}
    for key in (
        "phone_invalid",
        "email_invalid",
        "effective_required",
        "expiration_required",
        "expiration_after",
    ):
        assert len({bundle[loc][key] for loc in LOCALES}) >= 4, key  # not the English text copied
