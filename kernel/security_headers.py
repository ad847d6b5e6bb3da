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
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send


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


API_HEADERS = dict(
    secure.Secure(xcto=secure.XContentTypeOptions(), cache=secure.CacheControl().no_store()).headers
)
STATIC_HEADERS = dict(secure.Secure(xcto=secure.XContentTypeOptions()).headers)


class SecurityHeadersMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                kind = headers.get("content-type", "")
                if path.startswith("/api/"):
                    extra = API_HEADERS
                elif kind.startswith("text/html"):
                    extra = html_headers(scope.get(FRAME_ANCESTORS, ()))
                else:
                    extra = STATIC_HEADERS
                for name, value in extra.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
