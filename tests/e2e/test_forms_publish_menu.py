"""A form published onto a menu from the designer's publish dialog, in Chromium: the Acme supervisor designs
a form and publishes it with "Add to menu" under the Workbench menu; alice, a plain member, signs in and opens
it from the side menu."""

from __future__ import annotations

import re
import secrets

import pytest
from conftest import api_client, sign_in
from playwright.sync_api import expect

from atrium.sdk.testing import DEMO_PASSWORDS

pytestmark = pytest.mark.e2e
LOAD = 30000
TREE = ".ant-select-dropdown:not(.ant-select-dropdown-hidden)"


def drop_menu(base: str, code: str) -> None:
    """Ungrant and delete the form's menu: the browser tests share one server and its sidebar."""
    sup, admin = api_client(base, "supervisor"), api_client(base, "admin")
    menus = sup.get("/api/base/admin/menus", params={"systemCode": "iotAutho"}).json()["data"]
    found = [m["menuId"] for m in menus if m["menuCode"].endswith(f"-{code}")]
    for menu_id in found:
        for role in sup.get("/api/base/admin/roles").json()["data"]:
            if menu_id in role["menuIds"]:
                held = [int(m) for m in role["menuIds"] if m != menu_id]
                sup.post("/api/base/admin/roles/menus", json={"roleId": role["roleId"], "menuIds": held})
        gone = admin.post("/api/base/admin/menus/delete", json={"menuId": int(menu_id)}).json()
        assert gone["code"] == 800, gone


def test_a_form_published_onto_a_menu_opens_for_a_member(page, live_server) -> None:
    base = live_server.url
    code = f"menupub-{secrets.token_hex(3)}"
    sign_in(page, base, "supervisor", DEMO_PASSWORDS["supervisor"])
    page.goto(base + "/form-design")
    page.get_by_test_id("design-new").click(timeout=LOAD)
    page.get_by_test_id("design-code").fill(code)
    page.get_by_test_id("design-name").fill("来访")
    page.get_by_test_id("design-name-en-us").fill(f"Visit {code}")
    page.get_by_test_id("add-text").click()
    page.get_by_test_id("label-0").fill("Visitor")
    try:
        page.get_by_test_id("design-publish-dialog").click()
        dialog = page.locator(".ant-modal")
        expect(dialog).to_be_visible()
        dialog.get_by_test_id("publish-add-menu").click()
        expect(dialog.get_by_test_id("publish-menu-system")).to_contain_text(re.compile(r"\S"), timeout=LOAD)
        dialog.get_by_test_id("publish-menu-parent").click()
        page.locator(TREE).get_by_title("Workbench", exact=True).click()
        dialog.get_by_role("button", name="Publish").click()
        expect(
            page.get_by_text(re.compile(rf"Version 1 published; its menu is at .*Workbench / Visit {code}"))
        ).to_be_visible(timeout=LOAD)

        # alice, a plain member of Acme, reaches it from the side menu
        page.context.clear_cookies()
        page.context.add_cookies([{"name": "language", "value": "en-us", "url": base}])
        page.evaluate("localStorage.clear()")
        sign_in(page, base, "alice", DEMO_PASSWORDS["alice"])
        sidebar = page.get_by_test_id("sidebar")
        entry = sidebar.get_by_text(f"Visit {code}", exact=True)
        if not entry.is_visible():
            sidebar.get_by_text("Workbench", exact=True).click()
        entry.click(timeout=LOAD)
        page.wait_for_url(re.compile(rf"/dynamic-form/render/{code}\?layoutId=L1$"))
        expect(page.get_by_test_id("field-text1")).to_be_visible(timeout=LOAD)
    finally:
        drop_menu(base, code)
