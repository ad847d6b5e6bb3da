"""Defects users met in the process screens, in Chromium: starting the demo leave approval asks for its
start form (days, start date, reason), checked before anything is sent, instead of raw JSON; the applicant's
own "Apply" step never lands in her to-do list; "next steps" (not "to read") only shows the second approval
for a long leave; the history names who did each step; the designer and the instance page show the whole
diagram clear of the palette, and a refused line's warning covers no node."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import shot, sign_in, strict_i18n
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e
LOAD = 30000
START = "**/api/process/instance/start"


def start_leave(page, days: str, day: str, reason: str = "") -> str:
    """Fills the leave approval's start form and sends it; answers the new instance's id."""
    page.get_by_test_id("process-start-leave-approval").click()
    expect(page.get_by_test_id("process-start-form")).to_be_visible()
    page.get_by_label("Days").fill(days)
    date = page.get_by_label("Start date")
    date.click()
    date.fill(day)
    date.press("Enter")
    if reason:
        page.get_by_label("Reason").fill(reason)
    with page.expect_response(START) as answer:
        page.get_by_test_id("process-start-ok").click()
    body = answer.value.json()
    assert body["code"] == 800, body
    expect(page.get_by_test_id("process-start-form")).to_have_count(0)
    return str(body["data"]["processId"])


def boss_page(browser, base: str) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": base}])
    missing = strict_i18n(ctx)
    boss = ctx.new_page()
    boss.set_default_timeout(15000)
    sign_in(boss, base, "supervisor", "Super@123")
    return ctx, boss, missing


def upcoming_rows(page, process_id: str):
    return page.get_by_test_id("process-upcoming").locator("tr", has_text=f"#{process_id}")


def test_start_form_next_steps_and_who_did_what(page, browser, live_server) -> None:
    base = live_server.url
    sign_in(page, base, "alice", "Alice@123")
    page.goto(base + "/process_manage")
    expect(page.get_by_test_id("process-start-leave-approval")).to_be_visible(timeout=LOAD)

    # 1. the start form, checked before anything is sent
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/instance/start" in r.url else None)
    page.get_by_test_id("process-start-leave-approval").click()
    form = page.get_by_test_id("process-start-form")
    expect(form).to_be_visible()
    expect(page.get_by_test_id("process-variables")).to_have_count(0)  # no JSON for a plain user
    expect(page.get_by_test_id("process-start-variables")).to_have_count(0)
    for label in ("Days", "Start date", "Reason"):
        expect(form.get_by_text(label, exact=True)).to_be_visible()
    page.get_by_test_id("process-start-ok").click()
    expect(form.get_by_text("Days is required")).to_be_visible()
    expect(form.get_by_text("Start date is required")).to_be_visible()
    page.get_by_label("Days").fill("45")
    page.get_by_test_id("process-start-ok").click()
    expect(form.get_by_text("Days must be between 0.5 and 30")).to_be_visible()
    shot(page, "process-defects-01-start-form")
    assert sent == []
    page.get_by_role("button", name="Cancel").click()
    expect(form).to_have_count(0)

    short = start_leave(page, "2", "2030-05-06", "family visit")
    long = start_leave(page, "5", "2030-06-02")

    # 2. her own "Apply" step is done as she starts: nothing waits for her
    page.get_by_test_id("process-tab-tasks").click()
    expect(page.get_by_test_id("process-upcoming-title")).to_have_text("Next steps")
    expect(page.get_by_test_id("process-pending")).to_be_visible()
    expect(page.get_by_test_id("process-task-apply")).to_have_count(0)

    ctx, boss, missing = boss_page(browser, base)
    try:
        boss.goto(base + "/process_manage?tab=tasks")
        expect(boss.get_by_test_id("process-pending").locator("tr", has_text=f"#{short}")).to_have_count(
            1, timeout=LOAD
        )
        # 4. next steps: the second approval only for the long leave
        expect(boss.get_by_test_id("process-upcoming-title")).to_have_text("Next steps")
        expect(upcoming_rows(boss, long)).to_contain_text("Second approval", timeout=LOAD)
        expect(upcoming_rows(boss, short)).to_have_count(0)
        shot(boss, "process-defects-02-next-steps")
        row = boss.get_by_test_id("process-pending").locator("tr", has_text=f"#{short}")
        row.get_by_test_id("process-complete").click()
        boss.get_by_test_id("process-comment").fill("enjoy")
        boss.get_by_test_id("process-modal-ok").click()
        expect(row).to_have_count(0, timeout=LOAD)
    finally:
        ctx.close()
    assert not missing, missing

    # 5. the history names who did each step
    page.goto(f"{base}/process_manage/instance/{short}")
    expect(page.get_by_test_id("process-instance-status")).to_have_text("Completed", timeout=LOAD)
    entries = page.get_by_test_id("process-history-entry")
    expect(entries).to_have_count(4)
    actors = [entries.nth(i).get_by_test_id("process-history-actor").inner_text() for i in range(4)]
    assert actors == ["By: Alice Zhang", "By: Alice Zhang", "By: 王主管", "By: System"], actors
    expect(entries.nth(2)).to_contain_text("Approved Supervisor approval — enjoy")
    shot(page, "process-defects-03-history")


def test_start_form_and_next_steps_in_chinese(browser, live_server) -> None:
    base = live_server.url
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="zh-CN")
    ctx.add_cookies([{"name": "language", "value": "zh-cn", "url": base}])
    missing = strict_i18n(ctx)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(base + "/login")
        page.locator("#account").fill("alice")
        page.locator("#password").fill("Alice@123")
        page.locator("#agree").check()
        page.locator("button[type=submit]").click()
        page.wait_for_url("**/home")
        page.goto(base + "/process_manage")
        # the demo model's name in the reader's language (its process label)
        expect(page.get_by_test_id("process-model-leave-approval")).to_contain_text("请假审批", timeout=LOAD)
        page.get_by_test_id("process-start-leave-approval").click()
        form = page.get_by_test_id("process-start-form")
        for label in ("请假天数", "开始日期", "请假事由"):
            expect(form.get_by_text(label, exact=True)).to_be_visible()
        page.get_by_test_id("process-start-ok").click()
        expect(form.get_by_text("请填写请假天数")).to_be_visible()
        page.keyboard.press("Escape")
        page.goto(base + "/process_manage?tab=tasks")
        expect(page.get_by_test_id("process-upcoming-title")).to_have_text("后续步骤")
        expect(page.get_by_text("我的待阅")).to_have_count(0)
    finally:
        ctx.close()
    assert not missing, missing


def _box(locator) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None
    return box


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def _inside(inner: dict[str, float], outer: dict[str, float], margin: float) -> bool:
    return (
        inner["x"] >= outer["x"] + margin
        and inner["y"] >= outer["y"] + margin
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] - margin
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] - margin
    )


def _drawing(page, canvas) -> list[tuple[str, dict[str, float]]]:
    """Every shape and label drawn on the canvas, with its box on the screen."""
    found = canvas.locator(".djs-element.djs-shape")
    expect(found.first).to_be_visible(timeout=LOAD)
    return [
        (found.nth(i).get_attribute("data-element-id") or "", _box(found.nth(i).locator(".djs-visual")))
        for i in range(found.count())
    ]


def test_the_whole_diagram_is_in_view_clear_of_the_palette(admin_page, live_server) -> None:
    page = admin_page
    page.goto(live_server.url + "/process_manage")
    page.get_by_test_id("process-model-leave-approval").get_by_role("button", name="Design").click()
    canvas = page.get_by_test_id("process-canvas")
    expect(page.get_by_test_id("process-save")).to_be_enabled(timeout=LOAD)
    expect(canvas.locator('.djs-element[data-element-id="start"]')).to_be_visible(timeout=LOAD)
    page.wait_for_timeout(500)  # the fit follows the canvas's final size
    frame, palette = _box(canvas), _box(canvas.locator(".djs-palette"))
    shapes = _drawing(page, canvas)
    assert {"start", "apply", "approve", "long", "confirm", "end"} <= {i for i, _ in shapes}
    for element, box in shapes:
        assert _inside(box, frame, 8), (element, box, frame)
        assert not _overlap(box, palette), (element, box, palette)
    shot(page, "process-defects-04-designer")

    # a refused line: its warning covers neither the drawing nor the palette
    start = _box(canvas.locator('.djs-element[data-element-id="start"] .djs-visual'))
    page.mouse.click(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    tool = page.locator('.djs-context-pad .entry[data-action="connect"]')
    tb = _box(tool)
    page.mouse.move(tb["x"] + tb["width"] / 2, tb["y"] + tb["height"] / 2)
    page.mouse.down()
    apply = _box(canvas.locator('.djs-element[data-element-id="apply"] .djs-visual'))
    x, y = apply["x"] + apply["width"] / 2, apply["y"] + apply["height"] / 2
    page.mouse.move(x - 12, y - 6, steps=6)
    page.mouse.move(x, y, steps=4)
    page.mouse.up()
    refused = page.get_by_test_id("process-refused")
    expect(refused).to_contain_text("The relationship already exists")
    warning = _box(refused)
    assert not _overlap(warning, frame), (warning, frame)
    for element, box in _drawing(page, canvas):
        assert not _overlap(warning, box), element
    shot(page, "process-defects-05-refused")


def test_the_instance_diagram_is_in_view(admin_page, live_server) -> None:
    page = admin_page
    page.goto(live_server.url + "/process_manage")
    with page.expect_response(START) as answer:
        page.get_by_test_id("process-start-leave-approval").click()
        page.get_by_label("Days").fill("1")
        date = page.get_by_label("Start date")
        date.click()
        date.fill("2030-07-01")
        date.press("Enter")
        page.get_by_test_id("process-start-ok").click()
    process_id = answer.value.json()["data"]["processId"]
    page.goto(f"{live_server.url}/process_manage/instance/{process_id}")
    canvas = page.get_by_test_id("process-instance-canvas")
    expect(canvas.locator('.djs-element[data-element-id="start"]')).to_be_visible(timeout=LOAD)
    page.wait_for_timeout(500)
    frame = _box(canvas)
    for element, box in _drawing(page, canvas):
        assert _inside(box, frame, 8), (element, box, frame)
    entries = page.get_by_test_id("process-history-entry")
    expect(entries.first.get_by_test_id("process-history-actor")).to_have_text("By: 平台管理员")
