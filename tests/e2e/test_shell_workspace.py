"""Tenant and system switching, favourites, feedback, password change, theme and language."""

from __future__ import annotations

import base64
import re

import httpx
from conftest import shot, sign_in, user_menu
from playwright.sync_api import expect


def pick(page, text):
    page.get_by_role("menuitem").filter(has_text=text).filter(visible=True).last.click()


def test_tenant_switch(admin_page):
    page = admin_page
    expect(page.get_by_test_id("tenant-switch")).to_contain_text("Acme")
    page.get_by_test_id("tenant-switch").click()
    pick(page, "Globex")
    expect(page.get_by_test_id("tenant-switch")).to_contain_text("Globex")
    page.wait_for_url("**/home")
    expect(page.get_by_test_id("tab-strip").get_by_role("tab")).to_have_count(1)
    page.get_by_test_id("tenant-switch").click()
    pick(page, "Acme")
    expect(page.get_by_test_id("tenant-switch")).to_contain_text("Acme")


def test_system_switch_refusals(admin_page):
    page = admin_page
    page.get_by_test_id("system-switch").click()
    pick(page, "Legacy ERP")
    expect(page.get_by_text("This system is forbidden")).to_be_visible()
    page.get_by_test_id("system-switch").click()
    pick(page, "Data Lab")
    expect(page.get_by_text("This system is not yet open")).to_be_visible()
    shot(page, "06-system-switch")


def test_favourite_toggle(admin_page):
    page = admin_page
    page.get_by_test_id("sidebar").get_by_text("Workbench", exact=True).click()
    page.get_by_test_id("sidebar").get_by_text("Partner site", exact=True).click()
    page.wait_for_url(re.compile(r"/third-view/"))
    star = page.get_by_test_id("toolbar-favourite")
    if star.get_attribute("data-collected") == "true":
        star.click()
        expect(star).to_have_attribute("data-collected", "false")
    star.click()
    expect(page.get_by_text("Added to favourites")).to_be_visible()
    expect(star).to_have_attribute("data-collected", "true")
    page.get_by_test_id("tab-/home").click()
    expect(page.get_by_test_id("home-page").get_by_text("Partner site").first).to_be_visible()
    page.get_by_test_id("tab-strip").get_by_text("Partner site").click()
    page.get_by_test_id("toolbar-favourite").click()
    expect(page.get_by_text("Removed from favourites")).to_be_visible()
    expect(page.get_by_test_id("toolbar-favourite")).to_have_attribute("data-collected", "false")


def test_page_without_menu_cannot_be_favourited(admin_page):
    page = admin_page
    user_menu(page, "Personal centre", "/person-info")
    page.get_by_test_id("toolbar-favourite").click()
    expect(page.get_by_text("This page cannot be favourited")).to_be_visible()


def test_feedback(admin_page):
    page = admin_page
    user_menu(page, "Personal centre", "/person-info")
    page.get_by_test_id("toolbar-feedback").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_text("Feedback", exact=True)).to_be_visible()
    dialog.get_by_role("button", name="Submit").click()
    expect(dialog.get_by_text("Please choose a reason")).to_be_visible()
    dialog.locator(".ant-select").click()
    page.locator(".ant-select-item-option").first.click()
    dialog.get_by_test_id("feedback-description").fill("x" * 250)
    assert len(dialog.get_by_test_id("feedback-description").input_value()) == 200
    expect(dialog.get_by_text("200 / 200")).to_be_visible()
    shot(page, "07-feedback")
    dialog.get_by_role("button", name="Submit").click()
    expect(page.get_by_text("Thank you for your feedback")).to_be_visible()
    expect(page.get_by_role("dialog")).to_have_count(0)


def test_change_password_then_sign_in_again(page, live_server):
    sign_in(page, live_server.url, "alice", "Alice@123")
    user_menu(page, "Change password")
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("button", name="Save").click()
    expect(dialog.get_by_text("Please enter the current password")).to_be_visible()
    dialog.get_by_label("Current password").fill("Alice@123")
    dialog.get_by_label("New password", exact=True).fill("abc")
    dialog.get_by_label("Confirm new password").fill("abd")
    dialog.get_by_role("button", name="Save").click()
    expect(dialog.get_by_text("The new password cannot be shorter than 6 characters")).to_be_visible()
    expect(dialog.get_by_text("The two passwords do not match")).to_be_visible()
    dialog.get_by_label("New password", exact=True).fill("Alice1234")
    dialog.get_by_label("Confirm new password").fill("Alice1234")
    dialog.get_by_role("button", name="Save").click()
    page.wait_for_url("**/login")
    sign_in(page, live_server.url, "alice", "Alice1234")
    # put the demo password back through the API (best effort: the tenant's password strategy may refuse it)
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "Atrium-Token")
    b = lambda s: base64.b64encode(s.encode()).decode()  # noqa: E731
    httpx.post(
        live_server.url + "/api/base/base-user/update-pwd",
        json={"oldMagic": b("Alice1234"), "magic": b("Alice@123"), "confirmMagic": b("Alice@123")},
        headers={"authorization": token, "language": "en#us"},
    )
    expect(page.get_by_test_id("user-name")).to_be_visible()


def test_theme_persists_across_reload(admin_page):
    page = admin_page
    page.get_by_test_id("theme-button").click()
    page.get_by_test_id("style-dark").click()
    page.get_by_test_id("navbar-red").click()
    page.get_by_text("Compact", exact=True).click()
    shot(page, "08-theme-drawer")
    page.keyboard.press("Escape")
    page.reload()
    page.get_by_test_id("home-page").wait_for()
    expect(page.get_by_test_id("navbar")).to_have_css("background-color", "rgb(200, 38, 47)")
    expect(page.get_by_test_id("right-toolbar")).to_be_visible()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(13, 17, 26)"
    shot(page, "09-dark-compact")
    page.get_by_test_id("right-toolbar").get_by_test_id("theme-button").click()
    page.get_by_test_id("style-light").click()
    page.get_by_test_id("navbar-default").click()
    page.get_by_text("Default", exact=True).first.click()


def test_language_persists_across_reload(admin_page):
    page = admin_page
    page.get_by_test_id("language-switch").click()
    page.get_by_test_id("lang-zh-cn").click()
    expect(page.get_by_test_id("tab-/home")).to_have_text("首页")
    page.reload()
    expect(page.get_by_test_id("tab-/home")).to_have_text("首页")
    cookie = next(c for c in page.context.cookies() if c["name"] == "language")
    assert cookie["value"] == "zh-cn"
    for code, home in [("hu-hu", "Kezdőlap"), ("vi-vn", "Trang chủ"), ("zh-tw", "首頁"), ("en-us", "Home")]:
        page.get_by_test_id("language-switch").click()
        page.get_by_test_id(f"lang-{code}").click()
        expect(page.get_by_test_id("tab-/home")).to_have_text(home)


def test_uploaded_avatar_shows_in_the_navbar_and_after_reload(page, live_server, tmp_path):
    """The avatar is a platform file, served only with the session's headers: the shell fetches it and
    shows it, instead of an <img> that would be refused."""
    from PIL import Image

    picture = tmp_path / "me.png"
    Image.new("RGB", (64, 64), (32, 75, 227)).save(picture)
    sign_in(page, live_server.url, "supervisor", "Super@123")
    user_menu(page, "Personal centre", "/person-info")
    page.get_by_test_id("person-info").locator("input[type=file]").set_input_files(str(picture))
    expect(page.get_by_text("Avatar updated")).to_be_visible()
    navbar_img = page.get_by_test_id("user-menu").locator("img")

    def shows_picture() -> None:
        expect(navbar_img).to_have_attribute("src", re.compile(r"^blob:"))
        loaded = "img => img.complete && img.naturalWidth === 64"
        page.wait_for_function(loaded, arg=navbar_img.element_handle())

    shows_picture()
    page.reload()
    shows_picture()
