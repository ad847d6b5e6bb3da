"""What the editor refuses: a file past the editing limits (sheets, rows, columns, cells, characters, its
unzipped size), with the message that says which."""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from typing import Any, BinaryIO


class WorkbookTooLarge(Exception):
    """A workbook past one of the limits; ``key`` names the message and ``params`` fill it."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class Limits:
    max_sheets: int
    max_rows: int
    max_columns: int
    max_cells: int
    #: bytes the file's parts may take once unzipped (a small file can expand a thousandfold)
    max_unzipped: int
    #: characters of a Word document
    max_characters: int


def check_unzipped(data: BinaryIO, limits: Limits) -> None:
    """Refuses a zip (xlsx, docx) whose parts take more than the limit once unzipped."""
    try:
        with zipfile.ZipFile(data) as z:
            unzipped = sum(i.file_size for i in z.infolist())
    except zipfile.BadZipFile:
        raise WorkbookTooLarge("files:editor.bad_file") from None
    if unzipped > limits.max_unzipped:
        raise WorkbookTooLarge("files:editor.too_many_cells", limit=limits.max_cells)
    data.seek(0)
