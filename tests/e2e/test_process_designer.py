"""The process designer's rules in Chromium, drawn with the mouse on the bpmn-js canvas (spec reports.md 5,
"Process designer"): a line from a node to itself, a second line between the same two nodes and a line back
between two nodes are refused with the spec's message beside the canvas; a gateway's branches without
conditions are listed until each has one. The properties panel edits the selected element: a task's new
name shows on the canvas. The same in Chinese, and at phone width the panel opens in a drawer."""

from __future__ import annotations

import pytest
from conftest import shot, sign_in
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e
LOAD = 30000


def open_designer(page, base: str) -> None:
    page.goto(base + "/process_manage/design/new")
    expect(page.get_by_test_id("process-canvas").locator(".djs-container")).to_be_visible(timeout=LOAD)
    expect(page.get_by_test_id("process-save")).to_be_enabled(timeout=LOAD)
    expect(shape(page, "start")).to_be_visible()


def shape(page, element_id: str):
    return page.locator(f'.djs-element.djs-shape[data-element-id="{element_id}"]')


def center(page, element_id: str) -> tuple[float, float]:
    box = shape(page, element_id).bounding_box()
    assert box is not None, element_id
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def select(page, element_id: str) -> None:
    """Selects one node with a click (a click on the only selected node would deselect it)."""
    selected = page.locator(f'.djs-element.selected[data-element-id="{element_id}"]')
    if selected.count() == 0 or page.locator(".djs-element.selected").count() > 1:
        x, y = center(page, element_id)
        page.mouse.click(x, y)
    expect(selected).to_have_count(1)
    expect(page.locator(".djs-element.selected")).to_have_count(1)


def append(page, source: str, action: str) -> str:
    """Appends a node to `source` with its context pad; answers the new node's id."""
    select(page, source)
    shapes = page.locator(".djs-element.djs-shape")
    before = set(shapes.evaluate_all("els => els.map(e => e.dataset.elementId)"))
    page.locator(f'.djs-context-pad .entry[data-action="{action}"]').click()
    new = page.locator(".djs-element.djs-shape.selected")
    expect(new).to_have_count(1)
    element_id = new.get_attribute("data-element-id")
    assert element_id and element_id not in before
    return element_id


def lines(page) -> int:
    return page.locator(".djs-element.djs-connection").count()


def connect(page, source: str, target: str) -> None:
    """Draws a line with the mouse: the source's connect tool, dragged onto the target."""
    select(page, source)
    tool = page.locator('.djs-context-pad .entry[data-action="connect"]')
    box = tool.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    x, y = center(page, target)
    page.mouse.move(x - 12, y - 6, steps=6)
    page.mouse.move(x, y, steps=4)
    page.mouse.up()
    # bpmn-js swallows a click that follows a drag within 400 ms
    page.wait_for_timeout(450)


def refused(page, text: str) -> None:
    alert = page.get_by_test_id("process-refused")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text(text)
    alert.locator(".ant-alert-close-icon").click()
    expect(alert).to_have_count(0)


def test_designer_refuses_bad_lines_and_wants_gateway_conditions(admin_page, live_server) -> None:
    page = admin_page
    open_designer(page, live_server.url)
    first = append(page, "start", "append.append-task")
    gateway = append(page, first, "append.gateway")
    second = append(page, gateway, "append.append-task")
    count = lines(page)
    assert count == 3

    connect(page, first, first)
    refused(page, "The node does not support connecting itself")
    connect(page, "start", first)
    refused(page, "The relationship already exists and cannot be created again")
    connect(page, second, gateway)
    refused(page, "A loopback between two nodes is not supported")
    assert lines(page) == count
    expect(page.get_by_test_id("process-problems").locator(".ant-list-item")).to_have_count(0)

    # a second way out of the gateway: both branches now need conditions
    append(page, gateway, "append.end-event")
    branches = page.get_by_test_id("process-problem-gateway_branch")
    expect(branches).to_have_count(2)
    expect(branches.first).to_have_text("Gateway branch please click line to set conditions")
    shot(page, "process-04-designer-rules")

    # the problem selects its line and opens the settings, where the condition is entered
    branches.first.click()
    condition = page.get_by_test_id("prop-condition")
    expect(condition).to_be_visible()
    condition.fill("days > 3")
    condition.blur()
    expect(branches).to_have_count(1)

    # an ordinary line is still drawn
    connect(page, "start", second)
    expect(page.locator(".djs-element.djs-connection")).to_have_count(count + 2)
    expect(page.get_by_test_id("process-refused")).to_have_count(0)


def test_properties_panel_names_the_task(admin_page, live_server) -> None:
    page = admin_page
    modeler: list[str] = []
    page.on("request", lambda r: modeler.append(r.url) if "bpmn-modeler" in r.url else None)
    page.goto(live_server.url + "/process_manage")
    expect(page.get_by_test_id("process-tab-tasks")).to_be_visible(timeout=LOAD)
    assert modeler == []  # the designer's libraries come with the designer only
    open_designer(page, live_server.url)
    assert modeler
    task = append(page, "start", "append.append-task")
    panel = page.get_by_test_id("process-properties-panel")
    expect(panel.locator(".bio-properties-panel")).to_be_visible()
    expect(panel.locator(".bio-properties-panel-header-type")).to_have_text("Task")
    name = panel.locator("#bio-properties-panel-name")
    expect(name).to_be_visible()
    name.fill("Check the request")
    expect(shape(page, task).locator("text")).to_have_text("Check the request", timeout=5000)
    expect(panel.locator("#bio-properties-panel-id")).to_have_value(task)
    # the canvas's own label editing shows in the panel as well
    select(page, "start")
    expect(name).to_have_value("Start")
    shot(page, "process-05-designer-panel")
    # a language switch translates the page in place: the unsaved drawing stays
    page.get_by_test_id("language-switch").click()
    page.get_by_test_id("lang-zh-cn").click()
    expect(page.get_by_test_id("tab-/home")).to_have_text("首页")
    expect(shape(page, task).locator("text")).to_have_text("Check the request")


def test_designer_in_chinese_and_on_a_phone(browser, live_server) -> None:
    base = live_server.url
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    context.add_cookies([{"name": "language", "value": "en-us", "url": base}])
    page = context.new_page()
    try:
        page.set_default_timeout(15000)
        sign_in(page, base)
        context.add_cookies([{"name": "language", "value": "zh-cn", "url": base}])
        open_designer(page, base)
        task = append(page, "start", "append.append-task")
        connect(page, task, task)
        expect(page.get_by_test_id("process-refused")).to_contain_text("节点不支持连接自己")
        page.get_by_test_id("process-open-panel").click()
        drawer = page.locator(".at-process-drawer .ant-drawer-section")
        expect(drawer).to_be_visible()
        panel = page.get_by_test_id("process-properties-panel")
        expect(panel.locator(".bio-properties-panel-group-header-title").first).to_have_text("常规")
        name = panel.locator("#bio-properties-panel-name")
        name.fill("审批")
        expect(shape(page, task).locator("text")).to_have_text("审批", timeout=5000)
        shot(page, "process-06-designer-phone")
        box = drawer.bounding_box()
        assert box is not None and box["width"] <= 390
    finally:
        context.close()
