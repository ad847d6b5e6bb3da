"""Streaming multipart/form-data: files go to disk chunk by chunk, and every limit is enforced while reading.

Starlette's ``request.form()`` has no limit on a file part's size; this reader stops the upload as soon as
a part passes its limit, so an oversized or endless body never reaches memory or fills the disk.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.requests import Request

from atrium.sdk.errors import AtriumError, BadRequest
from atrium.sdk.services import services

HEAD_BYTES = 8192
_UNSAFE = re.compile(r"[\x00-\x1f\x7f/\\:*?\"<>|]+")


def clean_filename(raw: str) -> str:
    """The last path segment of a client's file name, without control or path characters, at most 200."""
    name = raw.replace("\\", "/").rsplit("/", 1)[-1]
    name = _UNSAFE.sub("_", name).strip(" .")
    if len(name) > 200:
        stem, dot, ext = name.rpartition(".")
        name = (stem[:190] + dot + ext[:9]) if dot and len(ext) <= 9 else name[:200]
    return name or "file"


def extension(name: str) -> str:
    """Lower-case extension without the dot ('' when there is none)."""
    _, dot, ext = name.rpartition(".")
    return ext.lower() if dot else ""


@dataclass
class UploadedFile:
    """A file part spooled to a temporary file on disk."""

    field_name: str
    filename: str
    content_type: str
    path: Path
    size: int = 0
    head: bytes = b""

    @property
    def extension(self) -> str:
        return extension(self.filename)

    def open(self) -> BinaryIO:
        return self.path.open("rb")

    def discard(self) -> None:
        self.path.unlink(missing_ok=True)


@dataclass
class StreamedForm:
    fields: dict[str, str] = field(default_factory=dict)
    files: list[UploadedFile] = field(default_factory=list)

    def file(self, name: str = "file") -> UploadedFile | None:
        return next((f for f in self.files if f.field_name == name), None)

    def discard(self) -> None:
        for f in self.files:
            f.discard()


def temp_dir() -> Path:
    d = Path(services().settings.var_dir) / "tmp" / "uploads"
    d.mkdir(parents=True, exist_ok=True)
    return d


class _Reader:
    """python-multipart callbacks that spool files to disk and keep small text fields."""

    def __init__(
        self,
        *,
        max_file_bytes: int,
        too_big: AtriumError,
        max_files: int,
        max_fields: int,
        max_field_bytes: int,
        file_fields: tuple[str, ...],
    ) -> None:
        self.max_file_bytes = max_file_bytes
        self.too_big = too_big
        self.max_files = max_files
        self.max_fields = max_fields
        self.max_field_bytes = max_field_bytes
        self.file_fields = file_fields
        self.form = StreamedForm()
        self._header_field = b""
        self._header_value = b""
        self._headers: dict[bytes, bytes] = {}
        self._name = ""
        self._value = bytearray()
        self._file: UploadedFile | None = None
        self._out: Any = None
        self._head = bytearray()

    def callbacks(self) -> dict[str, Any]:
        return {
            "on_part_begin": self.on_part_begin,
            "on_header_field": self.on_header_field,
            "on_header_value": self.on_header_value,
            "on_header_end": self.on_header_end,
            "on_headers_finished": self.on_headers_finished,
            "on_part_data": self.on_part_data,
            "on_part_end": self.on_part_end,
        }

    def on_part_begin(self) -> None:
        self._headers = {}
        self._name = ""
        self._value = bytearray()
        self._file = None

    def on_header_field(self, data: bytes, start: int, end: int) -> None:
        self._header_field += data[start:end]

    def on_header_value(self, data: bytes, start: int, end: int) -> None:
        self._header_value += data[start:end]

    def on_header_end(self) -> None:
        self._headers[self._header_field.lower()] = self._header_value
        self._header_field = b""
        self._header_value = b""

    def on_headers_finished(self) -> None:
        _disp, options = parse_options_header(self._headers.get(b"content-disposition", b""))
        self._name = options.get(b"name", b"").decode("utf-8", "replace")
        if b"filename" not in options:
            if len(self.form.fields) >= self.max_fields:
                raise BadRequest("files:upload.too_many_fields")
            return
        if len(self.form.files) >= self.max_files:
            raise BadRequest("files:upload.too_many_files", count=self.max_files)
        if self.file_fields and self._name not in self.file_fields:
            raise BadRequest("files:upload.unexpected_file")
        fd, tmp = tempfile.mkstemp(prefix="up-", suffix=".part", dir=temp_dir())
        self._out = os.fdopen(fd, "wb")
        ctype = self._headers.get(b"content-type", b"application/octet-stream").decode("latin-1")
        self._file = UploadedFile(
            field_name=self._name,
            filename=clean_filename(options[b"filename"].decode("utf-8", "replace")),
            content_type=ctype.split(";")[0].strip().lower()[:100],
            path=Path(tmp),
        )
        self._head = bytearray()
        self.form.files.append(self._file)

    def on_part_data(self, data: bytes, start: int, end: int) -> None:
        chunk = data[start:end]
        if self._file is None:
            if len(self._value) + len(chunk) > self.max_field_bytes:
                raise BadRequest("files:upload.field_too_long", field=self._name[:40])
            self._value += chunk
            return
        self._file.size += len(chunk)
        if self._file.size > self.max_file_bytes:
            raise self.too_big
        if len(self._head) < HEAD_BYTES:
            self._head += chunk[: HEAD_BYTES - len(self._head)]
        self._out.write(chunk)

    def on_part_end(self) -> None:
        if self._file is not None:
            self._out.close()
            self._out = None
            self._file.head = bytes(self._head)
            self._file = None
        elif self._name:
            self.form.fields[self._name] = self._value.decode("utf-8", "replace")

    def abort(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None
        self.form.discard()


async def read_multipart(
    request: Request,
    *,
    max_file_bytes: int,
    too_big: AtriumError,
    max_files: int = 1,
    max_fields: int = 20,
    max_field_bytes: int = 64 * 1024,
    file_fields: tuple[str, ...] = ("file",),
) -> StreamedForm:
    """Read a multipart body; answers its text fields and its files spooled to disk.

    Raises ``too_big`` as soon as a file part passes ``max_file_bytes`` (the rest of the body is not read),
    and ``BadRequest`` for a body that is not multipart, too many parts or over-long text fields. The caller
    owns the temporary files: call ``form.discard()`` when done.
    """
    ctype, options = parse_options_header(request.headers.get("content-type", ""))
    boundary = options.get(b"boundary")
    if ctype != b"multipart/form-data" or not boundary:
        raise BadRequest("files:upload.not_multipart")
    declared = request.headers.get("content-length")
    envelope_slack = 64 * 1024 + max_fields * max_field_bytes
    if declared and declared.isdigit() and int(declared) > max_file_bytes * max_files + envelope_slack:
        raise too_big
    reader = _Reader(
        max_file_bytes=max_file_bytes,
        too_big=too_big,
        max_files=max_files,
        max_fields=max_fields,
        max_field_bytes=max_field_bytes,
        file_fields=file_fields,
    )
    parser = MultipartParser(boundary, reader.callbacks())
    try:
        async for chunk in request.stream():
            if chunk:
                parser.write(chunk)
        parser.finalize()
    except AtriumError:
        reader.abort()
        raise
    except Exception as exc:
        reader.abort()
        raise BadRequest("files:upload.bad_body") from exc
    if reader._out is not None:  # the body ended inside a file part
        reader.abort()
        raise BadRequest("files:upload.bad_body")
    return reader.form
