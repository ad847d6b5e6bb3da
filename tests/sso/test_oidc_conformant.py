"""OpenID Connect sign-in against a conformant provider: panva's oidc-provider (OpenID Certified, the npm
devDependency), started by these tests on 127.0.0.1 in each of its two configurations:

- ``id_token``: the profile and e-mail claims come in the ID token as well;
- ``userinfo``: the ID token of the code flow carries ``sub`` and the protocol claims only, the profile and
  e-mail claims are handed out at the userinfo endpoint (OpenID Connect Core 5.4, ``conformIdTokenClaims``).

Either way the person created on first sign-in is named and has the e-mail the provider knows, and stays
linked by the provider and the ID token's subject. Node and the module are required: missing, these fail.
"""

from __future__ import annotations

import os
import selectors
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

import httpx
import pytest

from atrium.plugins.sso.providers.oidc import OidcProvider
from tests.sso.conftest import ACME, admin_of

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "sso_providers" / "oidc_provider.mjs"
REDIRECT = "http://testserver/sso/login"
CLIENT_ID, CLIENT_SECRET = "atrium-conformant", "conformant-s3cret"
START_SECONDS = 20.0


@dataclass
class Conformant:
    claims: str
    issuer: str
    process: subprocess.Popen[str]
    log: Path

    @property
    def code(self) -> str:
        return f"op-{self.claims.replace('_', '-')}"

    def stderr(self) -> str:
        return self.log.read_text("utf-8", "replace")[-3000:]


def _start(claims: str) -> Conformant:
    node = shutil.which("node")
    assert node, (
        "node is needed to run the conformant OpenID provider (tests/sso_providers/oidc_provider.mjs)"
    )
    log = Path(tempfile.mkstemp(prefix=f"oidc-provider-{claims}-", suffix=".log")[1])
    command = [
        node,
        str(SCRIPT),
        "--port=0",
        f"--claims={claims}",
        f"--client-id={CLIENT_ID}",
        f"--client-secret={CLIENT_SECRET}",
        f"--redirect-uri={REDIRECT}",
        "--watch-stdin",
    ]
    with log.open("w") as err:
        proc = subprocess.Popen(
            command,
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env={**os.environ, "NODE_ENV": "test"},
        )
    assert proc.stdout is not None
    deadline = time.monotonic() + START_SECONDS
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not sel.select(timeout=left):
                proc.kill()
                proc.wait()
                pytest.fail(f"oidc-provider did not start in {START_SECONDS}s:\n{log.read_text()[-3000:]}")
            line = proc.stdout.readline()
            if line.startswith("READY "):
                return Conformant(claims, line.split()[1], proc, log)
            if not line:  # ended before it was ready: node_modules/oidc-provider missing, say
                proc.wait()
                pytest.fail(f"oidc-provider exited with {proc.returncode}:\n{log.read_text()[-3000:]}")


def _stop(op: Conformant) -> None:
    proc = op.process
    proc.terminate()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            stream.close()
    op.log.unlink(missing_ok=True)


@pytest.fixture(scope="module", params=["id_token", "userinfo"])
def conformant(request: pytest.FixtureRequest) -> Iterator[Conformant]:
    op = _start(request.param)
    try:
        yield op
    finally:
        _stop(op)


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[dict[str, Any]]]:
    """What Atrium read from the provider: the verified ID tokens' claims and the userinfo answers."""
    seen: dict[str, list[dict[str, Any]]] = {"id_token": [], "userinfo": []}
    verify, userinfo = OidcProvider.verify_id_token, OidcProvider.userinfo

    def spy_verify(self: Any, *args: Any, **kw: Any) -> dict[str, Any]:
        claims = verify(self, *args, **kw)
        seen["id_token"].append(claims)
        return claims

    def spy_userinfo(self: Any, *args: Any, **kw: Any) -> dict[str, Any]:
        info = userinfo(self, *args, **kw)
        seen["userinfo"].append(info)
        return info

    monkeypatch.setattr(OidcProvider, "verify_id_token", spy_verify)
    monkeypatch.setattr(OidcProvider, "userinfo", spy_userinfo)
    return seen


@pytest.fixture
def configured(conformant: Conformant, configure: Any) -> Conformant:
    settings = {
        "issuer": conformant.issuer,
        "client_id": CLIENT_ID,
        "client_secret": CLIENT_SECRET,
        "timeout_seconds": 5,
    }
    configure("oidc", conformant.code, settings, onUnknown="create", name="Conformant OP")
    return conformant


def authorize(op: Conformant, url: str) -> dict[str, str]:
    """The browser at the provider: follows its redirects (login and consent are answered for the one
    account, no page) keeping its cookies, until it is sent back to Atrium; answers that query."""
    assert url.startswith(op.issuer + "/auth?"), url
    with httpx.Client(follow_redirects=False, timeout=5) as http:
        for _ in range(10):
            resp = http.get(url)
            assert resp.status_code in (302, 303), (
                f"{url} -> {resp.status_code} {resp.text[:300]}\n{op.stderr()}"
            )
            url = urljoin(url, resp.headers["location"])
            if url.startswith(REDIRECT + "?"):
                return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
    raise AssertionError(f"the provider never sent the browser back: {url}")


def sign_in(op: Conformant, browser: Any) -> dict[str, Any]:
    started = browser.ok(
        "POST",
        "/api/base/sso/oidc/login",
        json={"params": {"domainName": "http://acme.localhost:8080", "provider": op.code}},
    )
    back = authorize(op, started["url"])
    assert back.get("iss") == op.issuer and back.get("code"), back  # RFC 9207: the provider says who it is
    body = browser.post(
        "/api/base/sso/oidc/login", json={"params": {"code": back["code"], "state": back["state"]}}
    )
    assert body["code"] == 800, f"{body}\n{op.stderr()}"
    return dict(body["data"])


def test_new_user_has_the_providers_name_and_email(
    configured: Conformant, calls: dict[str, list[dict[str, Any]]], browser: Any, client: Any
) -> None:
    data = sign_in(configured, browser)
    assert data["userFullName"] == "Pat Example" and data["tenantId"] == ACME
    assert data["portalType"] == "sso" and data["ssoType"] == "oidc" and data["provider"] == configured.code
    browser.headers["authorization"] = data["authorization"]
    me = browser.ok("GET", "/api/account")
    assert me["email"] == "pat@example.test"
    assert browser.ok("GET", "/api/base/base-user/get-login-user")["userFullName"] == "Pat Example"

    # each configuration is what it says: the claims in the ID token, or only at userinfo
    (id_claims,) = calls["id_token"]
    assert id_claims["sub"] == "pat-0001" and id_claims["iss"] == configured.issuer
    if configured.claims == "id_token":
        assert id_claims["name"] == "Pat Example" and id_claims["email"] == "pat@example.test"
        assert calls["userinfo"] == []
    else:
        assert not {"name", "preferred_username", "email", "email_verified"} & id_claims.keys()
        (info,) = calls["userinfo"]
        assert info["sub"] == "pat-0001" and info["email"] == "pat@example.test" and info["email_verified"]

    # linked by the provider and the ID token's subject, as any sign-in
    (linked,) = admin_of(client, ACME).ok(
        "GET", "/api/third/admin/identities", params={"provider": configured.code}
    )
    assert linked["subject"] == "pat-0001" and linked["userId"] == data["userId"]
    assert linked["createdOnSignIn"] is True
    assert linked["displayName"] == "Pat Example" and linked["email"] == "pat@example.test"

    # the next sign-in (the provider's session is new: another browser) finds the same person
    again = sign_in(configured, browser)
    assert again["userId"] == data["userId"] and again["userFullName"] == "Pat Example"
