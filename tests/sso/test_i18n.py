"""The sso bundle: every locale has every key, and every message key the server raises exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ("zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu")


def keys(node: object, prefix: str = "") -> set[str]:
    if isinstance(node, dict):
        return {k for key, value in node.items() for k in keys(value, f"{prefix}{key}.")}
    return {prefix.rstrip(".")}


def test_every_locale_has_every_key() -> None:
    bundles = {loc: json.loads((ROOT / "i18n" / loc / "sso.json").read_text("utf-8")) for loc in LOCALES}
    reference = keys(bundles["en-us"])
    for loc, bundle in bundles.items():
        assert keys(bundle) == reference, loc


def test_every_raised_key_is_translated() -> None:
    bundle = keys(json.loads((ROOT / "i18n" / "en-us" / "sso.json").read_text("utf-8")))
    source = "\n".join(p.read_text("utf-8") for p in (ROOT / "plugins" / "sso").rglob("*.py"))
    raised = set(re.findall(r'"sso:([a-z_]+)"', source)) | set(
        re.findall(r'ProviderError\("([a-z_]+)"', source)
    )
    assert raised and raised <= bundle, raised - bundle
    # the sign-in pages (the host's) and the administrators' screen (the plugin's remote) share the namespace
    web_key = re.compile(r"t\('(web\.[A-Za-z.]+)'")
    host = {
        k
        for p in (ROOT / "web-host" / "src" / "sso").glob("*.tsx")
        for k in web_key.findall(p.read_text("utf-8"))
    }
    remote = {
        k
        for p in (ROOT / "web-plugins" / "sso" / "src").rglob("*.tsx")
        for k in web_key.findall(p.read_text("utf-8"))
    }
    assert {"web.failedTitle", "web.signInWith"} <= host
    assert {"web.providers", "web.addProvider", "web.identities"} <= remote
    assert host | remote <= bundle, (host | remote) - bundle
