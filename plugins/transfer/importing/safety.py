"""Checks an uploaded spreadsheet passes before anything parses it.

- the name says xls or xlsx, and the bytes agree (OLE2 compound file, or a zip holding a workbook);
- an xlsx zip holds at most ``zip_max_entries`` entries, no entry expands past ``zip_max_ratio`` and the
  whole never past ``zip_max_uncompressed`` (counted while actually inflating, not from the declared
  sizes, which a crafted zip can fake);
- no XML part carries a DOCTYPE (the door to entity expansion and external entities);
- macro-enabled or binary workbooks renamed to .xlsx are refused.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from atrium.sdk.errors import BadRequest

from ..settings import transfer_settings

OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP = b"PK\x03\x04"
ALLOWED = ("xls", "xlsx")
SHEET_MAIN = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
CHUNK = 1 << 16
SMALL_ENTRY = 1 << 20
PROLOG_MAX = 1 << 16
ROOT_TAG = re.compile(rb"<[A-Za-z_]")


def check_extension(filename: str) -> str:
    ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    if ext not in ALLOWED:
        raise BadRequest("transfer:import.bad_type")
    return ext


def check_spreadsheet(path: Path, ext: str) -> None:
    """Raise BadRequest unless the file is a safe workbook of the kind its name says."""
    with path.open("rb") as f:
        head = f.read(8)
    if ext == "xls":
        if head != OLE2:
            raise BadRequest("transfer:import.content_mismatch")
        return
    if not head.startswith(ZIP):
        raise BadRequest("transfer:import.content_mismatch")
    _check_zip(path)


def _check_zip(path: Path) -> None:
    s = transfer_settings()
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise BadRequest("transfer:import.content_mismatch") from exc
    with zf:
        infos = zf.infolist()
        if len(infos) > s.zip_max_entries:
            raise BadRequest("transfer:import.zip_bomb")
        names = {i.filename for i in infos}
        if "[Content_Types].xml" not in names or "xl/workbook.xml" not in names:
            raise BadRequest("transfer:import.content_mismatch")
        if "xl/vbaProject.bin" in names or "xl/workbook.bin" in names:
            raise BadRequest("transfer:import.content_mismatch")
        total = 0
        for info in infos:
            if info.is_dir():
                continue
            if info.flag_bits & 0x1:
                raise BadRequest("transfer:import.encrypted")
            total += _inflate(zf, info, s.zip_max_uncompressed - total, s.zip_max_ratio)
        types = zf.read("[Content_Types].xml")
        try:
            root = fromstring(types, forbid_dtd=True, forbid_entities=True, forbid_external=True)
        except (DefusedXmlException, Exception) as exc:
            raise BadRequest("transfer:import.content_mismatch") from exc
        content_types = {el.attrib.get("ContentType", "") for el in root}
        if SHEET_MAIN not in content_types:
            raise BadRequest("transfer:import.content_mismatch")


def _inflate(zf: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int, max_ratio: int) -> int:
    """Inflate one entry, counting: refuse a bomb, a DOCTYPE in XML, or a corrupt entry."""
    size = 0
    xml = info.filename.endswith((".xml", ".rels", ".vml"))
    head = b""
    compressed = max(info.compress_size, 1)
    try:
        with zf.open(info) as f:
            while chunk := f.read(CHUNK):
                size += len(chunk)
                if size > budget:
                    raise BadRequest("transfer:import.zip_bomb")
                if size > SMALL_ENTRY and size / compressed > max_ratio:
                    raise BadRequest("transfer:import.zip_bomb")
                if xml and len(head) < PROLOG_MAX:
                    head += chunk[: PROLOG_MAX - len(head)]
    except BadRequest:
        raise
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, ValueError) as exc:
        raise BadRequest("transfer:import.content_mismatch") from exc
    if xml:
        root = ROOT_TAG.search(head)
        prolog = head[: root.start()] if root else head
        if b"<!DOCTYPE" in prolog.upper() or (root is None and size >= PROLOG_MAX):
            raise BadRequest("transfer:import.xml_entities")
    return size
