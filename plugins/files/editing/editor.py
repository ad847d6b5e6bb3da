"""The document editor's side of attachments: a spreadsheet (xlsx) or Word document (docx) opened as the
editor's data, and the edited data saved as a new version (same file name, a new id, the original as its
predecessor). A Word document holding what the editor cannot keep opens read-only, with the reasons, and
its saves are refused. No HTTP here."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, BinaryIO, cast

from atrium.sdk.errors import BadRequest
from atrium.sdk.services import services

from .. import service
from ..models import Attachment
from ..multipart import extension
from ..policies import human_size
from ..settings import files_settings
from .document_data import DocumentIn
from .docx_check import CannotKeep
from .docx_read import read_document
from .docx_write import DOCX_TYPE, write_document
from .limits import Limits, WorkbookTooLarge, check_unzipped
from .workbook_format import XLSX_TYPE
from .workbook_read import read_workbook
from .workbook_write import WorkbookIn, write_workbook

#: spooled in memory up to this size, on disk beyond
SPOOL_BYTES = 4 * 1024 * 1024


def limits() -> Limits:
    s = files_settings()
    return Limits(
        max_sheets=s.editor_max_sheets,
        max_rows=s.editor_max_rows,
        max_columns=s.editor_max_columns,
        max_cells=s.editor_max_cells,
        max_unzipped=s.editor_max_unzipped_bytes,
        max_characters=s.editor_max_characters,
    )


def editor_kind(att: Attachment) -> str | None:
    """'sheet' or 'doc' for a file the editor opens, None otherwise."""
    return service.EDITABLE.get(extension(att.source_name))


def _refused(exc: WorkbookTooLarge) -> BadRequest:
    return BadRequest(exc.key, **exc.params)


def _editable(file_id: int) -> tuple[Attachment, str]:
    att = service.get_attachment(file_id)
    kind = editor_kind(att)
    if kind is None:
        raise BadRequest("files:editor.unsupported")
    return att, kind


def parts(reasons: list[str]) -> str:
    """What a document holds that the editor cannot keep, named in the request's language."""
    t = services().t
    return t("files:editor.list_separator").join(t(f"files:editor.parts.{key}") for key in reasons)


def _cannot_keep(exc: CannotKeep) -> BadRequest:
    key = "files:editor.cannot_save" if exc.sent else "files:editor.cannot_keep"
    return BadRequest(key, parts=parts(exc.reasons))


@contextmanager
def _spooled(att: Attachment) -> Iterator[BinaryIO]:
    """The attachment's bytes as a seekable file (in memory up to `SPOOL_BYTES`); a 400 past the editor's
    size cap."""
    cap = files_settings().editor_max_bytes
    if att.size > cap:
        raise BadRequest("files:editor.too_big", limit=human_size(cap))
    _, chunks = service.open_stream(att)
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as tmp:
        total = 0
        for chunk in chunks or ():
            total += len(chunk)
            if total > cap:
                raise BadRequest("files:editor.too_big", limit=human_size(cap))
            tmp.write(chunk)
        tmp.seek(0)
        yield cast(BinaryIO, tmp)


def open_file(file_id: int) -> dict[str, Any]:
    """The attachment (of the caller's tenant: another tenant's id is not found) as the editor's data:
    workbook data for a spreadsheet, document data for a Word document. `readOnlyReasons` names what a
    Word document holds that the editor cannot keep (keys of `docx_check.BLOCKERS`); when there is any,
    `readOnly` is true and the editor offers no save."""
    att, kind = _editable(file_id)
    reasons: list[str] = []
    with _spooled(att) as src:
        try:
            if kind == "sheet":
                data = read_workbook(src, att.source_name, limits())
            else:
                check_unzipped(src, limits())
                data, reasons = read_document(src, limits())
        except WorkbookTooLarge as exc:
            raise _refused(exc) from None
    return {
        "fileId": att.id,
        "fileName": att.source_name,
        "filePath": service.file_path(att),
        "kind": kind,
        "previousId": att.previous_id,
        "readOnly": bool(reasons),
        "readOnlyReasons": reasons,
        "data": data,
    }


def save_file(file_id: int, workbook: WorkbookIn | None, document: DocumentIn | None) -> dict[str, Any]:
    """Write the edited data (`workbook` for a spreadsheet, `document` for a Word document) as a new
    attachment under the original's name, the original recorded as its previous version; answers the new
    attachment as the document list describes it. A Word document is written into the stored one (what
    the editor does not show is kept); one holding what the editor cannot keep, or data holding what a
    Word document cannot take from the editor, is refused with a 400 naming it."""
    original, kind = _editable(file_id)
    try:
        if kind == "sheet" and workbook is not None:
            content, ctype = write_workbook(workbook, limits()), XLSX_TYPE
        elif kind == "doc" and document is not None:
            with _spooled(original) as src:
                check_unzipped(src, limits())
                content, ctype = write_document(src, document, limits()), DOCX_TYPE
        else:
            raise BadRequest("files:editor.nothing_to_save")
    except WorkbookTooLarge as exc:
        raise _refused(exc) from None
    except CannotKeep as exc:
        raise _cannot_keep(exc) from None
    cap = files_settings().max_file_bytes
    if len(content) > cap:
        raise BadRequest("files:upload.too_big", limit=human_size(cap))
    att = service.store_file(content, original.source_name, ctype, func_code=original.func_code)
    att.previous_id = original.id
    return service.describe(att)
