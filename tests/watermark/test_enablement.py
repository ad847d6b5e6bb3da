"""Per-tenant enablement: disabling the watermark for one tenant hides it there only; enabling restores it."""

from __future__ import annotations

from typing import Any

WM = "/api/watermark/iotBaseFuncWaterController/get-system-watermark"
STATE = "/api/base/admin/plugins/state"


def _manifest(c: Any) -> dict[str, Any]:
    manifest: dict[str, Any] = c.ok("GET", "/api/kernel/manifest")
    return manifest


def _menu_urls(c: Any) -> set[str]:
    out: set[str] = set()
    stack = list(c.ok("GET", "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho")["menus"])
    while stack:
        m = stack.pop()
        out.add(m["menuUrl"])
        stack.extend(m["children"])
    return out


def test_disabling_for_one_tenant(admin_client, user_client, tenant_admin, member):
    tid = tenant_admin.tenant_id
    user = member(tid)
    tenant_admin.ok("POST", "/api/watermark/admin/save", json={"fwContent": "Internal {account}"})
    overlay = [p for p in _manifest(user)["plugins"] if p["name"] == "watermark"]
    assert overlay and overlay[0]["slots"] == [{"slot": "overlay", "module": "./App"}]
    assert "/system_manage/watermark" in _menu_urls(tenant_admin)

    admin_client.ok("POST", STATE, json={"plugin": "watermark", "enabled": False, "tenantId": tid})
    try:
        env = user.get(WM)
        assert env["code"] == 460 and env["msg"] == "This feature is not enabled for your tenant (watermark)"
        assert tenant_admin.get("/api/watermark/admin/settings")["code"] == 460
        manifest = _manifest(user)
        assert "watermark" not in {p["name"] for p in manifest["plugins"]}
        assert "watermark" not in manifest["services"]
        assert "/system_manage/watermark" not in _menu_urls(tenant_admin)
        # Acme keeps its watermark
        assert user_client.ok("GET", WM)["content"] == "Alice Zhang A0100"
        assert "watermark" in {p["name"] for p in _manifest(user_client)["plugins"]}
    finally:
        admin_client.ok("POST", STATE, json={"plugin": "watermark", "enabled": True, "tenantId": tid})

    assert user.ok("GET", WM)["content"] == f"Internal {user.account}"
    assert "/system_manage/watermark" in _menu_urls(tenant_admin)
