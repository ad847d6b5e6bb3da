"""Row permissions and a panel's proxy user in Chromium against the real server: an administrator adds a
rule for a plain user in the dataset editor and saves it, and that user's data of a panel over the dataset
holds only the permitted rows; a refused value shows the server's message; the administrator names the
panel's proxy user in the designer and the designer shows it after a reload. The screens in English and
Chinese, at desktop and phone widths."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import _is_local, sign_in, strict_i18n
from playwright.sync_api import BrowserContext, Locator, Page, expect
from test_reports_support import TABLES, ok, wait_views_ready

pytestmark = pytest.mark.e2e

SHOTS = Path("/tmp/shots")
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
ALICE = ("alice", "Alice@123")
ALICE_NAME = "Alice Zhang"
DATASET = "销售明细"
REGION, AMOUNT = "大区", "销售额"
PERMITTED = "华东"
SUMMARY_VIEW = "汇总表"
RULE = "[data-testid=rowperm-rule]"
OPENING = ".ant-zoom-appear, .ant-zoom-enter, .ant-zoom-leave"
RAW_KEY = re.compile(r"\b(?:rowPermissions|proxy|privileges|common)\.[a-zA-Z.]+")


@dataclass
class Scene:
    """A copy of the demo tables panel that alice may view, over the demo sales dataset."""

    panel_id: str
    dataset_id: str
    alice_id: int
    views: dict[str, dict[str, Any]]


@pytest.fixture
def scene(admin_page: Page) -> Iterator[Scene]:
    page = admin_page
    panels = {p["name"]: p["id"] for p in ok(page, "/api/dyreport/panel/list")}
    bundle = ok(page, f"/api/dyreport/panel/export/{panels[TABLES]}")
    panel_id = ok(page, "/api/dyreport/panel/import", {"bundle": bundle})["id"]
    views = {v["name"]: v for v in ok(page, f"/api/dyreport/chart/view/listByPanel/{panel_id}")}
    dataset = next(d for d in ok(page, "/api/dyreport/dataset/list") if d["name"] == DATASET)
    users = ok(page, "/api/dyreport/panel/subjects?keyword=alice")["users"]
    alice_id = int(next(u["id"] for u in users if u["account"] == ALICE[0]))
    grant = {"subjectType": "user", "subjectId": alice_id, "view": True, "export": False, "manage": False}
    ok(page, f"/api/dyreport/panel/grants/{panel_id}", {"grants": [grant]})
    try:
        yield Scene(panel_id, dataset["id"], alice_id, views)
    finally:  # the demo dataset is shared by the other tests
        ok(page, f"/api/dyreport/dataset/rowPermissions/{dataset['id']}", {"rules": []})
        ok(page, f"/api/dyreport/panel/delete/{panel_id}", {})


def new_context(
    browser, base: str, language: str, viewport: dict[str, int]
) -> tuple[BrowserContext, list[str]]:
    """A browser profile like the `context` fixture's, in another language or width."""
    ctx = browser.new_context(viewport=viewport, locale="zh-CN" if language == "zh-cn" else "en-US")
    ctx.add_cookies([{"name": "language", "value": language, "url": base}])
    missing = strict_i18n(ctx)
    ctx.route(
        "**/*",
        lambda route: (
            route.fallback()
            if _is_local(route.request.url, base)
            else route.fulfill(status=200, content_type="text/html", body="<html></html>")
        ),
    )
    return ctx, missing


def sign_in_any_language(page: Page, base: str, account: str = "admin", password: str = "Admin@123") -> None:
    page.goto(base + "/login")
    page.locator("#account").fill(account)
    page.locator("#password").fill(password)
    page.locator("#agree").check()
    page.locator("button[type=submit]").click()
    page.wait_for_url("**/home")


def assert_no_raw_keys(page: Page) -> None:
    text = page.locator("body").inner_text()
    assert not RAW_KEY.search(text), RAW_KEY.search(text)


def snap(page: Page, name: str) -> None:
    """A screenshot once dialogs have finished opening."""
    page.wait_for_function(f"() => !document.querySelector('{OPENING}')")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"rowperm-{name}.png"))


def choose(page: Page, select: Locator, option: str, typed: str | None = None) -> None:
    """Opens an antd Select (typing `typed` into its search) and clicks the option with that text."""
    select.click()
    if typed:
        page.keyboard.type(typed, delay=20)
    page.locator(
        ".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option", has_text=option
    ).first.click()


def open_row_permissions(page: Page, base: str, dataset_id: str) -> Locator:
    page.goto(f"{base}/dynamic-report/dataset?id={dataset_id}")
    page.get_by_test_id("tab-rowperm").click()
    panel = page.get_by_test_id("rowperm")
    expect(panel).to_be_visible()
    return panel


def add_rule(page: Page, subject: str, field: str, values: list[str], typed: str | None = None) -> None:
    page.get_by_test_id("rowperm-add").click()
    form = page.get_by_test_id("rule-form")
    expect(form).to_be_visible()
    choose(page, form.get_by_test_id("rule-subject"), subject, typed)
    choose(page, form.get_by_test_id("rule-field"), field)
    form.get_by_test_id("rule-values").click()
    for value in values:
        page.keyboard.type(value)
        page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    page.get_by_test_id("rule-ok").click()
    expect(form).to_have_count(0)


def regions_seen(page: Page, scene: Scene, body: dict[str, Any] | None = None) -> list[str]:
    view = scene.views[SUMMARY_VIEW]
    data = ok(page, f"/api/dyreport/chart/view/getData/{view['id']}/{scene.panel_id}", body or {})["data"]
    key = data["fields"][0]["key"]
    return sorted({row[key] for row in data["tableRow"]})


def test_row_permission_limits_a_users_rows(admin_page: Page, live_server, browser, scene: Scene) -> None:
    page, base = admin_page, live_server.url
    everyone = regions_seen(page, scene)
    assert len(everyone) > 1 and PERMITTED in everyone

    rules = open_row_permissions(page, base, scene.dataset_id)
    expect(rules.get_by_test_id("rowperm-count")).to_contain_text("0 of at most 200")
    add_rule(page, ALICE_NAME, REGION, [PERMITTED], typed="alice")
    row = rules.locator(RULE).first
    for text in ("User", ALICE_NAME, REGION, "equals", PERMITTED):
        expect(row).to_contain_text(text)
    expect(rules.get_by_test_id("rowperm-unsaved")).to_be_visible()
    snap(page, "en-desktop-rules")
    rules.get_by_test_id("rowperm-save").click()
    expect(page.locator(".ant-message", has_text="Row permissions saved")).to_be_visible()
    expect(rules.get_by_test_id("rowperm-unsaved")).to_have_count(0)
    saved = ok(page, f"/api/dyreport/dataset/rowPermissions/{scene.dataset_id}")
    assert [(r["subjectType"], r["subjectId"], r["operator"], r["value"]) for r in saved] == [
        ("user", scene.alice_id, "eq", [PERMITTED])
    ]

    # after a reload the rule is listed with the user's and the field's names
    rules = open_row_permissions(page, base, scene.dataset_id)
    expect(rules.locator(RULE)).to_have_count(1)
    expect(rules.locator(RULE).first).to_contain_text(ALICE_NAME)
    expect(rules.locator(RULE).first).to_contain_text(REGION)

    # a value the field cannot take: the server's message, the saved rules unchanged
    add_rule(page, ALICE_NAME, AMOUNT, ["abc"], typed="alice")
    expect(rules.locator(RULE)).to_have_count(2)
    rules.get_by_test_id("rowperm-save").click()
    error = rules.get_by_test_id("rowperm-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text(f"{AMOUNT}: must be a number")
    snap(page, "en-desktop-refused")
    assert len(ok(page, f"/api/dyreport/dataset/rowPermissions/{scene.dataset_id}")) == 1
    rules.get_by_test_id("rowperm-revert").click()
    expect(rules.locator(RULE)).to_have_count(1)
    assert not page.page_errors

    # alice's view of the panel: only the permitted region, in the data and on the screen
    ctx, missing = new_context(browser, base, "en-us", DESKTOP)
    try:
        alice = ctx.new_page()
        sign_in(alice, base, *ALICE)
        assert regions_seen(alice, scene) == [PERMITTED]
        alice.goto(f"{base}/dynamic-report?panelId={scene.panel_id}")
        expect(alice.get_by_test_id("report-panel")).to_be_visible(timeout=30000)
        wait_views_ready(alice)
        snap(alice, "en-desktop-alice-view")
    finally:
        ctx.close()
    assert not missing, sorted(set(missing))
    # others still see every region
    assert regions_seen(page, scene) == everyone


def test_proxy_user_set_in_the_designer(admin_page: Page, live_server, scene: Scene) -> None:
    page, base = admin_page, live_server.url
    rule_for_alice(page, scene, "eq", [PERMITTED])
    page.goto(f"{base}/dynamic-report/design/{scene.panel_id}")
    expect(page.get_by_test_id("designer-page")).to_be_visible(timeout=30000)
    expect(page.get_by_test_id("proxy-setting-name")).to_have_text("None")
    page.get_by_test_id("designer-proxy").click()
    dialog = page.get_by_test_id("proxy-dialog")
    expect(dialog.get_by_test_id("proxy-current")).to_have_text("None")
    choose(page, dialog.get_by_test_id("proxy-user"), ALICE_NAME, typed="alice")
    snap(page, "en-desktop-proxy-dialog")
    page.get_by_test_id("proxy-save").click()
    expect(page.locator(".ant-message", has_text=f"Proxy user set: {ALICE_NAME}")).to_be_visible()
    expect(page.get_by_test_id("proxy-setting-name")).to_have_text(f"{ALICE_NAME} (alice)")
    assert ok(page, f"/api/dyreport/panel/findOne/{scene.panel_id}")["proxy"] == scene.alice_id

    page.reload()
    expect(page.get_by_test_id("designer-page")).to_be_visible(timeout=30000)
    expect(page.get_by_test_id("proxy-setting-name")).to_have_text(f"{ALICE_NAME} (alice)", timeout=15000)
    snap(page, "en-desktop-proxy-setting")
    page.get_by_test_id("designer-proxy").click()
    expect(page.get_by_test_id("proxy-current")).to_contain_text(ALICE_NAME)
    # the panel's data asked in the proxy's scope holds the proxy's rows only
    assert regions_seen(page, scene, {"user": scene.alice_id}) == [PERMITTED]

    # cleared again
    page.get_by_test_id("proxy-clear").click()
    expect(page.locator(".ant-message", has_text="The panel has no proxy user now")).to_be_visible()
    expect(page.get_by_test_id("proxy-setting-name")).to_have_text("None")
    assert ok(page, f"/api/dyreport/panel/findOne/{scene.panel_id}")["proxy"] is None
    assert not page.page_errors


def rule_for_alice(page: Page, scene: Scene, operator: str, values: list[str]) -> None:
    """Saves one rule on the region field for alice through the API."""
    dataset = ok(page, f"/api/dyreport/dataset/get/{scene.dataset_id}")
    region = next(f["id"] for f in dataset["fields"] if f["name"] == REGION)
    rule = {"subjectType": "user", "subjectId": scene.alice_id, "fieldId": region}
    body = {"rules": [{**rule, "operator": operator, "value": values}]}
    ok(page, f"/api/dyreport/dataset/rowPermissions/{scene.dataset_id}", body)


@pytest.mark.parametrize("language", ["en-us", "zh-cn"])
def test_screens_in_two_languages_and_widths(
    admin_page: Page, live_server, browser, scene: Scene, language: str
) -> None:
    base = live_server.url
    rule_for_alice(admin_page, scene, "in", [PERMITTED, "华南"])
    ok(admin_page, f"/api/dyreport/panel/proxy/{scene.panel_id}", {"userId": scene.alice_id})
    for width, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        ctx, missing = new_context(browser, base, language, viewport)
        try:
            page = ctx.new_page()
            page.page_errors = []
            page.on("pageerror", lambda e, p=page: p.page_errors.append(str(e)))
            sign_in_any_language(page, base)
            rules = open_row_permissions(page, base, scene.dataset_id)
            expect(rules.locator(RULE)).to_have_count(1)
            expect(rules.locator(RULE).first).to_contain_text(ALICE_NAME)
            rules.get_by_test_id("rowperm-table").scroll_into_view_if_needed()
            assert_no_raw_keys(page)
            snap(page, f"{language}-{width}-rules")
            rules.get_by_test_id("rowperm-edit-0").click()
            form = page.get_by_test_id("rule-form")
            expect(form.get_by_test_id("rule-subject")).to_contain_text(ALICE_NAME)
            assert_no_raw_keys(page)
            snap(page, f"{language}-{width}-form")
            page.keyboard.press("Escape")
            if width == "desktop":  # the designer asks for a wider screen on phones
                page.goto(f"{base}/dynamic-report/design/{scene.panel_id}")
                expect(page.get_by_test_id("designer-page")).to_be_visible(timeout=30000)
                expect(page.get_by_test_id("proxy-setting-name")).to_contain_text(ALICE_NAME, timeout=15000)
                page.get_by_test_id("designer-proxy").click()
                expect(page.get_by_test_id("proxy-current")).to_contain_text(ALICE_NAME)
                assert_no_raw_keys(page)
                snap(page, f"{language}-{width}-proxy")
            assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
            assert not page.page_errors, page.page_errors
        finally:
            ctx.close()
        assert not missing, sorted(set(missing))
