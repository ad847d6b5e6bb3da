"""An app with two tiny plugins: request headers reach the context; plugin enablement per tenant."""

from __future__ import annotations

from typing import Any

from atrium.sdk.testing import AtriumClient
from tests.kernel.conftest import ACME, GLOBEX, b64
from tests.kernel.plugins import echo, gadget


def test_headers_reach_the_context(make_atrium_app: Any) -> None:
    http = make_atrium_app([echo, gadget])
    anon = AtriumClient(http)
    headers = {
        "pageName": b64("请假申请 · Leave"),
        "pageEnName": b64("Leave request"),
        "menuId": "42",
        "requestMenuUrl": "/dynamic-form/render",
        "systemCode": "assetMgmt",
        "loginForm": "PC",
        "language": "zh#cn",
    }
    ctx = anon.ok("GET", "/api/echo/context", headers=headers)
    assert ctx["pageName"] == "请假申请 · Leave" and ctx["pageEnName"] == "Leave request"
    assert ctx["menuId"] == "42" and ctx["requestMenuUrl"] == "/dynamic-form/render"
    assert ctx["systemCode"] == "assetMgmt" and ctx["loginForm"] == "PC"
    assert ctx["controllerURL"] == "/api/echo/context"
    assert ctx["locale"] == "zh-cn" and ctx["userId"] is None
    # a value that is not base64 passes through as it is
    plain = anon.ok("GET", "/api/echo/context", headers={"pageName": "Home page!"})
    assert plain["pageName"] == "Home page!"
    # signed in: user and tenant come from the session, the system header still wins
    alice = anon.signed_in("alice")
    ctx = alice.ok("POST", "/api/echo/context", headers={"systemCode": "assetMgmt", "pageName": b64("首页")})
    assert ctx["userId"] == alice.profile["userId"] and ctx["tenantId"] == ACME
    assert ctx["systemCode"] == "assetMgmt" and ctx["pageName"] == "首页"
    assert alice.ok("POST", "/api/echo/context")["systemCode"] == "iotAutho"


def test_language_header_forms(make_atrium_app: Any) -> None:
    http = make_atrium_app([echo])
    anon = AtriumClient(http)
    cases = {
        "zh#cn": "zh-cn",
        "zh-TW": "zh-tw",
        "hu#hu": "hu-hu",
        "en_US": "en-us",
        "vi": "vi-vn",
        "klingon": "zh-cn",
        "": "zh-cn",
    }
    for header, locale in cases.items():
        assert anon.ok("GET", "/api/echo/context", headers={"language": header})["locale"] == locale, header


def test_plugin_enablement(make_atrium_app: Any) -> None:
    http = make_atrium_app([echo, gadget])
    admin = AtriumClient(http).signed_in("admin")
    alice = AtriumClient(http).signed_in("alice")
    assert alice.ok("GET", "/api/gadget/ping") == {"pong": "yes"}
    manifest = alice.ok("GET", "/api/kernel/manifest")
    assert manifest["services"]["gadget"] == "/api/gadget" and manifest["services"]["base"] == "/api/base"
    (entry,) = [p for p in manifest["plugins"] if p["name"] == "gadget"]
    assert entry["remoteUrl"] == "/plugins/gadget/remoteEntry.js" and entry["prefixes"] == ["/gadget"]
    assert entry["slots"] == [{"slot": "navbarItem", "module": "./Bell"}] and entry["version"] == "1.2.3"

    def menu_codes(c: AtriumClient) -> set[str]:
        tree = c.ok("GET", "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho")["menus"]
        return {m["menuCode"] for m in tree}

    assert "gadget-home" in menu_codes(admin)

    # essential plugins cannot be disabled; unknown plugins are not found
    essential = admin.post("/api/base/admin/plugins/state", json={"plugin": "echo", "enabled": False})
    assert essential == {"code": 400, "msg": "Plugin echo is essential and cannot be disabled", "data": None}
    unknown = admin.post("/api/base/admin/plugins/state", json={"plugin": "nope", "enabled": False})
    assert unknown == {"code": 404, "msg": "Plugin nope is not installed", "data": None}
    # a plain user may not switch plugins
    assert (
        alice.post("/api/base/admin/plugins/state", json={"plugin": "gadget", "enabled": False})["code"]
        == 403
    )

    # disabled for Acme: its routes answer 460, its menu and its web module are gone there only
    off = admin.ok("POST", "/api/base/admin/plugins/state", json={"plugin": "gadget", "enabled": False})
    assert off == {"plugin": "gadget", "tenantId": ACME, "enabled": False}
    refused = alice.get("/api/gadget/ping")
    assert refused == {
        "code": 460,
        "msg": "This feature is not enabled for your tenant (gadget)",
        "data": None,
    }
    assert "gadget-home" not in menu_codes(admin)
    manifest = alice.ok("GET", "/api/kernel/manifest")
    assert "gadget" not in manifest["services"] and all(p["name"] != "gadget" for p in manifest["plugins"])
    rows = {r["name"]: r for r in admin.ok("GET", "/api/base/admin/plugins")}
    assert rows["gadget"]["enabled"] is False and rows["echo"]["enabled"] is True
    bob = AtriumClient(http).signed_in("bob")
    assert bob.ok("GET", "/api/gadget/ping") == {"pong": "yes"}
    globex_rows = {r["name"]: r for r in admin.ok("GET", f"/api/base/admin/plugins?tenantId={GLOBEX}")}
    assert globex_rows["gadget"]["enabled"] is True

    # enabled again
    admin.ok("POST", "/api/base/admin/plugins/state", json={"plugin": "gadget", "enabled": True})
    assert alice.ok("GET", "/api/gadget/ping") == {"pong": "yes"}
    assert "gadget-home" in menu_codes(admin)


def test_supervisor_switches_plugins_in_own_tenant_only(make_atrium_app: Any) -> None:
    http = make_atrium_app([echo, gadget])
    sup = AtriumClient(http).signed_in("supervisor")
    own = sup.ok("POST", "/api/base/admin/plugins/state", json={"plugin": "gadget", "enabled": False})
    assert own["tenantId"] == ACME
    other = sup.post(
        "/api/base/admin/plugins/state", json={"plugin": "gadget", "enabled": False, "tenantId": GLOBEX}
    )
    assert other == {"code": 403, "msg": "No permission to access", "data": None}
    assert AtriumClient(http).signed_in("bob").ok("GET", "/api/gadget/ping") == {"pong": "yes"}
