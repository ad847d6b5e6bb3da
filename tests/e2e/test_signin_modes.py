"""Sign-in modes in real Chromium: free registration, forgotten password, QR code confirmed from a
second browser (the phone), and domain accounts against a real slapd."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import sign_in
from playwright.sync_api import expect

from atrium.sdk.testing import encrypt_password

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: tests.kernel
from tests.kernel.test_signin_ldap import PEOPLE, READER_DN, READER_PASSWORD, running_slapd  # noqa: E402

pytestmark = pytest.mark.e2e
ACME = 1001


class Api:
    """The live server's API as the demo administrator of Acme."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=10)
        enc = self.call("POST", "/api/base/base-user/get-enryption")
        password = encrypt_password(enc["publicKey"], enc["nonce"], "Admin@123")
        body = self.call("POST", "/api/base/base-user/login", json={"account": "admin", "password": password})
        self.http.headers["authorization"] = body["authorization"]

    def call(self, method: str, path: str, **kw: Any) -> Any:
        body = self.http.request(method, path, **kw).json()
        assert body["code"] == 800, f"{path}: {body}"
        return body["data"]

    def code_for(self, target: str) -> str:
        sent = [m for m in self.call("GET", "/api/base/dev/outbox") if m["target"] == target]
        assert sent, f"no code was sent to {target}"
        return str(sent[0]["code"])


@pytest.fixture(scope="module")
def api(live_server: Any) -> Iterator[Api]:
    a = Api(live_server.url)
    yield a
    a.call("POST", "/api/base/admin/signin-config", json={"allowRegister": False})
    a.http.close()


def phone_number() -> str:
    return "137" + "".join(secrets.choice("0123456789") for _ in range(8))


def test_free_registration_then_sign_in(page: Any, live_server: Any, api: Api) -> None:
    # a tenant that does not allow it offers no way to register, not a dead-end box
    api.call("POST", "/api/base/admin/signin-config", json={"allowRegister": False})
    page.goto(f"{live_server.url}/login?tenantId={ACME}")
    expect(page.get_by_text("Forgot password?")).to_be_visible()
    expect(page.get_by_text("Register", exact=True)).to_have_count(0)
    api.call("POST", "/api/base/admin/signin-config", json={"allowRegister": True, "registerApproval": False})
    page.goto(f"{live_server.url}/login?tenantId={ACME}")
    page.get_by_text("Register", exact=True).click()
    page.wait_for_url("**/register?tenantId=*")
    form = page.get_by_test_id("register-page")
    expect(form.get_by_text("Free registration")).to_be_visible()
    account, phone = f"reg{secrets.token_hex(3)}", phone_number()
    page.get_by_placeholder("Account").fill(account)
    page.get_by_placeholder("Name").fill("Reg Person")
    page.get_by_placeholder("Mobile number").fill(phone)
    page.get_by_test_id("send-code").click()
    expect(page.get_by_test_id("send-code")).to_contain_text("Resend in")  # the countdown before a resend
    page.get_by_placeholder("Verification code").fill(api.code_for(phone))
    page.get_by_placeholder("Password", exact=True).fill("abc123")
    page.get_by_placeholder("Confirm password").fill("abc124")
    page.get_by_role("button", name="Register").click()
    expect(page.get_by_text("Passwords not match")).to_be_visible()
    expect(page.get_by_text("Please read and agree to the User Agreement and Privacy Policy")).to_be_visible()
    page.get_by_placeholder("Confirm password").fill("abc123")
    page.locator("#agree").check()
    page.get_by_role("button", name="Register").click()
    expect(page.get_by_text("Registration complete, please sign in")).to_be_visible()
    page.get_by_role("button", name="Back to account login").click()
    page.wait_for_url("**/login?tenantId=*")
    page.locator("#account").fill(account)
    page.locator("#password").fill("abc123")
    page.locator("#agree").check()
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/home")
    expect(page.get_by_test_id("user-name")).to_contain_text("Reg Pers")  # names are cut to 8 characters


def test_forgot_password_by_phone(page: Any, live_server: Any, api: Api) -> None:
    account, phone = f"fp{secrets.token_hex(3)}", phone_number()
    api.call(
        "POST",
        "/api/base/admin/users",
        json={
            "account": account,
            "password": "Old12345",
            "userFullName": "Forgot Person",
            "mobile": phone,
            "tenantId": ACME,
            "mustChangePassword": False,
        },
    )
    page.goto(live_server.url + "/login")
    page.get_by_text("Forgot password?").click()
    page.wait_for_url("**/forgot-password")
    page.get_by_placeholder("Mobile number").fill(phone)
    page.get_by_test_id("send-code").click()
    expect(page.get_by_test_id("send-code")).to_contain_text("Resend in")
    page.get_by_placeholder("Verification code").fill(
        "000000" if api.code_for(phone) != "000000" else "111111"
    )
    page.get_by_placeholder("New password").fill("New12345")
    page.get_by_placeholder("Confirm password").fill("New12345")
    page.get_by_role("button", name="Reset password").click()
    expect(page.get_by_text("The verification code is wrong or expired")).to_be_visible()
    page.get_by_placeholder("Verification code").fill(api.code_for(phone))
    page.get_by_role("button", name="Reset password").click()
    expect(
        page.get_by_text("Your password has been reset. Please sign in with the new password.")
    ).to_be_visible()
    page.get_by_role("button", name="Back to account login").click()
    sign_in(page, live_server.url, account, "New12345")
    expect(page.get_by_test_id("user-name")).to_contain_text("Forgot")


def phone_context(browser: Any, live_server: Any) -> Any:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", is_mobile=True)
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": live_server.url}])
    return ctx


def qr_url(page: Any) -> str:
    qr = page.get_by_test_id("platform-qr")
    expect(qr).to_have_attribute("data-qr-state", "waiting")
    return str(qr.get_attribute("data-qr-url"))


def test_qr_code_confirmed_on_the_phone_signs_the_desktop_in(
    page: Any, browser: Any, live_server: Any
) -> None:
    page.goto(live_server.url + "/login")
    page.get_by_role("tab", name="QR code").click()
    # the same consent as the password form: no code before the terms are agreed to
    expect(page.get_by_test_id("consent-first")).to_have_text(
        "Agree to the User Agreement and Privacy Policy to show the QR code"
    )
    expect(page.get_by_test_id("platform-qr")).to_have_count(0)
    page.get_by_test_id("qr-consent").check()
    url = qr_url(page)
    assert "/qrcode-success?qrCode=" in url
    ctx = phone_context(browser, live_server)
    try:
        phone = ctx.new_page()
        phone.set_default_timeout(15000)
        sign_in(phone, live_server.url, "bob", "Bob@12345", expect_home=False)
        phone.wait_for_url("**/home")
        phone.goto(url)
        expect(phone.get_by_text("Sign in on the computer?")).to_be_visible()
        expect(page.get_by_test_id("platform-qr-text")).to_have_text(
            "Scanned: confirm the sign-in on your phone"
        )
        phone.get_by_role("button", name="Confirm sign-in").click()
        expect(phone.get_by_text("Signed in on the computer")).to_be_visible()
        page.wait_for_url("**/home")
        expect(page.get_by_test_id("user-name")).to_contain_text("Bob")
        # the same code again: already used
        phone.goto(url)
        expect(phone.get_by_text("The QR code has already been used")).to_be_visible()
    finally:
        ctx.close()


def test_qr_code_declined_on_the_phone(page: Any, browser: Any, live_server: Any) -> None:
    page.goto(live_server.url + "/qrcode")
    url = qr_url(page)
    ctx = phone_context(browser, live_server)
    try:
        phone = ctx.new_page()
        phone.set_default_timeout(15000)
        sign_in(phone, live_server.url, "bob", "Bob@12345", expect_home=False)
        phone.wait_for_url("**/home")
        phone.goto(url)
        phone.get_by_role("button", name="Decline").click()
        expect(phone.get_by_text("You declined the sign-in")).to_be_visible()
        expect(page.get_by_test_id("platform-qr-text")).to_have_text("Sign-in was declined on the phone")
        assert "/qrcode" in page.url
        page.get_by_test_id("platform-qr").get_by_role("button", name="Refresh").click()  # on the QR code
        assert qr_url(page) != url  # a new code
    finally:
        ctx.close()


def test_domain_account_sign_in(page: Any, live_server: Any, api: Api) -> None:
    with running_slapd() as directory:
        domain = f"corp{secrets.token_hex(2)}"
        saved = api.call(
            "POST",
            "/api/base/admin/ldap/save",
            json={
                "domain": domain,
                "serverUrl": directory.url,
                "bindDn": READER_DN,
                "bindPassword": READER_PASSWORD,
                "searchBase": f"ou=people,{directory.suffix}",
                "userFilter": "(uid={account})",
                "timeout": 3,
            },
        )
        try:
            page.goto(f"{live_server.url}/login?tenantId={ACME}")
            page.get_by_role("tab", name="Domain account").click()
            page.get_by_placeholder("Domain account").fill("lin.domain")
            page.locator("#password").fill("wrong")
            page.locator("#agree").check()
            page.get_by_role("button", name="Sign in").click()
            expect(page.get_by_text("Account or password is wrong")).to_be_visible()
            page.locator("#password").fill(PEOPLE["lin.domain"][3])
            page.get_by_role("button", name="Sign in").click()
            page.wait_for_url("**/home")
            expect(page.get_by_test_id("user-name")).to_contain_text("Lin")
        finally:
            api.call("POST", f"/api/base/admin/ldap/delete?id={saved['id']}")


def test_phone_login_with_a_foreign_dial_code(page: Any, live_server: Any) -> None:
    page.goto(live_server.url + "/login")
    page.get_by_role("tab", name="Mobile").click()
    page.get_by_test_id("dial-code").click()
    page.keyboard.type("Hungary")
    page.get_by_title("+36").or_(page.get_by_text("Hungary +36")).first.click()
    expect(page.get_by_test_id("dial-code")).to_contain_text("+36")
    page.locator("#phone").fill("12")
    page.get_by_role("button", name="Send code").click()
    expect(page.get_by_text("Please enter a correct mobile number")).to_be_visible()
    page.locator("#phone").fill("201234567")
    page.get_by_role("button", name="Send code").click()
    expect(page.get_by_text("SMS codes for other regions are not supported")).to_be_visible()
