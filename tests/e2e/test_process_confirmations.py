"""The process screens ask before they stop or change what runs, in Chromium: withdrawing a running process
(my process) and deploying a model (the models list, and the designer, which saves then deploys) open a
confirmation that says what happens; cancelling it sends nothing and leaves everything as it was, confirming
it does the action."""

from __future__ import annotations

import secrets

import pytest
from conftest import shot, sign_in
from playwright.sync_api import Page, expect
from test_reports_support import ok

pytestmark = pytest.mark.e2e
LOAD = 30000
START = "**/api/process/instance/start"


def confirmation(page: Page):
    """The confirmation pop-over that is open (closed ones stay in the page, hidden)."""
    return page.locator(".ant-popconfirm").filter(visible=True)


def watch(page: Page, *parts: str) -> list[str]:
    """The addresses of the requests the page sends to any of `parts`, as they are sent."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if any(p in r.url for p in parts) else None)
    return sent


def note(page: Page, text: str):
    """The pop-up message (antd `message`) with the text."""
    return page.locator(".ant-message").get_by_text(text, exact=True)


def start_leave(page: Page) -> str:
    """Alice's leave of two days from the models list; answers the new process's id."""
    page.get_by_test_id("process-start-leave-approval").click()
    expect(page.get_by_test_id("process-start-form")).to_be_visible()
    page.get_by_label("Days").fill("2")
    date = page.get_by_label("Start date")
    date.click()
    date.fill("2031-03-03")
    date.press("Enter")
    with page.expect_response(START) as answer:
        page.get_by_test_id("process-start-ok").click()
    body = answer.value.json()
    assert body["code"] == 800, body
    expect(page.get_by_test_id("process-start-form")).to_have_count(0)
    return str(body["data"]["processId"])


def mine_row(page: Page, process_id: str):
    """The process's row in my process (found by its number, as a user finds it)."""
    return page.get_by_test_id("process-mine").locator(
        "tr", has=page.get_by_role("cell", name=process_id, exact=True)
    )


def state_of(page: Page, process_id: str) -> tuple[str, list[str]]:
    """The process's status and its tasks that are still open (or coming), as the server has them."""
    detail = ok(page, f"/api/process/instance/detail?processId={process_id}")
    return detail["status"], [t["nodeId"] for t in detail["tasks"] if t["status"] in ("open", "upcoming")]


def test_withdrawing_asks_first(page, live_server) -> None:
    base = live_server.url
    sign_in(page, base, "alice", "Alice@123")
    page.goto(base + "/process_manage")
    expect(page.get_by_test_id("process-start-leave-approval")).to_be_visible(timeout=LOAD)
    process_id = start_leave(page)
    withdrawals = watch(page, "/instance/withdraw")
    page.get_by_test_id("process-tab-mine").click()
    row = mine_row(page, process_id)
    expect(row.get_by_test_id("process-status")).to_have_text("Running", timeout=LOAD)

    # asked, then cancelled: nothing is sent and the process runs on
    row.get_by_role("button", name="Withdraw").click()
    asked = confirmation(page)
    expect(asked).to_be_visible()
    expect(asked).to_contain_text(f"Withdraw Leave approval #{process_id}?")
    expect(asked).to_contain_text(
        "The process stops now and its open tasks are closed. This cannot be undone."
    )
    shot(page, "process-confirm-withdraw")
    asked.get_by_role("button", name="Cancel").click()
    expect(confirmation(page)).to_have_count(0)
    page.wait_for_timeout(500)
    assert withdrawals == []
    expect(row.get_by_test_id("process-status")).to_have_text("Running")
    assert state_of(page, process_id) == ("running", ["approve"])
    page.reload()
    row = mine_row(page, process_id)
    expect(row.get_by_test_id("process-status")).to_have_text("Running", timeout=LOAD)

    # asked, then confirmed: withdrawn, and its open task with it
    row.get_by_role("button", name="Withdraw").click()
    with page.expect_response("**/api/process/instance/withdraw") as answer:
        confirmation(page).get_by_role("button", name="Withdraw").click()
    assert answer.value.json()["code"] == 800
    expect(note(page, "Process withdrawn")).to_be_visible(timeout=LOAD)
    expect(row.get_by_test_id("process-status")).to_have_text("Withdrawn", timeout=LOAD)
    expect(row.get_by_role("button", name="Withdraw")).to_have_count(0)
    assert len(withdrawals) == 1
    assert state_of(page, process_id) == ("withdrawn", [])


@pytest.fixture
def fresh_model(admin_page) -> dict[str, str]:
    """A model of the administrator's own (a copy of the leave approval, never deployed), so that deploying
    it changes nothing another test starts from."""
    leave = ok(admin_page, "/api/process/model/detail?modelId=leave-approval")
    key = f"confirm-{secrets.token_hex(3)}"
    saved = ok(
        admin_page,
        "/api/process/model/save",
        {"key": key, "name": f"Confirm {key}", "category": "e2e", "xml": leave["xml"]},
    )
    assert saved["deployedVersion"] is None, saved
    return {"key": key, "modelId": str(saved["modelId"])}


def model_of(page: Page, model_id: str) -> dict[str, object]:
    detail: dict[str, object] = ok(page, f"/api/process/model/detail?modelId={model_id}")
    return detail


def test_deploying_from_the_models_list_asks_first(admin_page, live_server, fresh_model) -> None:
    page, key = admin_page, fresh_model["key"]
    page.goto(live_server.url + "/process_manage")
    page.get_by_placeholder("Model id").fill(key)
    page.get_by_placeholder("Model id").press("Enter")
    row = page.get_by_test_id(f"process-model-{key}")
    expect(row).to_contain_text("Not deployed", timeout=LOAD)
    deploys = watch(page, "/api/process/model/deploy")

    row.get_by_role("button", name="Deploy").click()
    asked = confirmation(page)
    expect(asked).to_be_visible()
    expect(asked).to_contain_text("Deploy this model?")
    expect(asked).to_contain_text(
        f"The latest version of Confirm {key} becomes the one new processes start from"
    )
    shot(page, "process-confirm-deploy")
    asked.get_by_role("button", name="Cancel").click()
    expect(confirmation(page)).to_have_count(0)
    page.wait_for_timeout(500)
    assert deploys == []
    expect(row).to_contain_text("Not deployed")
    assert model_of(page, fresh_model["modelId"])["deployedVersion"] is None

    row.get_by_role("button", name="Deploy").click()
    confirmation(page).get_by_role("button", name="Deploy").click()
    expect(note(page, "Deployed")).to_be_visible(timeout=LOAD)
    expect(row).to_contain_text("v1", timeout=LOAD)
    assert len(deploys) == 1
    assert model_of(page, fresh_model["modelId"])["deployedVersion"] == 1


def test_deploying_from_the_designer_asks_first(admin_page, live_server, fresh_model) -> None:
    page, model_id = admin_page, fresh_model["modelId"]
    page.goto(f"{live_server.url}/process_manage/design/{model_id}")
    expect(page.get_by_test_id("process-save")).to_be_enabled(timeout=LOAD)
    expect(page.get_by_test_id("process-key")).to_have_value(fresh_model["key"], timeout=LOAD)
    changes = watch(page, "/api/process/model/save", "/api/process/model/deploy")

    page.get_by_test_id("process-deploy").click()
    asked = confirmation(page)
    expect(asked).to_be_visible()
    expect(asked).to_contain_text("Deploy this model?")
    expect(asked).to_contain_text("The diagram is saved, then deployed")
    asked.get_by_role("button", name="Cancel").click()
    expect(confirmation(page)).to_have_count(0)
    page.wait_for_timeout(500)
    assert changes == []
    model = model_of(page, model_id)
    assert (model["latestVersion"], model["deployedVersion"]) == (1, None)

    page.get_by_test_id("process-deploy").click()
    with page.expect_response("**/api/process/model/deploy") as answer:
        confirmation(page).get_by_role("button", name="Deploy").click()
    assert answer.value.json()["code"] == 800
    expect(note(page, "Deployed")).to_be_visible(timeout=LOAD)
    model = model_of(page, model_id)
    assert (model["latestVersion"], model["deployedVersion"]) == (2, 2)
    assert len(changes) == 2  # saved, then deployed
