"""The process designer's settings in Chromium (spec reports.md 5, "Process designer"): a script task's
content, an HTTP task's request fields and JSON, a node's parameters and a timer's value are checked as the
user types them, with the server's messages, in the same problem list as the canvas rules; an HTTP task's
settings survive a save and a reload; a file of the wrong type is refused on import. The settings of an
HTTP task are pictured in English and Chinese, on a desktop and in the phone's drawer."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from conftest import sign_in
from playwright.sync_api import Locator, Page, expect
from test_process_designer import LOAD, append, open_designer, select

pytestmark = pytest.mark.e2e
SHOTS = Path("/tmp/process-shots2")


def problem(page: Page, rule: str) -> Locator:
    return page.get_by_test_id(f"process-problem-{rule}")


def no_problems(page: Page) -> None:
    """The problem list is empty (on failure the assertion shows what is left)."""
    expect(page.get_by_test_id("process-problems")).to_have_text("—")


def settings_tab(page: Page) -> None:
    page.get_by_test_id("process-side").locator(".ant-tabs-tab").nth(1).click()
    expect(page.get_by_test_id("process-properties")).to_be_visible()


def type_into(page: Page, test_id: str, text: str) -> None:
    """Types into a settings field and leaves it (the settings are written when a field is left)."""
    field = page.get_by_test_id(test_id)
    field.click()
    field.press("ControlOrMeta+a")
    field.press_sequentially(text)
    field.press("Tab")


def choose(page: Page, test_id: str, option: str) -> None:
    page.get_by_test_id(test_id).click()
    dropdown = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)")
    dropdown.locator(f'.ant-select-item-option[title="{option}"]').click()


def test_script_task_wants_its_content(admin_page, live_server) -> None:
    page = admin_page
    open_designer(page, live_server.url)
    append(page, "start", "append.script-task")
    missing = problem(page, "script_content")
    expect(missing).to_have_text("Script task scriptTask: the script content is required")
    missing.click()
    content = page.get_by_test_id("prop-script-content")
    expect(content).to_be_visible()
    type_into(page, "prop-script-content", "import os")
    expect(problem(page, "script_unsafe")).to_have_count(1)
    expect(missing).to_have_count(0)
    type_into(page, "prop-script-content", "total = 1 + 2")
    no_problems(page)


def test_http_task_settings_are_checked_and_saved(admin_page, live_server) -> None:
    page = admin_page
    open_designer(page, live_server.url)
    key = f"http_{int(time.time() * 1000) % 10**9}"
    page.get_by_test_id("process-key").fill(key)
    page.get_by_test_id("process-name").fill("Notify the ledger")
    task = append(page, "start", "append.http-task")
    append(page, task, "append.end-event")
    url_missing = problem(page, "http_url")
    expect(url_missing).to_have_text("HTTP task serviceTask: the request address is required")
    expect(problem(page, "http_method")).to_have_count(1)
    expect(problem(page, "http_param_type")).to_have_count(1)
    # the defaults are filled in
    url_missing.click()
    expect(page.get_by_test_id("prop-http-charset")).to_have_value("utf-8")
    expect(page.get_by_test_id("prop-http-content-type")).to_have_value("application/json")
    expect(page.get_by_test_id("prop-http-success-code")).to_have_value("200")

    type_into(page, "prop-http-url", "example.test/hook")
    expect(url_missing).to_have_count(0)
    expect(problem(page, "http_url_scheme")).to_have_count(1)
    type_into(page, "prop-http-url", "https://example.test/hook")
    expect(problem(page, "http_url_scheme")).to_have_count(0)
    choose(page, "prop-http-method", "POST")
    choose(page, "prop-http-param-type", "json")
    type_into(page, "prop-http-body", "{not json")
    expect(problem(page, "json_invalid")).to_have_text("body must be valid, non-empty JSON")
    type_into(page, "prop-http-body", '{"days": 3}')
    type_into(page, "prop-http-headers", '{"X-Source": "atrium"}')
    type_into(page, "prop-http-result", "reply")
    type_into(page, "prop-http-success-code", "99")
    expect(problem(page, "http_success_code")).to_have_count(1)
    type_into(page, "prop-http-success-code", "201")
    no_problems(page)

    page.get_by_test_id("process-save").click()
    expect(page.locator(".ant-message")).to_contain_text("Saved as version 1")
    expect(page).to_have_url(re.compile(r"/process_manage/design/\d+$"))
    page.reload()
    expect(page.get_by_test_id("process-save")).to_be_enabled(timeout=LOAD)
    expect(page.get_by_test_id("process-key")).to_have_value(key)
    select(page, task)
    settings_tab(page)
    expect(page.get_by_test_id("prop-http-url")).to_have_value("https://example.test/hook")
    expect(page.get_by_test_id("prop-http-method")).to_contain_text("POST")
    expect(page.get_by_test_id("prop-http-param-type")).to_contain_text("json")
    expect(page.get_by_test_id("prop-http-success-code")).to_have_value("201")
    expect(page.get_by_test_id("prop-http-result")).to_have_value("reply")
    expect(page.get_by_test_id("prop-http-headers")).to_have_value('{"X-Source": "atrium"}')
    expect(page.get_by_test_id("prop-http-body")).to_have_value('{"days": 3}')
    no_problems(page)


def test_parameters_and_timers_are_checked(admin_page, live_server) -> None:
    page = admin_page
    open_designer(page, live_server.url)
    task = append(page, "start", "append.append-task")
    settings_tab(page)
    page.get_by_test_id("param-add").click()
    expect(problem(page, "kv_required")).to_have_text("Key and value are required")
    type_into(page, "param-name-0", "1abc")
    type_into(page, "param-value-0", "three")
    expect(problem(page, "param_name")).to_have_text(
        "Parameter name 1abc must start with a letter or underscore"
    )
    type_into(page, "param-name-0", "days")
    page.get_by_test_id("param-numeric-0").click()
    expect(problem(page, "value_numeric")).to_have_text("The value of days must be numeric")
    type_into(page, "param-value-0", "3")
    page.get_by_test_id("prop-range").click()
    type_into(page, "prop-range-min", "5")
    type_into(page, "prop-range-max", "1")
    expect(problem(page, "range_order")).to_have_text("The interval maximum cannot be less than the minimum")
    type_into(page, "prop-range-max", "9")
    no_problems(page)

    append(page, task, "append.timer-event")
    expect(problem(page, "timer_required")).to_have_count(1)
    problem(page, "timer_required").click()
    type_into(page, "prop-timer-value", "in 5 minutes")
    expect(problem(page, "timer_invalid")).to_contain_text("in 5 minutes is not an ISO 8601 duration")
    type_into(page, "prop-timer-value", "PT5M")
    no_problems(page)
    # the parameters are kept on their node
    select(page, task)
    expect(page.get_by_test_id("param-name-0")).to_have_value("days")


def test_import_refuses_other_file_types(admin_page, live_server) -> None:
    page = admin_page
    open_designer(page, live_server.url)
    with page.expect_file_chooser() as chooser:
        page.get_by_test_id("process-import").click()
    chooser.value.set_files({"name": "notes.txt", "mimeType": "text/plain", "buffer": b"hello"})
    expect(problem(page, "file_type")).to_have_text("The file type must be one of: .bpmn, .xml")
    with page.expect_file_chooser() as chooser:
        page.get_by_test_id("process-import").click()
    not_xml = {"name": "notes.bpmn", "mimeType": "application/xml", "buffer": b"not xml at all"}
    chooser.value.set_files(not_xml)
    expect(problem(page, "xml_invalid")).to_have_count(1)
    expect(problem(page, "file_type")).to_have_count(0)


def _no_overlap(page: Page) -> None:
    """The settings' fields lie side by side or one under another, never over each other or out of view."""
    form = page.get_by_test_id("process-properties")
    viewport = page.viewport_size
    assert viewport is not None
    width = viewport["width"]
    rects = form.locator(".ant-form-item").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).map(r => [r.left, r.top, r.right, r.bottom])"
    )
    boxes = [b for b in rects if b[2] > b[0]]
    for i, a in enumerate(boxes):
        assert a[0] >= 0 and a[2] <= width + 0.5, a
        for b in boxes[i + 1 :]:
            apart = a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5 or a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5
            assert apart, (a, b)


@pytest.mark.parametrize("language", ["en-us", "zh-cn"])
def test_http_settings_pictured(browser, live_server, language: str) -> None:
    base = live_server.url
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1440, 900), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
        context.add_cookies([{"name": "language", "value": "en-us", "url": base}])
        page = context.new_page()
        try:
            page.set_default_timeout(15000)
            sign_in(page, base)
            context.add_cookies([{"name": "language", "value": language, "url": base}])
            open_designer(page, base)
            append(page, "start", "append.http-task")
            if width < 1000:
                page.get_by_test_id("process-open-panel").click()
                expect(page.locator(".at-process-drawer .ant-drawer-section")).to_be_visible()
            settings_tab(page)
            type_into(page, "prop-http-url", "https://example.test/hook")
            choose(page, "prop-http-method", "POST")
            choose(page, "prop-http-param-type", "json")
            type_into(page, "prop-http-body", '{"days": 3}')
            expect(page.get_by_test_id("prop-http-url")).to_have_value("https://example.test/hook")
            _no_overlap(page)
            name = SHOTS / f"http-settings-{language}-{width}"
            page.get_by_test_id("process-side").evaluate("el => el.scrollIntoView({ block: 'start' })")
            page.mouse.move(1, height - 1)
            page.screenshot(path=f"{name}.png")
            if width > 1000:
                page.get_by_test_id("process-properties").screenshot(path=f"{name}-form.png")
            else:
                page.get_by_test_id("param-add").click()
                type_into(page, "param-name-0", "days")
                type_into(page, "param-value-0", "3")
                page.get_by_test_id("prop-range").click()
                page.get_by_test_id("prop-range-max").scroll_into_view_if_needed()
                _no_overlap(page)
                page.screenshot(path=f"{name}-end.png")
        finally:
            context.close()
