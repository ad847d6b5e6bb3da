"""The designer's rules (spec reports.md 5) on the server, one test per rule, on save and on deploy; hostile
XML; the messages in the request's language."""

from __future__ import annotations

from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient
from tests.process.conftest import API, save
from tests.process.diagrams import approval, diagram, flow, user_task

START_END = '<bpmn:startEvent id="start"/><bpmn:endEvent id="end"/>'


def _with(*parts: str) -> str:
    return diagram("p", START_END + "\n".join(parts))


def _refused(c: AtriumClient, key: str, xml: str) -> dict[str, Any]:
    answer = save(c, key, xml)
    assert answer["code"] == 400, answer
    assert c.ok("POST", f"{API}/model/list", json={})["total"] == 0
    return answer


def _messages(answer: dict[str, Any]) -> list[str]:
    return [e["message"] for e in answer["data"]["errors"]]


VALID = _with(user_task("t", "T", assignee="1"), flow("f1", "start", "t"), flow("f2", "t", "end"))


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("", "The model id cannot be empty"),
        ("   ", "The model id cannot be empty"),
        ("1leave", "Model identification must begin with a letter"),
        ("_leave", "Model identification must begin with a letter"),
        ("leave approval!", "Invalid format"),
    ],
)
def test_model_id_rules(boss: AtriumClient, key: str, message: str) -> None:
    answer = _refused(boss, key, VALID)
    assert answer["msg"] == message


def test_model_id_messages_in_chinese(boss: AtriumClient) -> None:
    boss.headers["language"] = "zh#cn"
    assert _refused(boss, "", VALID)["msg"] == "模型标识不能为空"
    assert _refused(boss, "9a", VALID)["msg"] == "模型标识必须以字母开头"


def test_self_connection(boss: AtriumClient) -> None:
    xml = _with(
        user_task("t", "T", assignee="1"),
        flow("f1", "start", "t"),
        flow("loop", "t", "t"),
        flow("f2", "t", "end"),
    )
    assert _messages(_refused(boss, "p", xml)) == ["The node does not support connecting itself"]


def test_duplicate_relation(boss: AtriumClient) -> None:
    xml = _with(
        user_task("t", "T", assignee="1"),
        flow("f1", "start", "t"),
        flow("f1b", "start", "t"),
        flow("f2", "t", "end"),
    )
    assert _messages(_refused(boss, "p", xml)) == [
        "The relationship already exists and cannot be created again"
    ]


def test_loopback_between_two_nodes(boss: AtriumClient) -> None:
    xml = _with(
        user_task("a", "A", assignee="1"),
        user_task("b", "B", assignee="1"),
        flow("f1", "start", "a"),
        flow("f2", "a", "b"),
        flow("back", "b", "a"),
        flow("f3", "b", "end"),
    )
    assert _messages(_refused(boss, "p", xml)) == ["A loopback between two nodes is not supported"]


def _gateway(cond_a: str | None, cond_b: str | None) -> str:
    return _with(
        '<bpmn:exclusiveGateway id="gw"/>',
        user_task("a", "A", assignee="1"),
        user_task("b", "B", assignee="1"),
        flow("f1", "start", "gw"),
        flow("ga", "gw", "a", cond_a),
        flow("gb", "gw", "b", cond_b),
        flow("f2", "a", "end"),
        flow("f3", "b", "end"),
    )


def test_gateway_branch_without_condition(boss: AtriumClient) -> None:
    answer = _refused(boss, "p", _gateway("x > 1", None))
    assert answer["data"]["errors"] == [
        {
            "element": "gb",
            "rule": "gateway_branch",
            "message": "Gateway branch please click line to set conditions",
        }
    ]


def test_gateway_branch_with_an_empty_condition(boss: AtriumClient) -> None:
    assert _messages(_refused(boss, "p", _gateway("x > 1", "  "))) == [
        "Gateway condition branches must enter conditions"
    ]


@pytest.mark.parametrize(
    "condition",
    [
        "__import__('os').system('id')",
        "x.__class__.__mro__",
        "open('/etc/passwd')",
        "(lambda: 1)()",
        "[c for c in x]",
        "amount.real > 1",
        "exec('1')",
    ],
)
def test_a_condition_that_tries_to_run_code_is_refused_at_save(boss: AtriumClient, condition: str) -> None:
    answer = _refused(boss, "p", _gateway("x > 1", condition))
    assert answer["data"]["errors"][0]["rule"] == "condition_unsafe"
    assert "may only compare variables" in answer["msg"]


def test_allowed_conditions_save(boss: AtriumClient) -> None:
    answer = save(
        boss, "p", _gateway("amount > 1000 and dept in ['a', 'b']", "len(items) == 0 or not urgent")
    )
    assert answer["code"] == 800, answer


def test_parameter_names_keys_values_and_intervals(boss: AtriumClient) -> None:
    def task(ext: str) -> str:
        return _with(
            f'<bpmn:userTask id="t" name="T" atrium:assignee="1"><bpmn:extensionElements>{ext}'
            "</bpmn:extensionElements></bpmn:userTask>",
            flow("f1", "start", "t"),
            flow("f2", "t", "end"),
        )

    assert _refused(boss, "p", task('<atrium:property name="1a" value="1"/>'))["msg"] == (
        "Parameter name 1a must start with a letter or underscore"
    )
    assert (
        _refused(boss, "p", task('<atrium:property name="a" value=""/>'))["msg"]
        == "Key and value are required"
    )
    assert _refused(boss, "p", task('<atrium:property name="days" value="x" type="number"/>'))["msg"] == (
        "The value of days must be numeric"
    )
    assert _refused(boss, "p", task('<atrium:range min="10" max="2"/>'))["msg"] == (
        "The interval maximum cannot be less than the minimum"
    )
    ok = task('<atrium:property name="_days" value="3" type="number"/><atrium:range min="1" max="5"/>')
    assert save(boss, "p", ok)["code"] == 800


def test_script_tasks_need_language_and_content(boss: AtriumClient) -> None:
    def script(attrs: str, body: str) -> str:
        return _with(
            f'<bpmn:scriptTask id="s" name="Calc"{attrs}><bpmn:script>{body}</bpmn:script></bpmn:scriptTask>',
            flow("f1", "start", "s"),
            flow("f2", "s", "end"),
        )

    assert _messages(_refused(boss, "p", script("", "a = 1"))) == [
        "Script task Calc: the script language is required"
    ]
    assert _messages(_refused(boss, "p", script(' scriptFormat="python"', " "))) == [
        "Script task Calc: the script content is required"
    ]
    assert _refused(boss, "p", script(' scriptFormat="python"', "import os"))["data"]["errors"][0][
        "rule"
    ] == ("script_unsafe")


def test_http_tasks_need_every_request_setting(boss: AtriumClient) -> None:
    xml = _with(
        '<bpmn:serviceTask id="h" name="Call" atrium:type="http" atrium:url="https://example.test/api" '
        'atrium:body="{not json"/>',
        flow("f1", "start", "h"),
        flow("f2", "h", "end"),
    )
    assert _messages(_refused(boss, "p", xml)) == [
        "HTTP task Call: the request method is required",
        "HTTP task Call: the parameter type is required",
        "HTTP task Call: the character set is required",
        "HTTP task Call: the content type is required",
        "HTTP task Call: a success status code (100-599) is required",
        "body must be valid, non-empty JSON",
    ]


def test_user_tasks_need_someone_to_do_them(boss: AtriumClient) -> None:
    xml = _with(user_task("t", "Review"), flow("f1", "start", "t"), flow("f2", "t", "end"))
    assert _refused(boss, "p", xml)["msg"] == (
        "User task Review needs users, candidate roles, the starter or the supervisor"
    )


def test_imported_files_must_be_bpmn(boss: AtriumClient) -> None:
    body = {"fileName": "leave.exe", "key": "leave", "name": "Leave", "xml": approval("leave", 1, 2)}
    answer = boss.post(f"{API}/model/import", json=body)
    assert answer["code"] == 400 and answer["msg"] == "The file type must be one of: .bpmn, .xml"
    body["fileName"] = "leave.bpmn"
    assert boss.post(f"{API}/model/import", json=body)["code"] == 800


def test_deploy_checks_the_rules_again(boss: AtriumClient) -> None:
    saved = boss.ok(
        "POST", f"{API}/model/save", json={"key": "leave", "name": "L", "xml": approval("leave", 1, 2)}
    )
    assert saved["version"] == 1
    assert boss.ok("POST", f"{API}/model/deploy", json={"modelId": "leave"})["deployedVersion"] == 1
    assert boss.get(f"{API}/model/detail", params={"modelId": "leave"})["data"]["xml"].startswith("<?xml")


XXE = (
    '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"><bpmn:process id="p">'
    '<bpmn:startEvent id="s" name="&x;"/></bpmn:process></bpmn:definitions>'
)
LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + "".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">' for i in range(1, 10)
    )
    + ']><bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL">&lol9;</bpmn:definitions>'
)


@pytest.mark.parametrize("xml", [XXE, LAUGHS], ids=["xxe", "billion-laughs"])
def test_hostile_xml_is_refused(boss: AtriumClient, xml: str) -> None:
    answer = _refused(boss, "p", xml)
    assert answer["msg"] == "The diagram may not contain a DTD, entities or external references"


def test_oversized_and_broken_xml(boss: AtriumClient) -> None:
    big = VALID.replace("<bpmn:process", "<!--" + "x" * 1_100_000 + "--><bpmn:process")
    assert _refused(boss, "p", big)["msg"] == "The diagram may not exceed 1000 KB"
    huge = boss.post(f"{API}/model/save", json={"key": "p", "name": "p", "xml": "x" * 10_000_000})
    assert huge["code"] == 413 and huge["msg"]  # past the JSON body limit
    assert _refused(boss, "p", "<bpmn:definitions")["msg"].startswith("The diagram is not valid XML")
    assert _refused(boss, "p", "<html><body/></html>")["msg"] == "The file is not a BPMN 2.0 diagram"
    odd = VALID.replace('<bpmn:endEvent id="end"/>', '<bpmn:endEvent id="end"/><bpmn:callActivity id="c"/>')
    assert _refused(boss, "p", odd)["msg"] == "The element callActivity is not supported"


def test_members_may_not_design(boss: AtriumClient, member: Any, tenant: int) -> None:
    assert save(member(tenant), "leave", VALID)["code"] != 800
