"""Defects users met in the forms plugin, in Chromium: a number field took words (and then said the field was
required), a two-column form was drawn in one column in the preview and on the fill-in page, the field
settings offered what the field's kind does not have (options as free text, two inputs for one label, an
empty first choice), and a user without the right to design forms who opened the preview waited on a
spinner for ever."""

from __future__ import annotations

import re

import pytest
from conftest import shot, sign_in
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e
#: the first look at a page waits for the plugin's remote to load, which is slow on a busy machine
LOAD = 30000
OPEN = ".ant-select-dropdown:not(.ant-select-dropdown-hidden)"


def field(page, key: str):
    return page.get_by_test_id(f"field-{key}")


def side_by_side(page, left: str, right: str) -> None:
    """The two fields are drawn in one row, the second to the right of the first."""
    a, b = field(page, left).bounding_box(), field(page, right).bounding_box()
    assert a and b, (left, right)
    assert abs(a["y"] - b["y"]) < 2 and b["x"] > a["x"] + a["width"] / 2, (a, b)


def choices(page, select) -> list[str]:
    """The choices an antd select offers when opened, as their titles, in order."""
    select.click()
    listed = page.locator(OPEN).locator(".ant-select-item-option")
    expect(listed.first).to_be_visible()
    titles = [listed.nth(i).get_attribute("title") or "" for i in range(listed.count())]
    page.keyboard.press("Escape")
    expect(page.locator(OPEN)).to_have_count(0)  # closed, so the next select's list is the only one open
    return titles


def test_a_number_field_refuses_words_as_they_are_typed(admin_page, live_server) -> None:
    page = admin_page
    page.goto(live_server.url + "/dynamic-form/render/leave-request")
    days = field(page, "days")
    box = days.locator("input")
    expect(box).to_be_visible(timeout=LOAD)
    box.press_sequentially("abc")
    expect(box).to_have_value("")
    expect(days).to_contain_text("Days takes numbers only")
    box.press_sequentially("2.5")
    expect(box).to_have_value("2.5")
    expect(days).not_to_contain_text("numbers only")
    box.fill("12abc")  # what a paste does: refused whole
    expect(box).to_have_value("2.5")
    # a number begun but not finished is not taken for an empty field
    box.fill("-")
    page.get_by_test_id("form-submit").click()
    expect(days).to_contain_text("Days must be a number")
    expect(days).not_to_contain_text("required")
    shot(page, "forms-defects-number")
    box.fill("3")
    expect(days).not_to_contain_text("must be a number")
    assert page.page_errors == []


def test_the_designed_columns_in_the_preview_and_the_fill_in_page(admin_page, live_server) -> None:
    page = admin_page
    base = live_server.url
    # "Fill in" on the designer's list names no layout: the form opens in the designed one (two columns)
    page.goto(base + "/form-design")
    row = page.locator("tr", has_text="leave-request")
    row.get_by_role("button", name="Fill in").click(timeout=LOAD)
    page.wait_for_url(re.compile(r"/dynamic-form/render/leave-request$"))
    expect(field(page, "leaveType")).to_be_visible(timeout=LOAD)
    side_by_side(page, "applicant", "leaveType")

    page.goto(base + "/form-design")
    page.locator("tr", has_text="leave-request").get_by_role("button", name="Preview").click(timeout=LOAD)
    page.wait_for_url(re.compile(r"/form-preview\?formId=\d+$"))
    expect(field(page, "leaveType")).to_be_visible(timeout=LOAD)
    side_by_side(page, "applicant", "leaveType")
    # the layout picker offers the form's layouts with their columns, the designed one first and chosen
    picker = page.get_by_test_id("preview-layout")
    expect(picker).to_contain_text("L1")
    assert choices(page, picker) == ["L1 · columns: 2", "L2 · columns: 2", "L3 · columns: 3"]
    shot(page, "forms-defects-preview-columns")
    # a select of the form offers its choices, with no empty one before them
    assert choices(page, field(page, "leaveType").locator(".ant-select")) == ["Annual", "Sick", "Personal"]
    assert page.page_errors == []


def test_field_settings_fit_the_field_kind(admin_page, live_server) -> None:
    page = admin_page
    base = live_server.url
    page.goto(base + "/form-design")
    page.get_by_test_id("design-new").click(timeout=LOAD)
    page.get_by_test_id("design-code").fill("kinds-defects")
    page.get_by_test_id("design-name").fill("Kinds")

    page.get_by_test_id("add-number").click()
    number = page.get_by_test_id("design-field-0")
    # one label input for each of the five languages, and no other
    labels = number.locator("input[data-testid^=label-0]")
    expect(labels).to_have_count(5)
    addons = number.locator(".ant-input-group-addon", has_text="Label")
    assert sorted(addons.all_inner_texts()) == sorted(
        f"Label · {name}" for name in ("简体中文", "繁體中文", "English", "Tiếng Việt", "Magyar")
    )
    page.get_by_test_id("label-0-en-us").fill("Copies")
    for shown in ("min-0", "max-0", "default-0", "required-0"):
        expect(page.get_by_test_id(shown)).to_be_visible()
    for absent in ("pattern-0", "options-0", "dict-0"):
        expect(page.get_by_test_id(absent)).to_have_count(0)

    page.get_by_test_id("add-select").click()
    choice = page.get_by_test_id("design-field-1")
    page.get_by_test_id("label-1-en-us").fill("Transport")
    for absent in ("min-1", "max-1", "pattern-1"):
        expect(page.get_by_test_id(absent)).to_have_count(0)
    # the options are a list: rows added, edited and removed one by one
    new_option = page.get_by_test_id("options-1")
    new_option.fill("Train")
    new_option.press("Enter")
    new_option.fill("Plane")
    page.get_by_test_id("option-add-1").click()
    new_option.fill("Bus")
    new_option.press("Enter")
    rows = choice.locator("input[data-testid^=option-1-]")
    expect(rows).to_have_count(3)
    page.get_by_test_id("option-remove-1-1").click()
    expect(rows).to_have_count(2)
    page.get_by_test_id("option-1-0").fill("Rail, fast")  # a choice may hold a comma
    expect(page.get_by_test_id("option-1-1")).to_have_value("Bus")
    # a list typed with commas adds a row at each comma and the box stays in use for the next item
    new_option.press_sequentially("Car,Ship")
    expect(rows).to_have_count(3)
    expect(new_option).to_be_focused()
    expect(new_option).to_have_value("Ship")
    new_option.press("Enter")
    expect(new_option).to_be_focused()
    new_option.fill("Boat,Tram")  # a list put in at once (pasted): every item
    expect(rows).to_have_count(6)
    expect(new_option).to_have_value("")
    shot(page, "forms-defects-settings")

    page.get_by_test_id("add-text").click()
    expect(page.get_by_test_id("pattern-2")).to_be_visible()
    expect(page.get_by_test_id("options-2")).to_have_count(0)

    page.get_by_test_id("design-save").click()
    expect(page.get_by_text("Version 1 saved")).to_be_visible()
    page.get_by_role("button", name="Preview").click()
    page.wait_for_url(re.compile(r"/form-preview\?formId=\d+&version=1$"))
    expect(field(page, "select2")).to_contain_text("Transport", timeout=LOAD)
    expect(field(page, "number1")).to_contain_text("Copies")
    offered = choices(page, field(page, "select2").locator(".ant-select"))
    assert offered == ["Rail, fast", "Bus", "Car", "Ship", "Boat", "Tram"]
    assert page.page_errors == []


def test_the_preview_without_the_right_shows_the_no_permission_page(page, live_server) -> None:
    sign_in(page, live_server.url, "alice", "Alice@123")  # a viewer: designs nothing
    page.goto(live_server.url + "/form-preview?formId=1")
    denied = page.get_by_test_id("forms-no-permission")
    expect(denied).to_be_visible(timeout=LOAD)
    expect(denied).to_contain_text("403")
    expect(denied).to_contain_text("You have no permission to design or preview forms")
    expect(page.locator(".at-page .ant-spin")).to_have_count(0)
    shot(page, "forms-defects-no-permission")
    denied.get_by_role("button", name="Back to home").click()
    page.wait_for_url("**/home")
    assert page.page_errors == []
