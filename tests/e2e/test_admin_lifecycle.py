"""The console in Chromium, for what is deleted and what signs in: a tenant created with a system chosen in
its form, a tenant in use refused deletion with the reason and an empty one deleted after confirmation, a
menu with a sub-menu refused and then deleted, failed sign-ins and the lockout on the login log, the
tenant's sign-in modes and domain servers on the sign-in tab, and sign-in modes a tenant switches off
vanishing from its sign-in page."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
import pytest
from conftest import shot
from playwright.sync_api import expect
from test_admin_console import A, pick_tenant, search
from test_message_inbox import Api, ensure_remotes_built

from atrium.sdk.testing import encrypt_password

pytestmark = pytest.mark.e2e
WAIT = 15_000
C = "/api/admin"

ensure_remotes_built("admin")


def confirm(page: Any) -> None:
    page.locator(".ant-popconfirm").get_by_role("button", name="OK").click()


def test_tenants_and_menus_deleted_or_refused_with_the_reason(admin_page, live_server):
    page, base = admin_page, live_server.url
    admin = Api(base, "admin")
    code = f"lc{secrets.token_hex(3)}"
    admin.ok(
        "POST", f"{A}/systems", json={"systemCode": code, "systemName": f"Sys {code}", "requestUrl": "/"}
    )

    tid = 7_000_000 + secrets.randbelow(900_000)
    page.goto(base + "/rent-mannage")
    page.get_by_test_id("tenant-new").click()
    page.locator("#tenantId").fill(str(tid))
    page.locator("#tenantName").fill(f"Gone {tid % 1000}")
    page.locator("#companyName").fill("Gone Co")
    page.locator("#effectiveDate").click()
    page.locator("#effectiveDate").fill("2026-01-01")
    page.keyboard.press("Enter")
    page.locator("#expirationDate").click()
    page.locator("#expirationDate").fill("2030-01-01")
    page.keyboard.press("Enter")
    page.get_by_test_id("tenant-new-systems").click()
    page.locator(".ant-select-item-option", has_text=f"({code})").click()
    page.keyboard.press("Escape")
    page.get_by_role("button", name="OK").click()
    search(page, "tenant-search", str(tid))
    expect(page.locator("tr", has_text="Gone Co")).to_be_visible(timeout=WAIT)
    offered = {s["systemCode"] for s in admin.ok("GET", f"{A}/tenants/systems", params={"tenantId": tid})}
    assert offered == {"iotAutho", code}

    # a tenant with a user is refused, saying why
    admin.ok(
        "POST",
        f"{A}/users",
        json={
            "account": f"lc{secrets.token_hex(3)}",
            "password": "Start0pass",
            "userFullName": "Stays",
            "tenantId": tid,
        },
    )
    page.get_by_test_id(f"tenant-delete-{tid}").click()
    confirm(page)
    expect(page.get_by_text("The tenant still has 1 users and cannot be deleted")).to_be_visible(timeout=WAIT)
    expect(page.locator("tr", has_text="Gone Co")).to_be_visible()

    # an empty one goes, after the confirmation
    empty = tid + 1
    admin.ok(
        "POST",
        f"{C}/tenants",
        json={
            "tenantId": empty,
            "tenantName": "Empty",
            "companyName": "Empty Co",
            "effectiveDate": "2026-01-01",
            "expirationDate": "2030-01-01",
        },
    )
    page.reload()  # the list was read before this tenant was made elsewhere
    search(page, "tenant-search", str(empty))
    page.get_by_test_id(f"tenant-delete-{empty}").click()
    confirm(page)
    expect(page.locator("tr", has_text="Empty Co")).to_have_count(0, timeout=WAIT)
    assert empty not in {t["tenantId"] for t in admin.ok("GET", f"{A}/tenants")}
    shot(page, "admin-tenant-delete")

    # a menu with a sub-menu is refused; the leaf and then the parent go
    parent = admin.ok("POST", f"{A}/menus", json={"menuCode": f"{code}-p", "menuName": f"Parent {code}"})[
        "menuId"
    ]
    admin.ok(
        "POST",
        f"{A}/menus",
        json={"menuCode": f"{code}-c", "menuName": f"Child {code}", "parentId": int(parent)},
    )
    page.goto(base + "/system_manage/menus")
    tree = page.get_by_test_id("menu-tree")
    tree.locator(".ant-tree-treenode", has_text=f"Parent {code}").last.locator(".ant-tree-title").click()
    page.get_by_test_id("menu-delete").click()
    confirm(page)
    expect(page.get_by_text("The menu still has 1 sub-menus and cannot be deleted")).to_be_visible(
        timeout=WAIT
    )
    child = tree.locator(".ant-tree-treenode", has_text=f"Child {code}")
    if not child.count():  # the parent is still folded
        folded = tree.locator(".ant-tree-treenode", has_text=f"Parent {code}").last
        folded.locator(".ant-tree-switcher").click()
    child.last.locator(".ant-tree-title").click()
    page.get_by_test_id("menu-delete").click()
    confirm(page)
    expect(tree.get_by_text(f"Child {code}")).to_have_count(0, timeout=WAIT)
    tree.locator(".ant-tree-treenode", has_text=f"Parent {code}").last.locator(".ant-tree-title").click()
    page.get_by_test_id("menu-delete").click()
    confirm(page)
    expect(tree.get_by_text(f"Parent {code}")).to_have_count(0, timeout=WAIT)

    # the tenant id is unique; a menu id may be reused after a delete, so the menu is found by its name
    for action, word, target in (("tenant.delete", empty, empty), ("menu.delete", f"Parent {code}", parent)):
        rows = admin.ok("GET", f"{C}/audit", params={"action": action, "keyword": word})["list"]
        assert [r["target"] for r in rows] == [str(target)], action


def test_login_log_failures_lockouts_and_signin_modes(admin_page, live_server):
    page, base = admin_page, live_server.url
    admin = Api(base, "admin")
    account = f"lk{secrets.token_hex(3)}"
    admin.ok(
        "POST",
        f"{A}/users",
        json={"account": account, "password": "Start0pass", "userFullName": "Locked Out"},
    )
    with httpx.Client(base_url=base, headers={"language": "en#us"}) as anon:
        enc = anon.post("/api/base/base-user/get-enryption").json()["data"]
        wrong = encrypt_password(enc["publicKey"], enc["nonce"], "Wrong0000")
        body = anon.post("/api/base/base-user/login", json={"account": account, "password": wrong}).json()
        assert body["code"] != 800

    page.goto(base + "/system_manage/settings")
    page.get_by_role("tab", name="Login log").click()
    page.get_by_test_id("login-log-view").get_by_text("Lockouts").click()
    search(page, "login-log-search", account)
    row = page.get_by_test_id("lockout-table").locator("tr", has_text=account)
    expect(row).to_be_visible(timeout=WAIT)
    expect(row).to_contain_text("1")
    row.get_by_test_id(f"unlock-{account}").click()
    confirm(page)
    expect(page.get_by_test_id("lockout-table").locator("tr", has_text=account)).to_have_count(
        0, timeout=WAIT
    )
    page.get_by_test_id("login-log-view").get_by_text("Failed sign-ins").click()
    expect(page.get_by_test_id("failure-table")).to_be_visible(timeout=WAIT)
    shot(page, "admin-login-failures")

    page.get_by_role("tab", name="Sign-in").click()
    modes = page.get_by_test_id("offered-modes")
    for mode in ("Account and password", "Phone code", "E-mail code"):
        expect(modes.get_by_text(mode)).to_be_visible(timeout=WAIT)
    qr = page.get_by_test_id("signin-qrcode")
    was_on = qr.get_attribute("aria-checked") == "true"
    expect(modes.get_by_text("QR code")).to_have_count(1 if was_on else 0, timeout=WAIT)
    qr.click()
    expect(modes.get_by_text("QR code")).to_have_count(0 if was_on else 1, timeout=WAIT)
    qr.click()
    expect(modes.get_by_text("QR code")).to_have_count(1 if was_on else 0, timeout=WAIT)

    domain = f"corp{secrets.token_hex(2)}"
    page.get_by_test_id("ldap-new").click()
    page.get_by_test_id("ldap-domain").fill(domain)
    page.get_by_test_id("ldap-url").fill("http://wrong")
    page.get_by_test_id("ldap-base").fill("dc=corp,dc=test")
    page.get_by_role("button", name="OK").click()
    expect(page.get_by_text("The address must start with ldap:// or ldaps://")).to_be_visible(timeout=WAIT)
    page.get_by_test_id("ldap-url").fill("ldap://127.0.0.1:1")
    page.get_by_role("button", name="OK").click()
    expect(page.get_by_test_id("ldap-table").locator("tr", has_text=domain)).to_be_visible(timeout=WAIT)
    expect(modes.get_by_text(f"Domain account: {domain}")).to_be_visible(timeout=WAIT)
    shot(page, "admin-signin-modes")
    page.get_by_test_id(f"ldap-delete-{domain}").click()
    confirm(page)
    expect(page.get_by_test_id("ldap-table").locator("tr", has_text=domain)).to_have_count(0, timeout=WAIT)
    expect(modes.get_by_text(domain, exact=False)).to_have_count(0, timeout=WAIT)


def test_switched_off_sign_in_modes_leave_the_login_page(admin_page, browser, live_server):
    page, base = admin_page, live_server.url
    admin = Api(base, "admin")
    tid = 9_000_000 + secrets.randbelow(900_000)
    admin.ok("POST", f"{A}/tenants", json={"tenantId": tid, "tenantName": f"Modes {tid % 10_000}"})
    account = f"md{secrets.token_hex(3)}"
    admin.ok(
        "POST",
        f"{A}/users",
        json={
            "account": account,
            "password": "Start0pass",
            "userFullName": "Mode Person",
            "tenantId": tid,
            "email": f"{account}@modes.test",
            "mustChangePassword": False,
        },
    )

    page.goto(base + "/system_manage/settings")
    pick_tenant(page, tid)
    page.get_by_role("tab", name="Sign-in").click()
    modes = page.get_by_test_id("offered-modes")
    for mode in ("Account and password", "Phone code", "E-mail code"):
        expect(modes.get_by_text(mode)).to_be_visible(timeout=WAIT)
    page.get_by_test_id("signin-phone").click()
    expect(modes.get_by_text("Phone code")).to_have_count(0, timeout=WAIT)
    page.get_by_test_id("signin-password").click()
    expect(modes.get_by_text("Account and password")).to_have_count(0, timeout=WAIT)
    page.get_by_test_id("signin-email").click()  # the last one stays on, saying why
    expect(
        page.get_by_text("Keep at least one of password, phone code and e-mail code sign-in on")
    ).to_be_visible(timeout=WAIT)
    expect(page.get_by_test_id("signin-email")).to_have_attribute("aria-checked", "true")
    expect(modes.get_by_text("E-mail code")).to_be_visible(timeout=WAIT)
    shot(page, "admin-signin-switches")

    visitor = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    visitor.add_cookies([{"name": "language", "value": "en-us", "url": base}])
    login = visitor.new_page()
    try:
        login.goto(f"{base}/login?tenantId={tid}")
        tabs = login.locator(".at-login-card .ant-tabs-tab")
        expect(tabs).to_have_text(["Email", "QR code"], timeout=WAIT)
        expect(login.locator("#email")).to_be_visible(timeout=WAIT)
        expect(login.locator("#password")).to_have_count(0)
        shot(login, "login-email-only")
        # the platform's own page (no tenant named) still offers every mode
        login.goto(f"{base}/login")
        expect(login.locator(".at-login-card .ant-tabs-tab", has_text="Account")).to_be_visible(timeout=WAIT)
        expect(login.locator(".at-login-card .ant-tabs-tab", has_text="Mobile")).to_be_visible(timeout=WAIT)

        page.get_by_test_id("signin-password").click()
        expect(modes.get_by_text("Account and password")).to_be_visible(timeout=WAIT)
        login.goto(f"{base}/login?tenantId={tid}")
        expect(tabs).to_have_text(["Account", "Email", "QR code"], timeout=WAIT)
        login.locator("#account").fill(account)
        login.locator("#password").fill("Start0pass")
        login.locator("#agree").check()
        login.get_by_role("button", name="Sign in").click()
        login.wait_for_url("**/home", timeout=WAIT)
    finally:
        visitor.close()

    saved = admin.ok("GET", f"{C}/audit", params={"action": "signin_config.save", "tenantId": tid})["list"]
    assert len(saved) == 3 and all(r["target"] == str(tid) for r in saved)
