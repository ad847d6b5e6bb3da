"""HTTP tasks run through the task queue against a real local server, with retries; timers fire when the
scheduler's scan finds them due (the scan takes ``now``, so no test sleeps for a timer)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest

from atrium.plugins.process.engine import timers
from atrium.sdk.db import utcnow
from atrium.sdk.testing import AtriumClient
from tests.process.conftest import API, complete, deployed, detail, pending, save, start
from tests.process.diagrams import between, diagram, flow, http_task, timer, user_task
from tests.process.http_stub import HttpStub, serving


@pytest.fixture
def stub() -> Iterator[HttpStub]:
    with serving() as server:
        yield server


def until(check: Callable[[], Any], seconds: float = 20.0) -> Any:
    """Poll ``check`` until it answers something true (the queued job runs in another thread)."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found or time.monotonic() > deadline:
            assert found, "condition not met in time"
            return found
        time.sleep(0.05)


def history(c: AtriumClient, process_id: str, action: str) -> list[dict[str, Any]]:
    return [h for h in detail(c, process_id)["history"] if h["action"] == action]


def test_an_http_task_calls_the_address_and_its_answer_becomes_a_variable(
    boss: Any, tenant: int, member: Callable[..., Any], stub: HttpStub
) -> None:
    applicant = member(tenant)
    url = stub.answer("/ok", 200)
    call = http_task("call", "Call", url, body='{"amount": "${amount}", "fixed": "x"}')
    deployed(boss, "http-ok", between("http-ok", call))
    inst = start(applicant, "http-ok", amount=5)
    assert inst["status"] == "running"
    [look] = until(lambda: pending(applicant))
    assert look["name"] == "Look"
    [sent] = stub.calls("/ok")
    assert sent["method"] == "POST" and sent["contentType"] == "application/json; charset=utf-8"
    assert sent["body"] == '{"amount": 5, "fixed": "x"}'
    d = detail(applicant, inst["processId"])
    assert d["variables"]["response"] == {"status": 200, "body": {"got": sent["body"], "query": ""}}
    assert [h["comment"] for h in history(applicant, inst["processId"], "http")] == [
        "Attempt 1 of 3: status 200"
    ]
    assert complete(applicant, look["taskId"])["code"] == 800
    assert detail(applicant, inst["processId"])["status"] == "completed"


def test_query_parameters_and_a_named_result(
    boss: Any, tenant: int, member: Callable[..., Any], stub: HttpStub
) -> None:
    applicant = member(tenant)
    url = stub.answer("/q", 201)
    call = http_task(
        "call", "Call", url, method="GET", paramType="query", successCode="201", resultVariable="hit"
    )
    deployed(boss, "http-query", between("http-query", call))
    inst = start(applicant, "http-query", city="Pécs", n=2)
    until(lambda: pending(applicant))
    [sent] = stub.calls("/q")
    assert sent["method"] == "GET" and "city=P%C3%A9cs" in sent["query"] and "n=2" in sent["query"]
    assert detail(applicant, inst["processId"])["variables"]["hit"]["status"] == 201


def test_a_failed_attempt_is_tried_again_after_its_backoff(
    boss: Any, tenant: int, member: Callable[..., Any], stub: HttpStub
) -> None:
    applicant = member(tenant)
    url = stub.answer("/flaky", 500, 200)
    deployed(boss, "http-flaky", between("http-flaky", http_task("call", "Call", url)))
    inst = start(applicant, "http-flaky")
    pid = inst["processId"]
    [failed] = until(lambda: history(applicant, pid, "http"))
    assert failed["comment"] == "Attempt 1 of 3 failed: status 500 (expected 200)"
    d = detail(applicant, pid)
    assert d["status"] == "running" and pending(applicant) == []
    [wait] = d["waiting"]
    assert (wait["kind"], wait["nodeId"], wait["attempt"], wait["attempts"]) == ("http", "call", 2, 3)
    assert "call" in d["activeNodes"]

    timers.wake_due(utcnow() + timedelta(seconds=1))
    time.sleep(0.3)
    assert len(stub.calls("/flaky")) == 1, "the second attempt waits for its backoff"

    timers.wake_due(utcnow() + timedelta(minutes=5))
    until(lambda: pending(applicant))
    assert len(stub.calls("/flaky")) == 2
    comments = [h["comment"] for h in history(applicant, pid, "http")]
    assert comments[-1] == "Attempt 2 of 3: status 200"
    d = detail(applicant, pid)
    assert d["waiting"] == [] and d["variables"]["response"]["status"] == 200


def test_after_the_last_attempt_the_instance_fails_with_the_reason(
    boss: Any, tenant: int, member: Callable[..., Any], stub: HttpStub
) -> None:
    applicant = member(tenant)
    url = stub.answer("/down", 503)
    deployed(boss, "http-down", between("http-down", http_task("call", "Call", url, attempts="2")))
    pid = start(applicant, "http-down")["processId"]
    until(lambda: history(applicant, pid, "http"))
    timers.wake_due(utcnow() + timedelta(hours=1))
    d = until(lambda: (found := detail(applicant, pid))["status"] == "failed" and found)
    assert d["error"] == "HTTP task Call failed after 2 attempts: status 503 (expected 200)"
    assert d["history"][-1]["action"] == "fail" and d["history"][-1]["comment"] == d["error"]
    assert len(stub.calls("/down")) == 2 and d["waiting"] == []
    assert boss.ok("GET", f"{API}/count")["failed"] >= 1


def test_an_unreachable_address_counts_as_a_failed_attempt(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant = member(tenant)
    with serving() as gone:
        url = gone.url + "/x"
    deployed(boss, "http-gone", between("http-gone", http_task("call", "Call", url, attempts="1")))
    pid = start(applicant, "http-gone")["processId"]
    d = until(lambda: (found := detail(applicant, pid))["status"] == "failed" and found)
    assert d["error"].startswith("HTTP task Call failed after 1 attempts: the address could not be reached")


def test_a_timer_waits_until_it_is_due(boss: Any, tenant: int, member: Callable[..., Any]) -> None:
    applicant = member(tenant)
    deployed(boss, "timer-wait", between("timer-wait", timer("wait", "Five minutes", "PT5M")))
    pid = start(applicant, "timer-wait")["processId"]
    d = detail(applicant, pid)
    [wait] = d["waiting"]
    assert wait["kind"] == "timer" and d["status"] == "running" and pending(applicant) == []

    timers.wake_due(utcnow() + timedelta(minutes=1))
    assert pending(applicant) == [] and detail(applicant, pid)["waiting"] == [wait]

    timers.wake_due(utcnow() + timedelta(minutes=6))
    [look] = pending(applicant)
    assert look["name"] == "Look"
    d = detail(applicant, pid)
    assert d["waiting"] == [] and [h["name"] for h in d["history"] if h["action"] == "timer"] == [
        "Five minutes"
    ]
    timers.wake_due(utcnow() + timedelta(minutes=60))
    assert len(pending(applicant)) == 1


def test_a_timer_date_and_a_boundary_timer_on_a_task(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant = member(tenant)
    when = (utcnow() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    deployed(boss, "timer-date", between("timer-date", timer("day", "Tomorrow", when, kind="timeDate")))
    dated = start(applicant, "timer-date")["processId"]
    xml = diagram(
        "escalate",
        "\n".join(
            [
                '<bpmn:startEvent id="start"/>',
                user_task("review", "Review", kind="starter"),
                timer("late", "Late", "PT1H", attached_to="review"),
                user_task("chase", "Chase", kind="starter"),
                '<bpmn:endEvent id="end"/>',
                '<bpmn:endEvent id="end2"/>',
                flow("f1", "start", "review"),
                flow("f2", "review", "end"),
                flow("f3", "late", "chase"),
                flow("f4", "chase", "end2"),
            ]
        ),
    )
    deployed(boss, "escalate", xml)
    late = start(applicant, "escalate")["processId"]
    assert [t["name"] for t in pending(applicant)] == ["Review"]

    timers.wake_due(utcnow() + timedelta(hours=2))
    assert [t["name"] for t in pending(applicant)] == ["Chase"]
    tasks = {t["name"]: t["status"] for t in detail(applicant, late)["tasks"]}
    assert tasks == {"Review": "closed", "Chase": "open"}
    assert detail(applicant, dated)["waiting"][0]["kind"] == "timer"

    timers.wake_due(utcnow() + timedelta(days=2))
    assert sorted(t["name"] for t in pending(applicant)) == ["Chase", "Look"]


def test_a_withdrawn_instance_is_not_woken(boss: Any, tenant: int, member: Callable[..., Any]) -> None:
    applicant = member(tenant)
    deployed(boss, "timer-drop", between("timer-drop", timer("wait", "Wait", "PT5M")))
    pid = start(applicant, "timer-drop")["processId"]
    applicant.ok("POST", f"{API}/instance/withdraw", json={"processId": int(pid)})
    timers.wake_due(utcnow() + timedelta(minutes=10))
    d = detail(applicant, pid)
    assert d["status"] == "withdrawn" and pending(applicant) == [] and d["waiting"] == []


@pytest.mark.parametrize(
    ("node", "rule"),
    [
        ('<bpmn:intermediateCatchEvent id="wait" name="Wait"/>', "Timer Wait needs one duration or date"),
        (
            timer("wait", "Wait", "five minutes"),
            "Timer Wait: five minutes is not an ISO 8601 duration (PT5M)",
        ),
        (timer("wait", "Wait", "R3/PT1M", kind="timeCycle"), "The element timeCycle is not supported"),
        (
            http_task("wait", "Call", "ftp://example.test/x"),
            "HTTP task Call: the request address must start with http:// or https://",
        ),
        (http_task("wait", "Call", "https://example.test/x", attempts="11"), "HTTP task Call: the number of"),
    ],
)
def test_timer_and_http_settings_are_checked_at_save(boss: AtriumClient, node: str, rule: str) -> None:
    answer = save(boss, "bad-wait", between("bad-wait", node))
    assert answer["code"] != 800
    assert any(e["message"].startswith(rule) for e in answer["data"]["errors"]), answer


def test_timer_values_that_save(boss: AtriumClient) -> None:
    values = [("PT30S", "timeDuration"), ("P1DT2H", "timeDuration"), ("'PT5M'", "timeDuration")]
    values += [("wait_for", "timeDuration"), ("2030-01-02T03:04:05", "timeDate"), ("2030-01-02", "timeDate")]
    for n, (value, kind) in enumerate(values):
        answer = save(boss, f"ok-wait{n}", between(f"ok-wait{n}", timer("wait", "Wait", value, kind=kind)))
        assert answer["code"] == 800, (value, answer)
