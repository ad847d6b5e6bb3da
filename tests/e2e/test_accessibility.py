"""WCAG 2.1 AA as axe-core measures it: the sign-in page, the home page and every menu page of the demo, as
the administrator and as alice (a viewer), in zh-cn and en-us, have no critical or serious violation of a
WCAG 2.0/2.1 A or AA rule; and the sign-in form's focus ring stands out from what is around it.

axe-core comes from npm (a root devDependency): its script is put into each page after the page has loaded
and gone quiet, and run on the whole document."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import sign_in
from test_no_raw_text import leaf_menus

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
REPORTS = ROOT / "var" / "artifacts" / "accessibility"
LOCALES = ("zh-cn", "en-us")
USERS = (("admin", "Admin@123"), ("alice", "Alice@123"))
IMPACTS = ("critical", "serious")

# the violations of the WCAG 2.0 and 2.1 A and AA rules whose impact is critical or serious; the
# stand-in pages that answer for outside addresses (see `outside`) are not the portal's and are left out
RUN_AXE = """(impacts) => axe.run(document, {
    runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']},
    resultTypes: ['violations'],
    iframes: false,
  }).then((r) => r.violations.filter((v) => impacts.includes(v.impact)).map((v) => ({
    id: v.id, impact: v.impact, count: v.nodes.length,
    targets: v.nodes.slice(0, 3).map((n) => n.target.join(' >> ')),
  })))"""

# the colour of the focus ring (outline, or antd's box-shadow ring) of the focused element, and the
# colour behind it, as [r, g, b]; a checkbox's or radio's input is invisible, its box shows the ring
FOCUS_RING = """() => {
  let el = document.activeElement;
  if (el.matches('input[type=checkbox], input[type=radio]')) el = el.parentElement;
  const rgb = (c) => (c.match(/\\d+(\\.\\d+)?/g) || []).slice(0, 4).map(Number);
  const cs = getComputedStyle(el);
  let ring = null;
  if (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2) ring = rgb(cs.outlineColor);
  else if (cs.boxShadow && cs.boxShadow !== 'none') ring = rgb(cs.boxShadow);
  let bg = [255, 255, 255];
  for (let n = el.parentElement; n; n = n.parentElement) {
    const c = rgb(getComputedStyle(n).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] === 1)) { bg = c.slice(0, 3); break; }
  }
  return {tag: el.tagName, id: el.id, ring, bg};
}"""


def luminance(rgb: list[float]) -> float:
    def channel(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: list[float], b: list[float]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def outside(live_url: str):
    """Answers any address outside the test server with a small page of its own (no network here)."""

    def handle(route: Any) -> None:
        url = route.request.url
        if url.startswith((live_url, "data:", "blob:", "about:")):
            route.fallback()
        else:
            route.fulfill(
                status=200,
                content_type="text/html",
                body='<html lang="en"><head><title>Outside</title></head><body>external page</body></html>',
            )

    return handle


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """The page's violations once it has settled; a page that shows some is given a second look a moment
    later (on two busy cores a plugin's texts or styles can still be on their way), and only what is still
    there counts."""
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(400)  # antd's enter animations (opacity, colour) end
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(RUN_AXE, list(IMPACTS))
    if found:
        page.wait_for_timeout(2000)
        found = page.evaluate(RUN_AXE, list(IMPACTS))
    return found


def report(found: dict[str, list[dict[str, Any]]]) -> str:
    lines = []
    for path, violations in found.items():
        for v in violations:
            lines.append(f"  {v['id']} ({v['impact']}, {v['count']}x) on {path}: {', '.join(v['targets'])}")
    return "\n".join(lines)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("account", USERS, ids=[u for u, _ in USERS])
def test_every_page_passes_axe(browser, live_server, account, locale) -> None:
    base = live_server.url
    # the portal's CSP allows no inline script, and axe is put in as one
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US", bypass_csp=True)
    ctx.route("**/*", outside(base))
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    found: dict[str, list[dict[str, Any]]] = {}
    try:
        # the sign-in page, in the language under test
        ctx.add_cookies([{"name": "language", "value": locale, "url": base}])
        page.goto(base + "/login")
        page.locator("#account").wait_for()
        if bad := axe_violations(page):
            found["/login"] = bad
        ctx.add_cookies([{"name": "language", "value": "en-us", "url": base}])
        sign_in(page, base, account[0], account[1])
        ctx.add_cookies([{"name": "language", "value": locale, "url": base}])
        page.goto(base + "/home")
        page.get_by_test_id("home-page").wait_for()
        assert page.evaluate("document.documentElement.lang") == locale
        if bad := axe_violations(page):
            found["/home"] = bad
        pages = leaf_menus(page, base)
        assert pages, "the user has menus"
        for path, _name in pages:
            page.goto(base + path)
            if bad := axe_violations(page):
                found[path] = bad
        REPORTS.mkdir(parents=True, exist_ok=True)
        visited = ["/login", "/home", *(path for path, _ in pages)]
        (REPORTS / f"axe-{account[0]}-{locale}.json").write_text(
            json.dumps({"pages": visited, "violations": found}, indent=1)
        )
        assert not found, f"axe-core violations ({account[0]}, {locale}):\n{report(found)}"
    finally:
        ctx.close()


@pytest.mark.parametrize("locale", LOCALES)
def test_sign_in_focus_ring_stands_out(browser, live_server, locale) -> None:
    """WCAG 1.4.11: the ring that the keyboard's focus draws on the consent box and the sign-in button has
    a contrast of at least 3:1 with the colour behind it."""
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    ctx.add_cookies([{"name": "language", "value": locale, "url": live_server.url}])
    page = ctx.new_page()
    try:
        page.goto(live_server.url + "/login")
        page.locator("#agree").wait_for()
        rings = {}
        for target in ("#agree", ".at-login-card button[type=submit]"):
            page.locator(target).focus()
            page.keyboard.press("Shift+Tab")  # focus by the keyboard, so that :focus-visible applies
            page.keyboard.press("Tab")
            page.wait_for_timeout(250)  # antd's focus transitions end
            ring = page.evaluate(FOCUS_RING)
            assert ring["ring"], f"no focus ring on {target}: {ring}"
            rings[target] = round(contrast(ring["ring"], ring["bg"]), 2)
        assert all(c >= 3 for c in rings.values()), rings
    finally:
        ctx.close()
