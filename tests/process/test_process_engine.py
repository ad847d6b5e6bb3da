"""Running processes through the API: gateways, claim, complete, reject back, withdraw, cancel, the lists,
the counts, notifications, another tenant's ids, tasks done twice or by the wrong person."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from atrium.sdk.testing import AtriumClient
from tests.process.conftest import API, complete, deployed, detail, pending, start, upcoming
from tests.process.diagrams import approval, diagram, flow, user_task


def _people(tenant: int, member: Callable[..., Any]) -> tuple[Any, Any, Any]:
    return member(tenant), member(tenant), member(tenant)


def test_large_amount_goes_through_the_director(boss: Any, tenant: int, member: Callable[..., Any]) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", approval("expense", manager.user_id, director.user_id))
    inst = start(applicant, "expense", amount=5000)
    assert inst["status"] == "running"

    [apply] = pending(applicant)
    assert apply["name"] == "Apply" and apply["processId"] == inst["processId"]
    assert [t["name"] for t in upcoming(manager)] == ["Manager approval"]
    assert pending(manager) == []
    assert complete(applicant, apply["taskId"])["code"] == 800

    [mgr] = pending(manager)
    assert upcoming(manager) == []
    assert complete(manager, mgr["taskId"], approved=True)["code"] == 800
    [dir_task] = pending(director)
    assert dir_task["name"] == "Director approval"
    assert complete(director, dir_task["taskId"])["code"] == 800

    d = detail(applicant, inst["processId"])
    assert d["status"] == "completed"
    assert d["variables"]["amount"] == 5000 and d["variables"]["approved"] is True
    assert [h["action"] for h in d["history"]] == ["start", "complete", "complete", "complete", "end"]
    assert d["doneNodes"] == ["apply", "director", "manager"]
    assert "<bpmn:process" in d["xml"]
    mine = applicant.ok("POST", f"{API}/my/process", json={})
    assert [(p["processId"], p["status"]) for p in mine["list"]] == [(inst["processId"], "completed")]


def test_small_amount_skips_the_director(boss: Any, tenant: int, member: Callable[..., Any]) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", approval("expense", manager.user_id, director.user_id))
    inst = start(applicant, "expense", amount=20)
    complete(applicant, pending(applicant)[0]["taskId"])
    complete(manager, pending(manager)[0]["taskId"])
    assert pending(director) == []
    assert detail(applicant, inst["processId"])["status"] == "completed"


def test_a_task_done_twice_or_by_someone_else_is_refused(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", approval("expense", manager.user_id, director.user_id))
    start(applicant, "expense", amount=5000)
    task = pending(applicant)[0]["taskId"]

    stranger = complete(director, task)
    assert stranger["code"] == 403 and "not assigned to you" in stranger["msg"]
    assert complete(applicant, task)["code"] == 800
    again = complete(applicant, task)
    assert again["code"] == 409 and "already been handled" in again["msg"]
    assert len(pending(manager)) == 1


def test_reject_sends_the_process_back_to_the_previous_step(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", approval("expense", manager.user_id, director.user_id))
    inst = start(applicant, "expense", amount=5000)
    complete(applicant, pending(applicant)[0]["taskId"])
    mgr = pending(manager)[0]["taskId"]
    assert applicant.post(f"{API}/task/reject", json={"taskId": int(mgr)})["code"] == 403

    back = manager.post(f"{API}/task/reject", json={"taskId": int(mgr), "comment": "receipt missing"})
    assert back["code"] == 800, back
    assert pending(manager) == []
    [again] = pending(applicant)
    assert again["name"] == "Apply" and again["taskId"] != mgr
    complete(applicant, again["taskId"], amount=50)
    complete(manager, pending(manager)[0]["taskId"])
    d = detail(applicant, inst["processId"])
    assert d["status"] == "completed"
    assert [h["action"] for h in d["history"]] == [
        "start",
        "complete",
        "reject",
        "complete",
        "complete",
        "end",
    ]
    assert d["history"][2]["comment"] == "receipt missing"


def test_the_first_step_has_nothing_to_reject_back_to(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", approval("expense", manager.user_id, director.user_id))
    start(applicant, "expense", amount=1)
    task = pending(applicant)[0]["taskId"]
    answer = applicant.post(f"{API}/task/reject", json={"taskId": int(task)})
    assert answer["code"] == 409 and "no earlier step" in answer["msg"]
    assert [t["taskId"] for t in pending(applicant)] == [task]


def test_withdraw_by_the_starter_and_cancel_by_an_administrator(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", approval("expense", manager.user_id, director.user_id))
    first = start(applicant, "expense", amount=5000)
    complete(applicant, pending(applicant)[0]["taskId"])
    pid = int(first["processId"])

    assert manager.post(f"{API}/instance/withdraw", json={"processId": pid})["code"] == 403
    assert manager.post(f"{API}/instance/cancel", json={"processId": pid})["code"] != 800
    assert applicant.ok("POST", f"{API}/instance/withdraw", json={"processId": pid})["status"] == "withdrawn"
    assert pending(manager) == []
    assert applicant.post(f"{API}/instance/withdraw", json={"processId": pid})["code"] == 409

    second = start(applicant, "expense", amount=5000)
    assert boss.ok("POST", f"{API}/instance/cancel", json={"processId": int(second["processId"])})[
        "status"
    ] == ("cancelled")
    assert pending(applicant) == []
    assert [h["action"] for h in detail(applicant, second["processId"])["history"]] == ["start", "cancel"]


def test_role_and_supervisor_tasks_are_claimed_by_one_person(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant = member(tenant)
    other_boss = member(tenant, supervisor=True)
    xml = diagram(
        "review",
        "\n".join(
            [
                '<bpmn:startEvent id="start"/>',
                user_task("check", "Supervisor check", kind="supervisor"),
                '<bpmn:endEvent id="end"/>',
                flow("f1", "start", "check"),
                flow("f2", "check", "end"),
            ]
        ),
    )
    deployed(boss, "review", xml)
    start(applicant, "review")
    assert pending(applicant) == []
    [task] = pending(boss)
    assert [t["taskId"] for t in pending(other_boss)] == [task["taskId"]]
    assert (
        boss.ok("POST", f"{API}/task/claim", json={"taskId": int(task["taskId"])})["claimedBy"]
        == boss.user_id
    )
    assert pending(other_boss) == []
    assert complete(other_boss, task["taskId"])["code"] == 403
    assert complete(boss, task["taskId"])["code"] == 800


def test_counts_and_weekly_submissions(boss: Any, tenant: int, member: Callable[..., Any]) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", approval("expense", manager.user_id, director.user_id))
    before = boss.ok("GET", f"{API}/count")
    assert (before["running"], before["normal"], before["failed"], before["weekTotal"]) == (0, 0, 0, 0)
    start(applicant, "expense", amount=1)
    done = start(applicant, "expense", amount=1)
    task = next(t for t in pending(applicant) if t["processId"] == done["processId"])
    complete(applicant, task["taskId"])
    complete(manager, pending(manager)[0]["taskId"])
    after = boss.ok("GET", f"{API}/count")
    assert (after["running"], after["normal"], after["failed"], after["weekTotal"]) == (1, 1, 0, 2)
    assert after["weekly"][-1]["count"] == 2 and len(after["weekly"]) == 7


def test_a_failing_script_marks_the_instance_failed(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant = member(tenant)
    xml = diagram(
        "calc",
        "\n".join(
            [
                '<bpmn:startEvent id="start"/>',
                '<bpmn:scriptTask id="calc" name="Calc" scriptFormat="python">'
                "<bpmn:script>ratio = amount / count</bpmn:script></bpmn:scriptTask>",
                user_task("look", "Look", kind="starter"),
                '<bpmn:endEvent id="end"/>',
                flow("f1", "start", "calc"),
                flow("f2", "calc", "look"),
                flow("f3", "look", "end"),
            ]
        ),
    )
    deployed(boss, "calc", xml)
    ok = start(applicant, "calc", amount=10, count=4)
    assert ok["status"] == "running"
    assert detail(applicant, ok["processId"])["variables"]["ratio"] == 2.5
    bad = start(applicant, "calc", amount=10, count=0)
    assert bad["status"] == "failed" and bad["error"]
    counts = boss.ok("GET", f"{API}/count")
    assert (counts["running"], counts["failed"]) == (1, 1)


def test_new_tasks_reach_the_assignee_as_messages(boss: Any, tenant: int, member: Callable[..., Any]) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", approval("expense", manager.user_id, director.user_id))

    def unread(c: AtriumClient) -> int:
        n: int = c.ok("POST", "/api/message/iotBaseMessageLogController/unread-message-total", json={})
        return n

    before = unread(manager)
    start(applicant, "expense", amount=1)
    complete(applicant, pending(applicant)[0]["taskId"])
    assert unread(manager) == before + 1
    found = manager.ok("POST", "/api/message/iotBaseMessageLogController/message-find", json={})
    assert any("Manager approval" in str(row) for row in found.get("list", found.get("records", [])))


def test_another_tenants_models_tasks_and_instances_are_not_found(
    boss: Any, tenant: int, member: Callable[..., Any], tenant_factory: Callable[..., int]
) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", approval("expense", manager.user_id, director.user_id))
    inst = start(applicant, "expense", amount=5000)
    task = pending(applicant)[0]["taskId"]

    other = member(tenant_factory(), supervisor=True)
    assert other.post(f"{API}/instance/start", json={"modelId": "expense"})["code"] == 404
    assert other.get(f"{API}/instance/detail", params={"processId": inst["processId"]})["code"] == 404
    assert complete(other, task)["code"] == 404
    assert other.post(f"{API}/instance/cancel", json={"processId": int(inst["processId"])})["code"] == 404
    assert other.ok("POST", f"{API}/model/list", json={})["total"] == 0
    assert len(pending(applicant)) == 1


def test_bad_variables_are_refused_and_nothing_starts(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", approval("expense", manager.user_id, director.user_id))
    bad = applicant.post(f"{API}/instance/start", json={"modelId": "expense", "variables": {"1x": 3}})
    assert bad["code"] == 400 and "must start with a letter or underscore" in bad["msg"]
    assert applicant.ok("POST", f"{API}/my/process", json={})["total"] == 0
    undeployed = boss.post(
        f"{API}/model/save", json={"key": "draft", "name": "d", "xml": approval("draft", 1, 2)}
    )
    assert undeployed["code"] == 800
    answer = applicant.post(f"{API}/instance/start", json={"modelId": "draft"})
    assert answer["code"] == 409 and "no deployed version" in answer["msg"]


def test_my_pending_pages_newest_first_with_the_total(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", approval("expense", manager.user_id, director.user_id))
    started = [start(applicant, "expense", amount=i)["processId"] for i in range(5)]

    def page(num: int) -> dict[str, Any]:
        body: dict[str, Any] = applicant.ok("POST", f"{API}/my/pending", json={"pageNum": num, "pageSize": 2})
        return body

    pages = [page(n) for n in (1, 2, 3)]
    assert [p["total"] for p in pages] == [5, 5, 5]
    assert [len(p["list"]) for p in pages] == [2, 2, 1]
    shown = [t["processId"] for p in pages for t in p["list"]]
    assert shown == list(reversed(started))  # newest first, each once
    assert page(4) == {"list": [], "total": 5}  # past the end: nothing, the total still told
    complete(applicant, pages[0]["list"][0]["taskId"])
    assert page(1)["total"] == 4
