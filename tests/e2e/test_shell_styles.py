"""The first pages' antd styles come from a stylesheet built with the bundle (index.html links it): antd
writes none of them while the page draws, and every element looks exactly as it does when antd writes them
itself (the stylesheet blocked)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import sign_in

pytestmark = pytest.mark.e2e

# Elements of the signed-in home page drawn by antd components whose styles the stylesheet carries.
PARTS = {
    "sidebar menu item": (
        '[data-testid="sidebar"] .ant-menu-item, [data-testid="sidebar"] .ant-menu-submenu-title'
    ),
    "menu search": '[data-testid="sidebar"] .ant-input-affix-wrapper',
    "home tab": ".ant-tabs-tab",
    "user avatar": '[data-testid="user-menu"] .ant-avatar',
    "home card": '[data-testid="home-page"] .ant-card',
    "statistic": '[data-testid="home-page"] .ant-statistic-content',
    "grid column": '[data-testid="home-page"] .ant-col',
}
PROPERTIES = (
    "display",
    "color",
    "background-color",
    "font-size",
    "line-height",
    "height",
    "padding-left",
    "padding-top",
    "margin-bottom",
    "border-top-left-radius",
    "border-bottom-width",
    "flex-direction",
    "position",
)
COMPONENT_CLASSES = (".ant-menu", ".ant-tabs", ".ant-col", ".ant-select", ".ant-card", ".ant-dropdown")
LOOKS = """([parts, props]) => Object.fromEntries(Object.entries(parts).map(([name, sel]) => {
  const el = document.querySelector(sel);
  if (!el) return [name, null];
  const cs = getComputedStyle(el);
  return [name, Object.fromEntries(props.map((p) => [p, cs.getPropertyValue(p)]))];
}))"""
WRITTEN = """(classes) => [...document.querySelectorAll('style[data-css-hash]')]
  .map((s) => s.textContent || '')
  .filter((text) => text.startsWith(':where('))
  .filter((text) => classes.some((c) => text.includes(c + '{') || text.includes(c + '-css-var{')))
  .map((text) => text.slice(0, 80))"""

SHEETS = r"""() => [...document.styleSheets].map((s) => s.href || '')
  .filter((href) => /\/assets\/antd\.[0-9a-f]+\.css$/.test(href))"""


def home_looks(page: Any) -> dict[str, Any]:
    page.get_by_test_id("home-page").wait_for()
    page.locator('[data-testid="home-page"] .ant-statistic-content').first.wait_for()
    return page.evaluate(LOOKS, [PARTS, list(PROPERTIES)])


def test_home_takes_antd_styles_from_the_built_stylesheet(admin_page: Any, live_server: Any) -> None:
    sheets = admin_page.evaluate(SHEETS)
    assert len(sheets) == 1
    admin_page.goto(live_server.url + "/home")
    home_looks(admin_page)
    assert admin_page.evaluate(WRITTEN, list(COMPONENT_CLASSES)) == []


def test_home_looks_the_same_when_antd_writes_the_styles_itself(
    browser: Any, admin_page: Any, live_server: Any
) -> None:
    from_sheet = home_looks(admin_page)
    assert all(from_sheet.values()), from_sheet

    ctx = browser.new_context(
        viewport={"width": 1440, "height": 900},
        locale="en-US",
        storage_state=admin_page.context.storage_state(),
    )
    try:
        ctx.route("**/assets/antd.*.css", lambda route: route.abort())
        page = ctx.new_page()
        page.goto(live_server.url + "/home")
        written = home_looks(page)
        assert page.evaluate(WRITTEN, list(COMPONENT_CLASSES)), (
            "antd wrote no style with its stylesheet blocked"
        )
    finally:
        ctx.close()
    assert written == from_sheet


def test_sign_in_page_takes_its_form_styles_from_the_stylesheet(page: Any, live_server: Any) -> None:
    page.goto(live_server.url + "/login")
    page.get_by_role("button", name="Sign in").wait_for()
    assert page.evaluate(WRITTEN, [".ant-form", ".ant-input", ".ant-btn", ".ant-checkbox"]) == []
    sign_in(page, live_server.url)
