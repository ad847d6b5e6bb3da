"""The administration console in Chromium: a super administrator creates a tenant and offers it a system,
creates a user there, grants a role a menu and a button, and the user sees exactly those (the reports
viewer's export button shows for that user and not for one without the button); the tenant's
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

ensure_remotes_built("admin", "reports")


def search(page: Any, test_id: str, text: str) -> None:
    box = page.locator(f"input[data-testid={test_id}], [data-testid={test_id}] input").first
    box.fill(text)
    box.press("Enter")


def pick_tenant(page: Any, tenant_id: int) -> None:
    page.get_by_test_id("tenant-picker").click()
    page.keyboard.type(str(tenant_id))
    page.locator(".ant-select-item-option", has_text=f"({tenant_id})").first.click()
    open_dropdowns = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)")
    expect(open_dropdowns).to_have_count(0, timeout=WAIT)


def grant_checkbox(tree: Any, *path: str) -> Any:
    """The checkbox of the node titled by the last of `path`, found below the nodes titled by the others (a
    grant tree lists its nodes in order, and button titles repeat from menu to menu)."""
    nodes = tree.locator(".ant-tree-treenode")
    titles = [t.strip() for t in nodes.all_inner_texts()]
    at = -1
    for title in path:
        at = titles.index(title, at + 1)
    return nodes.nth(at).locator(".ant-tree-checkbox")


def export_button_panel(base: str, tenant_id: int, role_ids: list[int]) -> str:
    """A report panel in the tenant with an export button on it, viewable and exportable by the roles;
    created by a supervisor of the tenant (tenant administrators create panels)."""
    account = f"e2es{secrets.token_hex(3)}"
    Api(base, "admin").ok(
        "POST",
        f"{A}/users",
        json={
            "account": account,
            "password": "Start0pass",
            "userFullName": "Console Supervisor",
            "tenantId": tenant_id,
            "supervisor": True,
            "mustChangePassword": False,
        },
    )
    supervisor = Api(base, account, "Start0pass")
    button = {
        "id": "export-data",
        "type": "custom-button",
        "component": "de-button",
        "serviceName": "buttonExportWidget",
        "propValue": "Export data",
        "style": {"left": 20, "top": 20, "width": 160, "height": 40},
        "options": {"attrs": {}},
    }
    name = f"Exports {secrets.token_hex(3)}"
    panel = supervisor.ok("POST", "/api/dyreport/panel/save", json={"name": name, "panelData": [button]})
    grants = [{"subjectType": "role", "subjectId": rid, "export": True} for rid in role_ids]
    supervisor.ok("POST", f"/api/dyreport/panel/grants/{panel['id']}", json={"grants": grants})
    return name


def open_panel(page: Any, base: str, name: str) -> None:
    """Opens a panel from the reports page's list and waits for its export widget and the menu's buttons."""
    with page.expect_response(lambda r: "/resource/find-resource" in r.url, timeout=WAIT):
        page.goto(base + "/dynamic-report")
    page.get_by_test_id("panel-list").get_by_text(name).click(timeout=WAIT)
    expect(page.get_by_test_id("widget-export")).to_be_visible(timeout=WAIT)


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
    expect(page.locator("tr", has_text=code)).to_contain_text(f"English: System {code}", timeout=WAIT)
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
    # the new tenant keeps the spec's rule, said under the field and as the refusal
    refusal = page.locator(".ant-form-item-explain-error", has_text="6 to 12 letters or digits")
    expect(refusal).to_be_visible(timeout=WAIT)
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
    # and the report list with its export button (the viewer's export)
    grant_checkbox(tree, "Dynamic reports").click()
    grant_checkbox(tree, "Dynamic reports", "Reports").click()
    grant_checkbox(tree, "Dynamic reports", "Reports", "⦿ 导出").click()
    with page.expect_response(lambda r: r.url.endswith("/roles/resources") and r.request.method == "POST"):
        page.get_by_test_id("grant-save").click()
    expect(page.get_by_text("Saved").last).to_be_visible(timeout=WAIT)

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
    expect(effective).to_contain_text("导出")  # the reports menu's export button
    shot(page, "admin-user-effective")

    # a reader holding the reports menu without its export button, and a panel both roles may export
    roles = {r["roleCode"]: r["roleId"] for r in admin.ok("GET", f"{A}/roles", params={"tenantId": tid})}
    reports_menus = [
        int(m["menuId"])
        for m in admin.ok("GET", f"{A}/menus")
        if m["menuCode"] in ("dynamic-report", "dynamic-report-panels")
    ]
    reader_role = admin.ok(
        "POST", f"{A}/roles", json={"roleCode": "reader", "roleName": "Reader", "tenantId": tid}
    )["roleId"]
    admin.ok(
        "POST",
        f"{A}/roles/menus",
        json={"roleId": reader_role, "menuIds": reports_menus, "tenantId": tid},
    )
    reader = f"e2er{secrets.token_hex(3)}"
    reader_id = admin.ok(
        "POST",
        f"{A}/users",
        json={
            "account": reader,
            "password": PASSWORD,
            "userFullName": "Console Reader",
            "tenantId": tid,
            "mustChangePassword": False,
        },
    )["userId"]
    admin.ok("POST", f"{A}/users/roles", json={"userId": reader_id, "roleId": reader_role, "tenantId": tid})
    panel_name = export_button_panel(base, tid, [roles["clerk"], reader_role])

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

        # the granted button on screen: the report's export button, which the reader does not get
        open_panel(other, base, panel_name)
        expect(other.get_by_test_id("button-export")).to_have_text("Export data", timeout=WAIT)
        shot(other, "admin-granted-button")
        reader_ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
        reader_ctx.add_cookies([{"name": "language", "value": "en-us", "url": base}])
        try:
            reader_page = reader_ctx.new_page()
            reader_page.set_default_timeout(15000)
            sign_in(reader_page, base, reader, PASSWORD)
            open_panel(reader_page, base, panel_name)
            expect(reader_page.get_by_test_id("button-export")).to_have_count(0)
        finally:
            reader_ctx.close()

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
        page.get_by_test_id("plugin-confirm-ok").click()  # the switch asks first, naming the tenant
        expect(switch).to_have_attribute("aria-checked", "false", timeout=WAIT)
        other.goto(base + "/home")
        other.get_by_test_id("home-page").wait_for()
        expect(other.get_by_test_id("msg-bell")).to_have_count(0, timeout=WAIT)
        shot(other, "admin-plugin-disabled")
    finally:
        ctx.close()

    # every one of those writes is in the audit log, each told in words
    page.goto(base + "/system_manage/audit")
    pick_tenant(page, tid)
    words = {
        a["action"]: a["text"] for a in admin.ok("GET", "/api/admin/audit/actions", params={"tenantId": tid})
    }
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
        assert words.get(action) and words[action] != action, (action, words.get(action))
        expect(page.locator("tr", has_text=words[action]).first).to_be_visible(timeout=WAIT)
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
