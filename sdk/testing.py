"""Test kit for Atrium and its plugin authors (registered as a pytest plugin through `pytest11`).

Fixtures:

- ``atrium_settings``: settings for a throw-away database (SQLite in a temporary folder, or a fresh
  PostgreSQL schema when ``ATRIUM_TEST_DATABASE_URL`` is set) and Redis when ``ATRIUM_TEST_REDIS_URL`` is set.
- ``atrium_app``: the app with every installed plugin, migrated, with demo data, running (session-wide).
- ``make_atrium_app``: build another app, e.g. with an extra plugin registered for one test.
- ``client``: an anonymous :class:`AtriumClient`; ``signed_in(account, password)`` signs one in.
- ``admin_client``, ``user_client``: the demo super administrator and the demo user alice.
- ``tenant_factory``, ``user_factory``: new tenants and users for tests that change state.
"""

from __future__ import annotations

import base64
import itertools
import os
import secrets
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from starlette.testclient import TestClient

DEMO_PASSWORDS = {
    "admin": "Admin@123",
    "supervisor": "Super@123",
    "alice": "Alice@123",
    "carol": "Carol@123",
    "bob": "Bob@12345",
}
_ids = itertools.count(1)


def encrypt_password(public_pem: str, nonce: str, password: str) -> str:
    """Encrypt a password the way the sign-in page does ("nonce:password" sealed to the P-256 key)."""
    from atrium.kernel.identity.crypto import seal

    key = serialization.load_pem_public_key(public_pem.encode())
    assert isinstance(key, ec.EllipticCurvePublicKey)
    return base64.b64encode(seal(key, f"{nonce}:{password}".encode())).decode()


class AtriumClient:
    """A test client that speaks the envelope: `.get/.post` answer the decoded `{code, msg, data}`."""

    def __init__(self, http: TestClient, locale: str = "en-us") -> None:
        self.http = http
        self.headers: dict[str, str] = {"language": locale.replace("-", "#")}
        self.last: Any = None

    def _call(self, method: str, path: str, **kw: Any) -> dict[str, Any]:
        headers = {**self.headers, **kw.pop("headers", {})}
        resp = self.http.request(method, path, headers=headers, **kw)
        self.last = resp
        assert resp.status_code == 200, f"{method} {path} -> HTTP {resp.status_code}: {resp.text[:300]}"
        if resp.headers.get("authorization"):
            self.headers["authorization"] = resp.headers["authorization"]
            self.headers["refreshAuthorization"] = resp.headers["refresh-authorization"]
        body: dict[str, Any] = resp.json()
        return body

    def get(self, path: str, **kw: Any) -> dict[str, Any]:
        return self._call("GET", path, **kw)

    def post(self, path: str, json: Any = None, **kw: Any) -> dict[str, Any]:
        return self._call("POST", path, json=json, **kw)

    def ok(self, method: str, path: str, **kw: Any) -> Any:
        """Call and insist on code 800; answers `data`."""
        body = self._call(method.upper(), path, **kw)
        assert body["code"] == 800, f"{method} {path}: {body}"
        return body["data"]

    def encrypt(self, password: str) -> str:
        enc = self.ok("POST", "/api/base/base-user/get-enryption")
        return encrypt_password(enc["publicKey"], enc["nonce"], password)

    def login(self, account: str, password: str, **extra: Any) -> dict[str, Any]:
        body = self.post(
            "/api/base/base-user/login",
            json={"params": {"account": account, "password": self.encrypt(password), **extra}},
        )
        return body

    def signed_in(self, account: str, password: str | None = None) -> AtriumClient:
        other = AtriumClient(self.http, self.headers["language"].replace("#", "-"))
        body = other.login(account, password or DEMO_PASSWORDS[account])
        assert body["code"] == 800, body
        other.headers["authorization"] = body["data"]["authorization"]
        other.headers["refreshAuthorization"] = body["data"]["refresh-authorization"]
        other.profile = body["data"]  # type: ignore[attr-defined]
        return other


def _postgres_url(base: str, schema: str) -> str:
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-csearch_path%3D{schema}"


@pytest.fixture(scope="session")
def atrium_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from atrium.kernel.config import Settings

    var = tmp_path_factory.mktemp("atrium-var")
    db_url = os.environ.get("ATRIUM_TEST_DATABASE_URL", "")
    redis_url = os.environ.get("ATRIUM_TEST_REDIS_URL", "")
    schema = f"t_{secrets.token_hex(6)}"
    if db_url:
        import sqlalchemy as sa

        url = db_url.replace("postgresql://", "postgresql+psycopg://", 1)
        eng = sa.create_engine(url)
        with eng.begin() as conn:
            conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
        eng.dispose()
        db_url = _postgres_url(url, schema)
    settings = Settings(
        database_url=db_url,
        redis_url=redis_url,
        redis_prefix=f"atrium-test-{schema}:",
        var_dir=Path(var),
        demo=True,
        dev_outbox=True,
        scheduler=False,
        secret_key="test-" + secrets.token_hex(24),
    )
    yield settings
    if os.environ.get("ATRIUM_TEST_DATABASE_URL"):
        import sqlalchemy as sa

        eng = sa.create_engine(
            os.environ["ATRIUM_TEST_DATABASE_URL"].replace("postgresql://", "postgresql+psycopg://", 1)
        )
        with eng.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        eng.dispose()


def build_app(settings: Any, extra_plugins: list[Any] | None = None, demo: bool = True) -> Any:
    from atrium.kernel.app import create_app
    from atrium.kernel.demo import load_demo
    from atrium.kernel.migrate import upgrade

    app = create_app(settings, extra_plugins)
    kernel = app.state.kernel
    upgrade(kernel)
    if demo:
        load_demo(kernel)
    return app


@pytest.fixture(scope="session")
def atrium_app(atrium_settings: Any) -> Iterator[Any]:
    app = build_app(atrium_settings)
    with TestClient(app, base_url="http://testserver") as http:
        app.state.http = http
        yield app


@pytest.fixture
def make_atrium_app(tmp_path: Path) -> Iterator[Callable[..., TestClient]]:
    """Build and start an app on its own SQLite database, e.g. with an extra plugin: `make([module])`."""
    from atrium.kernel.config import Settings

    started: list[TestClient] = []

    def make(extra_plugins: list[Any] | None = None, **overrides: Any) -> TestClient:
        settings = Settings(
            var_dir=tmp_path / f"app{len(started)}", demo=True, dev_outbox=True, scheduler=False, **overrides
        )
        app = build_app(settings, extra_plugins)
        http = TestClient(app, base_url="http://testserver")
        http.__enter__()
        started.append(http)
        return http

    yield make
    for http in started:
        http.__exit__(None, None, None)


@pytest.fixture
def client(atrium_app: Any) -> AtriumClient:
    return AtriumClient(atrium_app.state.http)


@pytest.fixture
def admin_client(client: AtriumClient) -> AtriumClient:
    return client.signed_in("admin")


@pytest.fixture
def user_client(client: AtriumClient) -> AtriumClient:
    return client.signed_in("alice")


@pytest.fixture
def kernel(atrium_app: Any) -> Any:
    return atrium_app.state.kernel


@pytest.fixture
def tenant_factory(kernel: Any) -> Callable[..., int]:
    """Create a tenant (with the default system) and answer its id."""
    from atrium.kernel import accounts
    from atrium.sdk.context import unscoped

    def make(name: str | None = None) -> int:
        tid = 50_000 + next(_ids) * 7 + int(secrets.randbelow(1000)) * 10_000
        with unscoped(), kernel.db():
            accounts.create_tenant(tid, name or f"T{tid}"[:16])
        return tid

    return make


@pytest.fixture
def user_factory(kernel: Any) -> Callable[..., tuple[str, str, int]]:
    """Create a user in a tenant; answers (account, password, user id)."""
    from atrium.kernel import accounts
    from atrium.sdk.context import unscoped

    def make(
        tenant_id: int = 1001, *, supervisor: bool = False, password: str = "Passw0rd1", **fields: Any
    ) -> tuple[str, str, int]:
        account = f"u{secrets.token_hex(4)}"
        with unscoped(), kernel.db():
            user = accounts.create_user(
                account, password, f"User {account}", tenant_id, supervisor=supervisor, **fields
            )
            uid = user.id
        return account, password, uid

    return make


def temp_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="atrium-"))
