"""`/metrics` (Prometheus) for allowed networks or a bearer token, cache hits and misses, and the request id
carried into tasks."""

from __future__ import annotations

import io
import secrets
import threading
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
import structlog
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient
from structlog.testing import capture_logs

from atrium.kernel.metrics import CacheCounts, MetricsAccess, record_job_outcome
from atrium.plugins.reports.store import extract_store
from atrium.sdk.context import RequestContext, reset_context, set_context
from atrium.sdk.services import services

AVATAR = "/api/base/base-user/avatar/{tenant}/{name}"


def samples(text: str, name: str) -> list[tuple[dict[str, str], float]]:
    return [
        (sample.labels, sample.value)
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name
    ]


@pytest.fixture
def loopback(atrium_app: Any) -> TestClient:
    """A client connecting from 127.0.0.1, inside the default allowed networks."""
    return TestClient(atrium_app, base_url="http://testserver", client=("127.0.0.1", 41000))


def test_metrics_refuses_an_address_outside_the_allowed_networks(atrium_app: Any) -> None:
    outside = TestClient(atrium_app, base_url="http://testserver", client=("203.0.113.9", 41000))
    resp = outside.get("/metrics")
    assert resp.status_code == 403
    assert "atrium_" not in resp.text
    # a forwarded-for header is not believed
    assert outside.get("/metrics", headers={"x-forwarded-for": "127.0.0.1"}).status_code == 403


def test_metrics_answers_the_allowed_networks(loopback: TestClient, kernel: Any) -> None:
    resp = loopback.get("/metrics")
    assert resp.status_code == 200
    assert resp.headers["content-type"].startswith("text/plain")
    names = [
        "atrium_db_pool_checked_out",
        "atrium_db_pool_size",
        "atrium_websocket_connections",
        "atrium_http_requests_total",
        "process_cpu_seconds_total",
    ]
    if kernel.settings.redis_url:
        names += ["atrium_task_queue_depth", "atrium_task_running", "atrium_task_failed"]
    for name in names:
        assert name in resp.text, name


def test_metrics_with_a_token_from_anywhere(make_atrium_app: Callable[..., TestClient]) -> None:
    token = secrets.token_urlsafe(24)
    http = make_atrium_app(metrics_token=token)  # TestClient's peer is "testclient": no network of ours
    assert http.get("/metrics").status_code == 403
    assert http.get("/metrics", headers={"authorization": "Bearer wrong"}).status_code == 403
    assert http.get("/metrics", headers={"authorization": f"Basic {token}"}).status_code == 403
    resp = http.get("/metrics", headers={"authorization": f"Bearer {token}"})
    assert resp.status_code == 200
    assert "atrium_http_requests_total" in resp.text


@pytest.mark.parametrize(
    ("peer", "allowed"),
    [("127.0.0.1", True), ("::1", True), ("::ffff:10.1.2.3", True), ("10.9.0.1", False), ("fe80::1", False)],
)
def test_allowed_networks_are_cidrs(peer: str, allowed: bool) -> None:
    access = MetricsAccess("127.0.0.0/8, ::1, 10.1.0.0/16", "")
    request: Any = type("R", (), {"headers": {}, "client": type("C", (), {"host": peer})()})()
    assert access.allows(request) is allowed


def test_a_request_counts_under_its_route_template_and_status(atrium_app: Any, loopback: TestClient) -> None:
    name = f"x{secrets.token_hex(12)}.png"
    resp = atrium_app.state.http.get(f"/api/base/base-user/avatar/1001/{name}")
    text = loopback.get("/metrics").text
    counted = dict(
        (labels["status"], value)
        for labels, value in samples(text, "atrium_http_requests_total")
        if labels["route"] == AVATAR
    )
    assert counted.get(str(resp.status_code), 0) >= 1, counted
    latency = [
        value
        for labels, value in samples(text, "atrium_http_request_duration_seconds_count")
        if labels == {"route": AVATAR, "status": str(resp.status_code)}
    ]
    assert latency and latency[0] >= 1
    assert name not in text  # the raw URL never becomes a label


def test_scheduled_job_outcomes_are_counted(loopback: TestClient) -> None:
    def runs() -> float:
        found = [
            value
            for labels, value in samples(loopback.get("/metrics").text, "atrium_scheduled_job_runs_total")
            if labels == {"job": "metrics-test-job", "outcome": "failed"}
        ]
        return found[0] if found else 0.0

    before = runs()
    record_job_outcome("metrics-test-job", "failed")
    assert runs() == before + 1


def cache_counts(loopback: TestClient, cache: str) -> tuple[float, float]:
    """(hits, misses) of one cache as `/metrics` shows them."""
    text = loopback.get("/metrics").text

    def total(name: str) -> float:
        return sum(value for labels, value in samples(text, name) if labels == {"cache": cache})

    return total("atrium_cache_hits_total"), total("atrium_cache_misses_total")


def test_cache_counts_from_many_threads_lose_none() -> None:
    counts = CacheCounts()

    def look_up(n: int) -> None:
        for i in range(n):
            counts.count("a", hit=i % 4 != 0)
            counts.count("b", hit=False)

    threads = [threading.Thread(target=look_up, args=(4000,)) for _ in range(6)]
    for t in threads:
        t.start()
    look_up(400)  # this thread's table stays live beside the ended threads', folded into one
    for t in threads:
        t.join()
    assert counts.totals() == {"a": [18_300, 6_100], "b": [0, 24_400]}
    look_up(4)
    assert counts.totals() == {"a": [18_303, 6_101], "b": [0, 24_404]}


def test_local_cache_hits_and_misses_are_counted_by_namespace(loopback: TestClient, kernel: Any) -> None:
    space = f"metrics-test-{secrets.token_hex(4)}"
    cache = f"local.{space}"
    assert cache_counts(loopback, cache) == (0, 0)
    assert kernel.local.get(space, "k") is None
    assert cache_counts(loopback, cache) == (0, 1)
    kernel.local.put(space, "k", {"v": 1})
    assert kernel.local.get(space, "k") == {"v": 1}
    assert cache_counts(loopback, cache) == (1, 1)


def test_shared_cache_hits_and_misses_are_counted_by_key_family(loopback: TestClient, kernel: Any) -> None:
    key = f"metrics-test:{secrets.token_hex(6)}"
    hits, misses = cache_counts(loopback, "shared.metrics-test")
    assert kernel.cache.get(key) is None
    assert cache_counts(loopback, "shared.metrics-test") == (hits, misses + 1)
    kernel.cache.set(key, "v", ttl=60)
    assert kernel.cache.pop(key) == "v"
    assert cache_counts(loopback, "shared.metrics-test") == (hits + 1, misses + 1)
    # a key without a family word counts under one series, never one of its own
    stray = f"stray{secrets.token_hex(6)}"
    other = cache_counts(loopback, "shared.other")[1]
    assert kernel.cache.get(stray) is None
    assert cache_counts(loopback, "shared.other")[1] >= other + 1
    assert stray not in loopback.get("/metrics").text


def test_a_plugin_cache_counts_through_the_sdk(loopback: TestClient, kernel: Any) -> None:
    """The reports extract cache on this node's disk: the first read fetches from the store (a miss), the
    next one finds the file (a hit)."""
    name = f"v1-{secrets.token_hex(6)}.parquet"
    ds: Any = SimpleNamespace(tenant_id=1001, id=f"mt{secrets.token_hex(6)}", extract_file=name, version=1)
    kernel.storage.put(ds.tenant_id, extract_store.key(ds, name), io.BytesIO(b"PAR1 not really PAR1"))
    hits, misses = cache_counts(loopback, extract_store.CACHE_NAME)
    try:
        path = extract_store.cached(ds)
        assert path.read_bytes() == b"PAR1 not really PAR1"
        assert cache_counts(loopback, extract_store.CACHE_NAME) == (hits, misses + 1)
        assert extract_store.cached(ds) == path
        assert cache_counts(loopback, extract_store.CACHE_NAME) == (hits + 1, misses + 1)
    finally:
        extract_store.remove(ds)


def log_and_remember_request_id(key: str) -> None:
    """A task: logs a line and keeps the request id its log lines carry."""
    structlog.get_logger("tests.tasks").info("task ran", key=key)
    request_id = structlog.contextvars.get_contextvars().get("request_id", "")
    services().cache.set(key, {"request_id": request_id}, ttl=300)


def test_a_task_queued_during_a_request_logs_with_its_request_id(kernel: Any) -> None:
    key = f"task:{secrets.token_hex(6)}"
    request_id = f"req-{secrets.token_hex(6)}"
    with capture_logs(processors=[structlog.contextvars.merge_contextvars]) as lines:
        token = set_context(RequestContext(request_id=request_id))
        try:
            kernel.tasks.submit(log_and_remember_request_id, key)
        finally:
            reset_context(token)
        deadline = time.monotonic() + 20
        while (got := kernel.cache.get(key)) is None:
            assert time.monotonic() < deadline, "the task did not run"
            time.sleep(0.05)
    assert got == {"request_id": request_id}
    ran = [line for line in lines if line.get("event") == "task ran" and line.get("key") == key]
    assert ran and ran[0]["request_id"] == request_id


def test_a_task_queued_outside_a_request_carries_no_request_id(kernel: Any) -> None:
    key = f"task:{secrets.token_hex(6)}"
    token = set_context(RequestContext())
    try:
        kernel.tasks.submit(log_and_remember_request_id, key)
    finally:
        reset_context(token)
    deadline = time.monotonic() + 20
    while (got := kernel.cache.get(key)) is None:
        assert time.monotonic() < deadline, "the task did not run"
        time.sleep(0.05)
    assert got == {"request_id": ""}
