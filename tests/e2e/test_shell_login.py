"""Sign-in page: validation, server refusal, success, tenant-aware branding."""

from __future__ import annotations

import re
import time

from conftest import shot, sign_in
from playwright.sync_api import expect


def test_login_validation_messages(page, live_server):
    page.goto(live_server.url + "/login")
    expect(page.get_by_role("button", name="Sign in")).to_be_visible()
    shot(page, "01-login")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text("Please enter your account")).to_be_visible()
    expect(page.get_by_text("Please enter your password")).to_be_visible()
    expect(page.get_by_text("Please read and agree to the User Agreement and Privacy Policy")).to_be_visible()
    page.get_by_role("tab", name="Mobile").click()
    page.locator("#phone").fill("123")
    page.get_by_role("button", name="Send code").click()
    expect(page.get_by_text("Please enter a correct mobile number")).to_be_visible()
    page.get_by_role("tab", name="Email").click()
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text("Please enter your email address")).to_be_visible()
    expect(page.get_by_text("Please enter the verification code")).to_be_visible()
    expect(page.get_by_role("link", name="User Agreement")).to_have_attribute(
        "href", re.compile("platform-protocol")
    )


def test_wrong_password_shows_the_server_message(page, live_server):
    sign_in(page, live_server.url, "bob", "wrong-password", expect_home=False)
    expect(page.locator(".ant-message-notice")).to_be_visible()
    assert "/login" in page.url
    assert page.locator(".ant-message-notice").inner_text().strip() != ""
    assert "{" not in page.locator(".ant-message-notice").inner_text()


def test_sign_in_lands_on_home(page, live_server):
    sign_in(page, live_server.url)
    expect(page.get_by_test_id("user-name")).to_be_visible()
    name = page.get_by_test_id("user-name").inner_text()
    assert 0 < len(name) <= 11
    expect(page.get_by_test_id("tab-/home")).to_be_visible()
    expect(page.get_by_test_id("login-chart")).to_be_visible()
    shot(page, "02-home")
    assert page.page_errors == []


def test_guard_sends_signed_out_users_to_login_and_back(page, live_server):
    page.goto(live_server.url + "/person-info")
    page.wait_for_url("**/login")
    page.locator("#account").fill("admin")
    page.locator("#password").fill("Admin@123")
    page.locator("#agree").check()
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/person-info")
    expect(page.get_by_test_id("person-info")).to_be_visible()


def test_root_redirects_to_portal(admin_page, live_server):
    admin_page.goto(live_server.url + "/")
    admin_page.wait_for_url("**/portal")
    expect(admin_page.get_by_test_id("portal-page")).to_be_visible()
    shot(admin_page, "03-portal")


def test_a_user_back_after_the_token_cookie_ended_stays_signed_in(page, live_server):
    """The token cookie lasts a day; the refresh cookie as long as the server's refresh token (a week by
    default): a user back on the second day is renewed, not sent to sign in again."""
    sign_in(page, live_server.url)
    cookies = {c["name"]: c for c in page.context.cookies()}
    now = time.time()
    assert abs(cookies["Atrium-Token"]["expires"] - now - 86_400) < 600
    assert abs(cookies["Atrium-Refresh-Token"]["expires"] - now - 7 * 86_400) < 600
    page.context.clear_cookies(name="Atrium-Token")
    page.goto(live_server.url + "/person-info")
    expect(page.get_by_test_id("person-info")).to_be_visible()
    assert page.url.endswith("/person-info")
    assert "Atrium-Token" in {c["name"] for c in page.context.cookies()}
    # a refresh token the server no longer honours ends at the sign-in page, without an error
    page.context.clear_cookies(name="Atrium-Token")
    page.context.add_cookies([{"name": "Atrium-Refresh-Token", "value": "spent", "url": live_server.url}])
    page.goto(live_server.url + "/person-info")
    page.wait_for_url("**/login")
    expect(page.get_by_role("button", name="Sign in")).to_be_visible()
    assert page.page_errors == []
