"""Element names in the reader's language: a BPMN element may carry ``<atrium:label lang>`` children in its
``extensionElements``; lists, history, next steps, letters and the instance diagram read the label of the
request's language, else the element's ``name``. The designer keeps the diagram as saved."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select

from atrium.plugins.process import demo
from atrium.plugins.process.models import ProcessModel, ProcessVersion
from atrium.sdk.context import tenant_scope
from atrium.sdk.db import session
from atrium.sdk.testing import AtriumClient
from tests.process.conftest import API, complete, detail, pending, save, start, upcoming
from tests.process.diagrams import approval

#: the demo's process, start, apply, approve, gateway, confirm, end and conditional flow in each language
DEMO_NAMES = {
    "zh-cn": ["请假审批", "开始", "提交申请", "主管审批", "超过3天？", "二次审批", "结束", "超过3天"],
    "zh-tw": ["請假審批", "開始", "提交申請", "主管審批", "超過3天？", "二次審批", "結束", "超過3天"],
    "en-us": [
        "Leave approval",
        "Start",
        "Apply",
        "Supervisor approval",
        "More than 3 days?",
        "Second approval",
        "End",
        "days &gt; 3",
    ],
    "vi-vn": [
        "Duyệt nghỉ phép",
        "Bắt đầu",
        "Nộp đơn",
        "Quản lý duyệt",
        "Hơn 3 ngày?",
        "Duyệt lần hai",
        "Kết thúc",
        "hơn 3 ngày",
    ],
    "hu-hu": [
        "Szabadság jóváhagyása",
        "Kezdés",
        "Kérelem beadása",
        "Vezetői jóváhagyás",
        "Több mint 3 nap?",
        "Második jóváhagyás",
        "Vége",
        "több mint 3 nap",
    ],
}


def speak(c: AtriumClient, locale: str) -> AtriumClient:
    """``c`` asks in ``locale`` from now on (the language header the web sends)."""
    c.headers["language"] = locale.replace("-", "#")
    return c


def _deploy(boss: AtriumClient, key: str, xml: str, name: str) -> str:
    saved = save(boss, key, xml, name=name)
    assert saved["code"] == 800, saved
    model_id: str = saved["data"]["modelId"]
    boss.ok("POST", f"{API}/model/deploy", json={"modelId": model_id})
    return model_id


def _listed_name(c: AtriumClient, key: str) -> str:
    found = c.ok("POST", f"{API}/model/list", json={"keyword": key})["list"]
    [model] = [m for m in found if m["key"] == key]
    name: str = model["name"]
    return name


def _history(c: AtriumClient, process_id: str) -> list[tuple[str, str]]:
    return [(h["action"], h["name"]) for h in detail(c, process_id)["history"]]


def test_the_demo_leave_approval_reads_in_the_readers_language(
    boss: AtriumClient, tenant: int, member: Callable[..., Any]
) -> None:
    _deploy(boss, "leave", demo.XML, "Leave approval")
    applicant = member(tenant)
    inst = start(speak(applicant, "zh-cn"), "leave", days=5, startDate="2030-05-06")
    pid = inst["processId"]
    assert inst["modelName"] == "请假审批"

    speak(boss, "zh-cn")
    assert _listed_name(boss, "leave") == "请假审批"
    mine = [(t["name"], t["modelName"]) for t in pending(boss) if t["processId"] == pid]
    assert mine == [("主管审批", "请假审批")]
    assert [t["name"] for t in upcoming(boss) if t["processId"] == pid] == ["二次审批"]
    started = applicant.ok("POST", f"{API}/my/process", json={})["list"]
    assert [i["modelName"] for i in started if i["processId"] == pid] == ["请假审批"]

    speak(boss, "en-us")
    assert _listed_name(boss, "leave") == "Leave approval"
    mine = [(t["name"], t["modelName"]) for t in pending(boss) if t["processId"] == pid]
    assert mine == [("Supervisor approval", "Leave approval")]
    assert [t["name"] for t in upcoming(boss) if t["processId"] == pid] == ["Second approval"]

    speak(boss, "hu-hu")
    assert [t["name"] for t in pending(boss) if t["processId"] == pid] == ["Vezetői jóváhagyás"]
    [task] = [t for t in pending(boss) if t["processId"] == pid]
    assert complete(boss, task["taskId"])["code"] == 800

    # the history was written in Hungarian and English requests; each reader sees her own language
    assert _history(speak(applicant, "zh-cn"), pid) == [
        ("start", "请假审批"),
        ("complete", "提交申请"),
        ("complete", "主管审批"),
    ]
    assert _history(speak(applicant, "en-us"), pid) == [
        ("start", "Leave approval"),
        ("complete", "Apply"),
        ("complete", "Supervisor approval"),
    ]
    assert _history(speak(applicant, "vi-vn"), pid) == [
        ("start", "Duyệt nghỉ phép"),
        ("complete", "Nộp đơn"),
        ("complete", "Quản lý duyệt"),
    ]
    seen = detail(speak(applicant, "zh-tw"), pid)
    assert seen["modelName"] == "請假審批"
    assert [t["name"] for t in seen["tasks"]] == ["提交申請", "主管審批", "二次審批"]


def test_the_viewed_diagram_carries_the_readers_names_and_the_designer_the_saved_one(
    boss: AtriumClient, tenant: int, member: Callable[..., Any]
) -> None:
    model_id = _deploy(boss, "leave", demo.XML, "Leave approval")
    pid = start(member(tenant), "leave", days=1, startDate="2030-05-06")["processId"]

    viewed = detail(speak(boss, "zh-cn"), pid)["xml"]
    for name in DEMO_NAMES["zh-cn"]:
        assert f'name="{name}"' in viewed, name
    assert 'name="Supervisor approval"' not in viewed and 'name="days &gt; 3"' not in viewed

    designed = boss.ok("GET", f"{API}/model/detail", params={"modelId": model_id})
    assert designed["xml"] == demo.XML  # every label kept for the designer, names as written
    assert designed["name"] == "Leave approval"


def test_an_element_without_labels_reads_its_name(
    boss: AtriumClient, tenant: int, member: Callable[..., Any]
) -> None:
    applicant, manager, director = (member(tenant) for _ in range(3))
    labelled = (
        f'<bpmn:userTask id="manager" name="Manager approval" atrium:assignee="{manager.user_id}">'
        "<bpmn:extensionElements>"
        '<atrium:label lang="zh-cn">经理审批</atrium:label>'
        '<atrium:label lang="hu-hu">Vezetői jóváhagyás</atrium:label>'
        "</bpmn:extensionElements></bpmn:userTask>"
    )
    xml = approval("expense", manager.user_id, director.user_id).replace(
        f'<bpmn:userTask id="manager" name="Manager approval" atrium:assignee="{manager.user_id}"/>', labelled
    )
    assert labelled in xml
    _deploy(boss, "expense", xml, "Expense")
    pid = start(speak(applicant, "zh-cn"), "expense", amount=5000)["processId"]
    [apply] = pending(applicant)
    assert (apply["name"], apply["modelName"]) == ("Apply", "Expense")  # no label: the name
    assert complete(applicant, apply["taskId"])["code"] == 800
    assert [t["name"] for t in upcoming(speak(director, "zh-cn"))] == ["Director approval"]

    assert [t["name"] for t in pending(speak(manager, "zh-cn"))] == ["经理审批"]
    assert [t["name"] for t in pending(speak(manager, "vi-vn"))] == ["Manager approval"]  # none in Vietnamese
    assert _listed_name(speak(boss, "zh-cn"), "expense") == "Expense"
    viewed = detail(speak(applicant, "zh-cn"), pid)["xml"]
    assert 'name="经理审批"' in viewed and 'name="Director approval"' in viewed

    # the letter is written in the language of the step that sent it (here the applicant's)
    found = manager.ok("POST", "/api/message/iotBaseMessageLogController/message-find", json={})
    letters = [str(row) for row in found.get("list", found.get("records", []))]
    assert any("经理审批" in text for text in letters), letters


def test_the_demo_labels_every_named_element_in_every_language(
    boss: AtriumClient, tenant: int, member: Callable[..., Any]
) -> None:
    _deploy(boss, "leave", demo.XML, "Leave approval")
    pid = start(member(tenant), "leave", days=1, startDate="2030-05-06")["processId"]
    for locale, names in DEMO_NAMES.items():
        viewed = detail(speak(boss, locale), pid)["xml"]
        assert viewed.count('name="') == demo.XML.count('name="'), locale  # no element lost its name
        for name in names:
            assert f'name="{name}"' in viewed, (locale, name)


def test_a_tenant_on_an_older_demo_diagram_gets_the_labelled_one(
    kernel: Any, tenant: int, member: Callable[..., Any]
) -> None:
    older = approval("leave_approval", 1, 2)
    with tenant_scope(tenant), kernel.db():
        db = session()
        model = ProcessModel(
            key=demo.KEY, name="Leave approval", category="HR", latest_version=1, deployed_version=1
        )
        db.add(model)
        db.flush()
        db.add(ProcessVersion(model_id=model.id, version=1, xml=older))
        db.flush()
    with kernel.db():
        demo.load({"t": tenant})
    with tenant_scope(tenant), kernel.db():
        found = session().execute(select(ProcessModel).where(ProcessModel.key == demo.KEY)).scalar_one()
        assert (found.latest_version, found.deployed_version) == (2, 2)
    assert _listed_name(speak(member(tenant), "zh-cn"), demo.KEY) == "请假审批"
