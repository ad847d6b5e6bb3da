"""A restart mid-process loses nothing: the instance continues from the state stored after its last step."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from atrium.kernel.config import Settings
from atrium.plugins.process import engine
from atrium.sdk.testing import AtriumClient, build_app
from tests.process.conftest import API, complete, pending, start


def _serve(var_dir: Path) -> tuple[TestClient, AtriumClient, AtriumClient]:
    settings = Settings(var_dir=var_dir, demo=True, dev_outbox=True, scheduler=False)
    http = TestClient(build_app(settings), base_url="http://testserver")
    http.__enter__()
    client = AtriumClient(http)
    return http, client.signed_in("alice"), client.signed_in("supervisor")


def test_restart_in_the_middle_of_a_process(tmp_path: Path) -> None:
    http, alice, boss = _serve(tmp_path)
    try:
        inst = start(alice, "leave-approval", days=5)
        assert complete(alice, pending(alice)[0]["taskId"])["code"] == 800
        [approve] = pending(boss)
        assert approve["name"] == "Supervisor approval"
    finally:
        http.__exit__(None, None, None)
    engine._compiled.clear()

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
