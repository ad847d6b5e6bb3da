"""The document editor frame in Chromium: an uploaded workbook opened at /fileCenter/editor, a cell edited
and saved as a new version, under the shell's watermark; read-only without isEdit; English and Chinese,
desktop and phone; a Word document's formatting kept across a save, and one with a table opened read-only
with a notice and no save."""

from __future__ import annotations

import io
from typing import Any

import httpx
import pytest
from conftest import api_client, shot, sign_in
from docx import Document
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Pt, RGBColor
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Font
from playwright.sync_api import expect

from atrium.sdk.testing import DEMO_PASSWORDS

pytestmark = pytest.mark.e2e
LOAD = 60_000  # ms: the editor's bundle is large and the machine is shared
BASE = "/api/file/iot-base-attachment"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
LAYER = "[data-atrium-watermark]"
ACCOUNT = "supervisor"


def workbook_bytes() -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.title = "Budget"
    ws["A1"], ws["B1"] = "Item", "Amount"
    ws["A1"].font = ws["B1"].font = Font(bold=True)
    ws["A2"], ws["B2"] = "Rent", 1200
    ws["A3"], ws["B3"] = "Travel", 300
    ws.merge_cells("A5:C5")
    ws["A5"] = "Quarterly budget"
    ws.column_dimensions["A"].width = 18
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def document_bytes() -> bytes:
    doc = Document()
    doc.add_paragraph("Meeting notes").runs[0].bold = True
    doc.add_paragraph("The budget was approved.").alignment = WD_ALIGN_PARAGRAPH.CENTER
    doc.add_heading("Next steps", level=1)
    run = doc.add_paragraph().add_run("Hire two engineers")
    run.font.color.rgb, run.font.size, run.font.name = RGBColor(0xFF, 0, 0), Pt(16), "Arial"
    doc.add_paragraph("Rent", style="List Bullet")
    doc.add_paragraph("Travel", style="List Number")
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def table_document_bytes() -> bytes:
    doc = Document()
    doc.add_paragraph("Budget by quarter")
    table = doc.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Q1", "1200"
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def upload(http: httpx.Client, name: str = "budget.xlsx", content: bytes | None = None) -> int:
    default, ctype = (document_bytes(), DOCX) if name.endswith(".docx") else (workbook_bytes(), XLSX)
    content = content if content is not None else default
    body = http.post(f"{BASE}/single/file-upload", files={"file": (name, content, ctype)}).json()
    assert body["code"] == 800, body
    file_id: int = body["data"]["fileId"]
    return file_id


def open_editor(page: Any, base: str, file_id: int, edit: bool) -> None:
    page.goto(f"{base}/fileCenter/editor?id={file_id}&isEdit={1 if edit else 0}")
    page.wait_for_function("() => window.__atriumEditor && window.__atriumEditor.api", timeout=LOAD)
    # the sheet's own canvas (the formula bar has a small one of its own)
    page.wait_for_function(
        """() => Array.from(document.querySelectorAll('[data-testid=editor-canvas] canvas'))
            .some(c => c.clientHeight > 200)""",
        timeout=LOAD,
    )


def cell(page: Any, a1: str) -> Any:
    return page.evaluate(
        "a1 => window.__atriumEditor.api.getActiveWorkbook().getActiveSheet().getRange(a1).getValue()", a1
    )


def click_cell(page: Any, a1: str) -> None:
    """Clicks a cell where the sheet draws it (Univer gives its place within the sheet's canvas)."""
    at = page.evaluate(
        """a1 => {
            const sheet = window.__atriumEditor.api.getActiveWorkbook().getActiveSheet();
            const cell = sheet.getRange(a1).getCellRect();
            const canvases = Array.from(document.querySelectorAll('[data-testid=editor-canvas] canvas'));
            canvases.sort((a, b) => b.clientWidth * b.clientHeight - a.clientWidth * a.clientHeight);
            const box = canvases[0].getBoundingClientRect();
            return {x: box.x + cell.x + cell.width / 2, y: box.y + cell.y + cell.height / 2};
        }""",
        a1,
    )
    page.mouse.click(at["x"], at["y"])


def shows_address(page: Any, a1: str) -> None:
    """Waits for the name box above the sheet to show the selected cell's address."""
    page.wait_for_function(
        """a1 => Array.from(document.querySelectorAll('[data-testid=editor-canvas] input'))
            .some(input => input.value === a1)""",
        arg=a1,
        timeout=10_000,
    )


#: the zoom of the document the editor shows
ZOOM = "() => window.__atriumEditor.api.getActiveDocument().getSnapshot().settings?.zoomRatio ?? 1"


def snap(page: Any, name: str) -> None:
    page.wait_for_timeout(500)  # the editor's canvas settles after its last layout
    shot(page, f"editor-{name}")


def highest_z_index_below_the_watermark(page: Any) -> int:
    """The largest z-index of any element but the watermark layer (which must stay above them all)."""
    z: int = page.evaluate(
        """sel => Math.max(0, ...Array.from(document.querySelectorAll('body *'))
            .filter(el => !el.matches(sel))
            .map(el => parseInt(getComputedStyle(el).zIndex, 10))
            .filter(n => !Number.isNaN(n)))""",
        LAYER,
    )
    return z


def test_a_workbook_is_edited_and_saved_as_a_new_version(page, live_server) -> None:
    http = api_client(live_server.url, ACCOUNT)
    file_id = upload(http)
    sign_in(page, live_server.url, ACCOUNT, DEMO_PASSWORDS[ACCOUNT])
    open_editor(page, live_server.url, file_id, edit=True)
    expect(page.get_by_test_id("editor-file-name")).to_have_text("budget.xlsx")
    expect(page.get_by_test_id("editor-read-only")).to_have_count(0)
    assert cell(page, "A1") == "Item" and cell(page, "B2") == 1200
    # a click on a cell selects it (its address in the name box) and typing replaces its value
    click_cell(page, "B3")
    shows_address(page, "B3")
    page.keyboard.type("4321")
    page.keyboard.press("Enter")
    shows_address(page, "B4")
    assert cell(page, "B3") == 4321
    snap(page, "en-desktop-edit")
    # the watermark stays above the editor
    page.wait_for_selector(LAYER, state="attached")
    assert page.evaluate("sel => getComputedStyle(document.querySelector(sel)).zIndex", LAYER) == "100000"
    assert highest_z_index_below_the_watermark(page) < 100000

    page.get_by_test_id("editor-save").click()
    expect(page.locator(".ant-message").get_by_text("Saved as a new version of budget.xlsx")).to_be_visible(
        timeout=LOAD
    )
    saved = page.evaluate("() => window.__atriumEditor.savedId")
    assert isinstance(saved, int) and saved != file_id
    rows = http.get(f"{BASE}/find-list", params={"keyword": "budget.xlsx", "pageSize": 50}).json()["data"][
        "list"
    ]
    row = next(r for r in rows if r["fileId"] == saved)
    assert row["previousId"] == file_id and row["sourceFileName"] == "budget.xlsx"
    content = http.get(row["filePath"]).content
    ws = load_workbook(io.BytesIO(content))["Budget"]
    assert ws["B3"].value == 4321 and ws["A1"].value == "Item" and ws["A1"].font.b
    assert "A5:C5" in {str(r) for r in ws.merged_cells.ranges}
    # the original is unchanged
    original = next(r for r in rows if r["fileId"] == file_id)
    ws0 = load_workbook(io.BytesIO(http.get(original["filePath"]).content))["Budget"]
    assert ws0["B3"].value == 300
    assert page.page_errors == []


def test_read_only_frame_and_other_languages_and_sizes(page, live_server) -> None:
    http = api_client(live_server.url, ACCOUNT)
    file_id = upload(http, "readonly.xlsx")
    sign_in(page, live_server.url, ACCOUNT, DEMO_PASSWORDS[ACCOUNT])
    open_editor(page, live_server.url, file_id, edit=False)
    expect(page.get_by_test_id("editor-read-only")).to_have_text("Read only")
    expect(page.get_by_test_id("editor-save")).to_have_count(0)
    assert cell(page, "A1") == "Item"
    click_cell(page, "A2")
    shows_address(page, "A2")
    page.keyboard.type("changed")
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert cell(page, "A2") == "Rent"
    snap(page, "en-desktop-readonly")
    # a server address of another site is ignored: the file still opens from this site
    page.goto(f"{live_server.url}/fileCenter/editor?id={file_id}&isEdit=0&server=https://evil.example.com")
    expect(page.get_by_text("https://evil.example.com is not this site")).to_be_visible(timeout=LOAD)
    page.wait_for_function("() => window.__atriumEditor && window.__atriumEditor.api", timeout=LOAD)
    page.set_viewport_size({"width": 390, "height": 844})
    open_editor(page, live_server.url, file_id, edit=True)
    snap(page, "en-phone-edit")

    page.context.add_cookies([{"name": "language", "value": "zh-cn", "url": live_server.url}])
    page.set_viewport_size({"width": 1440, "height": 900})
    page.evaluate("() => localStorage.clear()")
    open_editor(page, live_server.url, file_id, edit=True)
    expect(page.get_by_test_id("editor-save")).to_have_text("保存为新版本", timeout=LOAD)
    snap(page, "zh-desktop-edit")
    open_editor(page, live_server.url, file_id, edit=False)
    expect(page.get_by_test_id("editor-read-only")).to_have_text("只读")
    page.set_viewport_size({"width": 390, "height": 844})
    snap(page, "zh-phone-readonly")
    assert page.page_errors == []


def test_the_file_centre_opens_workbooks_in_the_editor(page, live_server) -> None:
    http = api_client(live_server.url, ACCOUNT)
    file_id = upload(http, "from-list.xlsx")
    sign_in(page, live_server.url, ACCOUNT, DEMO_PASSWORDS[ACCOUNT])
    page.goto(live_server.url + "/fileCenter")
    expect(page.get_by_test_id(f"edit-{file_id}")).to_be_visible(timeout=LOAD)
    # the file centre itself downloads none of the editor
    remote = page.evaluate(
        """() => performance.getEntriesByType('resource')
            .filter(e => e.name.includes('/plugins/files/'))
            .reduce((sum, e) => sum + e.decodedBodySize, 0)"""
    )
    assert 0 < remote < 100_000
    page.get_by_test_id(f"edit-{file_id}").click()
    page.wait_for_url(f"**/fileCenter/editor?id={file_id}&isEdit=1")
    page.wait_for_function("() => window.__atriumEditor && window.__atriumEditor.api", timeout=LOAD)
    expect(page.get_by_test_id("editor-file-name")).to_have_text("from-list.xlsx")
    assert page.page_errors == []


def test_a_word_document_is_edited_and_saved_as_a_new_version(page, live_server) -> None:
    http = api_client(live_server.url, ACCOUNT)
    file_id = upload(http, "notes.docx")
    sign_in(page, live_server.url, ACCOUNT, DEMO_PASSWORDS[ACCOUNT])
    open_editor(page, live_server.url, file_id, edit=True)
    expect(page.get_by_test_id("editor-file-name")).to_have_text("notes.docx")
    text = "() => window.__atriumEditor.api.getActiveDocument().getSnapshot().body.dataStream"
    assert page.evaluate(text).startswith("Meeting notes\rThe budget was approved.\r")
    snap(page, "en-desktop-docx")
    assert page.evaluate("() => window.__atriumEditor.api.getActiveDocument().appendText(' Next: hiring.')")
    page.get_by_test_id("editor-save").click()
    expect(page.locator(".ant-message").get_by_text("Saved as a new version of notes.docx")).to_be_visible(
        timeout=LOAD
    )
    saved = page.evaluate("() => window.__atriumEditor.savedId")
    rows = http.get(f"{BASE}/find-list", params={"keyword": "notes.docx"}).json()["data"]["list"]
    row = next(r for r in rows if r["fileId"] == saved)
    assert row["previousId"] == file_id
    doc = Document(io.BytesIO(http.get(row["filePath"]).content))
    paragraphs = [p.text for p in doc.paragraphs]
    assert paragraphs[0] == "Meeting notes" and doc.paragraphs[0].runs[0].bold
    assert "Next: hiring." in " ".join(paragraphs)
    # the formatting went through the browser's editor and back
    assert doc.paragraphs[1].alignment == WD_ALIGN_PARAGRAPH.CENTER
    assert doc.paragraphs[2].style.name == "Heading 1" and paragraphs[2] == "Next steps"
    red = doc.paragraphs[3].runs[0]
    assert red.text == "Hire two engineers" and red.font.color.rgb == RGBColor(0xFF, 0, 0)
    assert red.font.size == Pt(16) and red.font.name == "Arial"
    assert [p.style.name for p in doc.paragraphs[4:6]] == ["List Bullet", "List Number"]
    assert paragraphs[4] == "Rent" and paragraphs[5].startswith("Travel")
    assert page.page_errors == []


def test_a_word_document_the_editor_cannot_keep_opens_read_only_with_a_notice(page, live_server) -> None:
    http = api_client(live_server.url, ACCOUNT)
    file_id = upload(http, "with-table.docx", table_document_bytes())
    sign_in(page, live_server.url, ACCOUNT, DEMO_PASSWORDS[ACCOUNT])
    open_editor(page, live_server.url, file_id, edit=True)
    notice = page.get_by_test_id("editor-cannot-keep")
    expect(notice).to_contain_text(
        "This document contains tables, which the editor cannot keep, so it opens read-only. "
        "Download it to edit it in Word."
    )
    expect(page.get_by_test_id("editor-save")).to_have_count(0)
    expect(page.get_by_test_id("editor-read-only")).to_have_text("Read only")
    text = "() => window.__atriumEditor.api.getActiveDocument().getSnapshot().body.dataStream"
    assert page.evaluate(text).startswith("Budget by quarter\r")
    page.evaluate(
        """async () => {
            try { return await window.__atriumEditor.api.getActiveDocument().appendText(' changed'); }
            catch { return false; }
        }"""
    )
    assert "changed" not in page.evaluate(text)
    with page.expect_request("**/getDownUrlByName**"):
        page.get_by_test_id("editor-download").click()
    snap(page, "en-desktop-docx-read-only")
    page.context.add_cookies([{"name": "language", "value": "zh-cn", "url": live_server.url}])
    page.evaluate("() => localStorage.clear()")
    open_editor(page, live_server.url, file_id, edit=True)
    expect(page.get_by_test_id("editor-cannot-keep")).to_contain_text(
        "该文档包含编辑器无法保留的表格，因此以只读方式打开。如需编辑，请下载后用 Word 编辑。", timeout=LOAD
    )
    expect(page.get_by_test_id("editor-save")).to_have_count(0)
    assert page.evaluate(ZOOM) == 1
    page.set_viewport_size({"width": 390, "height": 844})
    # on a phone the page is zoomed out to the screen's width instead of running past its edge
    page.wait_for_function(f"() => ({ZOOM})() < 0.6", timeout=LOAD)
    snap(page, "zh-phone-docx-read-only")
    assert page.page_errors == []
