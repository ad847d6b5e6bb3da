"""preview-file: images, PDFs and office documents answered with the function's watermark stamped into
them, read only from the caller's tenant, within the limits, cached for the next call."""

from __future__ import annotations

import http.server
import io
import re
import shutil
import threading
import time
import zipfile
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfgen import canvas

from atrium.plugins.watermark import limits

PREVIEW = "/api/watermark/iotBaseFuncWaterController/preview-file"
UPLOAD = "/api/file/iot-base-attachment/single/file-upload"
RED = "#ff0000"


def picture(fmt: str = "PNG", size: tuple[int, int] = (600, 400)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "white").save(out, fmt)
    return out.getvalue()


def pdf(pages: int, text: str = "Quarterly figures") -> bytes:
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=(595, 842))
    for n in range(pages):
        c.drawString(72, 760, f"{text} page {n + 1}")
        c.showPage()
    c.save()
    return out.getvalue()


def upload(c: Any, name: str, data: bytes, ctype: str) -> dict[str, Any]:
    env = c.post(UPLOAD, files={"file": (name, data, ctype)})
    assert env["code"] == 800, env
    uploaded: dict[str, Any] = env["data"]
    return uploaded


def watermark(c: Any, text: str, function_code: str = "contracts", **look: Any) -> None:
    body = {
        "ffwFunctionCode": function_code,
        "fwContent": text,
        "fwType": "static",
        "fwColor": RED,
        "fwTransparent": 0,
        **look,
    }
    c.ok("POST", "/api/watermark/admin/save", json=body)


def preview(c: Any, **body: Any) -> Any:
    """The raw answer (a file, or the envelope of an error)."""
    resp = c.http.post(PREVIEW, json=body, headers=c.headers)
    assert resp.status_code == 200, resp.text[:300]
    return resp


def refused(c: Any, **body: Any) -> dict[str, Any]:
    resp = preview(c, **body)
    assert resp.headers["content-type"].startswith("application/json"), resp.headers
    env: dict[str, Any] = resp.json()
    assert env["code"] != 800, env
    return env


def red_pixels(data: bytes) -> int:
    im = Image.open(io.BytesIO(data)).convert("RGB")
    return sum(1 for r, g, b in im.get_flattened_data() if r > 200 and g < 80 and b < 80)


def pdf_texts(data: bytes) -> list[str]:
    return [page.extract_text().replace("\n", " ") for page in PdfReader(io.BytesIO(data)).pages]


@pytest.fixture
def small_limits(monkeypatch: pytest.MonkeyPatch) -> Any:
    def set_(**changes: Any) -> None:
        monkeypatch.setattr(limits, "LIMITS", replace(limits.LIMITS, **changes))

    return set_


def test_an_image_is_stamped_in_its_pixels_and_the_second_preview_is_read_from_the_store(tenant_admin):
    watermark(tenant_admin, "CONFIDENTIAL")
    source = picture()
    file = upload(tenant_admin, "plan.png", source, "image/png")
    first = preview(tenant_admin, fileId=file["fileId"], funcCode="contracts")
    assert first.headers["content-type"] == "image/png"
    assert first.headers["x-watermark-stamped"] == "1" and first.headers["x-watermark-cache"] == "miss"
    assert (
        first.headers["content-disposition"].startswith("inline;")
        and "plan.png" in first.headers["content-disposition"]
    )
    assert first.content != source
    assert Image.open(io.BytesIO(first.content)).size == (600, 400)
    assert red_pixels(source) == 0 and red_pixels(first.content) > 200
    again = preview(tenant_admin, fileId=file["fileId"], funcCode="contracts")
    assert again.headers["x-watermark-cache"] == "hit" and again.content == first.content


def test_a_jpeg_stays_a_jpeg_and_the_address_of_the_file_names_it_too(tenant_admin):
    watermark(tenant_admin, "CONFIDENTIAL")
    file = upload(tenant_admin, "photo.jpg", picture("JPEG"), "image/jpeg")
    for ref in ({"url": file["filePath"]}, {"url": f"http://testserver{file['filePath']}?t=1&exp=2&sig=x"}):
        resp = preview(tenant_admin, funcCode="contracts", **ref)
        assert resp.headers["content-type"] == "image/jpeg", ref
        assert red_pixels(resp.content) > 100


def test_a_new_look_is_stamped_anew(tenant_admin):
    watermark(tenant_admin, "CONFIDENTIAL")
    file = upload(tenant_admin, "plan.png", picture(), "image/png")
    red = preview(tenant_admin, fileId=file["fileId"], funcCode="contracts").content
    watermark(tenant_admin, "CONFIDENTIAL", fwColor="#0000ff")
    blue = preview(tenant_admin, fileId=file["fileId"], funcCode="contracts")
    assert blue.headers["x-watermark-cache"] == "miss"
    assert red_pixels(red) > 200 and red_pixels(blue.content) == 0


def test_every_page_of_a_pdf_carries_the_users_watermark(tenant_admin):
    dynamic = {"ffwFunctionCode": "contracts", "fwContent": "Internal {account}", "fwType": "dynamic"}
    tenant_admin.ok("POST", "/api/watermark/admin/save", json=dynamic)
    file = upload(tenant_admin, "figures.pdf", pdf(3), "application/pdf")
    resp = preview(tenant_admin, fileId=file["fileId"], funcCode="contracts")
    assert resp.headers["content-type"] == "application/pdf"
    texts = pdf_texts(resp.content)
    assert len(texts) == 3
    for n, text in enumerate(texts, 1):
        assert f"Quarterly figures page {n}" in text
        assert f"Internal {tenant_admin.account}" in text


DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def needs_libreoffice() -> None:
    assert shutil.which("soffice") or shutil.which("libreoffice"), (
        "LibreOffice is not installed: `nox -s tests` installs Debian's libreoffice-*-nogui packages "
        "(see noxfile.py, LIBREOFFICE)"
    )


def word(*pages: str, picture_bytes: bytes | None = None) -> bytes:
    from docx import Document

    doc = Document()
    for n, text in enumerate(pages):
        if n:
            doc.add_page_break()
        doc.add_paragraph(text)
    if picture_bytes is not None:
        doc.add_picture(io.BytesIO(picture_bytes))
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def linking_to(data: bytes, address: str) -> bytes:
    """The document with its picture turned into a link to `address` (fetched when the document opens)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            part = src.read(item.filename)
            if item.filename == "word/_rels/document.xml.rels":
                link = f'Target="{address}" TargetMode="External"'.encode()
                part = re.sub(rb'Target="media/[^"]+"', link, part)
            elif item.filename == "word/document.xml":
                part = part.replace(b"r:embed=", b"r:link=")
            dst.writestr(item, part)
    return out.getvalue()


@pytest.fixture
def listener() -> Iterator[tuple[str, list[str]]]:
    """A local web server: its address and the paths asked of it."""
    asked: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            asked.append(self.path)
            self.send_response(200)
            self.send_header("content-type", "image/png")
            self.end_headers()
            self.wfile.write(picture(size=(8, 8)))

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", asked
    server.shutdown()


def test_an_office_document_is_converted_and_stamped(tenant_admin):
    needs_libreoffice()
    watermark(tenant_admin, "DRAFT ONLY")
    file = upload(tenant_admin, "agreement.docx", word("Supply agreement", "Signatures"), DOCX)
    resp = preview(tenant_admin, fileId=file["fileId"], funcCode="contracts")
    assert resp.headers["content-type"] == "application/pdf", resp.text[:300]
    assert "agreement.pdf" in resp.headers["content-disposition"]
    texts = pdf_texts(resp.content)
    assert len(texts) == 2
    assert "Supply agreement" in texts[0] and "Signatures" in texts[1]
    assert all("DRAFT ONLY" in t for t in texts)


def test_a_document_cannot_make_the_server_fetch_its_links(tenant_admin, listener):
    needs_libreoffice()
    address, asked = listener
    data = linking_to(word("Linked picture", picture_bytes=picture(size=(8, 8))), f"{address}/leak.png")
    file = upload(tenant_admin, "linked.docx", data, DOCX)
    resp = preview(tenant_admin, fileId=file["fileId"])
    assert resp.headers["content-type"] == "application/pdf", resp.text[:300]
    assert "Linked picture" in pdf_texts(resp.content)[0]
    assert asked == []


def test_another_tenants_file_is_refused_like_a_missing_one(tenant_admin, client):
    file = upload(tenant_admin, "plan.png", picture(), "image/png")
    bob = client.signed_in("bob")
    theirs = refused(bob, fileId=file["fileId"])
    unknown = refused(bob, fileId=987_654_321)
    assert theirs == unknown and theirs["code"] == 404 and theirs["msg"] == "The file does not exist"
    by_url = refused(bob, url=file["filePath"])
    assert by_url == unknown


def test_only_this_platforms_file_addresses_are_read(tenant_admin):
    file = upload(tenant_admin, "plan.png", picture(), "image/png")
    name = file["filePath"].rsplit("/", 1)[-1]
    for url in (
        f"http://169.254.169.254/api/file/iot-base-attachment/file/{name}",
        f"https://example.com/api/file/iot-base-attachment/file/{name}",
        f"file:///api/file/iot-base-attachment/file/{name}",
        "/api/base/base-user/get-login-user",
        "http://testserver/etc/passwd",
        "http://[::1/api/file/iot-base-attachment/file/x",
    ):
        env = refused(tenant_admin, url=url)
        assert env["code"] == 400 and env["msg"] == "Only files stored on this platform can be previewed", url
    env = refused(tenant_admin, url="/api/file/iot-base-attachment/file/../../secret")
    assert env["code"] == 404


def test_a_file_too_large_is_refused(tenant_admin, small_limits):
    small_limits(max_input_bytes=1024)
    file = upload(tenant_admin, "plan.png", picture(size=(300, 300)) + b"\0" * 2048, "image/png")
    env = refused(tenant_admin, fileId=file["fileId"])
    assert env["code"] == 400 and env["msg"] == "The file to preview cannot exceed 1KB"
    tenant_admin.headers["language"] = "zh#cn"
    assert refused(tenant_admin, fileId=file["fileId"])["msg"] == "预览文件大小不能超过1KB"


def test_too_many_pages_or_pixels_are_refused(tenant_admin, small_limits):
    watermark(tenant_admin, "CONFIDENTIAL", function_code="")
    small_limits(max_pages=2, max_pixels=100_000)
    many = upload(tenant_admin, "long.pdf", pdf(3), "application/pdf")
    env = refused(tenant_admin, fileId=many["fileId"])
    assert env["code"] == 400 and env["msg"] == "A preview shows at most 2 pages; this file has 3"
    wide = upload(tenant_admin, "wide.png", picture(size=(1000, 1000)), "image/png")
    env = refused(tenant_admin, fileId=wide["fileId"])
    assert env["code"] == 400 and "too large" in env["msg"]


def test_without_a_watermark_the_file_is_answered_as_it_is(tenant_admin):
    source = picture()
    file = upload(tenant_admin, "plan.png", source, "image/png")
    resp = preview(tenant_admin, fileId=file["fileId"], funcCode="contracts")
    assert resp.headers["x-watermark-stamped"] == "0" and resp.content == source
    watermark(tenant_admin, "OFF", isTakeEffect=0)
    resp = preview(tenant_admin, fileId=file["fileId"], funcCode="contracts")
    assert resp.headers["x-watermark-stamped"] == "0" and resp.content == source


def test_only_administrators_choose_the_text(tenant_admin, member):
    file = upload(tenant_admin, "figures.pdf", pdf(1), "application/pdf")
    user = member(tenant_admin.tenant_id)
    env = refused(user, fileId=file["fileId"], watermark="anything")
    assert env["code"] == 403 and env["msg"] == "Only administrators can choose the watermark text"
    assert preview(user, fileId=file["fileId"]).headers["x-watermark-stamped"] == "0"
    resp = preview(tenant_admin, fileId=file["fileId"], watermark="FOR AUDIT")
    assert all("FOR AUDIT" in t for t in pdf_texts(resp.content))


def test_other_files_and_bad_requests_are_refused_clearly(tenant_admin, client):
    text = upload(tenant_admin, "notes.txt", b"plain words", "text/plain")
    env = refused(tenant_admin, fileId=text["fileId"])
    assert env["code"] == 400 and env["msg"].startswith("This file cannot be previewed")
    fake = upload(tenant_admin, "broken.pdf", b"%PDF-1.7 not really", "application/pdf")
    watermark(tenant_admin, "X", function_code="")
    env = refused(tenant_admin, fileId=fake["fileId"])
    assert env["code"] == 400 and env["msg"] == "The file is damaged and cannot be previewed"
    for body in ({}, {"fileId": text["fileId"], "url": text["filePath"]}):
        env = refused(tenant_admin, **body)
        assert env["code"] == 400 and env["msg"].startswith("Give the file to preview"), body
    assert refused(client, fileId=text["fileId"])["code"] == -1


def test_few_stamped_copies_are_kept_per_file(tenant_admin, monkeypatch):
    from atrium.plugins.watermark import preview as previews
    from atrium.sdk.services import services

    monkeypatch.setattr(previews, "KEPT_PER_FILE", 2)
    file = upload(tenant_admin, "plan.png", picture(), "image/png")
    stored = file["filePath"].rsplit("/", 1)[-1]
    for text in ("ONE", "TWO", "THREE", "FOUR"):
        resp = preview(tenant_admin, fileId=file["fileId"], watermark=text)
        assert resp.headers["x-watermark-stamped"] == "1"
    kept = list(services().storage.list(tenant_admin.tenant_id, f"{previews.CACHE}/{stored}/"))
    assert 1 <= len(kept) <= 2
    again = preview(tenant_admin, fileId=file["fileId"], watermark="FOUR")
    assert again.headers["x-watermark-cache"] == "hit"


def stamp_fonts(data: bytes) -> set[str]:
    """The fonts the PDF's pages draw with, by name (subset prefixes such as `ABCDEF+` left out)."""
    names: set[str] = set()
    for page in PdfReader(io.BytesIO(data)).pages:
        fonts = page["/Resources"].get_object().get("/Font")
        for ref in (fonts.get_object() if fonts is not None else {}).values():
            names.add(str(ref.get_object()["/BaseFont"]).lstrip("/").split("+")[-1])
    return names


def test_a_font_setting_is_read_as_a_css_family_list():
    from atrium.plugins.watermark.mark import kind_of_font

    assert kind_of_font("'Microsoft YaHei', Arial, sans-serif") == "cjk-sans"
    assert kind_of_font('"Comic Sans MS",  Times   New Roman') == "serif"
    assert kind_of_font("宋体") == kind_of_font("SimSun") == "cjk-serif"
    assert kind_of_font("Courier New") == "mono"
    assert kind_of_font("Papyrus") == kind_of_font("") == ""


def test_the_stamp_is_drawn_in_the_font_of_the_setting(tenant_admin):
    source = pdf(1)
    file = upload(tenant_admin, "figures.pdf", source, "application/pdf")
    drawn = {}
    for family in ("Times New Roman", "Arial"):
        watermark(tenant_admin, "CONFIDENTIAL", fwFont=family)
        resp = preview(tenant_admin, fileId=file["fileId"], funcCode="contracts")
        assert "CONFIDENTIAL" in pdf_texts(resp.content)[0]
        drawn[family] = stamp_fonts(resp.content) - stamp_fonts(source)
    assert any("Serif" in name for name in drawn["Times New Roman"]), drawn
    assert drawn["Arial"] and not any("Serif" in name for name in drawn["Arial"]), drawn


def test_a_picture_is_stamped_in_the_font_of_the_setting_too(tenant_admin):
    file = upload(tenant_admin, "plan.png", picture(), "image/png")
    shown = []
    for family in ("SimSun", "Arial"):
        watermark(tenant_admin, "CONFIDENTIAL", fwFont=family)
        resp = preview(tenant_admin, fileId=file["fileId"], funcCode="contracts")
        assert resp.headers["x-watermark-cache"] == "miss" and red_pixels(resp.content) > 200
        shown.append(resp.content)
    assert shown[0] != shown[1]


def test_chinese_text_is_drawn_in_a_font_that_has_it_whatever_the_setting_names(tenant_admin):
    source = pdf(1)
    file = upload(tenant_admin, "figures.pdf", source, "application/pdf")
    for family in ("Times New Roman", "SimSun"):
        watermark(tenant_admin, "机密文件", fwFont=family)
        resp = preview(tenant_admin, fileId=file["fileId"], funcCode="contracts")
        drawn = stamp_fonts(resp.content) - stamp_fonts(source)
        # neither Liberation nor DejaVu has Chinese: a stamp drawn with one shows empty boxes
        assert drawn and not any(name.startswith(("Liberation", "DejaVu")) for name in drawn), drawn
        assert "机密文件" in pdf_texts(resp.content)[0]


def test_the_stored_previews_of_a_file_go_when_the_file_is_deleted(tenant_admin):
    from atrium.plugins.watermark import preview as previews
    from atrium.sdk.services import services

    watermark(tenant_admin, "CONFIDENTIAL")
    storage, tid = services().storage, tenant_admin.tenant_id
    gone = upload(tenant_admin, "plan.png", picture(), "image/png")
    kept = upload(tenant_admin, "other.png", picture(), "image/png")
    for body in ({"funcCode": "contracts"}, {"watermark": "FOR AUDIT"}):
        preview(tenant_admin, fileId=gone["fileId"], **body)
    preview(tenant_admin, fileId=kept["fileId"], funcCode="contracts")

    def copies(file: dict[str, Any]) -> list[str]:
        stored = file["filePath"].rsplit("/", 1)[-1]
        return [o.key for o in storage.list(tid, f"{previews.CACHE}/{stored}/")]

    assert len(copies(gone)) == 2 and len(copies(kept)) == 1
    tenant_admin.ok("GET", "/api/file/iot-base-attachment/delete-id", params={"id": gone["fileId"]})
    assert copies(gone) == []
    assert len(copies(kept)) == 1
    assert (
        preview(tenant_admin, fileId=kept["fileId"], funcCode="contracts").headers["x-watermark-cache"]
        == "hit"
    )


def test_no_database_connection_is_held_while_a_document_is_converted(tenant_admin, kernel, monkeypatch):
    from atrium.plugins.watermark import convert

    watermark(tenant_admin, "DRAFT ONLY")
    file = upload(tenant_admin, "agreement.docx", word("Supply agreement"), DOCX)
    converting, release = threading.Event(), threading.Event()

    def slow_to_pdf(data: bytes, suffix: str) -> bytes:
        converting.set()
        assert release.wait(30)
        return pdf(1, "Supply agreement")

    monkeypatch.setattr(convert, "to_pdf", slow_to_pdf)
    answers: list[Any] = []
    worker = threading.Thread(
        target=lambda: answers.append(preview(tenant_admin, fileId=file["fileId"], funcCode="contracts"))
    )
    worker.start()
    try:
        assert converting.wait(30)
        held = []
        for _ in range(5):
            held.append(kernel.engine.pool.checkedout())
            time.sleep(0.02)
        # the tenant's settings can be changed meanwhile
        watermark(tenant_admin, "ANOTHER", function_code="invoices")
    finally:
        release.set()
        worker.join(30)
    assert min(held) == 0, f"connections checked out while converting: {held}"
    assert len(answers) == 1
    assert answers[0].headers["content-type"] == "application/pdf"
    text = pdf_texts(answers[0].content)[0]
    assert "Supply agreement" in text and "DRAFT ONLY" in text
