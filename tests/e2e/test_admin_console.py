"""The administration console in Chromium: a super administrator creates a tenant and offers it a system,
creates a user there, grants a role a menu and a button, and the user sees exactly those; the tenant's
plugin switch takes the message bell away; a menu moved in the tree moves in the user's sidebar; and each
of those writes is in the audit log."""

from __future__ import annotations

import base64
import secrets
from typing import Any

import httpx
import pytest
from conftest import shot, sign_in
from playwright.sync_api import expect
from test_message_inbox import Api, ensure_remotes_built

pytestmark = pytest.mark.e2e
WAIT = 15_000
A = "/api/base/admin"
PASSWORD = "Passw0rd1"

ensure_remotes_built("admin")


def search(page: Any, test_id: str, text: str) -> None:
    box = page.locator(f"input[data-testid={test_id}], [data-testid={test_id}] input").first
    box.fill(text)
    box.press("Enter")


def pick_tenant(page: Any, tenant_id: int) -> None:
    page.get_by_test_id("tenant-picker").click()
    page.keyboard.type(str(tenant_id))
    page.locator(".ant-select-item-option", has_text=f"({tenant_id})").first.click()


def test_console_end_to_end(page, browser, live_server):
    base = live_server.url
    admin = Api(base, "admin")
    tid = 9_000_000 + secrets.randbelow(900_000)
    name = f"E2E {tid % 10_000}"
    sign_in(page, base)

    # a tenant, created on the tenant screen with the company form
    page.goto(base + "/rent-mannage")
    page.get_by_test_id("tenant-new").click()
    page.locator("#tenantId").fill(str(tid))
    page.locator("#tenantName").fill(name)
    page.locator("#companyName").fill("Console Co")
    page.locator("#contactPhone").fill("12ab")
    page.locator("#contactEmail").fill("ops@console.test")
    page.locator("#effectiveDate").click()
    page.locator("#effectiveDate").fill("2026-01-01")
    page.keyboard.press("Enter")
    page.locator("#expirationDate").click()
    page.locator("#expirationDate").fill("2025-01-01")
    page.keyboard.press("Enter")
    page.get_by_role("button", name="OK").click()
    expect(page.get_by_text("Please enter a correct phone number")).to_be_visible(timeout=WAIT)
    expect(page.get_by_text("The expiration date must be after the effective date")).to_be_visible(
        timeout=WAIT
    )
    page.locator("#contactPhone").fill("+36 1 555 0100")
    page.locator("#expirationDate").click()
    page.locator("#expirationDate").fill("2030-01-01")
    page.keyboard.press("Enter")
    page.get_by_role("button", name="OK").click()
    search(page, "tenant-search", str(tid))
    expect(page.locator("tr", has_text="Console Co")).to_be_visible(timeout=WAIT)

    # offer it a system
    code = f"e2e{secrets.token_hex(3)}"
    page.goto(base + "/system_manage/systems")
    page.get_by_test_id("system-new").click()
    system_form = page.get_by_role("dialog", name="New")
    system_form.locator("#systemCode").fill(code)
    system_form.locator("#systemName").fill(f"Sys {code}")
    system_form.locator("#names_en-us").fill(f"System {code}")
    system_form.locator("#requestUrl").fill("/home")
    system_form.get_by_role("button", name="OK").click()
    search(page, "system-search", code)
    expect(page.locator("tr", has_text=code)).to_contain_text(f"en-us: System {code}", timeout=WAIT)
    page.goto(base + "/rent-mannage")
    search(page, "tenant-search", str(tid))
    page.get_by_test_id(f"tenant-systems-{tid}").click()
    page.get_by_test_id(f"offer-{code}").click()
    expect(page.get_by_test_id(f"offer-{code}")).to_have_attribute("aria-checked", "true", timeout=WAIT)
    assert code in {
        s["systemCode"] for s in admin.ok("GET", f"{A}/tenants/systems", params={"tenantId": tid})
    }
    shot(page, "admin-tenants")

    # a user, created on the user screen in that tenant
    account = f"e2eu{secrets.token_hex(3)}"
    page.goto(base + "/system_manage/users")
    pick_tenant(page, tid)
    page.get_by_test_id("user-new").click()
    page.locator("#account").fill(account)
    page.locator("#password").fill("ab")
    page.locator("#userFullName").fill("Console User")
    page.get_by_role("button", name="OK").click()
    expect(page.get_by_text("Password must be 6 to 12 letters or digits")).to_be_visible(timeout=WAIT)
    page.locator("#password").fill("Start0pass")
    page.get_by_role("button", name="OK").click()
    expect(page.locator("tr", has_text=account)).to_be_visible(timeout=WAIT)
    user = Api(base, account, "Start0pass")
    b64 = lambda s: base64.b64encode(s.encode()).decode()  # noqa: E731
    user.ok(
        "POST",
        "/api/base/base-user/update-pwd",
        json={"oldMagic": b64("Start0pass"), "magic": b64(PASSWORD), "confirmMagic": b64(PASSWORD)},
    )

    # a role granted one menu and one of its buttons on the role screen
    first = admin.ok(
        "POST",
        f"{A}/menus",
        json={"menuCode": f"{code}-a", "menuName": f"Alpha {code}", "menuUrl": f"/{code}-a", "sort": 1},
    )["menuId"]
    second = admin.ok(
        "POST",
        f"{A}/menus",
        json={"menuCode": f"{code}-b", "menuName": f"Beta {code}", "menuUrl": f"/{code}-b", "sort": 2},
    )["menuId"]
    admin.ok(
        "POST",
        f"{A}/resources",
        json={"menuId": int(first), "resourceCode": "export", "resourceName": "Export it"},
    )
    admin.ok(
        "POST",
        f"{A}/resources",
        json={"menuId": int(first), "resourceCode": "purge", "resourceName": "Purge it"},
    )
    page.goto(base + "/system_manage/roles")
    pick_tenant(page, tid)
    page.get_by_test_id("role-new").click()
    role_form = page.get_by_role("dialog", name="New")
    role_form.locator("#roleCode").fill("clerk")
    role_form.locator("#roleName").fill("Clerk")
    role_form.get_by_role("button", name="OK").click()
    page.locator("tr", has_text="Clerk").click()
    tree = page.get_by_test_id("grant-tree")
    for title in (f"Alpha {code}", f"Beta {code}", "Export it"):
        tree.locator(".ant-tree-treenode", has_text=title).last.locator(".ant-tree-checkbox").click()
    page.get_by_test_id("grant-save").click()
    expect(page.get_by_text("Saved")).to_be_visible(timeout=WAIT)

    # the role given to the user in the user drawer, whose effective permissions show that menu and button
    page.goto(base + "/system_manage/users")
    pick_tenant(page, tid)
    search(page, "user-search", account)
    page.get_by_test_id(f"user-roles-{account}").click()
    page.get_by_test_id("user-role-clerk").click()
    expect(page.get_by_test_id("user-role-clerk")).to_be_checked(timeout=WAIT)
    effective = page.get_by_test_id("effective-permissions")
    expect(effective).to_contain_text("Export it", timeout=WAIT)
    expect(effective).to_contain_text(f"Alpha {code}")
    expect(effective).not_to_contain_text("Purge it")
    shot(page, "admin-user-effective")

    # the user sees exactly those menus and that button
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": base}])
    other = ctx.new_page()
    other.set_default_timeout(15000)
    try:
        sign_in(other, base, account, PASSWORD)
        sidebar = other.get_by_test_id("sidebar")
        expect(sidebar.get_by_text(f"Alpha {code}")).to_be_visible(timeout=WAIT)
        expect(sidebar.get_by_text(f"Beta {code}")).to_be_visible(timeout=WAIT)
        expect(sidebar.get_by_text("Administration")).to_have_count(0)
        user = Api(base, account, PASSWORD)
        buttons = user.ok("GET", "/api/base/resource/find-resource", params={"menuId": first})
        assert [b["resourceCode"] for b in buttons] == ["export"]
        expect(other.get_by_test_id("msg-bell")).to_be_visible(timeout=WAIT)

        # a menu dragged above the other on the menu screen moves in the user's sidebar
        page.goto(base + "/system_manage/menus")
        menu_tree = page.get_by_test_id("menu-tree")
        beta = menu_tree.locator(".ant-tree-treenode", has_text=f"Beta {code}").last
        alpha = menu_tree.locator(".ant-tree-treenode", has_text=f"Alpha {code}").last
        beta.drag_to(alpha, target_position={"x": 40, "y": 2})
        order: list[str] = []
        for _ in range(30):
            listed = [m["menuId"] for m in admin.ok("GET", f"{A}/menus")]
            order = [m for m in listed if m in (first, second)]
            if order == [second, first]:
                break
            page.wait_for_timeout(300)
        assert order == [second, first]
        other.reload()
        items = other.get_by_test_id("sidebar").get_by_text(code, exact=False)
        expect(items.first).to_contain_text(f"Beta {code}", timeout=WAIT)

        # the tenant's plugin switch: the message bell goes away for its users
        page.goto(base + "/platform")
        pick_tenant(page, tid)
        switch = page.get_by_test_id("plugin-message")
        expect(switch).to_have_attribute("aria-checked", "true", timeout=WAIT)
        switch.click()
        expect(switch).to_have_attribute("aria-checked", "false", timeout=WAIT)
        other.goto(base + "/home")
        other.get_by_test_id("home-page").wait_for()
        expect(other.get_by_test_id("msg-bell")).to_have_count(0, timeout=WAIT)
        shot(other, "admin-plugin-disabled")
    finally:
        ctx.close()

    # every one of those writes is in the audit log
    page.goto(base + "/system_manage/audit")
    pick_tenant(page, tid)
    for action in (
        "tenant.create",
        "tenant.profile",
        "tenant.system",
        "user.create",
        "role.create",
        "user.role.add",
        "role.menus",
        "role.resources",
        "plugin.state",
    ):
        search(page, "audit-search", action)
        expect(page.locator("tr", has_text=action).first).to_be_visible(timeout=WAIT)
    shot(page, "admin-audit")
    saved = admin.ok("GET", "/api/admin/audit", params={"action": "system.save", "keyword": code})["list"]
    assert [r["target"] for r in saved] == [code]
    with httpx.Client(base_url=base) as anon:
        assert anon.get("/api/admin/audit").json()["code"] == -1


def test_settings_screens_beside_other_plugins_pages(admin_page, live_server):
    """The console's settings tabs work, and a plugin's own page under /system_manage keeps its place."""
    page, base = admin_page, live_server.url
    kind = f"E2E_{secrets.token_hex(3).upper()}"
    page.goto(base + "/system_manage/settings")
    page.get_by_role("button", name="New").first.click()
    page.locator("#dicType").fill(kind)
    page.locator("#dicCode").fill("a")
    page.get_by_role("button", name="OK").click()
    expect(page.get_by_text("Required").first).to_be_visible(timeout=WAIT)  # the Chinese name is required
    page.locator("#names_zh-cn").fill("甲")
    page.locator("#names_hu-hu").fill("Alfa")
    page.get_by_role("button", name="OK").click()
    expect(page.locator("tr", has_text="Alfa")).to_be_visible(timeout=WAIT)
    page.get_by_role("tab", name="Server configuration").click()
    expect(page.locator("tr", has_text="DEFAULT_THEMECOLOR")).to_be_visible(timeout=WAIT)
    page.get_by_role("tab", name="Login log").click()
    expect(page.locator("tr", has_text="admin").first).to_be_visible(timeout=WAIT)
    shot(page, "admin-settings")
    page.goto(base + "/system_manage/watermark")
    expect(page.get_by_test_id("watermark-settings")).to_be_visible(timeout=WAIT)
    admin = Api(base, "admin")
    rows = admin.ok("GET", "/api/admin/audit", params={"action": "dictionary.save", "keyword": kind})["list"]
    assert [r["target"] for r in rows] == [f"{kind}:a"]
