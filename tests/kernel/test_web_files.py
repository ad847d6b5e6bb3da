"""A bundle's hashed files are answered from memory, gzipped for browsers that take it, revalidated by their
tag; its other files are read from disk every time; nothing outside the bundle is served."""

from __future__ import annotations

import gzip
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient

from atrium.kernel.web_files import BuiltFiles, KeptFile, KeptFiles

SCRIPT = ("export const greeting = 'hello';\n" * 200).encode()


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "main.0123abcd.js").write_bytes(SCRIPT)
    (dist / "tiny.89abcdef.js").write_bytes(b"export{};")
    (dist / "remoteEntry.js").write_text("var first;")
    (tmp_path / "secret.0123abcd.js").write_text("var secret;")
    return dist


@pytest.fixture
def kept() -> KeptFiles:
    return KeptFiles()


@pytest.fixture
def http(bundle: Path, kept: KeptFiles) -> Iterator[TestClient]:
    app = Starlette(routes=[Mount("/assets", app=BuiltFiles(directory=str(bundle), kept=kept))])
    with TestClient(app) as client:
        yield client


def test_a_hashed_file_comes_gzipped_and_unchanged(http: TestClient) -> None:
    resp = http.get("/assets/main.0123abcd.js", headers={"accept-encoding": "gzip, deflate"})
    assert resp.status_code == 200
    assert resp.headers["content-encoding"] == "gzip"
    assert int(resp.headers["content-length"]) < len(SCRIPT) / 10
    assert resp.content == SCRIPT
    assert resp.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert resp.headers["vary"] == "accept-encoding"
    assert resp.headers["content-type"].startswith(("text/javascript", "application/javascript"))


def test_a_browser_without_gzip_gets_the_plain_bytes(http: TestClient) -> None:
    resp = http.get("/assets/main.0123abcd.js", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in resp.headers
    assert resp.content == SCRIPT


def test_a_small_file_is_not_compressed(http: TestClient) -> None:
    resp = http.get("/assets/tiny.89abcdef.js", headers={"accept-encoding": "gzip"})
    assert "content-encoding" not in resp.headers
    assert resp.content == b"export{};"


def test_a_kept_file_is_revalidated_by_its_tag(http: TestClient) -> None:
    tag = http.get("/assets/main.0123abcd.js").headers["etag"]
    again = http.get("/assets/main.0123abcd.js", headers={"if-none-match": tag})
    assert again.status_code == 304
    assert again.content == b""
    other = http.get("/assets/main.0123abcd.js", headers={"if-none-match": '"something-else"'})
    assert other.status_code == 200 and other.content == SCRIPT


def test_the_tag_is_the_one_a_head_request_answers(http: TestClient) -> None:
    assert (
        http.head("/assets/main.0123abcd.js").headers["etag"]
        == http.get("/assets/main.0123abcd.js").headers["etag"]
    )


def test_hashed_files_are_read_once_and_unhashed_files_every_time(http: TestClient, bundle: Path) -> None:
    assert http.get("/assets/main.0123abcd.js").content == SCRIPT
    (bundle / "main.0123abcd.js").write_bytes(b"never served: a hashed name's content does not change")
    assert http.get("/assets/main.0123abcd.js").content == SCRIPT

    assert http.get("/assets/remoteEntry.js").text == "var first;"
    (bundle / "remoteEntry.js").write_text("var second;")
    resp = http.get("/assets/remoteEntry.js")
    assert resp.text == "var second;"
    assert resp.headers["cache-control"] == "no-cache"


@pytest.mark.parametrize("path", ["/assets/../secret.0123abcd.js", "/assets/%2e%2e/secret.0123abcd.js"])
def test_nothing_outside_the_bundle_is_served(http: TestClient, path: str) -> None:
    assert http.get(path).status_code == 404


def test_a_missing_hashed_file_is_not_found(http: TestClient, kept: KeptFiles) -> None:
    assert http.get("/assets/gone.deadbeef.js").status_code == 404
    assert kept.size == 0


def test_memory_keeps_the_most_recently_asked_within_its_limit() -> None:
    kept = KeptFiles(limit=250)
    for name in ("a", "b", "c"):
        kept.put(name, KeptFile({}, b"x" * 100, None))
    assert kept.get("a") is None
    assert kept.get("b") is not None and kept.get("c") is not None
    assert kept.size == 200
    kept.get("b")
    kept.put("d", KeptFile({}, b"x" * 100, None))
    assert kept.get("c") is None and kept.get("b") is not None
    kept.put("huge", KeptFile({}, b"x" * 300, None))
    assert kept.get("huge") is None and kept.size == 200


def build_copy(path: Path, body: bytes, *, older: bool = False) -> bytes:
    """The gzipped copy a production build writes beside `path` (older than the file when asked)."""
    gzipped = gzip.compress(body, 9)
    copy = path.with_name(path.name + ".gz")
    copy.write_bytes(gzipped)
    stamp = path.stat().st_mtime + (-60 if older else 0)
    os.utime(copy, (stamp, stamp))
    return gzipped


def test_the_builds_gzipped_copy_of_a_hashed_file_is_answered_as_it_is(
    http: TestClient, bundle: Path
) -> None:
    built = build_copy(bundle / "main.0123abcd.js", SCRIPT)
    resp = http.get("/assets/main.0123abcd.js", headers={"accept-encoding": "gzip"})
    assert resp.headers["content-encoding"] == "gzip"
    assert int(resp.headers["content-length"]) == len(built)  # level 9: not what the server would make
    assert resp.content == SCRIPT


def test_an_unhashed_file_comes_from_its_gzipped_copy_to_a_browser_that_takes_gzip(
    http: TestClient, bundle: Path
) -> None:
    entry = ("var remote = " + "'a long remote entry';" * 200).encode()
    (bundle / "remoteEntry.js").write_bytes(entry)
    built = build_copy(bundle / "remoteEntry.js", entry)
    resp = http.get("/assets/remoteEntry.js", headers={"accept-encoding": "gzip, br"})
    assert resp.headers["content-encoding"] == "gzip"
    assert resp.headers["content-type"].startswith(("text/javascript", "application/javascript"))
    assert resp.headers["cache-control"] == "no-cache"
    assert int(resp.headers["content-length"]) == len(built)
    assert resp.content == entry
    again = http.get(
        "/assets/remoteEntry.js", headers={"accept-encoding": "gzip", "if-none-match": resp.headers["etag"]}
    )
    assert again.status_code == 304
    plain = http.get("/assets/remoteEntry.js", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == entry


def test_a_gzipped_copy_older_than_its_file_is_not_answered(http: TestClient, bundle: Path) -> None:
    entry = b"var fresh = 1;" * 200
    (bundle / "remoteEntry.js").write_bytes(entry)
    build_copy(bundle / "remoteEntry.js", b"var stale = 1;" * 200, older=True)
    resp = http.get("/assets/remoteEntry.js", headers={"accept-encoding": "gzip"})
    assert resp.content == entry
