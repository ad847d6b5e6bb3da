"""The files plugin in Chromium: the file centre's documents, the custom icons (upload, edit, delete) and
the icon picker dialog (840 px, with its 640 px edit dialog)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from conftest import shot, sign_in
from PIL import Image
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e
#: the first look at a page waits for the plugin's remote to load, which is slow on a busy machine
LOAD = 30000


def png(path: Path, color: str) -> Path:
    buf = io.BytesIO()
    Image.new("RGB", (32, 32), color).save(buf, "PNG")
    path.write_bytes(buf.getvalue())
    return path


def dialog_width(dialog) -> int:
    """The dialog's laid-out width once its opening animation has finished."""
    dialog.page.wait_for_function(
        "el => !el.closest('.ant-zoom-appear, .ant-zoom-enter')", arg=dialog.element_handle()
    )
    return round(float(dialog.evaluate("el => el.getBoundingClientRect().width")))


def open_icons(page, base: str) -> None:
    page.goto(base + "/fileCenter")
    page.get_by_role("tab", name="Custom icons").click()


def test_documents_list_shows_uploads(page, live_server) -> None:
    sign_in(page, live_server.url)
    page.goto(live_server.url + "/fileCenter")
    row = page.locator("tr", has_text="acme-banner.png")
    expect(row).to_be_visible(timeout=LOAD)
    expect(row).to_contain_text("Alice Zhang")
    row.get_by_role("button", name="View picture").click()
    expect(page.locator(".ant-image-preview-img")).to_be_visible()
    shot(page, "files-01-documents")
    assert page.page_errors == []


def test_custom_icon_upload_edit_delete(page, live_server, tmp_path: Path) -> None:
    sign_in(page, live_server.url)
    open_icons(page, live_server.url)
    library = page.get_by_test_id("icon-library").first
    library.get_by_role("tab", name="Custom icons").click()
    expect(library.get_by_text("Acme dot")).to_be_visible(timeout=LOAD)
    library.get_by_test_id("icon-upload").click()
    dialog = page.get_by_role("dialog", name="Upload icon")
    expect(dialog).to_be_visible()
    assert dialog_width(dialog) == 640
    dialog.get_by_test_id("icon-save").click()  # nothing filled: the rules speak
    expect(dialog.get_by_text("Please enter the icon name")).to_be_visible()
    dialog.get_by_test_id("icon-name").fill("E2E green")
    dialog.locator("input[type=file]").set_input_files(str(png(tmp_path / "green.png", "green")))
    dialog.get_by_test_id("icon-save").click()
    expect(dialog).to_be_hidden()
    tile = library.locator("[data-testid^=custom-]", has_text="E2E green")
    expect(tile).to_be_visible()
    shot(page, "files-02-icons")
    tile.get_by_role("button", name="Edit").click()
    edit = page.get_by_role("dialog", name="Edit icon")
    edit.get_by_test_id("icon-name").fill("E2E renamed")
    edit.get_by_test_id("icon-save").click()
    renamed = library.locator("[data-testid^=custom-]", has_text="E2E renamed")
    expect(renamed).to_be_visible()
    renamed.get_by_role("button", name="Delete").click()
    page.locator(".ant-popconfirm").get_by_role("button", name="OK").click()
    expect(renamed).to_have_count(0)
    assert page.page_errors == []


def test_icon_picker_dialog(page, live_server) -> None:
    sign_in(page, live_server.url)
    open_icons(page, live_server.url)
    page.get_by_test_id("open-picker").click(timeout=LOAD)
    modal = page.get_by_role("dialog", name="Choose an icon")
    expect(modal).to_be_visible()
    assert dialog_width(modal) == 840
    modal.get_by_test_id("builtin-star").click()
    modal.get_by_test_id("icon-pick-ok").click()
    expect(page.get_by_test_id("picked-icon")).to_contain_text("Star")
    page.get_by_test_id("open-picker").click()
    modal.get_by_role("tab", name="Custom icons").click()
    modal.locator("[data-testid^=custom-]", has_text="Acme star").locator("img").click()
    shot(page, "files-03-picker")
    modal.get_by_test_id("icon-pick-ok").click()
    expect(page.get_by_test_id("picked-icon")).to_contain_text("Acme star")
    assert page.page_errors == []


def test_a_user_cannot_change_icons_of_others(page, live_server) -> None:
    sign_in(page, live_server.url, "alice", "Alice@123")
    open_icons(page, live_server.url)
    library = page.get_by_test_id("icon-library").first
    library.get_by_role("tab", name="Custom icons").click()
    tile = library.locator("[data-testid^=custom-]", has_text="Acme dot")
    expect(tile).to_be_visible(timeout=LOAD)
    expect(tile.get_by_role("button", name="Edit")).to_have_count(0)
    expect(tile.get_by_role("button", name="Delete")).to_have_count(0)
