"""The user screen in Chromium: memberships edited in the user drawer (added with the supervisor flag,
switched, removed after a confirmation, the last one kept with the reason shown); a user edited, reset,
unlocked and disabled, each after its confirmation; users exported to Excel and imported through the
import wizard."""

from __future__ import annotations

import io
import secrets
from pathlib import Path
from typing import Any

import httpx
import openpyxl
import pytest
import xlsxwriter
from conftest import shot
from playwright.sync_api import expect
from test_admin_console import A, search
from test_message_inbox import Api, ensure_remotes_built

from atrium.sdk.testing import encrypt_password

pytestmark = pytest.mark.e2e
WAIT = 15_000
LOAD = 30_000

ensure_remotes_built("admin", "transfer")


def popconfirm(page: Any, question: str) -> None:
    """Answers OK to the open confirmation that asks the question."""
    box = page.locator(".ant-popconfirm:not(.ant-popover-hidden)", has_text=question)
    expect(box).to_be_visible(timeout=WAIT)
    box.get_by_role("button", name="OK").click()


def new_user(admin: Api, tenant_id: int | None = None) -> tuple[str, int]:
    account = f"us{secrets.token_hex(3)}"
    body: dict[str, Any] = {"account": account, "password": "Start0pass", "userFullName": f"Person {account}"}
    if tenant_id is not None:
        body["tenantId"] = tenant_id
    uid = admin.ok("POST", f"{A}/users", json=body)["userId"]
    return account, int(uid)


def memberships(admin: Api, uid: int, tenant_id: int) -> dict[int, bool]:
    detail = admin.ok("GET", f"{A}/users/detail", params={"userId": uid, "tenantId": tenant_id})
    return {m["tenantId"]: m["supervisor"] for m in detail["memberships"]}


def sign_in_answer(base: str, account: str, password: str) -> dict[str, Any]:
    with httpx.Client(base_url=base, headers={"language": "en#us"}) as anon:
        enc = anon.post("/api/base/base-user/get-enryption").json()["data"]
        secret = encrypt_password(enc["publicKey"], enc["nonce"], password)
        answer: dict[str, Any] = anon.post(
            "/api/base/base-user/login", json={"account": account, "password": secret}
        ).json()
        return answer


def eventually(page: Any, check: Any) -> bool:
    """Whether the check holds within a few seconds (the screen's call may still be on its way)."""
    for _ in range(30):
        if check():
            return True
        page.wait_for_timeout(300)
    return False


def open_user_row(page: Any, base: str, account: str) -> Any:
    page.goto(base + "/system_manage/users")
    search(page, "user-search", account)
    row = page.locator("tr", has_text=account)
    expect(row).to_be_visible(timeout=LOAD)
    return row


def test_memberships_are_edited_in_the_user_drawer(admin_page, live_server):
    page, base = admin_page, live_server.url
    admin = Api(base, "admin")
    home = admin.profile["tenantId"]
    other = 6_000_000 + secrets.randbelow(900_000)
    admin.ok("POST", f"{A}/tenants", json={"tenantId": other, "tenantName": f"Branch {other % 10_000}"})
    account, uid = new_user(admin)

    open_user_row(page, base, account)
    page.get_by_test_id(f"user-roles-{account}").click()
    drawer = page.get_by_test_id("user-memberships")
    expect(drawer.get_by_test_id(f"membership-{home}")).to_be_visible(timeout=WAIT)
    drawer.get_by_test_id("membership-tenant").click()
    page.keyboard.type(str(other))
    page.locator(".ant-select-item-option", has_text=f"({other})").first.click()
    drawer.get_by_test_id("membership-supervisor-new").check()
    drawer.get_by_test_id("membership-add").click()
    added = drawer.get_by_test_id(f"membership-{other}")
    expect(added).to_contain_text(f"Branch {other % 10_000}", timeout=WAIT)
    expect(drawer.get_by_test_id(f"membership-supervisor-{other}")).to_have_attribute("aria-checked", "true")
    assert memberships(admin, uid, home) == {home: False, other: True}

    drawer.get_by_test_id(f"membership-supervisor-{other}").click()
    expect(drawer.get_by_test_id(f"membership-supervisor-{other}")).to_have_attribute(
        "aria-checked", "false", timeout=WAIT
    )
    assert memberships(admin, uid, home) == {home: False, other: False}
    shot(page, "admin-user-memberships")

    drawer.get_by_test_id(f"membership-remove-{other}").click()
    popconfirm(page, f"Remove the user from Branch {other % 10_000}?")
    expect(added).to_have_count(0, timeout=WAIT)
    assert memberships(admin, uid, home) == {home: False}

    drawer.get_by_test_id(f"membership-remove-{home}").click()
    popconfirm(page, "Remove the user from")
    expect(
        page.get_by_text("The user belongs to no other tenant; the last membership cannot be removed")
    ).to_be_visible(timeout=WAIT)
    expect(drawer.get_by_test_id(f"membership-{home}")).to_be_visible()
    actions = {r["action"] for r in admin.ok("GET", "/api/admin/audit", params={"keyword": uid})["list"]}
    assert {"user.membership", "user.membership.remove"} <= actions


def test_edit_reset_unlock_and_disable_each_confirmed(admin_page, live_server):
    page, base = admin_page, live_server.url
    admin = Api(base, "admin")
    account, uid = new_user(admin)
    assert sign_in_answer(base, account, "Wrong0000")["code"] != 800  # one failed sign-in to unlock

    row = open_user_row(page, base, account)
    row.get_by_role("button", name="Edit").click()
    dialog = page.get_by_role("dialog", name="Edit")
    expect(dialog.locator("#account")).to_be_disabled()
    dialog.locator("#userFullName").fill("Renamed Person")
    dialog.locator("#mobile").fill("12ab")
    dialog.get_by_role("button", name="OK").click()
    expect(dialog.get_by_text("Please enter a correct phone number")).to_be_visible(timeout=WAIT)
    dialog.locator("#mobile").fill("+36 30 555 0101")
    dialog.get_by_role("button", name="OK").click()
    expect(row).to_contain_text("Renamed Person", timeout=WAIT)
    expect(row).to_contain_text("+36 30 555 0101")

    row.get_by_role("button", name="Reset password").click()
    reset = page.get_by_role("dialog", name="Reset password")
    reset.locator("#password").fill("New0pass9")
    reset.get_by_role("button", name="OK").click()
    confirm = page.get_by_role("dialog").filter(has_text="Reset this user's password?")
    expect(confirm).to_be_visible(timeout=WAIT)
    confirm.get_by_role("button", name="OK").click()
    assert eventually(page, lambda: sign_in_answer(base, account, "New0pass9")["code"] == 800)

    def failures() -> int:
        rows = admin.ok("GET", f"{A}/lockouts", params={"keyword": account})["list"]
        return sum(r["failedCount"] for r in rows if r["account"] == account)

    assert sign_in_answer(base, account, "Wrong0000")["code"] != 800
    assert failures() == 1
    row.get_by_role("button", name="Unlock").click()
    popconfirm(page, "Unlock this user?")
    assert eventually(page, lambda: failures() == 0)

    row.get_by_role("button", name="Disable").click()
    popconfirm(page, "Disable this user?")
    expect(row.locator(".ant-tag", has_text="Disabled")).to_be_visible(timeout=WAIT)
    assert sign_in_answer(base, account, "New0pass9")["code"] != 800
    shot(page, "admin-user-disabled")
    actions = {r["action"] for r in admin.ok("GET", "/api/admin/audit", params={"keyword": uid})["list"]}
    assert {"user.update", "user.password.reset", "user.unlock", "user.state"} <= actions


def test_users_are_exported_and_imported_through_the_wizard(admin_page, live_server, tmp_path: Path):
    page, base = admin_page, live_server.url
    admin = Api(base, "admin")
    account, _ = new_user(admin)
    page.goto(base + "/system_manage/users")
    expect(page.get_by_test_id("user-search")).to_be_visible(timeout=LOAD)
    with page.expect_download(timeout=60_000) as info:
        page.get_by_role("button", name="Export").click()
    sheet = openpyxl.load_workbook(io.BytesIO(Path(info.value.path()).read_bytes())).active
    assert [c.value for c in sheet[1]] == ["Account", "Name", "Mobile", "Email", "Staff number", "Department"]
    assert account in {r[0] for r in sheet.iter_rows(min_row=2, values_only=True)}

    imported = f"im{secrets.token_hex(3)}"
    book = tmp_path / "people.xlsx"
    wb = xlsxwriter.Workbook(str(book))
    ws = wb.add_worksheet()
    for r, values in enumerate(
        [
            ["Account", "Name", "Email"],
            [imported, "Imported Person", f"{imported}@acme.example"],
            ["bad account!", "X", ""],
        ]
    ):
        ws.write_row(r, 0, values)
    wb.close()

    page.get_by_role("button", name="Import").click()
    page.wait_for_url("**/data-transfer/import")
    target = page.get_by_test_id("import-target")
    expect(target).to_be_visible(timeout=LOAD)
    target.click()
    page.locator(".ant-select-item-option", has_text="Users").first.click()
    expect(target).to_contain_text("Users")
    wizard = page.get_by_test_id("import-wizard")
    wizard.locator("input[type=file]").set_input_files(str(book))
    wizard.get_by_test_id("header-row-1").check()
    wizard.get_by_test_id("to-matching").click()
    expect(wizard.get_by_test_id("match-account")).to_contain_text("Account", timeout=WAIT)
    expect(wizard.get_by_test_id("match-userFullName")).to_contain_text("Name")
    wizard.get_by_test_id("start-import").click()
    expect(wizard.get_by_test_id("import-success")).to_have_text("1", timeout=60_000)
    expect(wizard.get_by_test_id("import-failed")).to_have_text("1")
    shot(page, "admin-users-imported")

    row = open_user_row(page, base, imported)
    expect(row).to_contain_text("Imported Person")
    audit = admin.ok("GET", "/api/admin/audit", params={"action": "user.import"})["list"]
    assert any(imported in r["after"] for r in audit)
