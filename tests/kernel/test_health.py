"""`/healthz` and `/readyz`: what a load balancer and an orchestrator probe on each node."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from atrium.kernel.app import create_app
from atrium.kernel.config import Settings
from atrium.kernel.health import redis_probe
from atrium.sdk.testing import AtriumClient

CHECKS = {"database", "redis", "storage", "migrations"}


def test_healthz_answers_anyone_without_touching_anything(client: AtriumClient) -> None:
    resp = client.http.get("/healthz")
    assert resp.status_code == 200
    assert resp.json() == {"status": "ok"}
    assert resp.headers["cache-control"] == "no-store"


def test_readyz_names_every_check(client: AtriumClient, kernel: Any) -> None:
    resp = client.http.get("/readyz")
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == CHECKS
    expected_redis = "ok" if kernel.settings.redis_url else "skipped"
    assert body["checks"]["redis"] == {"state": expected_redis}
    for name in ("database", "storage", "migrations"):
        assert body["checks"][name] == {"state": "ok"}, name


def test_readyz_is_503_naming_storage_that_cannot_be_written(
    client: AtriumClient, kernel: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kernel.storage, "ready", lambda: False, raising=False)
    resp = client.http.get("/readyz")
    assert resp.status_code == 503
    body = resp.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["storage"]["state"] == "failing"
    assert body["checks"]["database"] == {"state": "ok"}


def test_readyz_is_503_naming_an_unreachable_redis(atrium_app: Any, client: AtriumClient) -> None:
    readiness = atrium_app.state.readiness
    before = readiness.redis
    readiness.redis = redis_probe("redis://127.0.0.1:1/0")
    try:
        resp = client.http.get("/readyz")
    finally:
        readiness.redis = before
    assert resp.status_code == 503
    assert resp.json()["checks"]["redis"] == {"state": "failing", "error": "ConnectionError"}


def test_readyz_is_503_naming_the_histories_behind_their_head(
    client: AtriumClient, atrium_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    readiness = atrium_app.state.readiness
    heads = dict(readiness.script_heads())
    heads["kernel"] = frozenset({"0000deadbeef"})
    monkeypatch.setattr(readiness, "_script_heads", heads)
    monkeypatch.setattr(readiness, "_migrations", (0.0, None))  # forget the cached comparison
    resp = client.http.get("/readyz")
    assert resp.status_code == 503
    assert resp.json()["checks"]["migrations"] == {"state": "failing", "error": "not at head: kernel"}


def test_readyz_is_503_naming_an_unreachable_database(tmp_path: Path, kernel: Any) -> None:
    """A node whose database does not answer is not ready; the answer names no host nor address."""
    keys = tmp_path / "keys"
    keys.mkdir()
    shutil.copy(kernel.settings.var_dir / "keys" / "transit-key.pem", keys / "transit-key.pem")
    settings = Settings(
        var_dir=tmp_path,
        database_url="postgresql://atrium@127.0.0.1:1/nowhere",
        demo=True,
        scheduler=False,
    )
    app = create_app(settings)
    try:
        resp = TestClient(app).get("/readyz")  # no lifespan: nothing else reaches for the database
    finally:
        app.state.kernel.engine.dispose()
    assert resp.status_code == 503
    body = resp.json()
    assert body["status"] == "unavailable"
    assert set(body["checks"]) == CHECKS
    assert body["checks"]["database"]["state"] == "failing"
    assert body["checks"]["migrations"]["state"] == "failing"
    assert body["checks"]["storage"] == {"state": "ok"}
    assert "127.0.0.1" not in resp.text and "nowhere" not in resp.text
