"""The upload route streams a file into the object store while the body arrives, on local disk and on an
S3-compatible bucket alike: a good upload is stored whole (several parts in the bucket, nothing spooled to
the var directory); a body that is cut, a client that goes away, a file past its limit, an empty file or
a record that cannot be written leave no object, no pending multipart upload and no record behind."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from atrium.kernel.services.storage_s3 import S3Storage
from atrium.plugins.files import policies, service
from atrium.plugins.files.models import Attachment
from atrium.plugins.files.settings import FilesSettings
from atrium.sdk.context import unscoped
from atrium.sdk.testing import AtriumClient
from tests.kernel.s3_server import S3Server, running_s3

from .util import UPLOAD

MB = 1024 * 1024
TENANT = 1001  # alice's
HEAD = (
    b'--XyZ\r\nContent-Disposition: form-data; name="file"; filename="survey.bin"\r\n'
    b"Content-Type: application/octet-stream\r\n\r\n"
)
TAIL = b"\r\n--XyZ--\r\n"


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    with running_s3() as server:
        yield server


@dataclass
class Node:
    """A platform node on one kind of store, and what it holds: objects, unfinished writes, records."""

    http: TestClient
    alice: AtriumClient
    s3: S3Server | None

    @property
    def kernel(self) -> Any:
        return self.http.app.state.kernel

    def objects(self) -> set[str]:
        return {o.key for o in self.kernel.storage.list(TENANT)}

    def unfinished(self) -> list[Any]:
        """Multipart uploads left open in the bucket, or temporary files left on disk."""
        store = self.kernel.storage
        if isinstance(store, S3Storage):
            return list(store.client.list_multipart_uploads(Bucket=store.bucket).get("Uploads", []))
        partial = store.root / ".partial"
        return sorted(partial.iterdir()) if partial.is_dir() else []

    def spooled(self) -> list[Path]:
        uploads = Path(self.kernel.settings.var_dir) / "tmp" / "uploads"
        return sorted(uploads.iterdir()) if uploads.is_dir() else []

    def records(self) -> set[str]:
        with unscoped(), self.kernel.db() as db:
            return set(db.execute(select(Attachment.stored_name)).scalars())

    def snapshot(self) -> tuple[set[str], set[str]]:
        return self.objects(), self.records()

    def post_messages(self, chunks: list[bytes], *, disconnect: bool = False) -> dict[str, Any]:
        """POST a multipart body as these ASGI messages (the client may go away after the last one) and
        answer the JSON the route sent."""
        return _post_messages(self.http, self.alice.headers, chunks, disconnect)


@pytest.fixture(params=["local", "s3"])
def node(request: pytest.FixtureRequest, make_atrium_app: Callable[..., TestClient]) -> Node:
    server: S3Server | None = None
    if request.param == "s3":
        server = request.getfixturevalue("s3")
        http = make_atrium_app(storage_url=server.url(server.bucket()))
    else:
        http = make_atrium_app()
    return Node(http, AtriumClient(http).signed_in("alice"), server)


def _post_messages(
    http: TestClient, headers: dict[str, str], chunks: list[bytes], disconnect: bool
) -> dict[str, Any]:
    import json

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": UPLOAD,
        "raw_path": UPLOAD.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(k.lower().encode(), str(v).encode()) for k, v in headers.items()]
        + [(b"content-type", b"multipart/form-data; boundary=XyZ"), (b"host", b"testserver")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
        "state": dict(http.app_state),
    }
    messages = [{"type": "http.request", "body": c, "more_body": True} for c in chunks]
    if not disconnect:
        messages[-1]["more_body"] = False
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def call() -> None:
        await http.app(scope, receive, send)

    assert http.portal is not None
    http.portal.call(call)
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    answer: dict[str, Any] = json.loads(body)
    return answer


def _file_chunks(data: bytes, size: int = MB) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


# -- a good upload ---------------------------------------------------------------------------------------


def test_a_large_upload_is_streamed_into_the_store(node: Node) -> None:
    before = node.objects()
    data = os.urandom(20 * MB + 123)  # three parts of a bucket's 8 MiB: the last one short
    body = node.post_messages([HEAD, *_file_chunks(data), TAIL])
    assert body["code"] == 800, body
    up = body["data"]
    stored = up["filePath"].rsplit("/", 1)[-1]
    assert up["size"] == len(data) and node.objects() - before == {stored}
    assert stored in node.records()
    resp = node.alice.http.get(up["filePath"], headers=node.alice.headers)
    assert resp.status_code == 200 and resp.content == data
    assert node.unfinished() == [] and node.spooled() == []  # nothing spooled to the var directory
    if node.s3 is not None:
        assert node.kernel.storage.stat(TENANT, stored).etag.endswith("-3")


def test_a_small_upload_is_one_write(node: Node) -> None:
    body = node.post_messages([HEAD, b"hello", TAIL])
    assert body["code"] == 800 and body["data"]["size"] == 5, body
    resp = node.alice.http.get(body["data"]["filePath"], headers=node.alice.headers)
    assert resp.content == b"hello"
    assert node.unfinished() == []


# -- what leaves nothing behind --------------------------------------------------------------------------


def _left_nothing(node: Node, before: tuple[set[str], set[str]]) -> None:
    assert node.snapshot() == before
    assert node.unfinished() == []
    assert node.spooled() == []


def test_a_body_cut_midway_leaves_no_object_and_no_record(node: Node) -> None:
    before = node.snapshot()
    data = os.urandom(20 * MB)
    body = node.post_messages([HEAD, *_file_chunks(data)])  # the body ends inside the file part
    assert body["code"] == 400, body
    _left_nothing(node, before)


def test_a_client_going_away_midway_leaves_nothing(node: Node) -> None:
    before = node.snapshot()
    body = node.post_messages([HEAD, *_file_chunks(os.urandom(18 * MB))], disconnect=True)
    assert body["code"] == 400, body
    _left_nothing(node, before)


def test_a_truncated_body_sent_whole_is_refused(node: Node) -> None:
    before = node.snapshot()
    resp = node.alice.http.post(
        UPLOAD,
        content=HEAD + os.urandom(MB),
        headers={**node.alice.headers, "content-type": "multipart/form-data; boundary=XyZ"},
    )
    assert resp.json()["code"] == 400
    _left_nothing(node, before)


def test_a_file_past_its_limit_is_refused_mid_stream(node: Node, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(policies, "files_settings", lambda: FilesSettings(max_file_bytes=18 * MB))
    aborted: list[str] = []
    real_abort = S3Storage._abort

    def abort(store: S3Storage, full_key: str, upload_id: str) -> None:
        aborted.append(full_key)
        real_abort(store, full_key, upload_id)

    monkeypatch.setattr(S3Storage, "_abort", abort)
    before = node.snapshot()
    body = node.post_messages([HEAD, *_file_chunks(os.urandom(30 * MB)), TAIL])
    assert body["code"] == 400 and "18MB" in body["msg"], body
    _left_nothing(node, before)
    if node.s3 is not None:
        assert len(aborted) == 1  # two parts had gone to the bucket: the multipart upload was aborted


def test_an_empty_file_is_refused_and_nothing_is_stored(node: Node) -> None:
    before = node.snapshot()
    body = node.post_messages([HEAD, TAIL])
    assert body["code"] == 400, body
    _left_nothing(node, before)


def test_an_object_whose_record_fails_is_removed(node: Node, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: Any) -> Any:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(service, "record_upload", broken)
    before = node.snapshot()
    node.http.raise_server_exceptions = False
    body = node.post_messages([HEAD, *_file_chunks(os.urandom(10 * MB)), TAIL])
    assert body["code"] == 500, body
    _left_nothing(node, before)


# -- an unreachable bucket -------------------------------------------------------------------------------


def test_a_bucket_gone_during_a_large_upload_answers_503(make_atrium_app: Callable[..., TestClient]) -> None:
    with running_s3() as server:
        http = make_atrium_app(storage_url=server.url(server.bucket()))
        alice = AtriumClient(http).signed_in("alice")
        server.stop()
        body = _post_messages(http, alice.headers, [HEAD, *_file_chunks(os.urandom(20 * MB)), TAIL], False)
        assert body["code"] == 503, body
        assert "unavailable" in body["msg"]
