"""Message content rules: a size limit, no active content, and nh3 sanitising before storing or showing.

Content that carries scripts (script or frame-like tags, ``on*`` handler attributes, ``javascript:`` and
similar URLs) is refused with a clear error rather than silently rewritten, so a sender sees that the
letter would not have been delivered as written. Everything else goes through nh3 with an allow-list.
"""

from __future__ import annotations

import copy
import re
from functools import lru_cache
from html.parser import HTMLParser

import nh3

from atrium.sdk.errors import BadRequest

MAX_CONTENT = 20_000
ACTIVE_TAGS = frozenset({
    "script", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "meta", "link", "form",
    "svg", "math", "template", "noscript",
})
URL_ATTRS = frozenset({
    "href", "src", "action", "formaction", "xlink:href", "background", "poster", "srcset", "data",
})
BAD_SCHEME = re.compile(r"^\s*(javascript|vbscript|data|livescript|mocha)\s*:", re.IGNORECASE)
CONTROL = re.compile(r"[\x00-\x20\x7f]+")
STYLE_PROPERTIES = frozenset({
    "color", "background-color", "font-weight", "font-style", "font-size", "text-decoration", "text-align",
})
ATTRIBUTES: dict[str, set[str]] = copy.deepcopy(nh3.ALLOWED_ATTRIBUTES)
for _tag in ("span", "p", "div", "td", "th", "li", "strong", "em", "b", "i", "u", "h1", "h2", "h3", "h4"):
    ATTRIBUTES.setdefault(_tag, set()).add("style")
ATTRIBUTES.setdefault("a", set()).add("target")
PLAIN_LIMIT = 120


class _ActiveContentFinder(HTMLParser):
    """Finds the first piece of active content in an HTML fragment (tag, handler or script URL)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: str | None = None

    def _check(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.found:
            return
        if tag in ACTIVE_TAGS:
            self.found = f"<{tag}>"
            return
        for name, value in attrs:
            if name.startswith("on"):
                self.found = name
                return
            if name in URL_ATTRS and value and BAD_SCHEME.match(CONTROL.sub("", value)):
                self.found = f"{name}={value.split(':', 1)[0].strip()}:"
                return
            if name == "style" and value and re.search(r"expression\s*\(|url\s*\(|javascript:", value, re.I):
                self.found = "style"
                return

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._check(tag.lower(), [(n.lower(), v) for n, v in attrs])

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._check(tag.lower(), [(n.lower(), v) for n, v in attrs])


def active_content(html: str) -> str | None:
    """The first script-like construct in the fragment, or None when there is none."""
    finder = _ActiveContentFinder()
    finder.feed(html)
    finder.close()
    return finder.found


def sanitise(html: str) -> str:
    """The fragment with only allowed tags, attributes, style properties and URL schemes left."""
    return nh3.clean(
        html, attributes=ATTRIBUTES, filter_style_properties=set(STYLE_PROPERTIES),
        url_schemes={"http", "https", "mailto"}, link_rel="noopener noreferrer",
    )


@lru_cache(maxsize=256)
def check_and_clean(html: str) -> str:
    """Validate message content and answer its sanitised form; raises a translated 400 otherwise. The
    answers for recent contents are kept: letters sent by a process, a job or a broadcast repeat theirs."""
    if len(html) > MAX_CONTENT:
        raise BadRequest("message:content.too_long", max=MAX_CONTENT, length=len(html))
    found = active_content(html)
    if found:
        raise BadRequest("message:content.unsafe", found=found)
    clean = sanitise(html)
    if not plain_text(clean).strip() and "<img" not in clean:
        raise BadRequest("message:content.empty")
    return clean


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def plain_text(html: str, limit: int | None = None) -> str:
    """The text of a fragment with whitespace collapsed (previews in pushes and the admin list)."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    text = " ".join(" ".join(parser.parts).split())
    if limit is not None and len(text) > limit:
        return text[: limit - 1] + "…"
    return text
