"""The form designer's settings in Chromium: labels and names in all five languages, default values, choices
from a platform dictionary, the preview of a version that is not published, the user and tenant-member
pickers, editing a submission from the list, and fields dragged onto the layout's grid and moved there with
the mouse and the keyboard."""

from __future__ import annotations

import re

import pytest
from conftest import api_client, shot, sign_in
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e
#: the first look at a page waits for the plugin's remote to load, which is slow on a busy machine
LOAD = 30000
OPEN = ".ant-select-dropdown:not(.ant-select-dropdown-hidden)"


def field(page, key: str):
    return page.get_by_test_id(f"field-{key}")


def new_form(page, base: str, code: str, name: str) -> None:
    page.goto(base + "/form-design")
    page.get_by_test_id("design-new").click(timeout=LOAD)
    page.get_by_test_id("design-code").fill(code)
    page.get_by_test_id("design-name").fill(name)


def drag(page, source, target, x: float = 0.5, y: float = 0.5) -> None:
    """Drags ``source`` with the mouse in small steps and releases it at the fractions ``x``, ``y`` of the
    width and height of ``target`` (the drag and drop library follows real pointer moves)."""
    start, end = source.bounding_box(), target.bounding_box()
    assert start and end
    from_x, from_y = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    to_x, to_y = end["x"] + end["width"] * x, end["y"] + end["height"] * y
    page.mouse.move(from_x, from_y)
    page.mouse.down()
    page.mouse.move(from_x + 8, from_y + 8, steps=4)
    page.mouse.move(to_x, to_y, steps=20)
    page.mouse.move(to_x, to_y)
    page.mouse.up()


def canvas_keys(page) -> list[str]:
    """The keys of the fields on the designer's canvas, in order."""
    tiles = page.get_by_test_id("canvas").locator("[data-testid^=canvas-field-]")
    return [tiles.nth(i).get_attribute("data-key") or "" for i in range(tiles.count())]


def choose(page, select, option: str, typed: str = "") -> None:
    """Opens an antd select, types into its search when asked, and picks an option by its title."""
    select.click()
    if typed:
        page.keyboard.type(typed)
    page.locator(OPEN).get_by_title(option).click()


def test_preview_of_an_unpublished_version(page, live_server) -> None:
    base = live_server.url
    sign_in(page, base)
    new_form(page, base, "preview-e2e", "预览检查")
    page.get_by_test_id("design-name-en-us").fill("Preview check")
    page.get_by_test_id("design-name-hu-hu").fill("Előnézet")
    page.get_by_test_id("add-text").click()
    page.get_by_test_id("label-0").fill("标题")
    for locale, text in (("zh-tw", "標題"), ("en-us", "Headline"), ("vi-vn", "Tiêu đề"), ("hu-hu", "Cím")):
        page.get_by_test_id(f"label-0-{locale}").fill(text)
    page.get_by_test_id("required-0").check()
    page.get_by_test_id("default-0").fill("Hello")
    page.get_by_test_id("add-number").click()
    page.get_by_test_id("label-1-en-us").fill("Copies")
    page.get_by_test_id("max-1").fill("5")
    page.get_by_test_id("default-1").fill("3")
    page.get_by_test_id("add-radio").click()
    page.get_by_test_id("label-2-en-us").fill("Topic")
    choose(page, page.get_by_test_id("dict-2"), "FEEDBACK_DIC")
    expect(page.get_by_test_id("options-2")).to_be_disabled()
    page.get_by_test_id("design-save").click()
    expect(page.get_by_text("Version 1 saved")).to_be_visible()
    shot(page, "forms-10-designer-locales")

    # the preview opens the saved version though nothing is published
    page.get_by_role("button", name="Preview").click()
    page.wait_for_url(re.compile(r"/form-preview\?formId=\d+&version=1$"))
    preview = page.get_by_test_id("form-preview")
    expect(preview).to_contain_text("Preview check · v1", timeout=LOAD)
    expect(page.get_by_test_id("preview-note")).to_contain_text("nothing filled in here is saved")
    expect(field(page, "text1")).to_contain_text("Headline")
    expect(field(page, "text1").locator("input")).to_have_value("Hello")
    expect(field(page, "number2").locator("input")).to_have_value("3")
    # the dictionary's items in the user's language
    topic = field(page, "radio3")
    expect(topic).to_contain_text("Topic")
    expect(topic).to_contain_text("Something is broken")
    expect(topic).to_contain_text("Other")
    topic.get_by_text("Page is slow").click()
    expect(topic.locator("input[type=radio]:checked")).to_have_count(1)
    # a layout of the form's puts fields side by side
    preview.locator(".ant-select").first.click()
    page.locator(OPEN).get_by_title("L3").click()
    first, second = field(page, "text1").bounding_box(), field(page, "number2").bounding_box()
    assert first and second and abs(first["y"] - second["y"]) < 2
    shot(page, "forms-11-preview")

    # it is not published: its link says so, and the list offers no "fill in"
    page.goto(base + "/dynamic-form/render/preview-e2e")
    expect(page.locator(".at-page")).to_contain_text("Form preview-e2e is not published", timeout=LOAD)
    page.goto(base + "/form-design")
    row = page.locator("tr", has_text="preview-e2e")
    expect(row).to_contain_text("Not published", timeout=LOAD)
    expect(row.get_by_role("button", name="Fill in")).to_be_disabled()

    # the preview in Hungarian: the label and the dictionary's items in that language
    page.context.add_cookies([{"name": "language", "value": "hu-hu", "url": base}])
    page.goto(base + "/form-design")
    page.locator("tr", has_text="preview-e2e").locator("button").nth(1).click(timeout=LOAD)
    expect(page.get_by_test_id("form-preview")).to_contain_text("Előnézet", timeout=LOAD)
    expect(field(page, "text1")).to_contain_text("Cím")
    expect(field(page, "radio3")).to_contain_text("Hibás működés")
    page.context.add_cookies([{"name": "language", "value": "en-us", "url": base}])
    assert page.page_errors == []


def test_people_pickers_and_editing_a_submission(page, live_server) -> None:
    base = live_server.url
    sign_in(page, base)
    new_form(page, base, "people-e2e", "People check")
    page.get_by_test_id("add-user").click()
    page.get_by_test_id("label-0-en-us").fill("Owner")
    page.get_by_test_id("required-0").check()
    page.get_by_test_id("add-member").click()
    page.get_by_test_id("label-1-en-us").fill("Helper")
    page.get_by_test_id("add-text").click()
    page.get_by_test_id("label-2-en-us").fill("Note")
    page.get_by_test_id("design-publish").click()
    expect(page.get_by_text("Version 1 published")).to_be_visible()

    page.goto(base + "/dynamic-form/render/people-e2e")
    expect(page.get_by_test_id("schema-form")).to_be_visible(timeout=LOAD)
    page.get_by_test_id("form-submit").click()
    expect(field(page, "user1")).to_contain_text("Owner is required")
    # the pickers search the tenant's members on the server
    choose(page, field(page, "user1").locator(".ant-select"), "Alice Zhang", typed="alice")
    helper = field(page, "member2").locator(".ant-select")
    helper.click()
    options = page.locator(OPEN)
    expect(options.get_by_title("王主管 · 信息部")).to_be_visible()
    page.keyboard.type("zzz-nobody")
    expect(options).to_contain_text("No matching member")
    page.keyboard.press("Escape")
    choose(page, helper, "王主管 · 信息部")
    field(page, "text3").locator("input").fill("first note")
    page.get_by_test_id("form-submit").click()
    expect(page.get_by_text("Submitted", exact=True)).to_be_visible()

    page.get_by_role("button", name="Submissions").click()
    table = page.get_by_test_id("submission-table")
    row = table.locator("tbody tr", has_text="first note")
    expect(row).to_contain_text("Alice Zhang", timeout=LOAD)
    expect(row).to_contain_text("王主管")

    # edit from the list: the form opens filled, is checked again, and the list shows the change
    row.get_by_role("button", name="Edit").click()
    editor = page.get_by_test_id("submission-edit")
    expect(field(editor, "text3").locator("input")).to_have_value("first note", timeout=LOAD)
    expect(field(editor, "user1")).to_contain_text("Alice Zhang")
    field(editor, "user1").locator(".ant-select-clear").click(force=True)
    editor.get_by_test_id("edit-save").click()
    expect(field(editor, "user1")).to_contain_text("Owner is required")
    choose(page, field(editor, "user1").locator(".ant-select"), "平台管理员 · 平台运营部", typed="admin")
    field(editor, "text3").locator("input").fill("second note")
    shot(page, "forms-12-edit")
    editor.get_by_test_id("edit-save").click()
    expect(page.get_by_text("Saved", exact=True)).to_be_visible()
    expect(editor).to_have_count(0)
    row = table.locator("tbody tr", has_text="second note")
    expect(row).to_contain_text("平台管理员")
    expect(table.locator("tbody tr", has_text="first note")).to_have_count(0)
    assert page.page_errors == []


def test_dragging_fields_onto_the_grid(page, live_server) -> None:
    base = live_server.url
    sign_in(page, base)
    new_form(page, base, "drag-e2e", "Drag check")
    canvas = page.get_by_test_id("canvas")
    expect(canvas).to_have_attribute("data-columns", "2")
    end = page.get_by_test_id("canvas-end")

    # field kinds from the palette: onto the empty form, after the last field, before and after a field
    drag(page, page.get_by_test_id("palette-text"), end)
    expect(page.get_by_test_id("canvas-field-0")).to_have_attribute("data-key", "text1")
    drag(page, page.get_by_test_id("palette-number"), end)
    expect(page.get_by_test_id("canvas-field-1")).to_have_attribute("data-key", "number2")
    drag(page, page.get_by_test_id("palette-select"), page.get_by_test_id("canvas-field-0"), x=0.15)
    expect(page.get_by_test_id("canvas-field-2")).to_have_attribute("data-key", "number2")
    assert canvas_keys(page) == ["select3", "text1", "number2"]
    drag(page, page.get_by_test_id("palette-date"), page.get_by_test_id("canvas-field-1"), x=0.85)
    expect(page.get_by_test_id("canvas-field-3")).to_have_attribute("data-key", "number2")
    assert canvas_keys(page) == ["select3", "text1", "date4", "number2"]
    # a field kind released outside the form adds nothing
    drag(page, page.get_by_test_id("palette-radio"), page.get_by_test_id("design-code"))
    expect(canvas.locator("[data-testid^=canvas-field-]")).to_have_count(4)

    # moving fields: the last one to the front with the mouse, then the last one up a row from the keyboard
    drag(page, page.get_by_test_id("canvas-handle-3"), page.get_by_test_id("canvas-field-0"))
    expect(page.get_by_test_id("canvas-field-0")).to_have_attribute("data-key", "number2")
    assert canvas_keys(page) == ["number2", "select3", "text1", "date4"]
    # each key waits for what a screen reader is told
    told = page.locator("[id^=DndLiveRegion]")
    page.get_by_test_id("canvas-handle-3").focus()
    page.keyboard.press("Space")
    expect(told).to_have_text("Date is over position 4 of 4.")
    # the library measures the tiles for keyboard moves just after the pick-up; no person is faster
    page.wait_for_timeout(200)
    page.keyboard.press("ArrowUp")
    expect(told).to_have_text("Date is over position 2 of 4.")
    page.keyboard.press("Space")
    expect(told).to_have_text("Date dropped at position 2 of 4.")
    expect(page.get_by_test_id("canvas-field-1")).to_have_attribute("data-key", "date4")
    assert canvas_keys(page) == ["number2", "date4", "select3", "text1"]
    # the settings follow the canvas's order
    expect(page.get_by_test_id("design-field-0")).to_contain_text("number2")
    page.get_by_test_id("label-2-en-us").fill("Colour")
    expect(page.get_by_test_id("canvas-field-2")).to_contain_text("Colour")
    page.get_by_test_id("options-2").fill("Red,Green")

    # the canvas draws the chosen layout's columns: wide kinds take the whole row
    page.get_by_test_id("canvas-layout").get_by_text("L3").click()
    expect(canvas).to_have_attribute("data-columns", "3")
    drag(page, page.get_by_test_id("palette-textarea"), end)
    note = page.get_by_test_id("canvas-field-4")
    expect(note).to_have_attribute("data-key", "textarea5")
    first, wide = page.get_by_test_id("canvas-field-0").bounding_box(), note.bounding_box()
    box = canvas.bounding_box()
    assert first and wide and box and wide["width"] > box["width"] * 0.9 > first["width"] * 2
    shot(page, "forms-13-designer-grid")

    page.get_by_test_id("design-save").click()
    expect(page.get_by_text("Version 1 saved")).to_be_visible()
    order = ["number2", "date4", "select3", "text1", "textarea5"]
    page.get_by_role("button", name="Preview").click()
    page.wait_for_url(re.compile(r"/form-preview\?formId=\d+&version=1$"))
    form_id = re.search(r"formId=(\d+)", page.url).group(1)
    saved = api_client(base).get("/api/form/design/detail", params={"formId": form_id}).json()
    assert saved["code"] == 800, saved
    assert list(saved["data"]["schema"]["properties"]) == order
    assert saved["data"]["schema"]["properties"]["select3"]["enum"] == ["Red", "Green"]

    # the preview draws the fields in that order
    preview = page.get_by_test_id("form-preview")
    expect(field(page, "text1")).to_be_visible(timeout=LOAD)
    drawn = preview.locator("[data-testid^=field-]")
    testids = [drawn.nth(i).get_attribute("data-testid") for i in range(drawn.count())]
    assert testids == [f"field-{k}" for k in order]
    expect(field(page, "select3")).to_contain_text("Colour")
    tops = [field(page, k).bounding_box() for k in order]
    assert all(tops) and [b["y"] for b in tops] == sorted(b["y"] for b in tops)
    assert page.page_errors == []
