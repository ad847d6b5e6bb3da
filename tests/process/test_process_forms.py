"""Forms as a process's start form and task form, through the hooks both plugins agree on
(`atrium_process_forms`, `atrium_process_form_submit`: forms' plugins/forms/hooks.py, process's
`service._submit_form`); neither plugin imports the other. The form is designed and published through the
forms API, the process deployed and run through the process API."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any

from atrium.sdk.testing import AtriumClient
from tests.process.conftest import API, deployed, detail, pending
from tests.process.diagrams import diagram, flow, user_task

FORMS = "/api/form"
ROOT = Path(__file__).resolve().parents[2]


def trip_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["destination", "nights"],
        "properties": {
            "destination": {
                "type": "string",
                "title": "目的地",
                "x-kind": "text",
                "minLength": 2,
                "x-i18n": {"en-us": "Destination"},
            },
            "nights": {
                "type": "integer",
                "title": "天数",
                "x-kind": "number",
                "minimum": 1,
                "maximum": 14,
                "x-i18n": {"en-us": "Nights"},
            },
        },
    }


def review_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["verdict"],
        "properties": {
            "verdict": {
                "type": "string",
                "title": "Verdict",
                "x-kind": "radio",
                "enum": ["ok", "no"],
            },
            "remark": {"type": "string", "title": "Remark", "x-kind": "textarea", "maxLength": 50},
        },
    }


def publish(c: AtriumClient, code: str, schema: dict[str, Any]) -> str:
    body = {"code": code, "name": {"en-us": code}, "schema": schema}
    saved = c.ok("POST", f"{FORMS}/design/save", json={"params": body})
    c.ok("POST", f"{FORMS}/design/publish", json={"formId": saved["formId"]})
    return str(saved["formId"])


def trip_process(reviewer: int) -> str:
    """start (form ``trip``) → review (task form ``trip-review``) → end."""
    return diagram(
        "trip",
        "\n".join(
            [
                '<bpmn:startEvent id="start" name="Start" atrium:formKey="trip"/>',
                user_task("review", "Review", assignee=str(reviewer), form="trip-review"),
                '<bpmn:endEvent id="end" name="End"/>',
                flow("f1", "start", "review"),
                flow("f2", "review", "end"),
            ]
        ),
    )


def submissions(c: AtriumClient, form: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = c.ok("POST", f"{FORMS}/submission/list", json={"formId": form})["list"]
    return rows


def test_a_start_form_and_a_task_form_are_checked_stored_and_become_variables(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant, reviewer = member(tenant), member(tenant)
    publish(boss, "trip", trip_schema())
    publish(boss, "trip-review", review_schema())
    offered = {f["code"]: f for f in applicant.ok("GET", f"{API}/forms")}
    assert set(offered) == {"trip", "trip-review"}, "the process plugin offers the published forms"
    assert offered["trip"]["schema"]["required"] == ["destination", "nights"]
    deployed(boss, "trip", trip_process(reviewer.user_id))

    # the start form is checked by the forms plugin: its field messages come back and nothing starts
    bad = applicant.post(
        f"{API}/instance/start", json={"modelId": "trip", "form": {"destination": "X", "nights": 30}}
    )
    assert bad["code"] == 400
    assert bad["data"]["errors"] == [
        {"field": "destination", "message": "Destination needs at least 2 characters"},
        {"field": "nights", "message": "Nights must be at most 14"},
    ]
    assert applicant.ok("POST", f"{API}/my/process", json={})["list"] == []
    assert submissions(boss, "trip") == []
    assert applicant.post(f"{API}/instance/start", json={"modelId": "trip"})["code"] == 400

    started = applicant.ok(
        "POST",
        f"{API}/instance/start",
        json={"modelId": "trip", "form": {"destination": "Lisbon", "nights": 3, "extra": "dropped"}},
    )
    assert started["status"] == "running"
    [stored] = submissions(boss, "trip")
    assert stored["data"] == {"destination": "Lisbon", "nights": 3} and stored["status"] == "submitted"
    mine = [s["submissionId"] for s in submissions(applicant, "trip")]
    assert mine == [stored["submissionId"]], "stored as the applicant's own"

    # the task form: refused with its messages, then stored, and the process ends
    [task] = pending(reviewer)
    assert task["formKey"] == "trip-review"
    refused = reviewer.post(
        f"{API}/task/complete", json={"taskId": int(task["taskId"]), "form": {"verdict": "maybe"}}
    )
    assert refused["code"] == 400 and refused["data"]["errors"][0]["field"] == "verdict"
    assert [t["taskId"] for t in pending(reviewer)] == [task["taskId"]], "the task stays open"
    reviewer.ok(
        "POST",
        f"{API}/task/complete",
        json={"taskId": int(task["taskId"]), "form": {"verdict": "ok", "remark": "fine"}},
    )
    done = detail(applicant, started["processId"])
    assert done["status"] == "completed"
    assert done["variables"]["destination"] == "Lisbon" and done["variables"]["nights"] == 3
    assert done["variables"]["verdict"] == "ok" and "extra" not in done["variables"]
    [review] = submissions(boss, "trip-review")
    assert review["data"] == {"verdict": "ok", "remark": "fine"}


def test_a_start_form_that_is_not_published_refuses_the_start(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    reviewer = member(tenant)
    form_id = publish(boss, "trip", trip_schema())
    deployed(boss, "trip", trip_process(reviewer.user_id))
    boss.ok("POST", f"{FORMS}/design/unpublish", json={"formId": form_id})
    refused = boss.post(
        f"{API}/instance/start", json={"modelId": "trip", "form": {"destination": "Lisbon", "nights": 3}}
    )
    assert refused["code"] == 400
    assert refused["data"]["errors"] == [{"field": "", "message": "Form trip is not published"}]
    assert boss.ok("GET", f"{API}/forms") == []


def test_neither_plugin_imports_the_other() -> None:
    for plugin, other in (("forms", "process"), ("process", "forms")):
        for src in (ROOT / "plugins" / plugin).rglob("*.py"):
            tree = ast.parse(src.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    names = [node.module or ""]
                assert not any(n.startswith(f"atrium.plugins.{other}") for n in names), (
                    f"{src} imports {other}"
                )
