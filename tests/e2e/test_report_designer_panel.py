"""The panel designer in Chromium: create a panel, place, move and resize components on the 24-column
grid, undo and redo (buttons and keys), save the draft, preview, publish, see exactly the published
version in the viewer at the designed places, roll back; the screens in two languages and two widths."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from conftest import shot
from playwright.sync_api import Page, expect
from test_reports_support import OVERVIEW, ok, panel_ids

pytestmark = pytest.mark.e2e

COLUMNS = 24
PANEL_WIDTH = 1600  # the design width of a new panel
ROW_UNITS = 10


def cell(page: Page, component_id: str) -> tuple[int, int, int, int]:
    raw = page.get_by_test_id(f"canvas-item-{component_id}").get_attribute("data-grid-cell") or ""
    x, y, w, h = (int(v) for v in raw.split(","))
    return x, y, w, h


CANVAS_ITEMS = "[data-testid=designer-canvas] > .react-grid-layout > [data-testid^=canvas-item-]"


def item_ids(page: Page) -> list[str]:
    return page.evaluate(
        f"""() => Array.from(document.querySelectorAll('{CANVAS_ITEMS}'))
            .map(e => e.dataset.testid.slice('canvas-item-'.length))"""
    )


def add_from_palette(page: Page, kind: str) -> str:
    before = set(item_ids(page))
    page.get_by_test_id(f"palette-{kind}").click()
    page.wait_for_function(
        f"n => document.querySelectorAll('{CANVAS_ITEMS}').length > n",
        arg=len(before),
    )
    (new,) = set(item_ids(page)) - before
    return new


def draft(page: Page, panel_id: str) -> dict[str, Any]:
    return ok(page, f"/api/dyreport/panel/draft/{panel_id}")


def components(page: Page, panel_id: str) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in json.loads(draft(page, panel_id)["panelData"])}


def create_panel(page: Page, base: str, name: str) -> str:
    page.goto(base + "/dynamic-report")
    page.get_by_test_id("reports-new-panel").click()
    page.get_by_test_id("new-panel-name").fill(name)
    page.get_by_test_id("new-panel-create").click()
    page.wait_for_url("**/dynamic-report/design/**", timeout=30000)
    expect(page.get_by_test_id("designer-page")).to_be_visible(timeout=30000)
    return page.get_by_test_id("designer-page").get_attribute("data-panel-id") or ""


def drag_by(page: Page, locator, dx: float, dy: float) -> None:
    box = locator.bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(1, 11):
        page.mouse.move(x + dx * i / 10, y + dy * i / 10)
    page.mouse.up()


def published_text(page: Page, base: str, panel_id: str) -> str:
    page.goto(f"{base}/dynamic-report?panelId={panel_id}")
    panel = page.get_by_test_id("report-panel")
    expect(panel).to_be_visible(timeout=30000)
    return panel.inner_text()


def test_design_publish_view_and_roll_back(admin_page: Page, live_server) -> None:
    page, base = admin_page, live_server.url
    name = f"Designer e2e {uuid.uuid4().hex[:6]}"
    panel_id = create_panel(page, base, name)
    expect(page.get_by_test_id("designer-name")).to_have_value(name)
    expect(page.get_by_test_id("canvas-empty")).to_be_visible()
    for kind in (
        "view",
        "select",
        "date",
        "number-range",
        "input",
        "search",
        "reset",
        "export",
        "v-text",
        "picture",
        "video",
        "clock",
        "rect",
        "de-tabs",
    ):
        expect(page.get_by_test_id(f"palette-{kind}")).to_be_visible()

    # a text, typed on the right; one undo step takes back the whole typing
    text_id = add_from_palette(page, "v-text")
    field = page.get_by_test_id("prop-text")
    field.fill("")
    field.press_sequentially("Quarterly sales", delay=10)
    item = page.get_by_test_id(f"canvas-item-{text_id}")
    expect(item).to_contain_text("Quarterly sales")
    page.get_by_test_id("designer-undo").click()
    expect(item).not_to_contain_text("Quarterly sales")
    page.get_by_test_id("designer-redo").click()
    expect(item).to_contain_text("Quarterly sales")

    # a rectangle below it; moved right by dragging
    rect_id = add_from_palette(page, "rect")
    start = cell(page, rect_id)
    assert start[0] == 0 and start[1] >= cell(page, text_id)[1] + cell(page, text_id)[3]
    canvas_width = page.get_by_test_id("designer-canvas").bounding_box()["width"]
    drag_by(page, page.get_by_test_id(f"canvas-item-{rect_id}"), canvas_width / COLUMNS * 6, 0)
    moved = cell(page, rect_id)
    assert moved[0] == start[0] + 6 and moved[2:] == start[2:], (start, moved)

    # the text resized by its corner handle
    before = cell(page, text_id)
    page.get_by_test_id(f"canvas-item-{text_id}").click(position={"x": 8, "y": 8})
    handle = page.get_by_test_id(f"canvas-item-{text_id}").locator(".react-resizable-handle")
    drag_by(page, handle, canvas_width / COLUMNS * 4, 60)
    resized = cell(page, text_id)
    assert resized[2] == before[2] + 4 and resized[3] > before[3], (before, resized)

    # undo and redo with the keyboard over the resize and the move
    page.get_by_test_id("designer-name").blur()
    page.keyboard.press("Control+z")
    assert cell(page, text_id) == before
    page.keyboard.press("Control+z")
    assert cell(page, rect_id) == start
    page.keyboard.press("Control+Shift+z")
    assert cell(page, rect_id) == moved
    page.keyboard.press("Control+Shift+z")
    assert cell(page, text_id) == resized

    # a clock dragged from the palette onto the canvas
    clocks = page.locator("[data-testid^=canvas-item-][data-type=de-show-date]")
    page.get_by_test_id("palette-clock").drag_to(
        page.get_by_test_id("designer-canvas"), target_position={"x": canvas_width * 0.8, "y": 20}
    )
    expect(clocks).to_have_count(1)
    clock_id = (clocks.first.get_attribute("data-testid") or "").removeprefix("canvas-item-")
    assert cell(page, clock_id)[0] >= 12

    # save the draft: the styles are the grid cells in the panel's design units
    expect(page.get_by_test_id("designer-status")).to_have_attribute("data-status", "unsaved")
    page.get_by_test_id("designer-save").click()
    expect(page.get_by_test_id("designer-status")).to_have_attribute("data-status", "unpublished")
    saved = components(page, panel_id)
    x, y, w, h = resized
    col = PANEL_WIDTH / COLUMNS
    assert saved[text_id]["propValue"] == "Quarterly sales"
    assert saved[text_id]["style"]["left"] == round(x * col) and saved[text_id]["style"]["width"] == round(
        w * col
    )
    assert (
        saved[text_id]["style"]["top"] == y * ROW_UNITS and saved[text_id]["style"]["height"] == h * ROW_UNITS
    )
    assert saved[rect_id]["style"]["left"] == round(moved[0] * col)

    # preview shows the draft in the viewer
    page.get_by_test_id("designer-preview").click()
    expect(page.get_by_test_id("designer-preview").get_by_test_id("report-panel")).to_contain_text(
        "Quarterly sales"
    )
    page.keyboard.press("Escape")

    # publish v1 with a note
    page.get_by_test_id("designer-publish").click()
    page.get_by_test_id("publish-note").fill("first cut")
    page.get_by_test_id("publish-confirm").click()
    expect(page.get_by_test_id("designer-status")).to_have_attribute("data-status", "published")
    version1 = int(re.search(r"(\d+)", page.get_by_test_id("designer-status").inner_text()).group(1))

    # the viewer shows it where it was designed
    assert "Quarterly sales" in published_text(page, base, panel_id)
    panel_box = page.get_by_test_id("report-panel").bounding_box()
    text_box = page.locator(f".rpt-component[data-id='{text_id}']").bounding_box()
    assert panel_box and text_box
    assert abs((text_box["x"] - panel_box["x"]) - panel_box["width"] * x / COLUMNS) <= 2
    assert abs(text_box["width"] - panel_box["width"] * w / COLUMNS) <= 2

    # a saved but unpublished change: viewers still see v1, the list flags the panel
    page.goto(f"{base}/dynamic-report/design/{panel_id}")
    page.get_by_test_id(f"canvas-item-{text_id}").click(position={"x": 8, "y": 8})
    page.get_by_test_id("prop-text").fill("Changed text")
    page.get_by_test_id("designer-save").click()
    expect(page.get_by_test_id("designer-status")).to_have_attribute("data-status", "unpublished")
    text = published_text(page, base, panel_id)
    assert "Quarterly sales" in text and "Changed text" not in text
    expect(page.get_by_test_id(f"panel-unpublished-{panel_id}")).to_be_visible()
    page.get_by_test_id(f"panel-design-{panel_id}").click()
    page.wait_for_url(f"**/dynamic-report/design/{panel_id}")
    page.get_by_test_id("designer-publish").click()
    page.get_by_test_id("publish-confirm").click()
    expect(page.get_by_test_id("designer-status")).to_have_attribute("data-status", "published")
    assert "Changed text" in published_text(page, base, panel_id)

    # roll back to v1 after a confirmation: draft and viewers get v1 again
    page.goto(f"{base}/dynamic-report/design/{panel_id}")
    page.get_by_test_id("designer-versions").click()
    expect(page.get_by_test_id(f"version-note-{version1}")).to_have_text("first cut")
    page.get_by_test_id(f"version-rollback-{version1}").click()
    page.get_by_test_id("version-rollback-confirm").click()
    expect(page.get_by_test_id(f"canvas-item-{text_id}")).to_contain_text("Quarterly sales")
    assert components(page, panel_id)[text_id]["propValue"] == "Quarterly sales"
    text = published_text(page, base, panel_id)
    assert "Quarterly sales" in text and "Changed text" not in text


def test_leaving_with_unsaved_changes_asks_first(admin_page: Page, live_server) -> None:
    page, base = admin_page, live_server.url
    panel_id = create_panel(page, base, f"Leave e2e {uuid.uuid4().hex[:6]}")
    add_from_palette(page, "v-text")
    page.get_by_test_id("designer-back").click()
    dialog = page.locator(".ant-modal-confirm")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Cancel").click()
    expect(page).to_have_url(re.compile(f"/dynamic-report/design/{panel_id}"))
    page.get_by_test_id("designer-save").click()
    expect(page.get_by_test_id("designer-status")).to_have_attribute("data-status", "unpublished")
    page.get_by_test_id("designer-back").click()
    page.wait_for_url(f"**/dynamic-report?panelId={panel_id}")


def test_a_wrong_picture_is_refused_before_upload(admin_page: Page, live_server, tmp_path) -> None:
    page = admin_page
    create_panel(page, live_server.url, f"Picture e2e {uuid.uuid4().hex[:6]}")
    add_from_palette(page, "picture")
    uploads: list[str] = []
    page.on("request", lambda r: uploads.append(r.url) if "file-upload" in r.url else None)
    gif = tmp_path / "x.gif"
    gif.write_bytes(b"GIF89a")
    page.get_by_test_id("props-component").locator("input[type=file]").set_input_files(str(gif))
    expect(page.locator(".ant-message")).to_contain_text("Picture must be JPEG, JPG or PNG")
    big = tmp_path / "big.png"
    big.write_bytes(b"\x89PNG\r\n\x1a\n" + b"0" * 2_100_000)
    page.get_by_test_id("props-component").locator("input[type=file]").set_input_files(str(big))
    expect(page.locator(".ant-message")).to_contain_text("Picture size must not exceed 2MB")
    assert uploads == []


RAW_KEY = re.compile(
    r"\b(?:palette|props|widget|status|bar|share|privileges|versions|canvas|tabs|clock)\.[a-zA-Z.]+"
)


@pytest.mark.parametrize("locale", ["en-us", "zh-cn"])
@pytest.mark.parametrize("width", [1440, 390])
def test_designer_screens(browser, live_server, locale: str, width: int) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
    ctx.add_cookies([{"name": "language", "value": locale, "url": live_server.url}])
    page = ctx.new_page()
    try:
        page.goto(live_server.url + "/login")
        page.locator("#account").fill("admin")
        page.locator("#password").fill("Admin@123")
        page.locator("#agree").check()
        page.locator("button[type=submit]").click()
        page.wait_for_url("**/home")
        pid = panel_ids(page)[OVERVIEW]
        page.goto(f"{live_server.url}/dynamic-report/design/{pid}")
        if width < 768:
            expect(page.get_by_test_id("designer-narrow")).to_be_visible(timeout=30000)
        else:
            expect(page.get_by_test_id("designer-canvas")).to_be_visible(timeout=30000)
            expect(page.locator("[data-testid^=canvas-item-]").first).to_be_visible()
            page.locator("[data-testid^=canvas-item-][data-type=custom]").first.click()
            expect(page.get_by_test_id("props-widget")).to_be_visible()
            page.wait_for_timeout(1500)
        body = page.locator("body").inner_text()
        assert not RAW_KEY.search(body), RAW_KEY.search(body)
        shot(page, f"designer-{locale}-{width}")
        if width >= 768:
            page.get_by_test_id("designer-share").click()
            expect(page.get_by_test_id("share-dialog")).to_be_visible()
            shot(page, f"designer-share-{locale}")
            page.keyboard.press("Escape")
            page.get_by_test_id("designer-privileges").click()
            expect(page.get_by_test_id("privileges-dialog")).to_be_visible()
            shot(page, f"designer-privileges-{locale}")
            assert not RAW_KEY.search(page.locator("body").inner_text())
        # nothing wider than the window: the canvas scrolls inside its own box
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    finally:
        ctx.close()


def test_share_link_framing_is_set_per_link(admin_page: Page, live_server) -> None:
    """The share dialog lets other sites frame one link (its page's frame-ancestors then name them), and
    moves the link to a new address with its settings."""
    import httpx

    page, base = admin_page, live_server.url
    panel_id = create_panel(page, base, f"Embedded {uuid.uuid4().hex[:6]}")
    page.get_by_test_id("designer-share").click()
    expect(page.get_by_test_id("share-dialog")).to_be_visible()
    if page.get_by_test_id("share-enable").get_attribute("aria-checked") != "true":
        page.get_by_test_id("share-enable").click()
    expect(page.get_by_test_id("share-enable")).to_have_attribute("aria-checked", "true")
    link_id = page.get_by_test_id("share-dialog").get_attribute("data-link-id")

    def frame_ancestors() -> str:
        csp = httpx.get(f"{base}/dynamic-report/link/{link_id}").headers.get("content-security-policy", "")
        return next((d.strip() for d in csp.split(";") if d.strip().startswith("frame-ancestors")), "")

    assert "https://intranet.example.com" not in frame_ancestors()
    page.get_by_test_id("share-embed").click()
    origins = page.get_by_test_id("share-embed-origins")
    origins.click()
    page.keyboard.type("ftp://intranet")
    page.keyboard.press("Enter")
    page.get_by_test_id("share-embed-save").click()
    expect(page.locator(".ant-message-error")).to_be_visible()
    origins.locator(".ant-select-selection-item-remove").click()
    origins.click()
    page.keyboard.type("https://intranet.example.com")
    page.keyboard.press("Enter")
    page.get_by_test_id("share-embed-save").click()
    expect(page.get_by_text("Link saved")).to_be_visible()
    assert "https://intranet.example.com" in frame_ancestors()
    shot(page, "designer-share-embed")

    # a new address keeps the settings; the old one is gone
    page.get_by_test_id("share-rotate").click()
    tip = page.get_by_role("tooltip").filter(has_text="stop working at once")
    confirm = tip.get_by_role("button", name="OK")
    expect(confirm).to_be_visible()
    confirm.click()
    expect(page.get_by_text("The link has a new address")).to_be_visible()
    old_id = link_id
    expect(page.get_by_test_id("share-dialog")).not_to_have_attribute("data-link-id", old_id or "")
    link_id = page.get_by_test_id("share-dialog").get_attribute("data-link-id")
    assert link_id and panel_id
    expect(page.get_by_test_id("share-address")).to_contain_text(link_id)
    assert "https://intranet.example.com" in frame_ancestors()
    assert httpx.get(f"{base}/api/dyreport/link/{old_id}").json()["code"] != 800
