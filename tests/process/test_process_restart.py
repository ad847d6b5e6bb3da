"""A restart mid-process loses nothing: the instance continues from the state stored after its last step,
including instances waiting on a timer and on an HTTP task between two attempts."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from starlette.testclient import TestClient

from atrium.kernel.config import Settings
from atrium.plugins.process.engine import spiff, timers
from atrium.sdk.db import utcnow
from atrium.sdk.testing import AtriumClient, build_app
from tests.process.conftest import API, complete, deployed, detail, pending, start
from tests.process.diagrams import between, http_task, timer
from tests.process.http_stub import serving
from tests.process.test_process_waits import history, until


def _serve(var_dir: Path) -> tuple[TestClient, AtriumClient, AtriumClient]:
    settings = Settings(var_dir=var_dir, demo=True, dev_outbox=True, scheduler=False)
    http = TestClient(build_app(settings), base_url="http://testserver")
    http.__enter__()
    client = AtriumClient(http)
    return http, client.signed_in("alice"), client.signed_in("supervisor")


def test_restart_in_the_middle_of_a_process(tmp_path: Path) -> None:
    http, alice, boss = _serve(tmp_path)
    try:
        inst = start(alice, "leave-approval", days=5, startDate="2030-05-06")
        assert pending(alice) == []  # her own step is done as she starts
        [approve] = pending(boss)
        assert approve["name"] == "Supervisor approval"
    finally:
        http.__exit__(None, None, None)
    spiff._compiled.clear()

    http, alice, boss = _serve(tmp_path)
    try:
        assert [t["taskId"] for t in pending(boss)] == [approve["taskId"]]
        assert complete(boss, approve["taskId"])["code"] == 800
        [confirm] = pending(boss)
        assert confirm["name"] == "Second approval"
        assert complete(boss, confirm["taskId"])["code"] == 800
        d = alice.ok("GET", f"{API}/instance/detail", params={"processId": inst["processId"]})
        assert d["status"] == "completed" and d["variables"]["days"] == 5
    finally:
        http.__exit__(None, None, None)


def test_restart_while_waiting_on_a_timer_and_on_an_http_retry(tmp_path: Path) -> None:
    with serving() as stub:
        url = stub.answer("/flaky", 502, 200)
        http, alice, boss = _serve(tmp_path)
        try:
            deployed(boss, "r-timer", between("r-timer", timer("wait", "Wait", "PT5M")))
            deployed(boss, "r-http", between("r-http", http_task("call", "Call", url)))
            timed = start(alice, "r-timer")["processId"]
            called = start(alice, "r-http")["processId"]
            until(lambda: history(alice, called, "http"))
            assert pending(alice) == []
        finally:
            http.__exit__(None, None, None)
        spiff._compiled.clear()

        http, alice, boss = _serve(tmp_path)
        try:
            assert {w["kind"] for p in (timed, called) for w in detail(alice, p)["waiting"]} == {
                "timer",
                "http",
            }
            timers.wake_due(utcnow() + timedelta(minutes=10))
            looks = until(lambda: len(found := pending(alice)) == 2 and found)
            assert {t["processId"] for t in looks} == {timed, called}
            assert len(stub.calls("/flaky")) == 2
            for task in looks:
                assert complete(alice, task["taskId"])["code"] == 800
            assert {detail(alice, p)["status"] for p in (timed, called)} == {"completed"}
            assert detail(alice, called)["variables"]["response"]["status"] == 200
        finally:
            http.__exit__(None, None, None)
