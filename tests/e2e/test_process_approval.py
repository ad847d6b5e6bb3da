"""The process plugin in Chromium: Alice starts the demo leave approval (5 days, so the gateway sends it to a
second approval) and does her step; the supervisor, in another browser, approves twice; Alice sees the
process completed with its history. The designer page loads bpmn-js only when it opens and checks the
model id as it is typed."""

from __future__ import annotations

import pytest
from conftest import shot, sign_in
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e
LOAD = 30000


def do_task(page, node: str, process_id: int) -> None:
    """Completes this instance's task at `node`; other tests on the same server may have left tasks of
    the same model waiting for the same person."""
    row = page.get_by_test_id(f"process-task-{node}").filter(has_text=f"Leave approval #{process_id} ")
    expect(row).to_be_visible(timeout=LOAD)
    row.get_by_test_id("process-complete").click()
    page.get_by_test_id("process-comment").fill("ok")
    page.get_by_test_id("process-modal-ok").click()
    expect(row).to_have_count(0, timeout=LOAD)


def test_leave_approval_by_two_people(page, browser, live_server) -> None:
    base = live_server.url
    bpmn_requests: list[str] = []
    page.on("request", lambda r: bpmn_requests.append(r.url) if "bpmn-" in r.url else None)
    sign_in(page, base, "alice", "Alice@123")
    page.goto(base + "/process_manage")
    start = page.get_by_test_id("process-start-leave-approval")
    expect(start).to_be_visible(timeout=LOAD)
    assert bpmn_requests == []
    start.click()
    page.get_by_label("Days").fill("5")
    date = page.get_by_label("Start date")
    date.click()
    date.fill("2030-05-06")
    date.press("Enter")
    with page.expect_response(lambda r: r.url.endswith("/process/instance/start")) as started:
        page.get_by_test_id("process-start-ok").click()
    process_id = started.value.json()["data"]["processId"]
    expect(page.get_by_test_id("process-start-form")).to_have_count(0, timeout=LOAD)
    page.get_by_test_id("process-tab-tasks").click()
    expect(page.get_by_test_id("process-pending")).to_be_visible()
    expect(page.get_by_test_id("process-task-apply")).to_have_count(0)  # her step is done as she starts
    shot(page, "process-01-tasks")

    boss_context = browser.new_context(base_url=base, locale="en-US")
    boss_context.add_cookies([{"name": "language", "value": "en-us", "url": base}])
    boss = boss_context.new_page()
    try:
        sign_in(boss, base, "supervisor", "Super@123")
        boss.goto(base + "/process_manage?tab=tasks")
        do_task(boss, "approve", process_id)
        do_task(boss, "confirm", process_id)
    finally:
        boss_context.close()

    page.get_by_test_id("process-tab-mine").click()
    mine = page.get_by_test_id(f"process-instance-{process_id}")
    expect(mine.get_by_test_id("process-status")).to_have_text("Completed", timeout=LOAD)
    mine.get_by_role("button", name="History").click()
    expect(page.get_by_test_id("process-instance-status")).to_have_text("Completed", timeout=LOAD)
    expect(page.get_by_text("Approved Second approval — ok", exact=False)).to_be_visible()
    shot(page, "process-02-history")
    assert any("bpmn-viewer" in u for u in bpmn_requests)


def test_designer_checks_the_model_id(admin_page, live_server) -> None:
    page = admin_page
    page.goto(live_server.url + "/process_manage/design/new")
    expect(page.get_by_test_id("process-canvas").locator(".djs-container")).to_be_visible(timeout=LOAD)
    page.get_by_test_id("process-key").fill("1leave")
    expect(page.get_by_test_id("process-key-error")).to_have_text(
        "Model identification must begin with a letter"
    )
    page.get_by_test_id("process-key").fill("leave approval")
    expect(page.get_by_test_id("process-key-error")).to_have_text("Invalid format")
    page.get_by_test_id("process-key").fill("leave-e2e")
    page.get_by_test_id("process-name").fill("Leave e2e")
    page.get_by_test_id("process-save").click()
    expect(page.get_by_test_id("process-problem-no_end")).to_have_text(
        "The process needs an end event", timeout=LOAD
    )
    shot(page, "process-03-designer")
