"""Security headers on every answer, built with the `secure` library.

- HTML (the shell and every client route): a Content-Security-Policy without `unsafe-eval` (scripts only
  from the site, which serves the remotes too), `frame-ancestors` with `X-Frame-Options`, `nosniff`,
  `Referrer-Policy: strict-origin-when-cross-origin` and a `Permissions-Policy`. A page may be framed by
  other sites only where a plugin says so for its path (a report share link's own setting, through the
  `atrium_frame_ancestors` hook).
- API answers: `nosniff` and `Cache-Control: no-store` (a handler that sets its own caching, such as a
  file download, keeps it).
- Everything else (scripts, styles, translations): `nosniff`.
"""

from __future__ import annotations

from collections.abc import Callable

import secure
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

FrameAncestors = Callable[[str], "list[str] | None"]



def _permissions() -> secure.PermissionsPolicy:
    return secure.PermissionsPolicy().geolocation().camera().microphone().payment().usb()


def content_security_policy(frame_ancestors: list[str]) -> secure.ContentSecurityPolicy:
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
        .frame_ancestors(*frame_ancestors)
    )


def _html_headers(frame_ancestors: list[str]) -> dict[str, str]:
    """`X-Frame-Options` can name no other site: it is sent only when the page is framed by its own."""
    own_only = frame_ancestors == ["'self'"]
    return dict(secure.Secure(
        csp=content_security_policy(frame_ancestors),
        xcto=secure.XContentTypeOptions(),
        referrer=secure.ReferrerPolicy().strict_origin_when_cross_origin(),
        permissions=_permissions(),
        xfo=secure.XFrameOptions().sameorigin() if own_only else None,
    ).headers)


API_HEADERS = dict(
    secure.Secure(xcto=secure.XContentTypeOptions(), cache=secure.CacheControl().no_store()).headers
)
STATIC_HEADERS = dict(secure.Secure(xcto=secure.XContentTypeOptions()).headers)
DEFAULT_HTML_HEADERS = _html_headers(["'self'"])


class SecurityHeadersMiddleware:
    def __init__(self, app: ASGIApp, frame_ancestors: FrameAncestors | None = None) -> None:
        self.app = app
        self.frame_ancestors = frame_ancestors

    def _html(self, path: str) -> dict[str, str]:
        allowed = self.frame_ancestors(path) if self.frame_ancestors else None
        if not allowed:
            return DEFAULT_HTML_HEADERS
        return _html_headers(["'self'", *allowed])

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
                    extra = self._html(path)
                else:
                    extra = STATIC_HEADERS
                for name, value in extra.items():
                    if name.lower() == "cache-control" and "cache-control" in headers:
                        continue
                    if name.lower() not in headers or name.lower() == "x-content-type-options":
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
