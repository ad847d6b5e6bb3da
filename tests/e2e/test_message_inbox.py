"""The message plugin in Chromium: the bell and its popover, pushes arriving live, the letters page
(filter, read and unread, delete, mark all read, mark the selected letters read, loading on scroll), the
sending screen, signing out across tabs, and both message and watermark leaving a tenant that disables
them."""

from __future__ import annotations

import base64
import re
import secrets
import subprocess
from typing import Any

import httpx
import pytest
from conftest import ROOT, shot, sign_in
from playwright.sync_api import expect

from atrium.sdk.testing import DEMO_PASSWORDS, encrypt_password

pytestmark = pytest.mark.e2e
WAIT = 15_000  # ms: the machine running the browser tests is shared and often busy
INBOX = "/api/message/iotBaseMessageLogController"
GLOBEX = 1002
LAYER = "[data-atrium-watermark]"
PASSWORD = "Passw0rd1"


def ensure_remotes_built(*names: str) -> None:
    """Build the plugins' remotes when missing. The kernel mounts `/plugins/<name>/` only for a `dist` that
    exists when the server starts, so this runs while the tests are collected, before any server."""
    for name in names:
        folder = ROOT / "web-plugins" / name
        if not (folder / "dist" / "remoteEntry.js").exists():
            subprocess.run(
                ["npx", "webpack", "--mode", "production"], cwd=folder, check=True, stdout=subprocess.DEVNULL
            )


ensure_remotes_built("message", "watermark")


class Api:
    """The live server's API for one account (setting up what the browser then shows)."""

    def __init__(self, base: str, account: str, password: str | None = None) -> None:
        self.account = account
        self.http = httpx.Client(base_url=base, timeout=20, headers={"language": "en#us"})
        enc = self.http.post("/api/base/base-user/get-enryption").json()["data"]
        secret = encrypt_password(enc["publicKey"], enc["nonce"], password or DEMO_PASSWORDS[account])
        login = {"account": account, "password": secret}
        body = self.http.post("/api/base/base-user/login", json=login).json()
        assert body["code"] == 800, body
        self.profile: dict[str, Any] = body["data"]
        self.http.headers["authorization"] = body["data"]["authorization"]

    def ok(self, method: str, path: str, **kw: Any) -> Any:
        body = self.http.request(method, path, **kw).json()
        assert body["code"] == 800, body
        return body["data"]

    def send(self, to_users: list[Any], content: str) -> None:
        self.ok("POST", "/api/message/admin/send", json={"toUsers": to_users, "content": content})

    def unread(self) -> int:
        total: int = self.ok("POST", f"{INBOX}/unread-message-total", json={"systemCodes": ["iotAutho"]})
        return total


def new_user(admin: Api, base: str) -> Api:
    """A new Acme user who has already replaced the first password (so no password dialog pops)."""
    account = f"e2e{secrets.token_hex(3)}"
    admin.ok(
        "POST",
        "/api/base/admin/users",
        json={"account": account, "password": "Start0pass", "userFullName": f"Reader {account}"},
    )
    first = Api(base, account, "Start0pass")
    b64 = lambda s: base64.b64encode(s.encode()).decode()  # noqa: E731
    first.ok(
        "POST",
        "/api/base/base-user/update-pwd",
        json={"oldMagic": b64("Start0pass"), "magic": b64(PASSWORD), "confirmMagic": b64(PASSWORD)},
    )
    return Api(base, account, PASSWORD)


def test_bell_badge_and_popover(page, live_server):
    admin = Api(live_server.url, "admin")
    alice = Api(live_server.url, "alice")
    text = f"Board meeting moved to Thursday {secrets.token_hex(2)}"
    admin.send([alice.profile["userId"]], f"<p>{text}</p>")
    sign_in(page, live_server.url, "alice", "Alice@123")
    bell = page.get_by_test_id("msg-bell")
    expect(bell).to_have_attribute("data-unread", str(alice.unread()), timeout=WAIT)
    bell.click()
    popover = page.get_by_test_id("msg-popover")
    expect(popover).to_be_visible(timeout=WAIT)
    # 480 x 300 once the opening animation has finished
    page.wait_for_function("""() => { const r = document.querySelector('[data-testid=msg-popover]')
        .getBoundingClientRect(); return Math.round(r.width) === 480 && Math.round(r.height) === 300; }""")
    expect(popover.get_by_test_id("msg-popover-item").first).to_contain_text(text, timeout=WAIT)
    shot(page, "message-bell-popover")
    page.get_by_test_id("msg-more").click()
    page.wait_for_url("**/letters")
    expect(page.get_by_test_id("letters-page")).to_be_visible(timeout=WAIT)
    expect(page.get_by_test_id("letter-row").first).to_contain_text(text, timeout=WAIT)


def test_a_letter_arrives_live(page, live_server):
    admin = Api(live_server.url, "admin")
    reader = new_user(admin, live_server.url)
    sign_in(page, live_server.url, reader.account, PASSWORD)
    bell = page.get_by_test_id("msg-bell")
    expect(bell).to_have_attribute("data-unread", "0", timeout=WAIT)
    admin.send([reader.profile["userId"]], "<p>Fire drill at <b>15:00</b></p>")
    expect(bell).to_have_attribute("data-unread", "1", timeout=WAIT)  # no reload: the push told the page
    bell.click()
    expect(page.get_by_test_id("msg-popover-item")).to_have_count(1, timeout=WAIT)
    expect(page.get_by_test_id("msg-popover-item")).to_contain_text("Fire drill at 15:00", timeout=WAIT)
    admin.send([reader.profile["userId"]], "<p>Second notice</p>")
    expect(bell).to_have_attribute("data-unread", "2", timeout=WAIT)
    expect(page.get_by_test_id("msg-popover-item")).to_have_count(2, timeout=WAIT)


def test_letters_page(page, live_server):
    admin = Api(live_server.url, "admin")
    reader = new_user(admin, live_server.url)
    uid = reader.profile["userId"]
    for i in range(25):
        admin.send([uid], f"<p>Letter number {i:02d}</p>")
    sign_in(page, live_server.url, reader.account, PASSWORD)
    page.goto(live_server.url + "/letters")
    rows = page.get_by_test_id("letter-row")
    bell = page.get_by_test_id("msg-bell")
    expect(bell).to_have_attribute("data-unread", "25", timeout=WAIT)
    # newest first, ten at a time: each scroll to the end loads the next page (a first page too short
    # to scroll loads the next one by itself)
    expect(rows.first).to_contain_text("Letter number 24", timeout=WAIT)
    scroller = page.get_by_test_id("letters-scroll")
    seen = []
    while not seen or seen[-1] < 25:
        page.wait_for_function(
            "n => document.querySelectorAll('[data-testid=letter-row]').length > n",
            arg=seen[-1] if seen else 0,
        )
        page.wait_for_timeout(300)  # let a page that is still arriving finish
        seen.append(rows.count())
        scroller.evaluate("el => el.scrollTo(0, el.scrollHeight)")
    assert all(n % 10 == 0 for n in seen[:-1]) and seen[-1] == 25, seen
    expect(page.get_by_text("No more messages")).to_be_visible(timeout=WAIT)
    assert rows.nth(24).inner_text().count("Letter number 00") == 1
    first = rows.first
    expect(first).to_contain_text("Unread", timeout=WAIT)
    # the cells: tick box, content, send time, state, action
    assert len(first.locator("td").nth(2).inner_text().strip()) == len("2026-01-01 00:00")
    # mark read, then unread
    first.get_by_test_id("letter-toggle-read").click()
    expect(first).to_contain_text("Read", timeout=WAIT)
    expect(first).to_have_attribute("data-read", "1", timeout=WAIT)
    expect(bell).to_have_attribute("data-unread", "24", timeout=WAIT)
    first.get_by_test_id("letter-toggle-read").click()
    expect(first).to_have_attribute("data-read", "0", timeout=WAIT)
    expect(bell).to_have_attribute("data-unread", "25", timeout=WAIT)
    # delete with confirmation
    first.get_by_test_id("letter-delete").click()
    page.locator(".ant-popconfirm").get_by_role("button", name="Delete").click()
    expect(rows).to_have_count(24, timeout=WAIT)
    expect(rows.first).to_contain_text("Letter number 23", timeout=WAIT)
    expect(bell).to_have_attribute("data-unread", "24", timeout=WAIT)
    assert reader.unread() == 24
    # the unread filter, then mark all read
    rows.nth(1).get_by_test_id("letter-toggle-read").click()
    expect(bell).to_have_attribute("data-unread", "23", timeout=WAIT)
    page.get_by_test_id("letters-filter").get_by_text("Unread").click()
    expect(rows.first).to_contain_text("Letter number 23", timeout=WAIT)
    expect(page.get_by_text("Letter number 22")).to_have_count(0, timeout=WAIT)
    page.get_by_test_id("letters-all-read").click()
    expect(bell).to_have_attribute("data-unread", "0", timeout=WAIT)
    expect(rows).to_have_count(0, timeout=WAIT)
    assert reader.unread() == 0
    shot(page, "message-letters")


def test_marking_selected_letters_read(page, live_server):
    """Two unread letters ticked and marked read with one call: they read as read, the others stay unread,
    and the bell counts two fewer; the button only works with a selection."""
    admin = Api(live_server.url, "admin")
    reader = new_user(admin, live_server.url)
    for i in range(5):
        admin.send([reader.profile["userId"]], f"<p>Selected letter {i}</p>")
    sign_in(page, live_server.url, reader.account, PASSWORD)
    page.goto(live_server.url + "/letters")
    rows = page.get_by_test_id("letter-row")
    bell = page.get_by_test_id("msg-bell")
    expect(rows).to_have_count(5, timeout=WAIT)
    expect(bell).to_have_attribute("data-unread", "5", timeout=WAIT)
    button = page.get_by_test_id("letters-selected-read")
    expect(button).to_be_disabled()
    expect(button).to_have_text("Mark selected as read")
    # letters 3 and 1 (newest first: rows 1 and 3); the boxes are named in the reader's language
    picked, others = [rows.nth(1), rows.nth(3)], [rows.nth(0), rows.nth(2), rows.nth(4)]
    for row in picked:
        box = row.get_by_role("checkbox")
        expect(box).to_have_attribute("aria-label", re.compile(r"^Select the message sent \d{4}-\d\d-\d\d "))
        box.check()
    expect(button).to_be_enabled()
    expect(button).to_have_text("Mark selected as read (2)")
    calls: list[Any] = []
    page.on("request", lambda r: calls.append(r.post_data_json) if r.url.endswith(f"{INBOX}/read") else None)
    button.click()
    expect(page.get_by_text("2 selected messages marked read")).to_be_visible(timeout=WAIT)
    for row in picked:
        expect(row).to_have_attribute("data-read", "1", timeout=WAIT)
        expect(row.locator("td").nth(3)).to_have_text("Read")
        expect(row.get_by_role("checkbox")).not_to_be_checked()
    for row in others:
        expect(row).to_have_attribute("data-read", "0")
        expect(row.locator("td").nth(3)).to_have_text("Unread")
    expect(rows.nth(1)).to_contain_text("Selected letter 3")
    expect(rows.nth(3)).to_contain_text("Selected letter 1")
    expect(bell).to_have_attribute("data-unread", "3", timeout=WAIT)
    expect(button).to_be_disabled()
    assert len(calls) == 1 and len(calls[0]["params"]["msgInstanceIds"]) == 2, calls  # one call, both ids
    assert reader.unread() == 3
    # the unread filter shows the three others only
    page.get_by_test_id("letters-filter").get_by_text("Unread").click()
    expect(rows).to_have_count(3, timeout=WAIT)
    for i in (0, 2, 4):
        expect(page.get_by_test_id("letters-page").get_by_text(f"Selected letter {i}")).to_have_count(1)
    shot(page, "message-letters-selected-read")


def test_sending_screen(page, live_server):
    alice = Api(live_server.url, "alice")
    before = alice.unread()
    sign_in(page, live_server.url)
    page.goto(live_server.url + "/message-management")
    expect(page.get_by_test_id("message-admin")).to_be_visible(timeout=WAIT)
    page.get_by_test_id("send-users").click()
    page.keyboard.type("alice")
    page.locator(".ant-select-item-option").filter(has_text="Alice Zhang").click()
    page.keyboard.press("Escape")
    page.get_by_test_id("send-content").fill("<p>Canteen closes early <b>today</b></p>")
    expect(page.frame_locator("[data-testid=send-preview]").locator("b")).to_have_text("today", timeout=WAIT)
    page.get_by_test_id("send-submit").click()
    expect(page.get_by_text("Sent to 1 users")).to_be_visible(timeout=WAIT)
    assert alice.unread() == before + 1
    sent_list = page.get_by_test_id("message-admin")
    expect(sent_list.get_by_text("Canteen closes early")).to_be_visible(timeout=WAIT)
    # scripts are refused with the server's message and nothing is sent
    page.get_by_test_id("send-users").click()
    page.keyboard.type("alice")
    page.locator(".ant-select-item-option").filter(has_text="Alice Zhang").click()
    page.keyboard.press("Escape")
    page.get_by_test_id("send-content").fill('<img src="x" onerror="alert(1)">')
    page.get_by_test_id("send-submit").click()
    expect(page.get_by_text("The message contains scripts")).to_be_visible(timeout=WAIT)
    assert alice.unread() == before + 1
    shot(page, "message-admin")


def test_the_sending_screen_is_for_administrators(page, live_server):
    sign_in(page, live_server.url, "alice", "Alice@123")
    page.goto(live_server.url + "/message-management")
    expect(page.get_by_test_id("message-admin-forbidden")).to_be_visible(timeout=WAIT)


def test_signing_out_in_one_tab_sends_the_other_tabs_to_the_sign_in_page(context, live_server):
    first = context.new_page()
    first.set_default_timeout(15000)
    sign_in(first, live_server.url, "supervisor", "Super@123")
    second = context.new_page()
    second.set_default_timeout(15000)
    second.goto(live_server.url + "/letters")
    expect(second.get_by_test_id("letters-page")).to_be_visible(timeout=WAIT)
    expect(second.get_by_test_id("msg-bell")).to_be_visible(timeout=WAIT)
    first.get_by_test_id("user-menu").click()
    first.get_by_role("menuitem", name="Sign out").click()
    first.locator(".ant-modal-confirm").get_by_role("button", name="OK").click()
    first.wait_for_url("**/login")
    second.wait_for_url("**/login")  # told over its socket, without a request of its own


def test_signing_straight_back_in_after_signing_out_stays_signed_in(page, live_server):
    """The socket and the requests of the sign-in that ended may answer after the next sign-in on the same
    page: they must not end it. 2.5 s outlasts the socket's grace (1.5 s) and the redirect delay (2 s)."""
    sign_in(page, live_server.url, "alice", "Alice@123")
    page.goto(live_server.url + "/letters")
    expect(page.get_by_test_id("msg-bell")).to_be_visible(timeout=WAIT)
    page.get_by_test_id("user-menu").click()
    page.get_by_role("menuitem", name="Sign out").click()
    page.locator(".ant-modal-confirm").get_by_role("button", name="OK").click()
    page.wait_for_url("**/login")
    page.locator("#account").fill("alice")
    page.locator("#password").fill("Alice@123")
    page.locator("#agree").check()
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_test_id("msg-bell")).to_be_visible(timeout=WAIT)
    page.wait_for_timeout(2500)
    assert "/login" not in page.url, page.url
    expect(page.get_by_test_id("user-menu")).to_be_visible()
    expect(page.get_by_test_id("msg-bell")).to_be_visible()


def set_enabled(admin: Api, tenant_id: int, enabled: bool) -> None:
    for plugin in ("message", "watermark"):
        admin.ok(
            "POST",
            "/api/base/admin/plugins/state",
            json={"plugin": plugin, "enabled": enabled, "tenantId": tenant_id},
        )


def test_disabling_for_one_tenant_removes_bell_letters_and_watermark(browser, live_server):
    """Message and watermark disabled for Globex: gone for Globex users on their next page load, Acme
    keeps them; enabled again, they come back with the letters intact."""
    base = live_server.url
    admin = Api(base, "admin")  # super administrator, in Acme
    globex_admin = Api(base, "admin")
    switched = globex_admin.ok(
        "POST", f"/api/base/base-user/change-tenant?tenantId={GLOBEX}&systemCode=iotAutho"
    )
    globex_admin.http.headers["authorization"] = switched["authorization"]
    bob_id = Api(base, "bob").profile["userId"]
    mark = globex_admin.ok("POST", "/api/watermark/admin/save", json={"fwContent": "Globex {account}"})
    globex_admin.send([bob_id], "<p>Globex quarterly review</p>")

    def profile(account: str) -> Any:
        ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
        ctx.add_cookies([{"name": "language", "value": "en-us", "url": base}])
        page = ctx.new_page()
        page.set_default_timeout(15000)
        sign_in(page, base, account, DEMO_PASSWORDS[account])
        return ctx, page

    bob_ctx, bob = profile("bob")
    acme_ctx, acme = profile("supervisor")
    try:
        expect(bob.get_by_test_id("msg-bell")).to_be_visible(timeout=WAIT)
        bob.wait_for_selector(LAYER, state="attached")
        bob.goto(base + "/letters")
        expect(bob.get_by_text("Globex quarterly review")).to_be_visible(timeout=WAIT)

        set_enabled(admin, GLOBEX, False)
        bob.goto(base + "/home")
        bob.get_by_test_id("home-page").wait_for()
        expect(bob.get_by_test_id("msg-bell")).to_have_count(0, timeout=WAIT)
        expect(bob.locator(LAYER)).to_have_count(0, timeout=WAIT)
        bob.goto(base + "/letters")
        expect(bob.get_by_text("Application not installed")).to_be_visible(timeout=WAIT)
        expect(bob.get_by_text("Globex quarterly review")).to_have_count(0, timeout=WAIT)
        shot(bob, "message-disabled-for-globex")
        # Acme is untouched
        acme.reload()
        expect(acme.get_by_test_id("msg-bell")).to_be_visible(timeout=WAIT)
        acme.wait_for_selector(LAYER, state="attached")

        set_enabled(admin, GLOBEX, True)
        bob.goto(base + "/letters")
        expect(bob.get_by_text("Globex quarterly review")).to_be_visible(timeout=WAIT)
        expect(bob.get_by_test_id("msg-bell")).to_be_visible(timeout=WAIT)
        bob.wait_for_selector(LAYER, state="attached")
    finally:
        set_enabled(admin, GLOBEX, True)
        globex_admin.ok("POST", "/api/watermark/admin/delete", json={"ffwId": mark["ffwId"]})
        bob_ctx.close()
        acme_ctx.close()
