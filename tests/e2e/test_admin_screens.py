"""The systems screen (names per locale, edit, deletion refused while in use with the reason), the password
strategy, grey rule and table audit tabs of the settings screen (saved and read back), a tenant
approved and suspended on the tenant screen, and a menu's icon chosen in the files plugin's icon picker,
in Chromium."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from conftest import shot
from playwright.sync_api import expect
from test_admin_console import A, search
from test_admin_users import popconfirm
from test_files_icons import dialog_width
from test_message_inbox import Api, ensure_remotes_built

pytestmark = pytest.mark.e2e
WAIT = 15_000
LOAD = 30_000

ensure_remotes_built("admin", "files")


def system_row(page: Any, code: str) -> Any:
    search(page, "system-search", code)
    return page.locator("tr", has_text=code)


def test_systems_with_names_per_locale_edited_and_kept_while_in_use(admin_page, live_server):
    page, base = admin_page, live_server.url
    admin = Api(base, "admin")
    code = f"sy{secrets.token_hex(3)}"
    page.goto(base + "/system_manage/systems")
    page.get_by_test_id("system-new").click()
    dialog = page.get_by_role("dialog", name="New")
    dialog.locator("#systemCode").fill("bad code!")
    dialog.get_by_role("button", name="OK").click()
    expect(dialog.locator(".ant-form-item-explain-error").first).to_be_visible(timeout=WAIT)
    dialog.locator("#systemCode").fill(code)
    dialog.locator("#systemName").fill("仓储系统")
    dialog.locator("#names_en-us").fill("Warehouse")
    dialog.locator("#names_hu-hu").fill("Raktár")
    dialog.locator("#requestUrl").fill("/warehouse")
    dialog.get_by_role("button", name="OK").click()
    row = system_row(page, code)
    expect(row).to_contain_text("English: Warehouse", timeout=WAIT)  # the language by its name
    expect(row).to_contain_text("Magyar: Raktár")
    saved = next(s for s in admin.ok("GET", f"{A}/systems") if s["systemCode"] == code)
    assert json.loads(saved["systemEnName"]) == {"en-us": "Warehouse", "hu-hu": "Raktár"}

    page.get_by_test_id(f"system-edit-{code}").click()
    edit = page.get_by_role("dialog", name="Warehouse")
    expect(edit.locator("#names_hu-hu")).to_have_value("Raktár", timeout=WAIT)
    edit.locator("#names_vi-vn").fill("Kho hàng")
    edit.locator("#names_hu-hu").fill("")
    edit.get_by_role("button", name="OK").click()
    expect(row).to_contain_text("Tiếng Việt: Kho hàng", timeout=WAIT)
    expect(row).not_to_contain_text("hu-hu")

    tid = 5_000_000 + secrets.randbelow(900_000)
    admin.ok("POST", f"{A}/tenants", json={"tenantId": tid, "tenantName": f"Uses {tid % 1000}"})
    admin.ok("POST", f"{A}/tenants/systems", json={"tenantId": tid, "systemCode": code})
    page.get_by_test_id(f"system-delete-{code}").click()
    popconfirm(page, "Delete it?")
    expect(
        page.get_by_text("The system is still offered to 1 tenants or has menus and cannot be deleted")
    ).to_be_visible(timeout=WAIT)
    expect(row).to_be_visible()
    shot(page, "admin-systems")


def test_password_strategy_grey_rules_and_table_audit_are_saved_and_read_back(admin_page, live_server):
    page, base = admin_page, live_server.url
    admin = Api(base, "admin")
    before = admin.ok("GET", f"{A}/password-strategy")
    try:
        page.goto(base + "/system_manage/settings")
        page.get_by_role("tab", name="Password strategy").click()
        pane = page.get_by_role("tabpanel", name="Password strategy")
        expect(pane.locator("#minLength")).to_have_value(str(before["minLength"]), timeout=LOAD)
        pane.locator("#minLength").fill("8")
        pane.locator("#maxLength").fill("7")
        pane.get_by_role("button", name="Save").click()
        expect(pane.locator(".ant-form-item-explain-error").first).to_be_visible(timeout=WAIT)
        pane.locator("#maxLength").fill("12")
        pane.locator("#expireDays").fill("45")
        pane.get_by_role("button", name="Save").click()
        expect(page.get_by_text("Saved").first).to_be_visible(timeout=WAIT)
        page.reload()
        page.get_by_role("tab", name="Password strategy").click()
        expect(pane.locator("#minLength")).to_have_value("8", timeout=LOAD)
        expect(pane.locator("#expireDays")).to_have_value("45")
        applied = admin.ok("GET", f"{A}/password-strategy")
        assert (applied["minLength"], applied["maxLength"], applied["expireDays"]) == (8, 12, 45)
    finally:
        settable = ("minLength", "maxLength", "expireDays", "warnDays", "allowSymbols")
        admin.ok("POST", f"{A}/password-strategy", json={k: before[k] for k in settable})

    header = f"x-e2e-{secrets.token_hex(2)}"
    page.get_by_role("tab", name="Grey rules").click()
    grey = page.get_by_role("tabpanel", name="Grey rules")
    grey.get_by_placeholder("Header").fill("bad header!")
    grey.get_by_placeholder("Value").fill("canary")
    grey.get_by_role("button", name="New").click()
    expect(grey.locator(".ant-form-item-explain-error").first).to_be_visible(timeout=WAIT)
    grey.get_by_placeholder("Header").fill(header)
    grey.get_by_role("button", name="New").click()
    expect(grey.locator("tr", has_text=header)).to_contain_text("canary", timeout=WAIT)
    assert any(r["header"] == header and r["value"] == "canary" for r in admin.ok("GET", f"{A}/grey-rules"))

    table = f"e2e_{secrets.token_hex(3)}"
    page.get_by_role("tab", name="Table audit").click()
    audit = page.get_by_role("tabpanel", name="Table audit")
    audit.get_by_placeholder("Service", exact=True).fill("orders")
    audit.get_by_placeholder("Table", exact=True).fill(table)
    audit.get_by_placeholder("Table description").fill("Orders")
    audit.get_by_role("button", name="New").click()
    row = audit.locator("tr", has_text=table)
    expect(row.get_by_role("switch")).to_have_attribute("aria-checked", "true", timeout=WAIT)
    row.get_by_role("switch").click()
    expect(row.get_by_role("switch")).to_have_attribute("aria-checked", "false", timeout=WAIT)
    page.reload()
    page.get_by_role("tab", name="Table audit").click()
    row = page.get_by_role("tabpanel", name="Table audit").locator("tr", has_text=table)
    expect(row.get_by_role("switch")).to_have_attribute("aria-checked", "false", timeout=LOAD)
    listed = admin.ok("GET", "/api/base/audit-config/list")
    assert [(c["serverName"], c["tableAlias"], c["enabled"]) for c in listed if c["tableName"] == table] == [
        ("orders", "Orders", False)
    ]
    shot(page, "admin-table-audit")


def test_a_tenant_is_approved_and_suspended(admin_page, live_server):
    page, base = admin_page, live_server.url
    admin = Api(base, "admin")
    tid = 4_000_000 + secrets.randbelow(900_000)
    admin.ok(
        "POST",
        "/api/admin/tenants",
        json={
            "tenantId": tid,
            "tenantName": f"Apr {tid % 1000}",
            "companyName": "Approve Co",
            "effectiveDate": "2026-01-01",
            "expirationDate": "2030-01-01",
        },
    )
    page.goto(base + "/rent-mannage")
    search(page, "tenant-search", str(tid))
    row = page.locator("tr", has_text="Approve Co")
    expect(row).to_contain_text("Pending", timeout=LOAD)
    row.get_by_role("button", name="Approve").click()
    popconfirm(page, "Are you sure?")
    expect(row).to_contain_text("Approved", timeout=WAIT)
    expect(row.get_by_role("button", name="Approve")).to_have_count(0)
    row.get_by_role("button", name="Suspend").click()
    popconfirm(page, "Are you sure?")
    expect(row.get_by_role("button", name="Resume")).to_be_visible(timeout=WAIT)
    tenant = next(t for t in admin.ok("GET", f"{A}/tenants") if t["tenantId"] == tid)
    assert tenant["enabled"] is False
    profile = next(p for p in admin.ok("GET", "/api/admin/tenant-profiles") if p["tenantId"] == tid)
    assert profile["approvalState"] == "approved"
    shot(page, "admin-tenant-suspended")


def test_menu_icon_is_chosen_in_the_files_icon_picker(admin_page, live_server):
    """The menu form takes its icon from the files plugin's picker (a built-in or a custom icon) and saves it;
    with the files plugin off for the tenant, the form offers its own list of icon names instead."""
    page, base = admin_page, live_server.url
    admin = Api(base, "admin")
    code = f"ic{secrets.token_hex(3)}"
    menu_id = admin.ok(
        "POST", f"{A}/menus", json={"menuCode": code, "menuName": f"Icons {code}", "menuUrl": f"/{code}"}
    )["menuId"]

    def open_menu() -> None:
        page.goto(base + "/system_manage/menus")
        tree = page.get_by_test_id("menu-tree")
        tree.locator(".ant-tree-treenode", has_text=f"Icons {code}").last.click(timeout=LOAD)

    def icon_field() -> Any:
        return page.locator("input[data-testid=menu-icon], [data-testid=menu-icon] input").first

    def saved_icon() -> str:
        return str(next(m for m in admin.ok("GET", f"{A}/menus") if m["menuCode"] == code)["menuIconurl"])

    open_menu()
    page.get_by_test_id("menu-icon-pick").click(timeout=LOAD)
    picker = page.get_by_role("dialog", name="Choose an icon")
    expect(picker).to_be_visible(timeout=WAIT)
    assert dialog_width(picker) == 840
    picker.get_by_test_id("builtin-star").click()
    picker.get_by_test_id("icon-pick-ok").click()
    expect(icon_field()).to_have_value("star")
    page.get_by_test_id("menu-save").click()
    expect(page.get_by_text("Saved").last).to_be_visible(timeout=WAIT)
    assert saved_icon() == "star"

    # a custom icon is kept as its file's address and shown beside the field
    page.get_by_test_id("menu-icon-pick").click()
    picker.get_by_role("tab", name="Custom icons").click()
    picker.locator("[data-testid^=custom-]", has_text="Acme star").locator("img").click(timeout=WAIT)
    picker.get_by_test_id("icon-pick-ok").click()
    expect(page.get_by_test_id("menu-icon-preview")).to_be_visible(timeout=WAIT)
    page.get_by_test_id("menu-save").click()
    custom = ""
    for _ in range(30):
        custom = saved_icon()
        if custom != "star":
            break
        page.wait_for_timeout(300)
    assert custom.startswith("/api/")
    open_menu()
    expect(icon_field()).to_have_value(custom, timeout=WAIT)
    shot(page, "admin-menu-icon")

    # without the files plugin the picker is not there: a list of icon names is
    admin.ok("POST", f"{A}/plugins/state", json={"plugin": "files", "enabled": False})
    try:
        open_menu()
        select = page.get_by_test_id("menu-icon-select")
        expect(select).to_be_visible(timeout=WAIT)
        expect(page.get_by_test_id("menu-icon-pick")).to_have_count(0)
        select.click()
        page.keyboard.type("Star")
        page.locator(".ant-select-item-option", has_text="StarOutlined").click()
        page.get_by_test_id("menu-save").click()
        expect(page.get_by_text("Saved").last).to_be_visible(timeout=WAIT)
        for _ in range(30):
            if saved_icon() == "StarOutlined":
                break
            page.wait_for_timeout(300)
        assert saved_icon() == "StarOutlined"
    finally:
        admin.ok("POST", f"{A}/plugins/state", json={"plugin": "files", "enabled": True})
        admin.ok("POST", f"{A}/menus/delete", json={"menuId": int(menu_id)})
