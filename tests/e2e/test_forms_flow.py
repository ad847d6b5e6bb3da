"""The forms plugin in Chromium: an administrator designs and publishes a form, it is filled from its link
and from the Leave request menu (browser and server messages on the fields), the submission is found in the
list by search, the list exports to Excel; the screens at desktop and phone widths in Chinese and English."""

from __future__ import annotations

import io
import re
import secrets
from pathlib import Path

import openpyxl
import pytest
from conftest import shot, sign_in
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e
#: the first look at a page waits for the plugin's remote to load, which is slow on a busy machine
LOAD = 30000
SCREENS = Path("/tmp/atrium-forms-screens")


def field(page, key: str):
    return page.get_by_test_id(f"field-{key}")


def pick(page, key: str, option: str) -> None:
    field(page, key).locator(".ant-select").click()
    page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)").get_by_title(option).click()


def pick_today_range(page, key: str) -> None:
    field(page, key).locator(".ant-picker").click()
    today = page.locator(".ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-cell-today")
    today.first.click()
    today.first.click()


def design(page, base: str, code: str) -> None:
    """Designs a trip form (destination, nights 1 to 30, transport) and publishes it under ``code``."""
    page.goto(base + "/form-design")
    page.get_by_test_id("design-new").click(timeout=LOAD)
    page.get_by_test_id("design-code").fill(code)
    page.get_by_test_id("design-name").fill("Trip request")
    page.get_by_test_id("add-text").click()
    page.get_by_test_id("label-0").fill("Destination")
    page.get_by_test_id("required-0").check()
    page.get_by_test_id("add-number").click()
    page.get_by_test_id("label-1").fill("Nights")
    page.get_by_test_id("min-1").fill("1")
    page.get_by_test_id("max-1").fill("30")
    page.get_by_test_id("add-select").click()
    page.get_by_test_id("label-2").fill("Transport")
    page.get_by_test_id("options-2").fill("Train,Plane")
    page.get_by_test_id("required-2").check()
    expect(page.get_by_test_id("design-field-2")).to_contain_text("Select")
    page.get_by_test_id("design-save").click()
    expect(page.get_by_text("Version 1 saved")).to_be_visible()
    shot(page, "forms-01-designer")
    page.get_by_test_id("design-publish").click()
    expect(page.get_by_text("Version 2 published")).to_be_visible()


def test_design_publish_fill_search_and_export(page, live_server) -> None:
    base = live_server.url
    sign_in(page, base)
    design(page, base, "trip-e2e")

    # the published form opens by its code; the browser checks required fields and ranges first
    page.goto(base + "/dynamic-form/render/trip-e2e")
    form = page.get_by_test_id("schema-form")
    expect(form).to_be_visible(timeout=LOAD)
    expect(page.get_by_test_id("tab-/dynamic-form/render/trip-e2e")).to_be_visible()
    page.get_by_test_id("form-submit").click()
    expect(field(page, "text1")).to_contain_text("Destination is required")
    expect(field(page, "select3")).to_contain_text("Transport is required")
    field(page, "text1").locator("input").fill("Lisbon")
    field(page, "number2").locator("input").fill("40")
    pick(page, "select3", "Train")
    page.get_by_test_id("form-submit").click()
    expect(field(page, "number2")).to_contain_text("Nights must be at most 30")

    # meanwhile the administrator publishes a stricter version: the server's message lands on the field
    other = page.context.new_page()
    other.goto(base + "/form-design")
    other.locator("tr", has_text="trip-e2e").get_by_role("button", name="Edit").click(timeout=LOAD)
    expect(other.get_by_test_id("label-1")).to_have_value("Nights")
    other.get_by_test_id("max-1").fill("14")
    other.get_by_test_id("design-publish").click()
    expect(other.get_by_text("Version 3 published")).to_be_visible()
    other.close()

    field(page, "number2").locator("input").fill("20")
    page.get_by_test_id("form-submit").click()
    expect(field(page, "number2")).to_contain_text("Nights must be at most 14")
    expect(field(page, "text1")).not_to_contain_text("required")
    shot(page, "forms-02-server-message")
    field(page, "number2").locator("input").fill("5")
    page.get_by_test_id("form-submit").click()
    expect(page.get_by_text("Submitted", exact=True)).to_be_visible()
    expect(field(page, "text1").locator("input")).to_have_value("")

    # the list: found by a search on any field, with the choice shown by its label
    page.get_by_role("button", name="Submissions").click()
    page.wait_for_url(re.compile(r"/dynamic-form/render/trip-e2e/submissions$"))
    table = page.get_by_test_id("submission-table")
    search = page.locator("[data-testid=form-search] input, input[data-testid=form-search]")
    expect(table.locator("tbody tr", has_text="Lisbon")).to_have_count(1, timeout=LOAD)
    search.fill("nowhere-at-all")
    search.press("Enter")
    expect(table).to_contain_text("No data")
    search.fill("Lisb")
    search.press("Enter")
    row = table.locator("tbody tr", has_text="Lisbon")
    expect(row).to_contain_text("Train")
    expect(row).to_contain_text("5")
    shot(page, "forms-03-list")

    # export: the asynchronous export runs and the workbook holds the row
    with page.expect_download(timeout=60000) as info:
        page.get_by_test_id("form-export").click()
    sheet = openpyxl.load_workbook(io.BytesIO(Path(info.value.path()).read_bytes())).active
    cells = [str(c) for r in sheet.iter_rows(values_only=True) for c in r if c is not None]
    assert "Destination" in cells and "Lisbon" in cells
    expect(page.get_by_text("Export finished")).to_be_visible()
    assert page.page_errors == []


def test_leave_request_from_the_menu(page, live_server) -> None:
    base = live_server.url
    sign_in(page, base)
    page.get_by_test_id("sidebar").get_by_text("Workbench", exact=True).click()
    page.get_by_test_id("sidebar").get_by_text("Leave request", exact=True).click()
    page.wait_for_url(re.compile(r"/dynamic-form/render/leave-request\?layoutId=L1$"))
    expect(page.get_by_test_id("tab-/dynamic-form/render/leave-request")).to_be_visible()
    expect(field(page, "applicant")).to_be_visible(timeout=LOAD)
    # layout L1 puts two fields in a row
    applicant = field(page, "applicant").bounding_box()
    leave_type = field(page, "leaveType").bounding_box()
    assert applicant and leave_type and abs(applicant["y"] - leave_type["y"]) < 2
    field(page, "applicant").locator("input").fill("Menu User")
    pick(page, "leaveType", "Sick")
    # the doctor's note shows only for sick leave, and is then required
    page.get_by_test_id("form-submit").click()
    expect(field(page, "doctorNote")).to_contain_text("Doctor's note no. is required")
    expect(field(page, "days")).to_contain_text("Days is required")
    field(page, "days").locator("input").fill("2")
    pick_today_range(page, "period")
    field(page, "doctorNote").locator("input").fill("DN-900")
    page.get_by_test_id("form-submit").click()
    expect(page.get_by_text("Submitted", exact=True)).to_be_visible()
    page.get_by_role("button", name="Submissions").click()
    table = page.get_by_test_id("submission-table")
    expect(table.locator("tbody tr", has_text="Menu User")).to_contain_text("Sick", timeout=LOAD)
    assert page.page_errors == []


RAW_KEY = re.compile(r"\b(web|forms|menu)\.[a-zA-Z]+\b")


@pytest.mark.parametrize("locale", ["zh-cn", "en-us"])
@pytest.mark.parametrize("width", [1440, 390])
def test_screens_at_each_width_and_language(browser, live_server, locale: str, width: int) -> None:
    base = live_server.url
    ctx = browser.new_context(viewport={"width": width, "height": 900}, locale="en-US")
    ctx.add_cookies([{"name": "language", "value": locale, "url": base}])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15000)
    try:
        page.goto(base + "/login")
        page.locator("#account").fill("admin")
        page.locator("#password").fill("Admin@123")
        page.locator("#agree").check()
        page.locator("button[type=submit]").click()
        page.wait_for_url("**/home")
        SCREENS.mkdir(parents=True, exist_ok=True)
        title = "请假申请" if locale == "zh-cn" else "Leave request"
        for name, path, ready in [
            ("designer", "/form-design", "leave-request"),
            ("render", "/dynamic-form/render/leave-request?layoutId=L1", title),
            ("list", "/dynamic-form/render/leave-request/submissions", "acme demo request 8"),
        ]:
            page.goto(base + path)
            main = page.locator(".at-page")
            expect(main).to_contain_text(ready, timeout=LOAD)
            page.screenshot(path=str(SCREENS / f"{name}-{locale}-{width}.png"))
            text = main.inner_text()
            assert not RAW_KEY.search(text), f"{name}: untranslated text {RAW_KEY.search(text)}"
            # nothing wider than the window: wide tables scroll inside their own box
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"{name} is {overflow}px wider than the window"
        assert errors == []
    finally:
        ctx.close()


KINDS = [
    "text", "textarea", "number", "select", "radio", "checkbox", "date", "daterange",
    "user", "member", "file", "image", "table", "section", "divider",
]  # fmt: skip


def test_every_field_kind_renders_and_submits(page, live_server) -> None:
    base = live_server.url
    sign_in(page, base)
    page.goto(base + "/form-design")
    page.get_by_test_id("design-new").click(timeout=LOAD)
    code = f"every-kind-{secrets.token_hex(3)}"  # a run tried again starts afresh
    page.get_by_test_id("design-code").fill(code)
    page.get_by_test_id("design-name").fill("Every kind")
    for kind in KINDS:
        page.get_by_test_id(f"add-{kind}").click()
    page.get_by_test_id("options-5").fill("Red,Blue")  # checkbox with options: a group
    page.get_by_test_id("options-12").fill("item,qty")  # the sub-table's columns
    page.get_by_test_id("required-0").check()
    page.get_by_test_id("design-publish").click()
    expect(page.get_by_text("Version 1 published")).to_be_visible(timeout=15_000)

    page.goto(f"{base}/dynamic-form/render/{code}?layoutId=L2")
    expect(page.get_by_test_id("schema-form")).to_be_visible(timeout=LOAD)
    for i, kind in enumerate(KINDS, start=1):
        if kind in ("section", "divider"):
            continue
        expect(field(page, f"{kind}{i}")).to_be_visible()
    expect(page.locator(".at-page")).to_contain_text("Section")
    # two columns: the number and the select side by side, the text area across the row
    number = field(page, "number3").bounding_box()
    select = field(page, "select4").bounding_box()
    area = field(page, "textarea2").bounding_box()
    assert (
        number
        and select
        and area
        and abs(number["y"] - select["y"]) < 2
        and area["width"] > 1.5 * number["width"]
    )
    expect(field(page, "radio5")).to_contain_text("A")
    expect(field(page, "image12")).to_contain_text("Upload picture")

    table = page.get_by_test_id("table-table13")
    table.get_by_role("button", name="Add row").click()
    table.get_by_role("button", name="Add row").click()
    expect(table.get_by_role("button", name="Remove")).to_have_count(2)
    table.get_by_role("button", name="Remove").last.click()
    expect(table.get_by_role("button", name="Remove")).to_have_count(1)
    page.get_by_test_id("form-submit").click()
    expect(field(page, "text1")).to_contain_text("Text is required")

    field(page, "text1").locator("input").fill("all kinds")
    field(page, "number3").locator("input").fill("7")
    field(page, "radio5").get_by_text("B", exact=True).click()
    field(page, "checkbox6").get_by_text("Blue").click()
    # people are picked among the tenant's members (searched on the server)
    field(page, "user9").locator(".ant-select").click()
    page.keyboard.type("alice")
    listed = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)")
    listed.get_by_title("Alice Zhang", exact=False).click()
    table.locator("input").first.fill("pens")
    page.get_by_test_id("form-submit").click()
    expect(page.get_by_text("Submitted", exact=True)).to_be_visible()

    page.get_by_role("button", name="Submissions").click()
    row = page.get_by_test_id("submission-table").locator("tbody tr", has_text="all kinds")
    expect(row).to_contain_text("Blue", timeout=LOAD)
    row.get_by_role("button", name="View").click()
    detail = page.get_by_role("dialog")
    expect(detail).to_contain_text("Alice Zhang")
    expect(detail).to_contain_text("7")
    assert page.page_errors == []


def test_list_total_past_the_count_limit(page, live_server) -> None:
    """Past 10,000 matches the server says its total is not exact: the list shows "10,000+"."""
    base = live_server.url
    sign_in(page, base)

    def capped(route):
        answer = route.fetch().json()
        answer["data"].update(total=10000, totalExact=False)
        route.fulfill(json=answer)

    page.route("**/api/form/submission/list", capped)
    page.goto(base + "/dynamic-form/render/leave-request/submissions")
    expect(page.get_by_test_id("submission-table")).to_contain_text("10,000+ submissions", timeout=LOAD)
    assert page.page_errors == []
