"""Word documents in the document editor: the formatting it carries survives a save and a reopen, what it
cannot keep opens read-only and is never saved over, and the rest of the file is kept."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from docx import Document
from docx.enum.section import WD_SECTION
from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_BREAK, WD_COLOR_INDEX
from docx.shared import Pt, RGBColor
from PIL import Image

from atrium.plugins.files.editing.docx_check import BLOCKERS
from atrium.plugins.files.editing.matching import pairs
from atrium.sdk.testing import AtriumClient

from .util import BASE, uploaded

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
OPEN = f"{BASE}/editor/open"
SAVE = f"{BASE}/editor/save"
H1, H2, CENTER, RIGHT = 4, 5, 2, 3
LOCALES = ("zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu")


def docx_bytes(doc: Any) -> bytes:
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def formatted() -> Any:
    doc = Document()
    doc.add_heading("Quarterly report", level=1)
    p = doc.add_paragraph("Costs are ")
    red = p.add_run("over budget")
    red.font.color.rgb = RGBColor(0xFF, 0x00, 0x00)
    red.font.size = Pt(16)
    red.font.name = "Arial"
    marked = p.add_run(" this quarter")
    marked.font.highlight_color = WD_COLOR_INDEX.YELLOW
    doc.add_paragraph("Signed by the board").alignment = WD_ALIGN_PARAGRAPH.CENTER
    doc.add_paragraph("Rent", style="List Bullet")
    doc.add_paragraph("Travel", style="List Bullet")
    doc.add_paragraph("First step", style="List Number")
    quote = doc.add_paragraph("", style="Quote")  # a style the editor does not show
    spaced = quote.add_run("Small capitals stay")
    spaced.font.small_caps = True
    doc.add_paragraph("Before the break").runs[0].add_break(WD_BREAK.PAGE)
    doc.add_paragraph("Indented\tafter a tab").paragraph_format.left_indent = Pt(36)
    doc.sections[0].left_margin = Pt(50)
    doc.core_properties.author = "Finance"
    return doc


def open_doc(c: AtriumClient, file_id: int) -> dict[str, Any]:
    data: dict[str, Any] = c.ok("GET", OPEN, params={"id": file_id})
    return data


def save(c: AtriumClient, file_id: int, document: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = c.post(SAVE, json={"params": {"id": file_id, "document": document}})
    return body


def stored(c: AtriumClient, file_path: str) -> bytes:
    return bytes(c.http.get(file_path, headers=c.headers).content)


def saved_doc(c: AtriumClient, body: dict[str, Any]) -> Any:
    assert body["code"] == 800, body
    return Document(io.BytesIO(stored(c, body["data"]["filePath"])))


def paragraph(data: dict[str, Any], text: str) -> dict[str, Any]:
    body = data["body"]
    end = body["dataStream"].index(text) + len(text)
    found: dict[str, Any] = next(p for p in body["paragraphs"] if p["startIndex"] == end)
    return found


def run_style(data: dict[str, Any], text: str) -> dict[str, Any]:
    at = data["body"]["dataStream"].index(text)
    return next((r["ts"] for r in data["body"]["textRuns"] if r["st"] <= at < r["ed"]), {})


def test_formatting_opens_as_the_editor_shows_it(user_client: AtriumClient) -> None:
    file_id = uploaded(user_client, "report.docx", docx_bytes(formatted()), DOCX)["fileId"]
    opened = open_doc(user_client, file_id)
    assert opened["readOnly"] is False and opened["readOnlyReasons"] == []
    data = opened["data"]
    assert paragraph(data, "Quarterly report")["paragraphStyle"]["namedStyleType"] == H1
    assert paragraph(data, "Quarterly report")["paragraphStyle"]["headingId"]
    assert run_style(data, "over budget") == {"fs": 16, "ff": "Arial", "cl": {"rgb": "#ff0000"}}
    assert run_style(data, " this quarter") == {"bg": {"rgb": "#ffff00"}}
    assert paragraph(data, "Signed by the board")["paragraphStyle"]["horizontalAlign"] == CENTER
    rent, travel = paragraph(data, "Rent")["bullet"], paragraph(data, "Travel")["bullet"]
    assert rent["listType"] == "BULLET_LIST" and rent == travel
    assert paragraph(data, "First step")["bullet"]["listType"] == "ORDER_LIST"
    assert paragraph(data, "Indented\tafter a tab")["paragraphStyle"]["indentStart"] == {"v": 36}
    assert "Before the break\f\r" in data["body"]["dataStream"]
    assert data["documentStyle"]["marginLeft"] == 50


def test_a_document_saved_unchanged_keeps_its_formatting_and_everything_else(
    user_client: AtriumClient,
) -> None:
    original = docx_bytes(formatted())
    file_id = uploaded(user_client, "report.docx", original, DOCX)["fileId"]
    opened = open_doc(user_client, file_id)
    doc = saved_doc(user_client, save(user_client, file_id, opened["data"]))
    before = Document(io.BytesIO(original))
    assert [(p.style.name, p.text) for p in doc.paragraphs] == [
        (p.style.name, p.text) for p in before.paragraphs
    ]
    heading, costs, signed = doc.paragraphs[0], doc.paragraphs[1], doc.paragraphs[2]
    assert heading.style.name == "Heading 1"
    red = next(r for r in costs.runs if r.text == "over budget")
    assert (
        red.font.color.rgb == RGBColor(0xFF, 0x00, 0x00)
        and red.font.size == Pt(16)
        and red.font.name == "Arial"
    )
    assert (
        next(r for r in costs.runs if r.text == " this quarter").font.highlight_color == WD_COLOR_INDEX.YELLOW
    )
    assert signed.alignment == WD_ALIGN_PARAGRAPH.CENTER
    assert [p.style.name for p in doc.paragraphs[3:6]] == ["List Bullet", "List Bullet", "List Number"]
    quote = doc.paragraphs[6]
    assert quote.style.name == "Quote" and quote.runs[0].font.small_caps
    assert doc.paragraphs[7].runs[0]._r.xpath("./w:br/@w:type") == ["page"]
    assert doc.paragraphs[8].paragraph_format.left_indent == Pt(36)
    assert doc.sections[0].left_margin == Pt(50) and doc.core_properties.author == "Finance"
    # and it opens in the editor exactly as the original did
    again = uploaded(user_client, "again.docx", docx_bytes(doc), DOCX)["fileId"]
    assert open_doc(user_client, again)["data"] == opened["data"]


def test_formatting_applied_in_the_editor_is_written_to_the_file(user_client: AtriumClient) -> None:
    doc = Document()
    doc.add_paragraph("Agenda")
    doc.add_paragraph("Budget review")
    file_id = uploaded(user_client, "agenda.docx", docx_bytes(doc), DOCX)["fileId"]
    data = open_doc(user_client, file_id)["data"]
    stream = "Agenda\rBudget review\rHiring plan\rNew office\r\n"
    data["body"] = {
        "dataStream": stream,
        "textRuns": [
            {"st": 7, "ed": 13, "ts": {"bl": 1, "it": 1, "ul": {"s": 1}, "fs": 14, "ff": "Georgia"}},
            {"st": 14, "ed": 20, "ts": {"cl": {"rgb": "rgb(0, 112, 192)"}, "bg": {"rgb": "#ffff00"}}},
            {"st": 21, "ed": 25, "ts": {"st": {"s": 1}, "va": 3}},
        ],
        "paragraphs": [
            {"startIndex": 6, "paragraphStyle": {"namedStyleType": H2, "headingId": "a"}},
            {"startIndex": 20, "paragraphStyle": {"horizontalAlign": RIGHT, "spaceAbove": {"v": 12}}},
            {"startIndex": 32, "bullet": {"listType": "BULLET_LIST", "listId": "xyz", "nestingLevel": 0}},
            {"startIndex": 43, "bullet": {"listType": "ORDER_LIST", "listId": "abc", "nestingLevel": 1}},
        ],
    }
    out = saved_doc(user_client, save(user_client, file_id, data))
    agenda, budget, hiring, office = out.paragraphs
    assert agenda.style.name == "Heading 2" and agenda.text == "Agenda"
    word = budget.runs[0]
    assert word.text == "Budget" and word.bold and word.italic and word.underline
    assert word.font.size == Pt(14) and word.font.name == "Georgia"
    review = budget.runs[-1]
    assert (
        review.font.color.rgb == RGBColor(0x00, 0x70, 0xC0)
        and review.font.highlight_color == WD_COLOR_INDEX.YELLOW
    )
    assert budget.alignment == WD_ALIGN_PARAGRAPH.RIGHT and budget.paragraph_format.space_before == Pt(12)
    assert hiring.runs[0].font.strike and hiring.runs[0].font.superscript
    # the lists were added to the file's numbering, and open again as the lists they were
    again = uploaded(user_client, "agenda2.docx", docx_bytes(out), DOCX)["fileId"]
    reopened = open_doc(user_client, again)["data"]
    assert paragraph(reopened, "Hiring plan")["bullet"]["listType"] == "BULLET_LIST"
    assert paragraph(reopened, "New office")["bullet"] | {"listId": ""} == {
        "listType": "ORDER_LIST",
        "listId": "",
        "nestingLevel": 1,
    }
    assert paragraph(reopened, "Agenda")["paragraphStyle"]["namedStyleType"] == H2


def test_text_typed_into_a_run_takes_its_hidden_formatting(user_client: AtriumClient) -> None:
    doc = Document()
    p = doc.add_paragraph("", style="Quote")
    p.add_run("Wide text").font.small_caps = True
    doc.add_paragraph("Second")
    file_id = uploaded(user_client, "wide.docx", docx_bytes(doc), DOCX)["fileId"]
    data = open_doc(user_client, file_id)["data"]
    data["body"]["dataStream"] = "New first\rWide and tall text\rSecond\r\n"
    data["body"]["paragraphs"] = [{"startIndex": 9}, {"startIndex": 28}, {"startIndex": 35}]
    out = saved_doc(user_client, save(user_client, file_id, data))
    first, wide, second = out.paragraphs
    assert first.style.name == "Normal" and wide.style.name == "Quote" and second.style.name == "Normal"
    assert wide.text == "Wide and tall text" and all(r.font.small_caps for r in wide.runs)


def table_docx() -> bytes:
    doc = Document()
    doc.add_paragraph("Figures below")
    table = doc.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "Rent"
    table.cell(0, 1).text = "1200"
    return docx_bytes(doc)


def picture_docx() -> bytes:
    png = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(png, "PNG")
    doc = Document()
    doc.add_paragraph("Our logo")
    doc.add_picture(io.BytesIO(png.getvalue()))
    return docx_bytes(doc)


@pytest.mark.parametrize(
    ("content", "reason", "english", "chinese"),
    [
        (table_docx, "tables", "tables", "表格"),
        (picture_docx, "pictures", "pictures or shapes", "图片或形状"),
    ],
)
def test_a_document_the_editor_cannot_keep_opens_read_only_and_is_never_saved(
    user_client: AtriumClient, client: AtriumClient, content: Any, reason: str, english: str, chinese: str
) -> None:
    original = content()
    upload = uploaded(user_client, f"kept-{reason}.docx", original, DOCX)
    file_id = upload["fileId"]
    opened = open_doc(user_client, file_id)
    assert opened["readOnly"] is True and opened["readOnlyReasons"] == [reason]
    assert opened["filePath"] == upload["filePath"]
    assert opened["data"]["body"]["dataStream"].startswith(("Figures below\r", "Our logo\r"))
    body = save(user_client, file_id, opened["data"])
    assert body["code"] == 400
    assert body["msg"] == (
        f"This document contains {english}, which the editor cannot keep, so it cannot be saved from the "
        "editor. Download it to edit it in Word."
    )
    zh = client.signed_in("alice")
    zh.headers["language"] = "zh#cn"
    assert save(zh, file_id, opened["data"])["msg"] == (
        f"该文档包含编辑器无法保留的{chinese}，因此不能在编辑器中保存。请下载后用 Word 编辑。"
    )
    # the stored file is untouched, and no version was added
    assert stored(user_client, upload["filePath"]) == original
    rows = user_client.ok("GET", f"{BASE}/find-list", params={"keyword": f"kept-{reason}"})["list"]
    assert [r["fileId"] for r in rows] == [file_id]


def test_each_kind_of_content_the_editor_cannot_keep_is_named(user_client: AtriumClient) -> None:
    def reasons(doc: Any) -> list[str]:
        file_id = uploaded(user_client, "kinds.docx", docx_bytes(doc), DOCX)["fileId"]
        found: list[str] = open_doc(user_client, file_id)["readOnlyReasons"]
        return found

    doc = Document()
    doc.sections[0].header.paragraphs[0].text = "Confidential"
    doc.add_paragraph("Line one").runs[0].add_break()
    doc.add_section(WD_SECTION.NEW_PAGE)
    assert reasons(doc) == ["headersFooters", "sections", "lineBreaks"]
    doc = Document()
    doc.add_paragraph("Noted")
    doc.add_comment(doc.paragraphs[0].runs, text="check this")
    assert reasons(doc) == ["comments"]
    empty_header = Document()
    empty_header.sections[0].header.paragraphs[0].text = ""
    empty_header.add_paragraph("Plain")
    assert reasons(empty_header) == []


def test_content_a_save_cannot_write_is_refused(user_client: AtriumClient) -> None:
    file_id = uploaded(user_client, "plain.docx", docx_bytes(Document()), DOCX)["fileId"]
    data = open_doc(user_client, file_id)["data"]
    data["tableSource"] = {"t1": {"tableId": "t1"}}
    data["body"]["tables"] = [{"startIndex": 0, "endIndex": 3, "tableId": "t1"}]
    body = save(user_client, file_id, data)
    assert body["code"] == 400
    assert body["msg"] == "The editor cannot save tables into a Word document. Remove them and save again."


def test_paragraphs_are_matched_by_text_and_place() -> None:
    old = ["Title", "Intro text here", "Body", "End"]
    assert pairs(old, ["Title", "Added", "Intro text here!", "Body", "End"], by_likeness=True) == [
        0,
        None,
        1,
        2,
        3,
    ]
    assert pairs(old, ["Title", "Changed entirely", "Body", "End"], by_likeness=True) == [0, 1, 2, 3]
    assert pairs(old, ["Title", "End"]) == [0, 3]
    assert pairs(list("Wide text"), list("Wide and tall text")) == [0, 1, 2, 3, 4, *[None] * 9, 5, 6, 7, 8]


def test_every_reason_is_named_in_every_language() -> None:
    root = Path(__file__).resolve().parents[2] / "i18n"
    bundles = {loc: json.loads((root / loc / "files.json").read_text("utf-8")) for loc in LOCALES}
    for loc, bundle in bundles.items():
        assert set(bundle["editor"]["parts"]) == set(BLOCKERS), loc
        for key in ("cannot_keep", "cannot_save"):
            assert "{{parts}}" in bundle["editor"][key], (loc, key)
        assert "{{parts}}" in bundle["web"]["editor"]["cannotKeep"], loc
        assert bundle["web"]["editor"]["download"], loc
    notices = {bundle["web"]["editor"]["cannotKeep"] for bundle in bundles.values()}
    assert len(notices) == len(LOCALES)  # none is another's text copied


def test_what_xml_cannot_hold_is_left_out_not_a_server_error(user_client: AtriumClient) -> None:
    file_id = uploaded(user_client, "odd.docx", docx_bytes(Document()), DOCX)["fileId"]
    document = {
        "body": {
            "dataStream": "Odd\x00 text\ufffe\x1f\r\n",
            "textRuns": [{"st": 0, "ed": 3, "ts": {"ff": "Ari\x01al", "fs": 12}}, {"st": 9, "ed": 2}],
            "paragraphs": [
                {"startIndex": 99},
                {"startIndex": 10, "bullet": {"listType": "?", "listId": "\x00"}},
            ],
        }
    }
    out = saved_doc(user_client, save(user_client, file_id, document))
    assert out.paragraphs[0].text == "Odd text" and out.paragraphs[0].runs[0].font.name == "Arial"
