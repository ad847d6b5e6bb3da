"""The multipart reader stops at the limit while streaming (the stores themselves are tested in
tests/kernel/test_object_storage.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from atrium.plugins.files.multipart import clean_filename, read_multipart
from atrium.sdk.errors import BadRequest

MB = 1024 * 1024


class FakeRequest:
    """Just enough of a Starlette request: headers and a body stream that counts what was read."""

    def __init__(self, head: bytes, chunks: int, chunk: bytes, tail: bytes, length: bool = False) -> None:
        self.boundary = b"XyZ"
        self.head, self.chunks, self.chunk, self.tail = head, chunks, chunk, tail
        self.sent = 0
        total = len(head) + chunks * len(chunk) + len(tail)
        self.headers = {"content-type": "multipart/form-data; boundary=XyZ"}
        if length:
            self.headers["content-length"] = str(total)

    async def stream(self) -> AsyncIterator[bytes]:
        yield self.head
        for _ in range(self.chunks):
            self.sent += len(self.chunk)
            yield self.chunk
        yield self.tail


def body(name: str = "file", filename: str = "a.bin") -> tuple[bytes, bytes]:
    head = (
        b'--XyZ\r\nContent-Disposition: form-data; name="importId"\r\n\r\n42\r\n'
        b'--XyZ\r\nContent-Disposition: form-data; name="'
        + name.encode()
        + b'"; filename="'
        + filename.encode()
        + b'"\r\nContent-Type: application/octet-stream\r\n\r\n'
    )
    return head, b"\r\n--XyZ--\r\n"


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_reader_stops_as_soon_as_the_limit_is_passed(atrium_app: Any) -> None:
    head, tail = body()
    req = FakeRequest(head, 50, b"\1" * MB, tail)
    with pytest.raises(BadRequest) as err:
        run(
            read_multipart(req, max_file_bytes=2 * MB, too_big=BadRequest("files:image.too_big", limit="2MB"))
        )
    assert err.value.key == "files:image.too_big"
    assert req.sent <= 3 * MB  # stopped after the third megabyte, not after fifty


def test_declared_length_over_the_limit_is_refused_before_reading(atrium_app: Any) -> None:
    head, tail = body()
    req = FakeRequest(head, 50, b"\1" * MB, tail, length=True)
    with pytest.raises(BadRequest):
        run(read_multipart(req, max_file_bytes=2 * MB, too_big=BadRequest("files:image.too_big")))
    assert req.sent == 0


def test_reader_spools_files_to_disk_and_keeps_fields(atrium_app: Any) -> None:
    head, tail = body(filename="..\\..\\C:\\report.xlsx")
    req = FakeRequest(head, 3, b"\2" * MB, tail)
    form = run(read_multipart(req, max_file_bytes=5 * MB, too_big=BadRequest("x")))
    try:
        f = form.file("file")
        assert f is not None and f.size == 3 * MB and f.path.stat().st_size == 3 * MB
        assert f.filename == "report.xlsx" and form.fields == {"importId": "42"}
    finally:
        form.discard()
    assert not f.path.exists()


def test_reader_refuses_an_unexpected_file_field(atrium_app: Any) -> None:
    head, tail = body(name="avatar")
    with pytest.raises(BadRequest):
        run(read_multipart(FakeRequest(head, 1, b"x", tail), max_file_bytes=MB, too_big=BadRequest("x")))


def test_clean_filename() -> None:
    assert clean_filename("../../etc/passwd") == "passwd"
    assert clean_filename("a\x00b<>.txt") == "a_b_.txt"
    assert clean_filename("..") == "file"
    long = clean_filename("x" * 500 + ".xlsx")
    assert len(long) <= 200 and long.endswith(".xlsx")
