"""The stores' writers, which the upload route streams into: pieces of any size in, the object visible only
once committed, nothing left when aborted, on local disk and on an S3-compatible bucket alike."""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from atrium.kernel.services.storage import LocalStorage, ObjectStorage
from atrium.kernel.services.storage_s3 import MIN_PART, S3Location, S3Storage
from atrium.sdk.errors import NotFound
from tests.kernel.s3_server import S3Server, running_s3

MB = 1024 * 1024


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    with running_s3() as server:
        yield server


@pytest.fixture(params=["local", "s3"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> ObjectStorage:
    if request.param == "local":
        return LocalStorage(tmp_path / "files")
    s3: S3Server = request.getfixturevalue("s3")
    return S3Storage(S3Location.parse(s3.url(s3.bucket())), part_size=MIN_PART)


def unfinished(store: ObjectStorage) -> list[object]:
    if isinstance(store, S3Storage):
        return list(store.client.list_multipart_uploads(Bucket=store.bucket).get("Uploads", []))
    assert isinstance(store, LocalStorage)
    return list((store.root / ".partial").iterdir())


def test_pieces_of_any_size_make_one_object(store: ObjectStorage) -> None:
    data = os.urandom(12 * MB + 7)
    view = memoryview(data)
    cuts = [0, 1, 300_001, 300_001 + 5 * MB, 10 * MB, len(data)]  # a part's end falls inside a piece
    with store.writer(1001, "big.bin", "application/octet-stream") as w:
        for start, end in zip(cuts, cuts[1:], strict=False):
            w.write(view[start:end])
        assert not store.exists(1001, "big.bin")  # not visible before the commit
        stored = w.commit()
    assert stored.size == len(data) and stored.sha256 == hashlib.sha256(data).hexdigest()
    if store.kind == "s3":
        assert store.stat(1001, "big.bin").etag == stored.etag  # the ETag the bucket answered with
        assert stored.etag.endswith("-3")  # 5 MiB, 5 MiB and the rest
    assert store.read_range(1001, "big.bin", 0, len(data)) == data
    assert unfinished(store) == []


def test_a_changed_buffer_does_not_change_what_was_written(store: ObjectStorage) -> None:
    buffer = bytearray(b"a" * 1000)
    with store.writer(1001, "copy.bin") as w:
        w.write(buffer)
        buffer[:] = b"b" * 1000
        w.write(memoryview(buffer))
        w.commit()
    assert store.read_range(1001, "copy.bin", 0, 2000) == b"a" * 1000 + b"b" * 1000


@pytest.mark.parametrize("size", [10, 11 * MB])
def test_an_aborted_writer_leaves_nothing(store: ObjectStorage, size: int) -> None:
    store.put(1001, "keep.bin", io.BytesIO(b"old"))
    w = store.writer(1001, "keep.bin")
    w.write(os.urandom(size))
    w.abort()
    w.abort()  # twice is fine
    assert store.read_range(1001, "keep.bin", 0, 10) == b"old"
    assert unfinished(store) == []
    with pytest.raises(ValueError):
        w.write(b"more")


def test_an_error_in_a_with_block_aborts(store: ObjectStorage) -> None:
    with pytest.raises(ConnectionResetError), store.writer(1001, "half.bin") as w:
        w.write(os.urandom(7 * MB))
        raise ConnectionResetError("the client went away")
    assert not store.exists(1001, "half.bin") and unfinished(store) == []


def test_an_empty_object_and_a_foreign_key(store: ObjectStorage) -> None:
    with store.writer(1001, "empty.bin") as w:
        assert w.commit().size == 0
    assert store.size(1001, "empty.bin") == 0
    with pytest.raises(NotFound):
        store.writer(1001, "../1002/a.bin")
