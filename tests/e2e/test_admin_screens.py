"""The systems screen (names per locale, edit, deletion refused while in use with the reason), the password
strategy, grey rule and table audit tabs of the settings screen (saved and read back), and a tenant
approved and suspended on the tenant screen, in Chromium."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from conftest import shot
from playwright.sync_api import expect
from test_admin_console import A, search
from test_admin_users import popconfirm
from test_message_inbox import Api, ensure_remotes_built

pytestmark = pytest.mark.e2e
WAIT = 15_000
LOAD = 30_000

ensure_remotes_built("admin")


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
    expect(row).to_contain_text("en-us: Warehouse", timeout=WAIT)
    expect(row).to_contain_text("hu-hu: Raktár")
    saved = next(s for s in admin.ok("GET", f"{A}/systems") if s["systemCode"] == code)
    assert json.loads(saved["systemEnName"]) == {"en-us": "Warehouse", "hu-hu": "Raktár"}

    page.get_by_test_id(f"system-edit-{code}").click()
    edit = page.get_by_role("dialog", name="Warehouse")
    expect(edit.locator("#names_hu-hu")).to_have_value("Raktár", timeout=WAIT)
    edit.locator("#names_vi-vn").fill("Kho hàng")
    edit.locator("#names_hu-hu").fill("")
    edit.get_by_role("button", name="OK").click()
    expect(row).to_contain_text("vi-vn: Kho hàng", timeout=WAIT)
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
        admin.ok("POST", f"{A}/password-strategy", json=before)

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
    audit.get_by_placeholder("serverName").fill("orders")
    audit.get_by_placeholder("tableName").fill(table)
    audit.get_by_placeholder("tableAlias").fill("Orders")
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
