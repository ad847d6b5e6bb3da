"""Per-tenant enablement: disabling the plugin for one tenant hides it there only; enabling restores it."""

from __future__ import annotations

from typing import Any

from tests.message.helpers import INBOX, inbox, send, send_ok, unread_total

STATE = "/api/base/admin/plugins/state"


def _menu_urls(c: Any) -> set[str]:
    out: set[str] = set()
    stack = list(c.ok("GET", "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho")["menus"])
    while stack:
        m = stack.pop()
        out.add(m["menuUrl"])
        stack.extend(m["children"])
    return out


def _manifest_plugins(c: Any) -> dict[str, Any]:
    manifest = c.ok("GET", "/api/kernel/manifest")
    return {p["name"]: p for p in manifest["plugins"]} | {"@services": manifest["services"]}


def test_disabling_for_one_tenant(admin_client, user_client, tenant_factory, member):
    tid = tenant_factory()
    boss = member(tid, supervisor=True)
    user = member(tid)
    acme = member()
    send_ok(boss, toUsers=[user.user_id], content="<p>kept while disabled</p>")
    send_ok(admin_client, toUsers=[acme.user_id])
    before = inbox(user)
    assert "message" in _manifest_plugins(user)
    assert {"/letters", "/message-management"} <= _menu_urls(boss)

    admin_client.ok("POST", STATE, json={"plugin": "message", "enabled": False, "tenantId": tid})
    try:
        for call in ("message-find", "unread-message-total", "read-all"):
            env = user.post(f"{INBOX}/{call}", json={})
            assert env["code"] == 460, env
            assert env["msg"] == "This feature is not enabled for your tenant (message)"
        assert send(boss, toTenant=True)["code"] == 460
        plugins = _manifest_plugins(user)
        assert "message" not in plugins and "message" not in plugins["@services"]
        assert not {"/letters", "/message-management"} & _menu_urls(boss)
        # other tenants keep it
        assert inbox(acme)["total"] == 1 and "message" in _manifest_plugins(acme)
        assert "/letters" in _menu_urls(user_client)  # alice, with the staff role
    finally:
        admin_client.ok("POST", STATE, json={"plugin": "message", "enabled": True, "tenantId": tid})

    assert inbox(user) == before
    assert unread_total(user) == 1
    assert "message" in _manifest_plugins(user)
    assert {"/letters", "/message-management"} <= _menu_urls(boss)
