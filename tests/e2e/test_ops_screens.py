"""The ops screens in Chromium: /actuator-management (nodes, readiness, queue, storage) and /schedule (jobs
with run now, background tasks), as the platform administrator, in Chinese and English, desktop and phone."""

from __future__ import annotations

import re

import pytest
from conftest import shot
from playwright.sync_api import expect

HOUSEKEEPING = "kernel:scheduled-job-runs"
RAW_KEY = re.compile(r"\bweb\.(monitor|schedule|units)\.|\bweb\.[a-zA-Z]+\b")
TEXT = {
    "zh-cn": {
        "this": "当前节点",
        "database": "数据库",
        "ok_check": "正常",
        "succeeded": "成功",
        "manual": "手动运行",
        "paused": "已暂停",
        "active": "启用",
        "storage": "本地磁盘",
    },
    "en-us": {
        "this": "This node",
        "database": "Database",
        "ok_check": "OK",
        "succeeded": "Succeeded",
        "manual": "Manual",
        "paused": "Paused",
        "active": "Active",
        "storage": "Local disk",
    },
}


def _sign_in(page, base: str) -> None:
    page.goto(base + "/login")
    page.locator("#account").fill("admin")
    page.locator("#password").fill("Admin@123")
    page.locator("#agree").check()
    page.locator("button[type=submit]").click()
    page.wait_for_url("**/home")


def _confirm(page) -> None:
    """Answers the open confirmation with its primary button (antd spaces two-character Chinese labels)."""
    shown = page.locator(".ant-popconfirm:not(.ant-popover-hidden)")
    expect(shown).to_have_count(1)
    shown.locator(".ant-popconfirm-buttons .ant-btn-primary").click()
    expect(shown).to_have_count(0)


def _fits(page) -> None:
    """Nothing sticks out of the window sideways (tables scroll inside their cards)."""
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the page is {overflow}px wider than the window"


def _settled(page) -> None:
    """No load in flight and the animations over, for a steady screenshot."""
    expect(page.get_by_test_id("ops-refresh")).not_to_have_class(re.compile("ant-btn-loading"))
    page.wait_for_timeout(600)


def _no_raw_keys(page, name: str) -> None:
    text = page.get_by_test_id(name).inner_text()
    assert not RAW_KEY.search(text), RAW_KEY.search(text)


@pytest.mark.parametrize("locale", ["zh-cn", "en-us"])
@pytest.mark.parametrize(("device", "size"), [("desktop", (1280, 800)), ("phone", (390, 844))])
def test_ops_screens(browser, live_server, locale: str, device: str, size: tuple[int, int]) -> None:
    base = live_server.url
    words = TEXT[locale]
    phone = device == "phone"
    ctx = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, locale="en-US", is_mobile=phone, has_touch=phone
    )
    ctx.add_cookies([{"name": "language", "value": locale, "url": base}])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15000)
    try:
        _sign_in(page, base)

        page.goto(base + "/actuator-management")
        monitor = page.get_by_test_id("ops-monitor")
        expect(monitor).to_be_visible()
        node = page.get_by_test_id("ops-node").filter(has_text=words["this"])
        expect(node).to_have_count(1)
        readiness = page.get_by_test_id("ops-readiness")
        expect(readiness.locator('tr[data-row-key="database"]')).to_contain_text(words["ok_check"])
        expect(page.get_by_test_id("ops-storage")).to_contain_text(words["storage"])
        expect(page.get_by_test_id("ops-queues")).to_be_visible()
        _no_raw_keys(page, "ops-monitor")
        _fits(page)
        _settled(page)
        shot(page, f"ops-monitor-{locale}-{device}")

        page.goto(base + "/schedule")
        expect(page.get_by_test_id("ops-schedule")).to_be_visible()
        row = page.locator(f'tr[data-row-key="{HOUSEKEEPING}"]')
        expect(row).to_be_visible()
        assert page.get_by_test_id("ops-job").count() >= 3
        row.get_by_test_id("ops-run").click()
        _confirm(page)
        outcome = row.get_by_test_id("ops-job-outcome")
        expect(row).to_contain_text(words["manual"], timeout=20000)
        expect(outcome).to_have_text(words["succeeded"], timeout=20000)

        # pause, then resume, each confirmed
        row.get_by_test_id("ops-pause").click()
        _confirm(page)
        expect(row.get_by_test_id("ops-job-paused")).to_contain_text(words["paused"])
        row.get_by_test_id("ops-resume").click()
        _confirm(page)
        expect(row).to_contain_text(words["active"])

        expect(page.get_by_test_id("ops-tasks").locator(".ant-table-row").first).to_be_visible()
        _no_raw_keys(page, "ops-schedule")
        _fits(page)
        jobs_scroller = page.get_by_test_id("ops-jobs").locator(".ant-table-content").first
        jobs_scroller.evaluate("(el) => { el.scrollLeft = 0; }")
        page.wait_for_timeout(2500)  # the last message fades
        _settled(page)
        shot(page, f"ops-schedule-{locale}-{device}")
        if phone:  # the jobs table scrolls sideways to its actions column
            jobs_scroller.evaluate("(el) => { el.scrollLeft = el.scrollWidth; }")
            shot(page, f"ops-schedule-{locale}-{device}-scrolled")
        assert errors == []
    finally:
        ctx.close()
