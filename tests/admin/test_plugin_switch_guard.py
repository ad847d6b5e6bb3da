"""The plugin switch refuses, on the server, to switch off what the console needs: the `admin` plugin that
serves the console (switched off, nobody could reach the console to switch it on again), any essential
plugin, and a plugin an essential one depends on. The refusal is a 400 that says why in the caller's
language, the state is left as it was, and the plugin list marks those plugins (`essential`, with the
reason) so that the console shows their switch locked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient

from .conftest import A, audit_of

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ("zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu")


def server_text(locale: str, key: str, **params: str) -> str:
    node: Any = json.loads((ROOT / "i18n" / locale / "server.json").read_text("utf-8"))
    for part in key.split("."):
        node = node[part]
    for name, value in params.items():
        node = node.replace("{{" + name + "}}", value)
    return str(node)


def in_locale(c: AtriumClient, locale: str) -> AtriumClient:
    c.headers["language"] = locale.replace("-", "#")
    return c


def plugin_row(c: AtriumClient, name: str, tenant_id: int | None = None) -> dict[str, Any]:
    query = f"{A}/plugins" + (f"?tenantId={tenant_id}" if tenant_id is not None else "")
    return next(p for p in c.ok("GET", query) if p["name"] == name)


@pytest.mark.parametrize("locale", LOCALES)
def test_disabling_the_console_plugin_is_refused_saying_why(admin_client: AtriumClient, locale: str) -> None:
    c = in_locale(admin_client, locale)
    body = c.post(f"{A}/plugins/state", json={"plugin": "admin", "enabled": False})
    assert body["code"] == 400
    assert body["msg"] == server_text(locale, "plugin.serves_console", plugin="admin")
    assert body["data"] is None
    row = plugin_row(c, "admin")
    assert row["enabled"] is True
    assert row["essential"] is True
    assert row["lockedReason"] == body["msg"]  # the switch's tooltip says what the refusal says


def test_the_refusal_holds_for_any_tenant_and_for_a_supervisor(
    admin_client: AtriumClient, boss: AtriumClient, tenant_factory: Any
) -> None:
    other = tenant_factory()
    refused = admin_client.post(
        f"{A}/plugins/state", json={"plugin": "admin", "enabled": False, "tenantId": other}
    )
    assert refused["code"] == 400
    assert plugin_row(admin_client, "admin", other)["enabled"] is True
    assert boss.post(f"{A}/plugins/state", json={"plugin": "admin", "enabled": False})["code"] == 400
    assert plugin_row(boss, "admin")["enabled"] is True
    # nothing was switched, so nothing was audited
    assert audit_of(admin_client, "plugin.state", "admin", tenant_id=other) == []
    assert audit_of(boss, "plugin.state", "admin") == []
    # switching it on (as it is) is no harm
    boss.ok("POST", f"{A}/plugins/state", json={"plugin": "admin", "enabled": True})


def test_other_plugins_still_switch_and_are_not_marked(boss: AtriumClient) -> None:
    row = plugin_row(boss, "watermark")
    assert row["essential"] is False and row["lockedReason"] is None
    boss.ok("POST", f"{A}/plugins/state", json={"plugin": "watermark", "enabled": False})
    assert plugin_row(boss, "watermark")["enabled"] is False
    boss.ok("POST", f"{A}/plugins/state", json={"plugin": "watermark", "enabled": True})
    assert plugin_row(boss, "watermark")["enabled"] is True


def test_an_essential_plugin_and_what_an_essential_plugin_needs_are_refused(
    admin_client: AtriumClient, kernel: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    loaded = kernel.plugins.loaded
    monkeypatch.setattr(loaded["message"].info, "essential", True)
    monkeypatch.setattr(loaded["admin"].info, "depends", ["watermark"])

    essential = admin_client.post(f"{A}/plugins/state", json={"plugin": "message", "enabled": False})
    assert essential == {
        "code": 400,
        "msg": server_text("en-us", "plugin.essential", plugin="message"),
        "data": None,
    }
    needed = admin_client.post(f"{A}/plugins/state", json={"plugin": "watermark", "enabled": False})
    assert needed["code"] == 400
    assert needed["msg"] == server_text("en-us", "plugin.needed_by", plugin="watermark", by="admin")
    for name in ("message", "watermark"):
        row = plugin_row(admin_client, name)
        assert row["enabled"] is True and row["essential"] is True and row["lockedReason"], row


def test_an_unknown_plugin_is_still_not_found(admin_client: AtriumClient) -> None:
    body = admin_client.post(f"{A}/plugins/state", json={"plugin": "nope", "enabled": False})
    assert body["code"] == 404
