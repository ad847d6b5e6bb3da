"""`/metrics` (Prometheus) for allowed networks or a bearer token, and the request id carried into tasks."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

import pytest
import structlog
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient
from structlog.testing import capture_logs

from atrium.kernel.metrics import MetricsAccess, record_job_outcome
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
