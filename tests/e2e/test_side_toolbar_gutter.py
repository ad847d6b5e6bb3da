"""The floating side toolbar (help, favourite, feedback) keeps a gutter of its own: at desktop and phone
widths it lies over no table cell, pager arrow or button of the page, even with the table scrolled to its
end."""

from __future__ import annotations

import pytest
from conftest import shot
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

# what lies under the toolbar's box (it hidden for the look): cells, pager items and buttons of the page
COVERED_JS = """() => {
  const toolbar = document.querySelector('.at-side-toolbar');
  const bar = toolbar.getBoundingClientRect();
  const content = document.querySelector('[data-testid=main-content]');
  const hit = new Set();
  const CONTENT = 'td, th, .ant-pagination li, button, a, input';
  toolbar.style.visibility = 'hidden';
  for (let x = bar.left + 2; x < bar.right; x += 6) {
    for (let y = bar.top + 2; y < bar.bottom; y += 6) {
      const under = document.elementFromPoint(x, y);
      const item = under && content.contains(under) && under.closest(CONTENT);
      if (item) hit.add(item.tagName + ' ' + (item.textContent || '').trim().slice(0, 30));
    }
  }
  toolbar.style.visibility = '';
  return [...hit];
}"""


@pytest.mark.parametrize("width", [1440, 390])
def test_toolbar_covers_no_content(admin_page, live_server, width) -> None:
    page = admin_page
    page.set_viewport_size({"width": width, "height": 700 if width < 600 else 900})
    page.goto(live_server.url + "/system_manage/users")
    toolbar = page.locator(".at-side-toolbar")
    expect(toolbar).to_be_visible()
    expect(page.locator("[data-testid=main-content] .ant-pagination").first).to_be_visible()
    for scroll in ("0", "1e6"):  # the top of the page, then its end
        page.evaluate(
            f"""() => document
                .querySelectorAll('[data-testid=main-content], .ant-table-content, .ant-table-body')
                .forEach((e) => {{ e.scrollTop = {scroll}; e.scrollLeft = {scroll}; }})"""
        )
        page.wait_for_timeout(200)
        assert page.evaluate(COVERED_JS) == []
    shot(page, f"side-toolbar-gutter-{width}")
