"""What one engine step writes: the statements a task done costs, and one letter per person for the tasks
a step opens together."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event

from atrium.plugins.process.engine import spiff
from atrium.sdk.testing import AtriumClient
from tests.process.conftest import complete, deployed, detail, pending, start
from tests.process.diagrams import chain, diagram, flow, user_task

#: lock the instance, read its live tasks, drop the done task's candidates, update it, add the history
#: entry, insert the next task and its candidates, update the instance
STEP_STATEMENTS = 8


@contextmanager
def process_statements(kernel: Any) -> Iterator[list[str]]:
    """The SQL statements on the process tables run inside the block."""
    seen: list[str] = []

    def record(_conn: Any, _cur: Any, statement: str, *_rest: Any) -> None:
        if "process_" in statement:
            seen.append(statement)

    event.listen(kernel.engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(kernel.engine, "before_cursor_execute", record)


def _unread(c: AtriumClient) -> int:
    n: int = c.ok("POST", "/api/message/iotBaseMessageLogController/unread-message-total", json={})
    return n


def test_a_step_costs_a_fixed_handful_of_statements(
    boss: Any, tenant: int, member: Callable[..., Any], kernel: Any
) -> None:
    worker = member(tenant)
    deployed(boss, "steps", chain("steps", 3, worker.user_id))
    inst = start(worker, "steps")
    [first] = pending(worker)
    with process_statements(kernel) as seen:
        assert complete(worker, first["taskId"])["code"] == 800
    # the request's own look-ups of the signed-in user touch no process table
    assert 0 < len(seen) <= STEP_STATEMENTS, "\n".join(seen)
    [second] = pending(worker)
    assert second["name"] == "Step 2"
    for _ in range(2):
        assert complete(worker, pending(worker)[0]["taskId"])["code"] == 800
    d = detail(worker, inst["processId"])
    assert d["status"] == "completed"
    assert [h["action"] for h in d["history"]] == ["start", "complete", "complete", "complete", "end"]
    assert [t["status"] for t in d["tasks"]] == ["done", "done", "done"]


def test_tasks_opened_together_reach_each_person_in_one_letter(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    applicant, reviewer = member(tenant), member(tenant)
    xml = diagram(
        "split",
        "\n".join(
            [
                '<bpmn:startEvent id="start"/>',
                '<bpmn:parallelGateway id="fork"/>',
                user_task("legal", "Legal review", assignee=str(reviewer.user_id)),
                user_task("budget", "Budget review", assignee=str(reviewer.user_id)),
                '<bpmn:parallelGateway id="join"/>',
                '<bpmn:endEvent id="end"/>',
                flow("f1", "start", "fork"),
                flow("f2", "fork", "legal"),
                flow("f3", "fork", "budget"),
                flow("f4", "legal", "join"),
                flow("f5", "budget", "join"),
                flow("f6", "join", "end"),
            ]
        ),
    )
    deployed(boss, "split", xml)
    before = _unread(reviewer)
    inst = start(applicant, "split")
    assert sorted(t["name"] for t in pending(reviewer)) == ["Budget review", "Legal review"]
    assert _unread(reviewer) == before + 1
    found = reviewer.ok("POST", "/api/message/iotBaseMessageLogController/message-find", json={})
    letters = [str(row) for row in found.get("list", found.get("records", []))]
    assert any("Legal review" in text and "Budget review" in text for text in letters)
    for task in pending(reviewer):
        assert complete(reviewer, task["taskId"])["code"] == 800
    assert detail(applicant, inst["processId"])["status"] == "completed"


def test_a_step_runs_on_the_stored_state_when_another_node_moved_the_instance(
    boss: Any, tenant: int, member: Callable[..., Any]
) -> None:
    """The workflow a step leaves in this process serves the instance's next step only while the stored
    state is the one that step wrote: here a step done elsewhere (its workflow not the one kept) moved it
    on, and the next step here runs on what is stored, not on the workflow kept from before."""
    worker = member(tenant)
    deployed(boss, "moved", chain("moved", 3, worker.user_id))
    inst = start(worker, "moved")
    pid = int(inst["processId"])
    assert complete(worker, pending(worker)[0]["taskId"])["code"] == 800
    left_here = spiff._left.take(pid)
    assert left_here is not None, "the step's workflow is kept for the next one"
    assert complete(worker, pending(worker)[0]["taskId"])["code"] == 800
    spiff.keep(pid, *left_here)
    [third] = pending(worker)
    assert third["name"] == "Step 3"
    assert complete(worker, third["taskId"])["code"] == 800
    d = detail(worker, inst["processId"])
    assert d["status"] == "completed"
    assert [h["action"] for h in d["history"]] == ["start", "complete", "complete", "complete", "end"]
    assert [t["status"] for t in d["tasks"]] == ["done", "done", "done"]
