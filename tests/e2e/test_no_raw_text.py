"""Every menu page of the demo, as the administrator and as alice (a viewer), in all five languages, shows
words: no translation key, no bare code, no timestamp with microseconds, and no key that no bundle has
(the pages run with the missing-key recorder on, see `strict_i18n` in conftest)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import sign_in, strict_i18n

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
LOCALES = ("zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu")
USERS = (("admin", "Admin@123"), ("alice", "Alice@123"))

MICROSECONDS = re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}\.\d{4,}")
SCREAMING_CODE = re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$")
DASHED_CODE = re.compile(r"^\(?[a-z]+(-[a-z]+)+\)?$")
CAMEL_CODE = re.compile(r"^[a-z]+(?:[A-Z][a-z0-9]*)+$")  # a field name: serverName, createdBy
LOCALE_CODE = re.compile(r"^(zh-cn|zh-tw|en-us|vi-vn|hu-hu)$")

# every text node of the page that a person can see, and the titles of the tabs
TEXTS_JS = """() => {
  const out = [];
  const SKIPPED = 'script,style,code,kbd,pre,textarea,[contenteditable=true],.bjs-container';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest(SKIPPED)) continue;
    const text = n.textContent.trim();
    if (!text) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    out.push(text);
  }
  document.querySelectorAll('input[placeholder]').forEach((i) => out.push(i.placeholder.trim()));
  return out;
}"""


def _keys(value: Any, prefix: str = "") -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _keys(v, f"{prefix}{k}.")
    else:
        yield prefix[:-1]


def translation_keys() -> set[str]:
    """The dotted keys of every bundle (a text equal to one is a key drawn instead of its words)."""
    keys: set[str] = set()
    for path in (ROOT / "i18n" / "en-us").glob("*.json"):
        keys |= {k for k in _keys(json.loads(path.read_text("utf-8"))) if "." in k}
    return keys


KEYS = translation_keys()


def raw_texts(texts: list[str]) -> list[str]:
    bad = []
    for text in texts:
        plain = text.strip("()[]:：")
        if (
            plain in KEYS
            or MICROSECONDS.search(text)
            or SCREAMING_CODE.match(plain)
            or DASHED_CODE.match(text)
            or CAMEL_CODE.match(plain)
            or LOCALE_CODE.match(plain)
        ):
            bad.append(text)
    return bad


def leaf_menus(page, base: str) -> list[tuple[str, str]]:
    """(path, name) of every menu leaf the signed-in user has, from the same call the shell makes."""
    tree = page.evaluate(
        """(base) => fetch(base + '/api/base/base-rolemenu/find-user-menus', {headers: {
            authorization: (document.cookie.match(/(?:^|; )Atrium-Token=([^;]*)/) || [])[1] || ''}})
            .then((r) => r.json())""",
        base,
    )
    menus = tree["data"]["menus"]
    menus = json.loads(menus) if isinstance(menus, str) else menus
    found: list[tuple[str, str]] = []

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            children = item.get("children") or []
            path = item.get("menuUrl") or ""
            if children:
                walk(children)
            elif path.startswith("/"):
                found.append((path, item["menuName"]))

    walk(menus)
    return found


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("account", USERS, ids=[u for u, _ in USERS])
def test_every_menu_page_shows_words(browser, live_server, account, locale) -> None:
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": live_server.url}])
    missing = strict_i18n(ctx)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15_000)
    try:
        sign_in(page, live_server.url, account[0], account[1])
        ctx.add_cookies([{"name": "language", "value": locale, "url": live_server.url}])
        page.goto(live_server.url + "/home")
        page.get_by_test_id("home-page").wait_for()
        assert page.evaluate("document.documentElement.lang") == locale
        page.wait_for_load_state("networkidle")
        problems: dict[str, list[str]] = {}
        home = raw_texts(page.evaluate(TEXTS_JS))
        if home:
            problems["/home"] = home
        pages = leaf_menus(page, live_server.url)
        assert pages, "the user has menus"
        for path, _name in pages:
            page.goto(live_server.url + path)
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(300)
            bad = raw_texts(page.evaluate(TEXTS_JS))
            tabs = page.locator("[data-testid=tab-strip] [role=tab]").all_inner_texts()
            bad += [t for t in tabs if t.strip().startswith("/")]
            if bad:
                problems[path] = sorted(set(bad))
        assert not problems, f"raw text on screen ({locale}, {account[0]}): {problems}"
        assert not missing, f"keys no bundle has ({locale}, {account[0]}): {sorted(set(missing))}"
        assert not errors, errors
    finally:
        ctx.close()
