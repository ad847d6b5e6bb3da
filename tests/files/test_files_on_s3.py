"""Attachments on an S3-compatible bucket: what one node stores, another node of the same platform serves;
an unreachable bucket answers a translated 503, never a 500."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from atrium.kernel.config import Settings
from atrium.sdk.testing import AtriumClient, build_app
from tests.kernel.s3_server import S3Server, running_s3

from .util import BASE, uploaded

MB = 1024 * 1024


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    with running_s3() as server:
        yield server


@pytest.fixture
def second_node(tmp_path: Path) -> Iterator[Callable[[Any], TestClient]]:
    """Another node of a platform: its own var directory, the same database and object storage."""
    started: list[TestClient] = []

    def start(first: Any) -> TestClient:
        settings: Settings = first.settings
        node = Settings(
            var_dir=tmp_path / "node-b",
            database_url=settings.effective_database_url,
            storage_url=settings.storage_url,
            secret_key=settings.secret_key,
            demo=True,
            dev_outbox=True,
            scheduler=False,
        )
        http = TestClient(build_app(node, demo=False), base_url="http://testserver")
        http.__enter__()
        started.append(http)
        return http

    yield start
    for http in started:
        http.__exit__(None, None, None)


def test_an_upload_on_one_node_is_served_by_another(
    s3: S3Server, make_atrium_app: Callable[..., TestClient], second_node: Callable[[Any], TestClient]
) -> None:
    bucket = s3.bucket()
    node_a = make_atrium_app(storage_url=s3.url(bucket))
    alice = AtriumClient(node_a).signed_in("alice")
    data = os.urandom(9 * MB)  # more than one 8 MiB part: a multipart upload behind the route
    up = uploaded(alice, "survey.bin", data, "application/octet-stream")
    stored = up["filePath"].rsplit("/", 1)[-1]
    assert f"1001/{stored}" in s3.keys(bucket)
    assert up["size"] == len(data)
    assert not list((node_a.app.state.kernel.settings.var_dir / "files").glob("1001/*"))  # nothing on disk

    resp = alice.http.get(up["filePath"], headers=alice.headers)
    assert resp.status_code == 200 and resp.content == data

    node_b = second_node(node_a.app.state.kernel)
    on_b = node_b.get(up["filePath"], headers=alice.headers)
    assert on_b.status_code == 200 and on_b.content == data
    part = node_b.get(up["filePath"], headers={**alice.headers, "range": "bytes=8388600-8388615"})
    assert part.status_code == 206 and part.content == data[8388600:8388616]
    assert part.headers["content-range"] == f"bytes 8388600-8388615/{len(data)}"
    signed = alice.ok("GET", f"{BASE}/getUrl", params={"url": up["filePath"]})
    anonymous = node_b.get(signed)
    assert anonymous.status_code == 200 and anonymous.content == data

    alice.ok("GET", f"{BASE}/delete-id", params={"id": up["fileId"]})
    assert f"1001/{stored}" not in s3.keys(bucket)
    assert alice.get(up["filePath"])["code"] == 404


def test_a_picture_upload_is_kept_in_the_bucket(s3: S3Server, make_atrium_app: Callable[..., Any]) -> None:
    from .util import picture

    bucket = s3.bucket()
    alice = AtriumClient(make_atrium_app(storage_url=s3.url(bucket))).signed_in("alice")
    up = uploaded(alice, "dot.png", picture(), "image/png", "image")
    resp = alice.http.get(up["filePath"], headers=alice.headers)
    assert resp.status_code == 200 and resp.content.startswith(b"\x89PNG")
    assert resp.headers["content-type"] == "image/png"


def test_an_unreachable_bucket_answers_a_translated_503(make_atrium_app: Callable[..., Any]) -> None:
    with running_s3() as server:
        http = make_atrium_app(storage_url=server.url(server.bucket()))
        alice = AtriumClient(http).signed_in("alice")
        up = uploaded(alice, "notes.txt", b"kept in the bucket", "text/plain")
        server.stop()
        messages = set()
        for locale in ("zh-cn", "en-us", "hu-hu"):
            alice.headers["language"] = locale.replace("-", "#")
            body = alice.get(up["filePath"])
            assert body["code"] == 503, body
            messages.add(body["msg"])
            again = alice.post(
                "/api/file/iot-base-attachment/single/file-upload",
                json=None,
                files={"file": ("b.txt", b"new", "text/plain")},
            )
            assert again["code"] == 503, again
        assert len(messages) == 3
        assert "File storage is unavailable at the moment. Please try again later" in messages


@pytest.mark.parametrize(
    ("wanted", "status", "expected"),
    [
        ("bytes=2-5", 206, b"2345"),
        ("bytes=7-", 206, b"789"),
        ("bytes=-3", 206, b"789"),
        ("bytes=8-100", 206, b"89"),
        ("bytes=50-60", 200, b"0123456789"),  # beyond the end: the whole file
        ("bytes=1-2,4-5", 200, b"0123456789"),  # several ranges: the whole file
        ("lines=1-2", 200, b"0123456789"),
    ],
)
def test_range_requests_on_local_disk(
    user_client: AtriumClient, wanted: str, status: int, expected: bytes
) -> None:
    up = uploaded(user_client, "digits.txt", b"0123456789", "text/plain")
    resp = user_client.http.get(up["filePath"], headers={**user_client.headers, "range": wanted})
    assert resp.status_code == status and resp.content == expected
    assert resp.headers["accept-ranges"] == "bytes"
