"""The watermark in Chromium: drawn over every page for the signed-in user, restored within a moment
when removed or restyled, click-through, gone after sign-out; the settings screen's live preview."""

from __future__ import annotations

import secrets
import subprocess
from typing import Any

import httpx
import pytest
from conftest import ROOT, api_client, shot, sign_in
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e
WAIT = 15_000  # ms: the machine running the browser tests is shared and often busy
LAYER = "[data-atrium-watermark]"
WM = "/api/watermark/iotBaseFuncWaterController/get-system-watermark"


def ensure_remotes_built(*names: str) -> None:
    """Build the plugins' remotes when missing. The kernel mounts `/plugins/<name>/` only for a `dist` that
    exists when the server starts, so this runs while the tests are collected, before any server."""
    for name in names:
        folder = ROOT / "web-plugins" / name
        if not (folder / "dist" / "remoteEntry.js").exists():
            subprocess.run(
                ["npx", "webpack", "--mode", "production"], cwd=folder, check=True, stdout=subprocess.DEVNULL
            )


ensure_remotes_built("message", "watermark")


def layer_state(page: Any) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(
        """sel => { const el = document.querySelector(sel); if (!el) return {present: false};
        const cs = getComputedStyle(el); const r = el.getBoundingClientRect();
        return {present: true, count: document.querySelectorAll(sel).length, z: cs.zIndex,
                pe: cs.pointerEvents, display: cs.display, visibility: cs.visibility, opacity: cs.opacity,
                position: cs.position, bg: cs.backgroundImage.slice(0, 27), size: cs.backgroundSize,
                w: r.width, h: r.height, parent: el.parentElement === document.body}; }""",
        LAYER,
    )
    return state


def wait_restored(page: Any) -> None:
    page.wait_for_function(
        """sel => { const els = document.querySelectorAll(sel); if (els.length !== 1) return false;
        const cs = getComputedStyle(els[0]);
        return !els[0].__tampered && cs.display === 'block' && cs.visibility === 'visible'
               && cs.opacity === '1' && cs.zIndex === '100000'; }""",
        arg=LAYER,
        timeout=10000,
    )


def test_the_watermark_is_drawn_for_the_signed_in_user(page, live_server):
    sign_in(page, live_server.url, "supervisor", "Super@123")
    page.wait_for_selector(LAYER, state="attached")
    state = layer_state(page)
    assert state["present"] and state["count"] == 1 and state["parent"]
    assert (state["z"], state["pe"], state["position"]) == ("100000", "none", "fixed")
    assert state["bg"] == 'url("data:image/png;base64,'
    assert state["size"] == "250px 250px"
    assert (state["w"], state["h"]) == (1440, 900)
    # what the tile shows is the server's text for the signed-in user
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "Atrium-Token")
    text = httpx.get(live_server.url + WM, headers={"authorization": token}).json()["data"]["content"]
    assert text == "王主管 A0002"
    # the layer lets clicks through to the page below
    page.get_by_test_id("msg-bell").click()
    expect(page.get_by_test_id("msg-popover")).to_be_visible(timeout=WAIT)
    shot(page, "watermark-shown")


def test_the_watermark_comes_back_when_removed(page, live_server):
    sign_in(page, live_server.url, "supervisor", "Super@123")
    page.wait_for_selector(LAYER, state="attached")
    remove = "sel => document.querySelectorAll(sel).forEach(el => { el.__tampered = true; el.remove(); })"
    page.evaluate(remove, LAYER)
    wait_restored(page)
    # removing it again and again: always exactly one layer
    for _ in range(3):
        page.evaluate(remove, LAYER)
        wait_restored(page)
    assert layer_state(page)["count"] == 1


@pytest.mark.parametrize(
    "tamper",
    [
        "el.style.display = 'none'",
        "el.style.opacity = '0'",
        "el.setAttribute('style', '')",
        "el.style.zIndex = '-1'",
        "el.hidden = true",
        "el.className = 'x'",
    ],
)
def test_the_watermark_comes_back_when_its_style_is_changed(page, live_server, tamper):
    sign_in(page, live_server.url, "supervisor", "Super@123")
    page.wait_for_selector(LAYER, state="attached")
    page.evaluate(
        f"sel => {{ const el = document.querySelector(sel); el.__tampered = true; {tamper}; }}", LAYER
    )
    wait_restored(page)


def test_a_style_sheet_cannot_hide_it(page, live_server):
    sign_in(page, live_server.url, "supervisor", "Super@123")
    page.wait_for_selector(LAYER, state="attached")
    page.add_style_tag(content=f"{LAYER} {{ display: none !important; opacity: 0 !important }}")
    state = layer_state(page)
    assert (state["display"], state["opacity"]) == ("block", "1")


def test_the_watermark_follows_resizes_and_leaves_on_sign_out(page, live_server):
    sign_in(page, live_server.url, "supervisor", "Super@123")
    page.wait_for_selector(LAYER, state="attached")
    page.set_viewport_size({"width": 900, "height": 700})
    page.wait_for_function(
        "sel => { const r = document.querySelector(sel)?.getBoundingClientRect(); "
        "return r && r.width === 900 && r.height === 700; }",
        arg=LAYER,
    )
    page.get_by_test_id("user-menu").click()
    page.get_by_role("menuitem", name="Sign out").click()
    page.locator(".ant-modal-confirm").get_by_role("button", name="OK").click()
    page.wait_for_url("**/login")
    expect(page.locator(LAYER)).to_have_count(0, timeout=WAIT)


def test_a_tenant_without_a_watermark_shows_none(page, live_server):
    sign_in(page, live_server.url, "bob", "Bob@12345")
    page.wait_for_timeout(1000)  # the overlay slot has loaded and asked the server by now
    expect(page.locator(LAYER)).to_have_count(0, timeout=WAIT)


def test_settings_screen_with_live_preview(page, live_server):
    code = f"e2e{secrets.token_hex(2)}"
    admin = api_client(live_server.url, "admin")
    sign_in(page, live_server.url)
    page.goto(live_server.url + "/system_manage/watermark")
    screen = page.get_by_test_id("watermark-settings")
    expect(screen.get_by_text("{userFullName} {staffNo}")).to_be_visible(timeout=WAIT)
    page.get_by_test_id("watermark-new").click()
    page.get_by_label("Function code").fill(code)
    page.get_by_test_id("watermark-content").fill("{account} · {tenantName}")
    preview = page.get_by_test_id("watermark-preview")
    expect(preview).to_have_attribute("title", "admin · Acme", timeout=WAIT)
    assert "data:image/png" in (preview.evaluate("el => el.style.backgroundImage") or "")
    page.get_by_test_id("watermark-save").click()
    expect(page.get_by_text("Watermark saved")).to_be_visible(timeout=WAIT)
    got = admin.get(WM, params={"ffwFunctionCode": code}).json()["data"]
    assert got["content"] == "admin · Acme" and got["ffwFunctionCode"] == code
    # an unknown placeholder: the server's message, nothing saved
    page.get_by_test_id("watermark-content").fill("{salary}")
    page.get_by_test_id("watermark-save").click()
    expect(page.get_by_text("Unknown placeholder {salary}")).to_be_visible(timeout=WAIT)
    kept = admin.get(WM, params={"ffwFunctionCode": code}).json()["data"]
    assert kept["fwContent"] == "{account} · {tenantName}"
    shot(page, "watermark-settings")
    admin.post("/api/watermark/admin/delete", json={"ffwId": got["ffwId"]})
