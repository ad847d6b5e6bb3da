"""Import refuses what is not a plain workbook: wrong types, renamed files, zip bombs, XML entities,
macro workbooks, oversize sheets."""

from __future__ import annotations

import io
import zipfile

import pytest

from atrium.plugins.transfer.settings import transfer_settings
from atrium.sdk.testing import AtriumClient

from .util import import_data, rezip, wizard_upload, xlsx_bytes

GOOD = xlsx_bytes([["Name"], ["Ann"]])
BAD_TYPE = "Only xls or xlsx files can be imported (zip and other types are not supported)"
MISMATCH = "The file's content is not an Excel workbook of the type its name says"
BOMB = "The workbook expands to an unreasonable size and was refused"


@pytest.mark.parametrize("name", ["data.csv", "data.zip", "data.xlsm", "data.docx", "data", "data.xlsx.exe"])
def test_only_xls_and_xlsx_names(user_client: AtriumClient, name: str) -> None:
    body = import_data(user_client, GOOD, name=name)
    assert body == {"code": 400, "msg": BAD_TYPE, "data": None}


def docx_bytes() -> bytes:
    from docx import Document

    buf = io.BytesIO()
    Document().save(buf)
    return buf.getvalue()


@pytest.mark.parametrize(
    ("name", "payload"),
    [
        ("renamed.xlsx", b"Name,Phone\nAnn,1\n"),  # text
        ("renamed.xlsx", docx_bytes()),  # a Word document
        ("renamed.xls", GOOD),  # xlsx content under an xls name
        ("renamed.xlsx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600),  # xls magic under an xlsx name
        ("macro.xlsx", rezip(GOOD, add={"xl/vbaProject.bin": b"\0" * 64})),  # a macro workbook renamed
        ("truncated.xlsx", GOOD[: len(GOOD) // 2]),
    ],
)
def test_content_must_be_what_the_name_says(user_client: AtriumClient, name: str, payload: bytes) -> None:
    body = wizard_upload(user_client, payload, name=name)
    assert body["code"] == 400, body
    assert body["msg"] == MISMATCH


def test_zip_bomb_by_ratio_is_refused(user_client: AtriumClient) -> None:
    bomb = rezip(GOOD, add={"xl/media/padding.bin": b"\0" * (30 * 1024 * 1024)})
    assert len(bomb) < 200 * 1024
    body = import_data(user_client, bomb)
    assert body == {"code": 400, "msg": BOMB, "data": None}


def test_zip_with_too_many_entries_is_refused(user_client: AtriumClient) -> None:
    many = rezip(GOOD, add={f"xl/media/{i}.txt": b"x" for i in range(1001)})
    assert import_data(user_client, many)["msg"] == BOMB


def test_uncompressed_total_is_capped(user_client: AtriumClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transfer_settings(), "zip_max_uncompressed", 4096)
    assert import_data(user_client, GOOD)["msg"] == BOMB


def test_lying_zip_headers_do_not_fool_the_count(user_client: AtriumClient) -> None:
    """Declared sizes are not trusted: an entry that claims 1 KB but inflates to 20 MB is refused."""
    data = bytearray(rezip(GOOD, add={"xl/media/a.bin": b"\0" * (20 * 1024 * 1024)}))
    name = b"xl/media/a.bin"
    central = data.find(b"PK\x01\x02" + b"\0" * 0, data.find(name) + 1)
    while central != -1 and data[central + 46 : central + 46 + len(name)] != name:
        central = data.find(b"PK\x01\x02", central + 4)
    assert central != -1
    data[central + 24 : central + 28] = (1024).to_bytes(4, "little")
    local = data.find(b"PK\x03\x04" + b"", 0)
    while data[local + 30 : local + 30 + len(name)] != name:
        local = data.find(b"PK\x03\x04", local + 4)
    data[local + 22 : local + 26] = (1024).to_bytes(4, "little")
    body = import_data(user_client, bytes(data))
    assert body["code"] == 400 and body["msg"] in (BOMB, MISMATCH)


def test_xml_entities_are_refused(user_client: AtriumClient) -> None:
    zf = zipfile.ZipFile(io.BytesIO(GOOD))
    sheet = zf.read("xl/worksheets/sheet1.xml")
    evil = sheet.replace(
        b"<worksheet", b'<!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>\n<worksheet', 1
    )
    body = import_data(user_client, rezip(GOOD, replace={"xl/worksheets/sheet1.xml": evil}))
    assert body == {
        "code": 400,
        "msg": "The workbook contains XML declarations that are not allowed",
        "data": None,
    }
    hidden = b"<?xml version='1.0'?>\n<!--" + b"x" * 5000 + b"-->\n" + evil.split(b"?>", 1)[1]
    body = import_data(user_client, rezip(GOOD, replace={"xl/worksheets/sheet1.xml": hidden}))
    assert body["code"] == 400 and "XML declarations" in body["msg"]


def test_oversize_sheets_are_refused(user_client: AtriumClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transfer_settings(), "import_max_rows", 10)
    body = import_data(user_client, xlsx_bytes([["Name"]] + [[f"r{i}"] for i in range(20)]))
    assert body == {"code": 400, "msg": "The sheet has more than 10 rows", "data": None}
    monkeypatch.setattr(transfer_settings(), "import_max_columns", 5)
    body = import_data(user_client, xlsx_bytes([[f"c{i}" for i in range(8)]]))
    assert body == {"code": 400, "msg": "The sheet has more than 5 columns", "data": None}


def test_oversize_upload_is_stopped(user_client: AtriumClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transfer_settings(), "import_max_bytes", 4096)
    big = rezip(GOOD, add={"xl/media/noise.bin": bytes(range(256)) * 64})
    body = import_data(user_client, big)
    assert body == {"code": 400, "msg": "The file cannot exceed 4KB", "data": None}


def test_empty_sheet_is_refused(user_client: AtriumClient) -> None:
    body = import_data(user_client, xlsx_bytes([]))
    assert body == {"code": 400, "msg": "The sheet is empty", "data": None}
