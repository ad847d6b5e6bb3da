"""Streaming multipart/form-data: every limit is enforced while reading, and a file part's bytes go where
the caller says as they arrive: a temporary file on disk (``read_multipart``), or anywhere else
(``parse_multipart`` with a sink, such as the object store for the upload route).

Starlette's ``request.form()`` has no limit on a file part's size; this reader stops the upload as soon as
a part passes its limit, so an oversized or endless body never reaches memory or fills the disk.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Protocol

import anyio
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.requests import Request

from atrium.sdk.errors import AtriumError, BadRequest
from atrium.sdk.services import services

if TYPE_CHECKING:
    from python_multipart.multipart import MultipartCallbacks

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
class FilePart:
    """A file part as the reader met it: its field, cleaned file name, declared type, size and first
    ``HEAD_BYTES`` bytes (for sniffing its type)."""

    field_name: str
    filename: str
    content_type: str
    size: int = 0
    head: bytes = b""

    @property
    def extension(self) -> str:
        return extension(self.filename)


class FileSink(Protocol):
    """Where a file part's bytes go while the body is read. ``write`` is called from the parser for each
    piece (in the event loop: it must not wait), ``flush`` after each chunk of the body (it may wait,
    holding the rest of the body back), ``end`` when the part's last byte was written, and ``discard``
    when the upload fails (drop everything written)."""

    def write(self, chunk: memoryview) -> None: ...

    async def flush(self) -> None: ...

    def end(self) -> None: ...

    async def discard(self) -> None: ...


#: opens the sink of a new file part (it may refuse the part by raising an AtriumError)
OpenSink = Callable[[FilePart], FileSink]


@dataclass
class ParsedForm:
    """A body read to its end: its text fields, and its file parts with the sink each went to."""

    fields: dict[str, str] = field(default_factory=dict)
    files: list[tuple[FilePart, FileSink]] = field(default_factory=list)

    def file(self, name: str = "file") -> tuple[FilePart, FileSink] | None:
        return next((f for f in self.files if f[0].field_name == name), None)

    async def discard(self) -> None:
        for _part, sink in self.files:
            await sink.discard()


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


class SpoolSink:
    """A file part written to a temporary file under the var directory."""

    def __init__(self) -> None:
        fd, tmp = tempfile.mkstemp(prefix="up-", suffix=".part", dir=temp_dir())
        self.path = Path(tmp)
        self._out: BinaryIO | None = os.fdopen(fd, "wb")

    def write(self, chunk: memoryview) -> None:
        assert self._out is not None
        self._out.write(chunk)

    async def flush(self) -> None:
        return None

    def end(self) -> None:
        self.close()

    def close(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None

    async def discard(self) -> None:
        self.close()
        self.path.unlink(missing_ok=True)


@dataclass(frozen=True)
class Limits:
    """What a body may hold: file parts (their number, size and fields) and small text fields."""

    max_file_bytes: int
    too_big: AtriumError
    max_files: int = 1
    max_fields: int = 20
    max_field_bytes: int = 64 * 1024
    file_fields: tuple[str, ...] = ("file",)

    @property
    def max_body(self) -> int:
        """The longest body these limits allow, with room for the part headers and boundaries."""
        envelope_slack = 64 * 1024 + self.max_fields * self.max_field_bytes
        return self.max_file_bytes * self.max_files + envelope_slack


class _Reader:
    """python-multipart callbacks: file parts go to their sinks, small text fields are kept."""

    def __init__(self, limits: Limits, open_sink: OpenSink) -> None:
        self.limits = limits
        self.open_sink = open_sink
        self.form = ParsedForm()
        self._header_field = b""
        self._header_value = b""
        self._headers: dict[bytes, bytes] = {}
        self._name = ""
        self._value = bytearray()
        self._file: FilePart | None = None
        self._sink: FileSink | None = None
        self._head = bytearray()

    @property
    def in_file(self) -> bool:
        """Whether a file part has begun and not ended (at the end of the body: it was cut)."""
        return self._file is not None

    def callbacks(self) -> MultipartCallbacks:
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
            if len(self.form.fields) >= self.limits.max_fields:
                raise BadRequest("files:upload.too_many_fields")
            return
        if len(self.form.files) >= self.limits.max_files:
            raise BadRequest("files:upload.too_many_files", count=self.limits.max_files)
        if self.limits.file_fields and self._name not in self.limits.file_fields:
            raise BadRequest("files:upload.unexpected_file")
        ctype = self._headers.get(b"content-type", b"application/octet-stream").decode("latin-1")
        part = FilePart(
            field_name=self._name,
            filename=clean_filename(options[b"filename"].decode("utf-8", "replace")),
            content_type=ctype.split(";")[0].strip().lower()[:100],
        )
        self._sink = self.open_sink(part)
        self._file = part
        self._head = bytearray()
        self.form.files.append((part, self._sink))

    def on_part_data(self, data: bytes, start: int, end: int) -> None:
        if self._file is None or self._sink is None:
            if len(self._value) + end - start > self.limits.max_field_bytes:
                raise BadRequest("files:upload.field_too_long", field=self._name[:40])
            self._value += data[start:end]
            return
        self._file.size += end - start
        if self._file.size > self.limits.max_file_bytes:
            raise self.limits.too_big
        # a view, not a copy: the parser hands out slices of the body's (immutable) chunks
        chunk = memoryview(data)[start:end] if isinstance(data, bytes) else memoryview(data[start:end])
        if len(self._head) < HEAD_BYTES:
            self._head += chunk[: HEAD_BYTES - len(self._head)]
        self._sink.write(chunk)

    def on_part_end(self) -> None:
        if self._file is not None and self._sink is not None:
            self._file.head = bytes(self._head)
            self._sink.end()
            self._file = None
        elif self._name:
            self.form.fields[self._name] = self._value.decode("utf-8", "replace")

    async def flush(self) -> None:
        if self._sink is not None:
            await self._sink.flush()


def _boundary(request: Request, limits: Limits) -> bytes:
    """The body's multipart boundary; refuses a body that is not multipart or declares itself too long."""
    ctype, options = parse_options_header(request.headers.get("content-type", ""))
    boundary = options.get(b"boundary")
    if ctype != b"multipart/form-data" or not boundary:
        raise BadRequest("files:upload.not_multipart")
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limits.max_body:
        raise limits.too_big
    return bytes(boundary)


async def parse_multipart(request: Request, limits: Limits, open_sink: OpenSink) -> ParsedForm:
    """Read a multipart body to its end, each file part into the sink ``open_sink`` gives it.

    Raises ``limits.too_big`` as soon as a file part passes its limit (the rest of the body is not read),
    ``BadRequest`` for a body that is not multipart, is cut, has too many parts or over-long text fields,
    and whatever a sink raises (an AtriumError passes unchanged). On any failure every sink opened is
    discarded before the error leaves; on success the caller owns them.
    """
    reader = _Reader(limits, open_sink)
    parser = MultipartParser(_boundary(request, limits), reader.callbacks())
    try:
        async for chunk in request.stream():
            if chunk:
                parser.write(chunk)
                await reader.flush()
        parser.finalize()
        if reader.in_file:  # the body ended inside a file part
            raise BadRequest("files:upload.bad_body")
    except BaseException as exc:  # a cancelled request too: nothing written is kept
        with anyio.CancelScope(shield=True):
            await reader.form.discard()
        if isinstance(exc, Exception) and not isinstance(exc, AtriumError):
            raise BadRequest("files:upload.bad_body") from exc
        raise
    return reader.form


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
    limits = Limits(max_file_bytes, too_big, max_files, max_fields, max_field_bytes, file_fields)
    parsed = await parse_multipart(request, limits, lambda _part: SpoolSink())
    return StreamedForm(parsed.fields, [_spooled(part, sink) for part, sink in parsed.files])


def _spooled(part: FilePart, sink: FileSink) -> UploadedFile:
    assert isinstance(sink, SpoolSink)
    return UploadedFile(part.field_name, part.filename, part.content_type, sink.path, part.size, part.head)
