"""Object storage: local disk and an S3-compatible bucket keep the same contract (put, streamed and ranged
reads, listing, deletion, missing objects, interrupted uploads), the bucket is spoken to over real HTTP,
an unreachable store is a translated 503, and `atrium storage migrate|check` move and audit a node's files."""

from __future__ import annotations

import hashlib
import io
import os
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from atrium.kernel.cli import main
from atrium.kernel.config import Settings
from atrium.kernel.i18n import Translator
from atrium.kernel.services.storage import LocalStorage, ObjectStorage, build_storage
from atrium.kernel.services.storage_s3 import MIN_PART, S3Location, S3Storage
from atrium.sdk.errors import NotFound, StorageUnavailable

from .s3_server import S3Server, running_s3

MB = 1024 * 1024
LOCALES = ("zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu")


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


class Trickle(io.RawIOBase):
    """A stream that cannot seek and answers short reads, optionally failing after `fail_after` bytes."""

    def __init__(self, data: bytes, step: int = 300_001, fail_after: int | None = None) -> None:
        self.data, self.step, self.fail_after, self.pos = data, step, fail_after, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self.fail_after is not None and self.pos >= self.fail_after:
            raise ConnectionResetError("the client went away")
        n = self.step if size < 0 else min(size, self.step)
        chunk = self.data[self.pos : self.pos + n]
        self.pos += len(chunk)
        return chunk


# -- the contract, on both backends ---------------------------------------------------------------------


def test_put_get_stat_list_delete(store: ObjectStorage) -> None:
    stored = store.put(1001, "reports/q3.txt", io.BytesIO(b"third quarter"), "text/plain")
    assert stored.size == 13 and stored.sha256 == hashlib.sha256(b"third quarter").hexdigest()
    store.put(1001, "reports/q4.txt", io.BytesIO(b"fourth"))
    store.put(1001, "other.bin", io.BytesIO(b"x"))
    with store.get(1001, "reports/q3.txt") as f:
        assert f.read() == b"third quarter"
    assert store.exists(1001, "reports/q3.txt") and store.size(1001, "reports/q3.txt") == 13
    assert [(o.key, o.size) for o in store.list(1001, "reports/")] == [
        ("reports/q3.txt", 13),
        ("reports/q4.txt", 6),
    ]
    assert len(list(store.list(1001))) == 3
    store.put(1001, "reports/q4.txt", io.BytesIO(b"replaced"))
    assert store.read_range(1001, "reports/q4.txt", 0, 100) == b"replaced"
    store.delete(1001, "reports/q3.txt")
    store.delete(1001, "reports/q3.txt")  # already gone: not an error
    assert not store.exists(1001, "reports/q3.txt")
    assert store.ready()


def test_tenants_are_kept_apart(store: ObjectStorage) -> None:
    store.put(1001, "a.txt", io.BytesIO(b"acme"))
    assert not store.exists(1002, "a.txt")
    assert list(store.list(1002)) == []
    with pytest.raises(NotFound):
        store.get(1002, "a.txt")
    store.put(-999, "a.txt", io.BytesIO(b"platform"))
    assert store.read_range(-999, "a.txt", 0, 8) == b"platform"
    assert store.read_range(1001, "a.txt", 0, 8) == b"acme"


def test_range_reads(store: ObjectStorage) -> None:
    data = bytes(range(256)) * 40
    store.put(7, "r.bin", io.BytesIO(data))
    assert store.read_range(7, "r.bin", 100, 50) == data[100:150]
    assert store.read_range(7, "r.bin", len(data) - 10, 50) == data[-10:]
    assert store.read_range(7, "r.bin", len(data) + 10, 50) == b""
    assert store.read_range(7, "r.bin", 5, 0) == b""
    with store.get(7, "r.bin", offset=9000) as f:
        assert f.read() == data[9000:]
    with store.get(7, "r.bin", offset=10, length=20) as f:
        assert f.read() == data[10:30]
    with pytest.raises(ValueError):
        store.read_range(7, "r.bin", -1, 5)


def test_missing_objects_and_foreign_keys_are_not_found(store: ObjectStorage) -> None:
    for call in (
        lambda: store.get(1001, "nothing.txt"),
        lambda: store.stat(1001, "nothing.txt"),
        lambda: store.size(1001, "nothing.txt"),
        lambda: store.read_range(1001, "nothing.txt", 0, 1),
        lambda: store.read_range(1001, "nothing.txt", 0, 0),
        lambda: store.open(1001, "nothing.txt"),
    ):
        with pytest.raises(NotFound):
            call()
    assert not store.exists(1001, "nothing.txt")
    for key in ("../1002/a.txt", ".hidden", "a//b", "", "/abs", "a/../b", "x" * 200):
        assert not store.exists(1001, key)
        with pytest.raises(NotFound):
            store.get(1001, key)
        with pytest.raises(NotFound):
            store.put(1001, key, io.BytesIO(b"x"))


def test_a_large_stream_is_stored_in_parts(store: ObjectStorage) -> None:
    data = os.urandom(11 * MB + 123)
    stored = store.put(1001, "big.bin", Trickle(data))
    assert stored.size == len(data) and stored.sha256 == hashlib.sha256(data).hexdigest()
    assert store.size(1001, "big.bin") == len(data)
    if store.kind == "s3":
        assert stored.etag.endswith("-3")  # three parts of 5 MiB, 5 MiB and the rest
        assert store.stat(1001, "big.bin").etag == stored.etag
    assert store.read_range(1001, "big.bin", 6 * MB - 5, 10) == data[6 * MB - 5 : 6 * MB + 5]
    digest = hashlib.sha256()
    with store.get(1001, "big.bin") as f:
        while chunk := f.read(MB):
            digest.update(chunk)
    assert digest.hexdigest() == stored.sha256


@pytest.mark.parametrize("fail_after", [1000, 7 * MB])
def test_an_interrupted_upload_leaves_nothing_visible(store: ObjectStorage, fail_after: int) -> None:
    data = os.urandom(12 * MB)
    with pytest.raises(ConnectionResetError):
        store.put(1001, "half.bin", Trickle(data, fail_after=fail_after))
    assert not store.exists(1001, "half.bin")
    assert list(store.list(1001)) == []
    if isinstance(store, S3Storage):
        uploads = store.client.list_multipart_uploads(Bucket=store.bucket)
        assert uploads.get("Uploads", []) == []  # aborted, not left to be completed or billed
    if isinstance(store, LocalStorage):
        assert list((store.root / ".partial").iterdir()) == []


def test_an_interrupted_replacement_keeps_the_old_object(store: ObjectStorage) -> None:
    store.put(1001, "keep.bin", io.BytesIO(b"old"))
    with pytest.raises(ConnectionResetError):
        store.put(1001, "keep.bin", Trickle(os.urandom(11 * MB), fail_after=6 * MB))
    assert store.read_range(1001, "keep.bin", 0, 10) == b"old"


def test_server_generated_names(store: ObjectStorage) -> None:
    name = store.save(1001, io.BytesIO(b"\x89PNG"), "PNG")
    assert name.endswith(".png") and len(name) > 30
    with store.open(1001, name) as f:
        assert f.read() == b"\x89PNG"
    assert store.save(1001, io.BytesIO(b"x"), "../../etc").endswith(".bin")


def test_signed_addresses(store: ObjectStorage) -> None:
    store.put(1001, "shared.txt", io.BytesIO(b"for a browser"), "text/plain")
    url = store.signed_url(1001, "shared.txt", expires_in=60)
    if store.kind == "local":
        assert url is None
        return
    assert url is not None and "X-Amz-Signature" in url
    with urllib.request.urlopen(url, timeout=10) as resp:  # no credentials: the signature is enough
        assert resp.read() == b"for a browser"


# -- the bucket's own concerns --------------------------------------------------------------------------


def test_storage_address() -> None:
    loc = S3Location.parse("s3://files/atrium/prod?endpoint=https://s3.example:9000&region=eu-1")
    assert (loc.bucket, loc.prefix, loc.endpoint, loc.region) == (
        "files",
        "atrium/prod/",
        "https://s3.example:9000",
        "eu-1",
    )
    assert S3Location.parse("s3://files").endpoint is None
    for bad in ("http://files", "s3://", "s3://files?endpoint=ftp://x", "s3://files?secret=1"):
        with pytest.raises(ValueError):
            S3Location.parse(bad)
    assert isinstance(build_storage("", Path("/tmp/x")), LocalStorage)
    with pytest.raises(SystemExit):
        build_storage("gs://bucket", Path("/tmp/x"))


def test_a_prefix_keeps_the_platform_in_its_folder(s3: S3Server) -> None:
    bucket = s3.bucket()
    store = S3Storage.from_url(s3.url(bucket).replace(f"s3://{bucket}", f"s3://{bucket}/atrium"))
    store.put(1001, "a.txt", io.BytesIO(b"a"))
    assert s3.keys(bucket) == ["atrium/1001/a.txt"]
    assert [o.key for o in store.list(1001)] == ["a.txt"]


def test_a_missing_bucket_is_not_ready(s3: S3Server) -> None:
    assert not S3Storage.from_url(s3.url("atrium-no-such-bucket")).ready()


def test_an_unreachable_store_is_a_translated_503() -> None:
    with running_s3() as server:
        store = S3Storage.from_url(server.url(server.bucket()))
        store.put(1001, "a.txt", io.BytesIO(b"a"))
        assert store.ready()
        server.stop()
        calls: list[Callable[[], Any]] = [
            lambda: store.get(1001, "a.txt"),
            lambda: store.put(1001, "b.txt", io.BytesIO(b"b")),
            lambda: store.exists(1001, "a.txt"),
            lambda: list(store.list(1001)),
            lambda: store.delete(1001, "a.txt"),
        ]
        for call in calls:
            with pytest.raises(StorageUnavailable) as err:
                call()
            assert err.value.code == 503
        assert not store.ready()
    i18n = Translator(Settings().i18n_dir, ["files"])
    messages = {i18n.t(StorageUnavailable.key, locale) for locale in LOCALES}
    assert len(messages) == len(LOCALES)
    assert "unavailable" not in messages and StorageUnavailable.key not in messages  # text, not the key
    assert i18n.t(StorageUnavailable.key, "en-us").startswith("File storage is unavailable")


# -- moving a node's files into a bucket ----------------------------------------------------------------


def _cli(var_dir: Path, *args: str, storage_url: str = "") -> Any:
    env = {"ATRIUM_VAR_DIR": str(var_dir), "ATRIUM_STORAGE_URL": storage_url}
    return CliRunner().invoke(main, ["storage", *args], env=env, catch_exceptions=False)


def test_migrate_copies_verifies_and_resumes(s3: S3Server, tmp_path: Path) -> None:
    local = LocalStorage(tmp_path / "files")
    big = os.urandom(9 * MB)  # two parts of the default 8 MiB: a multipart ETag to verify
    local.put(1001, "big.bin", io.BytesIO(big))
    local.put(1001, "a.txt", io.BytesIO(b"acme"))
    local.put(1002, "nested/b.txt", io.BytesIO(b"globex"))
    local.put(-999, "c.txt", io.BytesIO(b""))
    bucket = s3.bucket()
    url = s3.url(bucket)

    dry = _cli(tmp_path, "migrate", "--to", url, "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert "would copy 1001/big.bin" in dry.output and "would copy 4," in dry.output
    assert s3.keys(bucket) == []

    s3.client.put_object(Bucket=bucket, Key="1001/a.txt", Body=b"acme")  # already there: skipped
    s3.client.put_object(Bucket=bucket, Key="1002/nested/b.txt", Body=b"stale")  # differs: copied
    run = _cli(tmp_path, "migrate", "--to", url)
    assert run.exit_code == 0, run.output
    assert "copied 3, already there 1, failed 0" in run.output
    assert s3.keys(bucket) == ["-999/c.txt", "1001/a.txt", "1001/big.bin", "1002/nested/b.txt"]
    target = S3Storage.from_url(url)
    assert target.read_range(1002, "nested/b.txt", 0, 100) == b"globex"
    head = s3.client.head_object(Bucket=bucket, Key="1001/big.bin")
    assert head["Metadata"]["sha256"] == hashlib.sha256(big).hexdigest()
    assert head["ETag"].strip('"').endswith("-2")

    again = _cli(tmp_path, "migrate", "--to", url)
    assert again.exit_code == 0 and "copied 0, already there 4, failed 0" in again.output


def test_migrate_refuses_an_unreachable_or_wrong_target(s3: S3Server, tmp_path: Path) -> None:
    assert _cli(tmp_path, "migrate", "--to", "ftp://x").exit_code != 0
    missing = _cli(tmp_path, "migrate", "--to", s3.url("atrium-no-such-bucket"))
    assert missing.exit_code != 0 and "cannot be reached" in missing.output


def test_check_reports_records_whose_objects_are_missing(
    s3: S3Server, make_atrium_app: Callable[..., Any]
) -> None:
    url = s3.url(s3.bucket())
    http = make_atrium_app(storage_url=url)
    kernel = http.app.state.kernel
    demo_files = [o.key for o in kernel.storage.list(1001)]
    assert "demo-acme-readme-0002.txt" in demo_files  # the demo's attachments were put in the bucket
    var_dir = kernel.settings.var_dir
    fine = _cli(var_dir, "check", storage_url=url)
    assert fine.exit_code == 0, fine.output
    assert " 0 missing" in fine.output
    kernel.storage.delete(1001, "demo-acme-readme-0002.txt")
    broken = _cli(var_dir, "check", storage_url=url)
    assert broken.exit_code == 1
    assert "tenant 1001  demo-acme-readme-0002.txt  files attachment" in broken.output
    assert "1 missing" in broken.output
