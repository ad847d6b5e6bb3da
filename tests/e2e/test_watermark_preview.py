"""A file previewed in Chromium with the watermark stamped into it by the server: the picture the page shows
carries the signed-in user's watermark in its own pixels, while the stored file has none."""

from __future__ import annotations

import io

import pytest
from conftest import ROOT, api_client, shot, sign_in
from PIL import Image

from atrium.sdk.testing import DEMO_PASSWORDS

pytestmark = pytest.mark.e2e
UPLOAD = "/api/file/iot-base-attachment/single/file-upload"

if not (ROOT / "web-plugins" / "watermark" / "dist" / "remoteEntry.js").exists():
    raise RuntimeError(
        "build the watermark remote first: node sdk/web/webpack/buildWorkspaces.mjs web-plugins/watermark"
    )


def white_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (640, 480), "white").save(out, "PNG")
    return out.getvalue()


#: pixels of the <img> that are not white, read back through a canvas
MARKED_PIXELS = """img => { const c = document.createElement('canvas'); c.width = img.naturalWidth;
    c.height = img.naturalHeight; const g = c.getContext('2d'); g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data; let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 235 || d[i + 1] < 235 || d[i + 2] < 235) n++;
    return {n, w: c.width, h: c.height}; }"""


def test_the_preview_screen_shows_the_image_with_the_watermark_stamped_in(page, live_server):
    alice = api_client(live_server.url, "alice")
    env = alice.post(UPLOAD, files={"file": ("site-plan.png", white_png(), "image/png")}).json()
    assert env["code"] == 800, env
    file_id = env["data"]["fileId"]
    stored = alice.get(env["data"]["filePath"])
    assert Image.open(io.BytesIO(stored.content)).convert("L").getextrema() == (255, 255)

    sign_in(page, live_server.url, "alice", DEMO_PASSWORDS["alice"])
    page.goto(f"{live_server.url}/watermark-preview?fileId={file_id}")
    page.get_by_test_id("watermark-file-preview-page").wait_for()
    img = page.locator("img[data-testid=watermark-file-preview]")
    img.wait_for(timeout=30_000)
    page.wait_for_function("el => el.complete && el.naturalWidth > 0", arg=img.element_handle())
    assert img.get_attribute("src").startswith("blob:")
    marked = img.evaluate(MARKED_PIXELS)
    assert (marked["w"], marked["h"]) == (640, 480)
    assert marked["n"] > 1000, marked
    page.get_by_text("The watermark is stamped into this preview").wait_for()
    assert not page.page_errors
    shot(page, "watermark-file-preview")
