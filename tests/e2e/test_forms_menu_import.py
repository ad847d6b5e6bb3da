"""A designed form on a menu of its own, in Chromium: the form is designed and published in the designer,
bound to a new DYNAMIC_FORM menu through the administration API, opened from the sidebar, filled in (with an
error first), and 1,000 rows are imported into it through the transfer plugin's Excel import wizard; its
submissions list then counts them all."""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path

import httpx
import pytest
import xlsxwriter
from conftest import api_client, shot, sign_in
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e
LOAD = 30000
ROWS = 1000
OPEN = ".ant-select-dropdown:not(.ant-select-dropdown-hidden)"


def field(page, key: str):
    return page.get_by_test_id(f"field-{key}")


def design_score_sheet(page, base: str, code: str) -> None:
    """Name (required), Score (0 to 100) and Grade (A, B or C), published under ``code``."""
    page.goto(base + "/form-design")
    page.get_by_test_id("design-new").click(timeout=LOAD)
    page.get_by_test_id("design-code").fill(code)
    page.get_by_test_id("design-name").fill("成绩单")
    page.get_by_test_id("design-name-en-us").fill(f"Scores {code}")
    page.get_by_test_id("add-text").click()
    page.get_by_test_id("label-0").fill("Name")
    page.get_by_test_id("required-0").check()
    page.get_by_test_id("add-number").click()
    page.get_by_test_id("label-1").fill("Score")
    page.get_by_test_id("min-1").fill("0")
    page.get_by_test_id("max-1").fill("100")
    page.get_by_test_id("add-select").click()
    page.get_by_test_id("label-2").fill("Grade")
    page.get_by_test_id("options-2").fill("A,B,C")
    page.get_by_test_id("design-publish").click()
    expect(page.get_by_text("Version 1 published")).to_be_visible()


def workbook(path: Path, rows: int) -> Path:
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet()
    ws.write_row(0, 0, ["Name", "Score", "Grade"])
    for i in range(rows):
        ws.write_row(i + 1, 0, [f"Imported {i:04d}", i % 101, "ABC"[i % 3]])
    wb.close()
    return path


def test_a_form_on_a_new_menu_filled_and_imported(page, live_server, tmp_path: Path) -> None:
    base = live_server.url
    code = f"score-{secrets.token_hex(3)}"
    sign_in(page, base)
    design_score_sheet(page, base, code)

    # a new DYNAMIC_FORM menu bound to the form, through the administration API
    admin = api_client(base)
    menu_code = f"menu-{code}"
    created = admin.post(
        "/api/base/admin/menus",
        json={
            "menuCode": menu_code,
            "menuName": "成绩单",
            "menuEnName": {"en-us": f"Score sheet {code}"},
            "menuUrl": "dynamic-form/render",
            "menuIconurl": "FormOutlined",
            "isCache": False,
            "sort": 999,
            "parameter": json.dumps({"menu_type": "DYNAMIC_FORM", "diy_code": code, "layout_code": "L3"}),
        },
    ).json()
    assert created["code"] == 800, created
    try:
        check_menu_fill_and_import(page, base, code, admin, tmp_path)
    finally:  # the browser tests share one server: the next ones see the sidebar as it was
        gone = admin.post("/api/base/admin/menus/delete", json={"menuId": int(created["data"]["menuId"])})
        assert gone.json()["code"] == 800, gone.text


def check_menu_fill_and_import(page, base: str, code: str, admin: httpx.Client, tmp_path: Path) -> None:
    # opened from the sidebar: the menu resolves to the form's published version in the layout's 3 columns
    page.goto(base + "/home")
    page.get_by_test_id("sidebar").get_by_text(f"Score sheet {code}", exact=True).click(timeout=LOAD)
    page.wait_for_url(re.compile(rf"/dynamic-form/render/{code}\?layoutId=L3$"))
    expect(page.get_by_test_id(f"tab-/dynamic-form/render/{code}")).to_contain_text(f"Score sheet {code}")
    expect(field(page, "text1")).to_be_visible(timeout=LOAD)
    name, score = field(page, "text1").bounding_box(), field(page, "number2").bounding_box()
    grade = field(page, "select3").bounding_box()
    assert (
        name and score and grade and abs(name["y"] - grade["y"]) < 2 and name["x"] < score["x"] < grade["x"]
    )
    field(page, "number2").locator("input").fill("101")
    page.get_by_test_id("form-submit").click()
    expect(field(page, "text1")).to_contain_text("Name is required")
    expect(field(page, "number2")).to_contain_text("Score must be at most 100")
    field(page, "text1").locator("input").fill("From the menu")
    field(page, "number2").locator("input").fill("88")
    field(page, "select3").locator(".ant-select").click()
    page.locator(OPEN).get_by_title("B").click()
    page.get_by_test_id("form-submit").click()
    expect(page.get_by_text("Submitted", exact=True)).to_be_visible()

    # 1,000 rows through the import wizard: the form is an import target of its own
    page.goto(base + "/data-transfer/import")
    wizard = page.get_by_test_id("import-wizard")
    expect(wizard).to_be_visible(timeout=LOAD)
    page.get_by_test_id("import-target").click()
    page.locator(OPEN).get_by_title(f"Scores {code}", exact=True).click()
    expect(page.get_by_test_id("import-target")).to_contain_text(f"Scores {code}")
    wizard.locator("input[type=file]").set_input_files(str(workbook(tmp_path / "scores.xlsx", ROWS)))
    expect(wizard.get_by_text(f"The first 50 of {ROWS + 1} rows")).to_be_visible(timeout=LOAD)
    wizard.get_by_test_id("to-matching").click()
    expect(wizard.get_by_test_id("match-text1")).to_contain_text("Name")
    expect(wizard.get_by_test_id("match-number2")).to_contain_text("Score")
    expect(wizard.get_by_test_id("match-select3")).to_contain_text("Grade")
    wizard.get_by_test_id("start-import").click()
    expect(wizard.get_by_test_id("import-total")).to_have_text(str(ROWS), timeout=120000)
    expect(wizard.get_by_test_id("import-success")).to_have_text(str(ROWS))
    expect(wizard.get_by_test_id("import-failed")).to_have_text("0")
    shot(page, "forms-20-import")

    # the list counts the filled one and the imported ones, and finds an imported row
    page.goto(base + f"/dynamic-form/render/{code}/submissions")
    table = page.get_by_test_id("submission-table")
    expect(table).to_contain_text(f"{ROWS + 1:,} submissions", timeout=LOAD)
    search = page.locator("[data-testid=form-search] input, input[data-testid=form-search]")
    search.fill("Imported 0999")
    search.press("Enter")
    row = table.locator("tbody tr", has_text="Imported 0999")
    expect(row).to_contain_text("90")  # 999 % 101
    expect(table.locator("tbody tr.ant-table-row")).to_have_count(1)
    search.fill("From the menu")
    search.press("Enter")
    expect(table.locator("tbody tr", has_text="From the menu")).to_contain_text("88")
    shot(page, "forms-21-list")
    listed = admin.post(
        "/api/form/submission/list", json={"params": {"formId": code, "filters": {"select3": "C"}}}
    ).json()
    assert listed["data"]["total"] == ROWS // 3, "a third of the rows are grade C"
    assert page.page_errors == []
