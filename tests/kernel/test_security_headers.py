"""Every kind of answer carries its security headers: the shell's HTML, API answers, static files and
uploaded files."""

from __future__ import annotations

import pytest

from atrium.sdk.testing import AtriumClient
from tests.files.util import BASE, picture, uploaded

SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'


def csp(resp) -> dict[str, list[str]]:
    out = {}
    for part in resp.headers["content-security-policy"].split(";"):
        name, *values = part.split()
        out[name] = values
    return out


@pytest.mark.parametrize("path", ["/", "/home", "/login", "/dynamic-report/link/abc", "/some/client/route"])
def test_html_answers_carry_a_policy_without_eval(client: AtriumClient, path: str) -> None:
    resp = client.http.get(path, follow_redirects=True)
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/html")
    policy = csp(resp)
    assert policy["script-src"] == ["'self'"]
    assert not any("unsafe-eval" in v for values in policy.values() for v in values)
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'self'"]
    assert resp.headers["x-frame-options"] == "SAMEORIGIN"
    assert resp.headers["x-content-type-options"] == "nosniff"
    assert resp.headers["referrer-policy"] == "strict-origin-when-cross-origin"
    assert "camera=()" in resp.headers["permissions-policy"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/base/base-user/get-enryption"),
        ("GET", "/api/base/base-user/get-login-user"),
        ("POST", "/api/no/such/call"),
        ("GET", "/api/openapi.json"),
    ],
)
def test_api_answers_are_never_stored_or_sniffed(client: AtriumClient, method: str, path: str) -> None:
    resp = client.http.request(method, path)
    assert resp.headers["cache-control"] == "no-store"
    assert resp.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'self'" not in resp.headers.get("content-security-policy", "")


def test_signed_in_api_answers_are_never_stored(admin_client: AtriumClient) -> None:
    resp = admin_client.http.get("/api/base/base-user/get-login-user", headers=admin_client.headers)
    assert resp.json()["code"] == 800
    assert resp.headers["cache-control"] == "no-store"


def test_static_files_are_not_sniffed(client: AtriumClient) -> None:
    resp = client.http.get("/i18n/en-us/server.json")
    assert resp.status_code == 200
    assert resp.headers["x-content-type-options"] == "nosniff"


def test_hashed_bundle_files_are_kept_and_the_rest_revalidated(client: AtriumClient, kernel) -> None:
    web = kernel.settings.web_dir
    hashed = next(p for p in sorted((web / "assets").glob("main.*.js")))
    kept = client.http.get(f"/assets/{hashed.name}")
    assert kept.status_code == 200
    assert kept.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert client.http.get("/").headers["cache-control"] == "no-cache"
    assert client.http.get("/home").headers["cache-control"] == "no-cache"
    remotes = sorted(kernel.settings.web_plugins_dir.glob("*/dist/remoteEntry.js"))
    assert remotes, "the plugins' web bundles are built"
    plugin = remotes[0].parent.parent.name
    assert client.http.get(f"/plugins/{plugin}/remoteEntry.js").headers["cache-control"] == "no-cache"
    chunk = next(p for p in sorted(remotes[0].parent.glob("*.js")) if p.name != "remoteEntry.js")
    assert "immutable" in client.http.get(f"/plugins/{plugin}/{chunk.name}").headers["cache-control"]


@pytest.mark.parametrize(
    ("name", "data", "ctype", "disposition"),
    [
        ("a.png", picture("PNG"), "image/png", "inline"),
        ("a.jpg", picture("JPEG"), "image/jpeg", "inline"),
        ("a.svg", SVG, "image/svg+xml", "attachment"),
        ("a.txt", b"hello", "text/plain", "attachment"),
        ("a.pdf", b"%PDF-1.4\n%%EOF\n", "application/pdf", "attachment"),
    ],
)
def test_only_raster_images_open_in_the_browser(
    user_client: AtriumClient, name: str, data: bytes, ctype: str, disposition: str
) -> None:
    body = uploaded(user_client, name, data, ctype)
    resp = user_client.http.get(body["filePath"], headers=user_client.headers)
    assert resp.status_code == 200
    assert resp.headers["content-disposition"].startswith(disposition)
    assert resp.headers["x-content-type-options"] == "nosniff"
    assert "sandbox" in resp.headers["content-security-policy"]
    assert body["filePath"].startswith(f"{BASE}/file/")
