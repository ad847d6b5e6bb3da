"""Security headers on every answer, built with the `secure` library.

- HTML (the shell and every client route): a Content-Security-Policy without `unsafe-eval` (scripts only
  from the site, which serves the remotes too), `frame-ancestors` with `X-Frame-Options`, `nosniff`,
  `Referrer-Policy: strict-origin-when-cross-origin` and a `Permissions-Policy`; only the site itself may
  frame its pages, unless a plugin names other sites for one page (a shared report link its owner allows
  to be embedded, through the `atrium_frame_ancestors` hook): then `frame-ancestors` lists them and
  `X-Frame-Options`, which cannot name a site, is left out (browsers follow `frame-ancestors` first).
- API answers: `nosniff` and `Cache-Control: no-store` (a handler that sets its own caching, such as a
  file download, keeps it).
- Everything else (scripts, styles, translations): `nosniff`.
"""

from __future__ import annotations

import re
from functools import lru_cache

import secure
from starlette.types import Message, Scope


def _permissions() -> secure.PermissionsPolicy:
    return secure.PermissionsPolicy().geolocation().camera().microphone().payment().usb()


#: the scope key where the shell's HTML answer leaves the sites a plugin allowed to frame it
FRAME_ANCESTORS = "atrium.frame_ancestors"
#: what a plugin may name: a scheme and host (optionally a `*.` wildcard) and port, nothing else
_SOURCE = re.compile(r"^https?://(\*\.)?[a-z0-9.-]+(:\d{1,5})?$")


def content_security_policy(*frame_ancestors: str) -> secure.ContentSecurityPolicy:
    """The shell's policy: its own scripts only; inline styles (the component library injects them);
    images and workers from blob URLs; external pages in frames (menus may open them)."""
    return (
        secure.ContentSecurityPolicy()
        .default_src("'self'")
        .script_src("'self'")
        .style_src("'self'", "'unsafe-inline'")
        .img_src("'self'", "data:", "blob:", "https:")
        .font_src("'self'", "data:")
        .connect_src("'self'")
        .worker_src("'self'", "blob:")
        .frame_src("'self'", "https:", "http:")
        .object_src("'none'")
        .base_uri("'self'")
        .form_action("'self'")
        .frame_ancestors("'self'", *frame_ancestors)
    )


@lru_cache(maxsize=256)
def html_headers(frame_ancestors: tuple[str, ...] = ()) -> dict[str, str]:
    """The headers of an HTML answer that the site and `frame_ancestors` (origins) may frame."""
    allowed = tuple(o for o in frame_ancestors if _SOURCE.match(o))
    return dict(
        secure.Secure(
            csp=content_security_policy(*allowed),
            xcto=secure.XContentTypeOptions(),
            referrer=secure.ReferrerPolicy().strict_origin_when_cross_origin(),
            permissions=_permissions(),
            xfo=None if allowed else secure.XFrameOptions().sameorigin(),
        ).headers
    )


def _raw(headers: dict[str, str]) -> list[tuple[bytes, bytes]]:
    return [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]


API_HEADERS = _raw(
    dict(secure.Secure(xcto=secure.XContentTypeOptions(), cache=secure.CacheControl().no_store()).headers)
)
STATIC_HEADERS = _raw(dict(secure.Secure(xcto=secure.XContentTypeOptions()).headers))


def add_security_headers(scope: Scope, message: Message) -> None:
    """Adds an HTTP answer's security headers to its start message, each unless the answer set it itself:
    API answers are never stored, HTML carries the content policy, everything is never sniffed."""
    raw = list(message.get("headers", ()))
    if scope.get("path", "").startswith("/api/"):
        extra = API_HEADERS
    elif any(k == b"content-type" and v.startswith(b"text/html") for k, v in raw):
        extra = _raw(html_headers(scope.get(FRAME_ANCESTORS, ())))
    else:
        extra = STATIC_HEADERS
    present = {k.lower() for k, _ in raw}
    raw.extend(item for item in extra if item[0] not in present)
    message["headers"] = raw
