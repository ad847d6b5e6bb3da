"""The platform served under a path prefix (ATRIUM_BASE_PATH=/atrium) behind a proxy that either passes the
prefix on or strips it: pages, scripts, the API and the WebSocket answer at both, and the page names the
prefix in its `<base href>` so that its relative addresses stay under it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import ValidationError
from starlette.testclient import TestClient

from atrium.kernel.config import Settings
from atrium.sdk.testing import AtriumClient

INDEX = '<!doctype html><html><head><base href="/"/><title>Atrium</title></head><body></body></html>'
SCRIPT = b"console.log('shell');" * 100


@pytest.fixture
def web_dir(tmp_path: Path) -> Path:
    web = tmp_path / "web"
    (web / "assets").mkdir(parents=True)
    (web / "index.html").write_text(INDEX)
    (web / "assets" / "main.0123abcd.js").write_bytes(SCRIPT)
    return web


@pytest.fixture
def prefixed(make_atrium_app: Callable[..., TestClient], web_dir: Path) -> TestClient:
    return make_atrium_app(base_path="/atrium", web_dir=web_dir)


@pytest.mark.parametrize("path", ["/atrium/", "/atrium/home", "/atrium/report/preview/42", "/home", "/"])
def test_every_page_names_the_prefix_as_its_base(prefixed: TestClient, path: str) -> None:
    resp = prefixed.get(path)
    assert resp.status_code == 200
    assert '<base href="/atrium/">' in resp.text
    assert '<base href="/"' not in resp.text
    assert resp.headers["cache-control"] == "no-cache"


def test_the_bare_prefix_goes_to_its_slash_with_the_query(prefixed: TestClient) -> None:
    resp = prefixed.get("/atrium?lang=en-us", follow_redirects=False)
    assert resp.status_code == 308
    assert resp.headers["location"] == "/atrium/?lang=en-us"


@pytest.mark.parametrize("prefix", ["/atrium", ""])
def test_scripts_and_the_api_answer_with_and_without_the_prefix(prefixed: TestClient, prefix: str) -> None:
    script = prefixed.get(f"{prefix}/assets/main.0123abcd.js")
    assert script.status_code == 200 and script.content == SCRIPT
    body = prefixed.post(f"{prefix}/api/base/base-user/get-enryption", headers={"language": "en#us"}).json()
    assert body["code"] == 800 and body["data"]["publicKey"]
    missing = prefixed.get(f"{prefix}/api/base/no-such-route", headers={"language": "en#us"}).json()
    assert missing["code"] == 404


def test_a_path_that_only_begins_like_the_prefix_is_not_taken_for_it(prefixed: TestClient) -> None:
    """``/atrium-old/api/...`` is not under ``/atrium``: it is a client route like any other."""
    resp = prefixed.get("/atrium-old/api/base/base-user/get-enryption")
    assert resp.status_code == 200
    assert "<base href" in resp.text


@pytest.mark.parametrize("prefix", ["/atrium", ""])
def test_the_websocket_hub_answers_under_the_prefix(prefixed: TestClient, prefix: str) -> None:
    token = AtriumClient(prefixed).signed_in("admin").headers["authorization"]
    with prefixed.websocket_connect(f"{prefix}/ws?token={token}") as ws:
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"


def test_at_the_root_the_page_is_served_as_built(
    make_atrium_app: Callable[..., TestClient], web_dir: Path
) -> None:
    http = make_atrium_app(web_dir=web_dir)
    assert http.get("/home").text == INDEX
    assert http.get("/atrium/home").text == INDEX  # a client route, nothing more


@pytest.mark.parametrize(
    ("given", "kept"), [("atrium", "/atrium"), ("/atrium/", "/atrium"), ("/a/b", "/a/b"), ("/", ""), ("", "")]
)
def test_the_prefix_is_written_one_way(given: str, kept: str) -> None:
    assert Settings(base_path=given).base_path == kept


@pytest.mark.parametrize("given", ['/at"rium', "/a b", "/a//b", "/a?x=1", "/<x>"])
def test_a_prefix_that_could_break_the_page_is_refused(given: str) -> None:
    with pytest.raises(ValidationError, match="ATRIUM_BASE_PATH"):
        Settings(base_path=given)
