"""Defects users met, through the API: a process's start form (declared on its start event, checked by the
server as the web form checks it, refused in the request's language); the starter's own first step done as
she starts when the model says so; "next steps" that only list steps the gateways will take under the
instance's variables; the history naming who did each step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from atrium.plugins.process.engine import expr
from atrium.sdk.testing import AtriumClient
from tests.process.conftest import API, complete, deployed, detail, pending, save, start, upcoming
from tests.process.diagrams import diagram, flow, user_task

FIELDS = """
<bpmn:startEvent id="start" name="Start"><bpmn:extensionElements>
  <atrium:formField id="amount" type="number" required="true" min="1" max="10000" label="Amount">
    <atrium:label lang="zh-cn">金额</atrium:label>
  </atrium:formField>
  <atrium:formField id="payDay" type="date" required="true" label="Pay day"/>
  <atrium:formField id="note" type="text" label="Note"/>
</bpmn:extensionElements></bpmn:startEvent>
"""


def expense(manager: int, director: int, start_event: str = FIELDS, first: str = "") -> str:
    """start (its form) → the starter's Apply → amount over 1000 to the director, else the manager → end."""
    apply_attrs = ' atrium:completeOnStart="true"' if first == "auto" else ""
    return diagram(
        "expense",
        "\n".join(
            [
                start_event,
                f'<bpmn:userTask id="apply" name="Apply" atrium:assigneeType="starter"{apply_attrs}/>',
                '<bpmn:exclusiveGateway id="gw" name="Amount?" default="small"/>',
                user_task("director", "Director approval", assignee=str(director)),
                user_task("manager", "Manager approval", assignee=str(manager)),
                '<bpmn:endEvent id="end" name="End"/>',
                flow("f1", "start", "apply"),
                flow("f2", "apply", "gw"),
                flow("big", "gw", "director", "amount > 1000"),
                flow("small", "gw", "manager"),
                flow("f3", "director", "end"),
                flow("f4", "manager", "end"),
            ]
        ),
    )


def _people(tenant: int, member: Callable[..., Any]) -> tuple[Any, Any, Any]:
    return member(tenant), member(tenant), member(tenant)


def _start(c: AtriumClient, key: str, variables: dict[str, Any]) -> dict[str, Any]:
    return c.post(f"{API}/instance/start", json={"modelId": key, "variables": variables})


# -- 1. the start form ------------------------------------------------------------------------------------


def test_the_model_list_carries_the_deployed_start_form(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", expense(manager.user_id, director.user_id))
    [model] = applicant.ok("POST", f"{API}/model/list", json={})["list"]
    fields = {f["id"]: f for f in model["startFields"]}
    assert list(fields) == ["amount", "payDay", "note"]
    assert fields["amount"] == {
        "id": "amount",
        "type": "number",
        "label": "Amount",
        "labels": {"zh-cn": "金额"},
        "required": True,
        "min": 1.0,
        "max": 10000.0,
    }
    assert (fields["payDay"]["type"], fields["payDay"]["required"]) == ("date", True)
    assert (fields["note"]["type"], fields["note"]["required"]) == ("text", False)


def test_the_start_form_is_checked_by_the_server_and_nothing_starts(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", expense(manager.user_id, director.user_id))

    missing = _start(applicant, "expense", {})
    assert missing["code"] == 400 and missing["msg"] == "Amount is required"
    assert [(e["field"], e["rule"]) for e in missing["data"]["errors"]] == [
        ("amount", "field_required"),
        ("payDay", "field_required"),
    ]
    wrong = _start(applicant, "expense", {"amount": "lots", "payDay": "2030-02-30", "note": "x"})
    assert [e["rule"] for e in wrong["data"]["errors"]] == ["field_number", "field_date"]
    assert wrong["data"]["errors"][1]["message"] == "Pay day must be a date (YYYY-MM-DD)"
    too_much = _start(applicant, "expense", {"amount": 20000, "payDay": "2030-02-01"})
    assert too_much["msg"] == "Amount must be between 1 and 10000"
    assert _start(applicant, "expense", {"amount": True, "payDay": "2030-02-01"})["code"] == 400
    assert applicant.ok("POST", f"{API}/my/process", json={})["total"] == 0

    applicant.headers["language"] = "zh#cn"
    chinese = _start(applicant, "expense", {"payDay": "2030-02-01"})
    assert chinese["code"] == 400 and chinese["msg"] == "请填写金额"
    applicant.headers["language"] = "en#us"

    inst = start(applicant, "expense", amount="250", payDay="2030-02-01", note="  taxi  ")
    variables = detail(applicant, inst["processId"])["variables"]
    assert (variables["amount"], variables["payDay"], variables["note"]) == (250, "2030-02-01", "taxi")


def test_broken_start_fields_are_refused_at_save(boss: Any) -> None:
    bad = FIELDS.replace('type="date"', 'type="colour"').replace('id="note"', 'id="amount"')
    answer = save(boss, "broken", expense(1, 2, start_event=bad))
    assert answer["code"] == 400
    assert {e["rule"] for e in answer["data"]["errors"]} == {"field_type", "field_duplicate"}
    answer = save(boss, "broken", expense(1, 2, start_event=FIELDS.replace('min="1"', 'min="one"')))
    assert [e["rule"] for e in answer["data"]["errors"]] == ["value_numeric"]


def test_the_demo_leave_process_declares_its_start_form(user_client: AtriumClient) -> None:
    found = user_client.ok("POST", f"{API}/model/list", json={"keyword": "leave-approval"})["list"]
    [leave] = [m for m in found if m["key"] == "leave-approval"]
    fields = {f["id"]: f for f in leave["startFields"]}
    assert list(fields) == ["days", "startDate", "reason"]
    assert (fields["days"]["type"], fields["days"]["required"]) == ("number", True)
    assert (fields["startDate"]["type"], fields["startDate"]["required"]) == ("date", True)
    for f in fields.values():  # the demo's labels in every language
        assert set(f["labels"]) == {"zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu"}


# -- 2. the starter's own first step ----------------------------------------------------------------------


def test_a_first_step_marked_so_is_done_as_the_starter_starts(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", expense(manager.user_id, director.user_id, first="auto"))
    inst = start(applicant, "expense", amount=20, payDay="2030-02-01")
    assert pending(applicant) == []
    [mgr] = pending(manager)
    assert mgr["name"] == "Manager approval"
    d = detail(applicant, inst["processId"])
    assert [(h["action"], h["nodeId"], h["userId"]) for h in d["history"]] == [
        ("start", "", applicant.user_id),
        ("complete", "apply", applicant.user_id),
    ]
    assert [(t["nodeId"], t["status"], t["doneBy"]) for t in d["tasks"]] == [
        ("apply", "done", applicant.user_id),
        ("manager", "open", None),
    ]
    assert d["doneNodes"] == ["apply"]

    # the manager may still send it back to the applicant's step, which then waits for her
    back = manager.post(f"{API}/task/reject", json={"taskId": int(mgr["taskId"]), "comment": "which taxi?"})
    assert back["code"] == 800, back
    [again] = pending(applicant)
    assert again["name"] == "Apply"
    assert complete(applicant, again["taskId"])["code"] == 800
    assert [t["name"] for t in pending(manager)] == ["Manager approval"]


def test_a_first_step_not_marked_still_waits_for_the_starter(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", expense(manager.user_id, director.user_id))
    start(applicant, "expense", amount=20, payDay="2030-02-01")
    assert [t["name"] for t in pending(applicant)] == ["Apply"]


def test_the_demo_applicants_step_never_reaches_her_list(user_client: AtriumClient, client: Any) -> None:
    boss = client.signed_in("supervisor")
    inst = start(user_client, "leave-approval", days=2, startDate="2030-05-06", reason="family")
    assert [t for t in pending(user_client) if t["processId"] == inst["processId"]] == []
    mine = [t for t in pending(boss) if t["processId"] == inst["processId"]]
    assert [t["name"] for t in mine] == ["Supervisor approval"]


# -- 4. next steps ----------------------------------------------------------------------------------------


def test_next_steps_only_list_the_branch_the_gateway_takes(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", expense(manager.user_id, director.user_id))
    small = start(applicant, "expense", amount=20, payDay="2030-02-01")
    assert [(t["name"], t["processId"]) for t in upcoming(manager)] == [
        ("Manager approval", small["processId"])
    ]
    assert upcoming(director) == []

    big = start(applicant, "expense", amount=5000, payDay="2030-02-01")
    assert [(t["name"], t["processId"]) for t in upcoming(director)] == [
        ("Director approval", big["processId"])
    ]
    assert [t["processId"] for t in upcoming(manager)] == [small["processId"]]

    # the amount changes in the applicant's step: the prediction follows once it is done
    task = next(t for t in pending(applicant) if t["processId"] == big["processId"])
    assert complete(applicant, task["taskId"], amount=30)["code"] == 800
    assert upcoming(director) == []
    assert [t["name"] for t in pending(manager) if t["processId"] == big["processId"]] == ["Manager approval"]


def test_a_condition_that_cannot_be_told_yet_keeps_both_branches(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant, manager, director = _people(tenant, member)
    no_form = '<bpmn:startEvent id="start" name="Start"/>'
    deployed(boss, "expense", expense(manager.user_id, director.user_id, start_event=no_form))
    inst = start(applicant, "expense")  # no amount yet: the applicant sets it in her step
    assert [t["processId"] for t in upcoming(director)] == [inst["processId"]]
    assert [t["processId"] for t in upcoming(manager)] == [inst["processId"]]


def test_the_demo_second_approval_is_next_only_for_long_leaves(
    user_client: AtriumClient, client: Any
) -> None:
    boss = client.signed_in("supervisor")
    short = start(user_client, "leave-approval", days=2, startDate="2030-05-06")["processId"]
    long = start(user_client, "leave-approval", days=5, startDate="2030-05-06")["processId"]
    nexts = {(t["processId"], t["name"]) for t in upcoming(boss) if t["processId"] in (short, long)}
    assert nexts == {(long, "Second approval")}


def test_condition_verdicts() -> None:
    assert expr.decide("amount > 1000", {"amount": 5000}) is True
    assert expr.decide("amount > 1000", {"amount": 5}) is False
    assert expr.decide("amount > 1000", {}) is None  # not set yet
    assert expr.decide("len(items) > 1 and ok", {"items": [1, 2], "ok": True}) is True
    assert expr.decide("amount > 1000", {"amount": "x"}) is None  # fails on the value
    assert expr.decide("__import__('os')", {}) is None


# -- 5. who did each step ---------------------------------------------------------------------------------


def test_the_history_names_who_did_each_step(boss: Any, tenant: int, member: Callable[..., Any]) -> None:
    applicant, manager, director = _people(tenant, member)
    deployed(boss, "expense", expense(manager.user_id, director.user_id, first="auto"))
    inst = start(applicant, "expense", amount=20, payDay="2030-02-01")
    assert complete(manager, pending(manager)[0]["taskId"])["code"] == 800
    d = detail(applicant, inst["processId"])
    name_of = {
        applicant.user_id: applicant.ok("GET", "/api/base/base-user/get-login-user")["userFullName"],
        manager.user_id: manager.ok("GET", "/api/base/base-user/get-login-user")["userFullName"],
    }
    assert [(h["action"], h["userName"]) for h in d["history"]] == [
        ("start", name_of[applicant.user_id]),
        ("complete", name_of[applicant.user_id]),
        ("complete", name_of[manager.user_id]),
        ("end", None),
    ]
    assert [t["doneByName"] for t in d["tasks"]] == [name_of[applicant.user_id], name_of[manager.user_id]]
    assert d["startedByName"] == name_of[applicant.user_id]
