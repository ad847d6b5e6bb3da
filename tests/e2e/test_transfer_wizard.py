"""The transfer plugin in Chromium: the four-step import wizard, the one-step import with its result
dialog, an export that downloads, the export records and the Word export dialog."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from conftest import shot, sign_in
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e
#: the first look at a page waits for the plugin's remote to load, which is slow on a busy machine
LOAD = 30000


def workbook(path: Path, rows: list[list[object]]) -> Path:
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet()
    for r, row in enumerate(rows):
        ws.write_row(r, 0, row)
    wb.close()
    return path


def open_import(page, base: str) -> None:
    page.goto(base + "/data-transfer/import")
    expect(page.get_by_test_id("import-wizard")).to_be_visible(timeout=LOAD)
    expect(page.get_by_test_id("import-target")).to_contain_text("Contacts")


def test_import_wizard_four_steps(page, live_server, tmp_path: Path) -> None:
    sign_in(page, live_server.url)
    open_import(page, live_server.url)
    wizard = page.get_by_test_id("import-wizard")
    # step 1: only xls or xlsx
    wizard.locator("input[type=file]").set_input_files(str(write(tmp_path / "notes.zip", b"PK\x03\x04zip")))
    expect(
        page.get_by_text("Please upload an xls or xlsx file (zip and other types are not supported)")
    ).to_be_visible()
    rows: list[list[object]] = [["Team contacts"], ["exported today"], ["联系人", "手机", "E-mail", "Level"]]
    rows += [[f"Wizard {i}", f"1380000{i:04d}", f"w{i}@acme.example", (i % 10) + 1] for i in range(60)]
    rows.append(["", "12", "broken@", 42])
    wizard.locator("input[type=file]").set_input_files(str(workbook(tmp_path / "team.xlsx", rows)))
    # step 2: the first 50 rows; the header is the third
    expect(wizard.get_by_text("The first 50 of 64 rows")).to_be_visible()
    wizard.get_by_test_id("header-row-3").check()
    wizard.get_by_test_id("to-matching").click()
    # step 3: matched automatically; a column cannot be matched twice
    expect(wizard.get_by_test_id("match-name")).to_contain_text("联系人")
    expect(wizard.get_by_test_id("match-email")).to_contain_text("E-mail")
    wizard.get_by_test_id("match-company").locator(".ant-select").click()
    page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)").get_by_title("联系人").click()
    expect(page.get_by_text("This column is already matched to Name")).to_be_visible()
    wizard.get_by_test_id("clear-match").click()
    expect(wizard.get_by_test_id("match-name")).not_to_contain_text("联系人")
    wizard.get_by_test_id("auto-match").click()
    expect(wizard.get_by_test_id("match-name")).to_contain_text("联系人")
    shot(page, "transfer-01-matching")
    wizard.get_by_test_id("start-import").click()
    # step 4: the result, and the failed rows as Excel
    expect(wizard.get_by_test_id("import-total")).to_have_text("61", timeout=60000)
    expect(wizard.get_by_test_id("import-success")).to_have_text("60")
    expect(wizard.get_by_test_id("import-failed")).to_have_text("1")
    with page.expect_download() as info:
        wizard.get_by_test_id("import-failed-file").click()
    failed = openpyxl.load_workbook(io.BytesIO(Path(info.value.path()).read_bytes())).active
    assert [c.value for c in failed[1]][-1] == "Reason"
    assert "Name is required" in str(failed.cell(row=2, column=5).value)
    shot(page, "transfer-02-result")
    page.get_by_role("tab", name="Import records").click()
    expect(page.get_by_test_id("import-history").locator("tr", has_text="60").first).to_be_visible()
    assert page.page_errors == []


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_one_step_import_shows_the_result_dialog(page, live_server, tmp_path: Path) -> None:
    sign_in(page, live_server.url)
    open_import(page, live_server.url)
    rows: list[list[object]] = [
        ["Name", "Email"],
        ["Quick One", "q1@acme.example"],
        ["Quick Two", "not an email"],
    ]
    page.locator(".ant-upload input[type=file]").first.set_input_files(
        str(workbook(tmp_path / "quick.xlsx", rows))
    )
    dialog = page.get_by_role("dialog", name="Import result")
    expect(dialog).to_be_visible(timeout=60000)
    expect(dialog.get_by_test_id("import-success")).to_have_text("1")
    expect(dialog.get_by_text("1 rows failed, please check the data format and try again")).to_be_visible()
    expect(dialog.get_by_test_id("import-failed-file")).to_be_visible()


def test_export_downloads_and_shows_in_the_records(page, live_server) -> None:
    sign_in(page, live_server.url)
    open_import(page, live_server.url)
    with page.expect_download(timeout=60000) as info:
        page.get_by_test_id("export-contacts").click()
    download = info.value
    assert download.suggested_filename == "contacts.xlsx"
    ws = openpyxl.load_workbook(io.BytesIO(Path(download.path()).read_bytes())).active
    header = [c.value for c in ws[1]]
    assert header[:2] == ["Name", "Phone"]
    names = [r[0] for r in ws.iter_rows(min_row=2, values_only=True)]
    assert "王芳" in names and '=HYPERLINK("http://x")' in names  # text, never a formula
    page.goto(live_server.url + "/data-transfer/exports")
    records = page.get_by_test_id("export-records")
    expect(records.locator("tr", has_text="transfer/contacts/exportData").first).to_be_visible()
    expect(
        records.locator("tr", has_text="Contacts export").first.get_by_role("button", name="Download")
    ).to_be_visible()
    shot(page, "transfer-03-records")
    assert page.page_errors == []


def test_word_export_dialog(page, live_server) -> None:
    sign_in(page, live_server.url)
    open_import(page, live_server.url)
    with page.expect_download(timeout=60000) as info:
        page.get_by_test_id("word-contacts").click()
        dialog = page.get_by_role("dialog", name="Word export")
        expect(dialog.get_by_test_id("word-success")).to_be_visible(timeout=60000)
    assert info.value.suggested_filename.endswith(".docx")
    shot(page, "transfer-04-word")
