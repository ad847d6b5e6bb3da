"""Serving the platform under a path prefix (``ATRIUM_BASE_PATH``, e.g. ``/atrium``) behind a reverse proxy.

The proxy may pass the prefix on (``location /atrium/ { proxy_pass http://node; }``) or strip it
(``proxy_pass http://node/;``): the outermost layer takes the prefix off when it is there, so every route,
authorization rule and log line below it sees the paths it always sees (``/api/...``, ``/ws``, ``/home``).
The page learns the prefix from the ``<base href>`` the host's index.html carries (see `index_html`), and
the web SDK puts it before every address it asks for.
"""

from __future__ import annotations

import re

from starlette.responses import RedirectResponse
from starlette.types import ASGIApp, Receive, Scope, Send

#: the template's own element, written by the host's public/index.html (minified or not)
BASE_ELEMENT = re.compile(rb'<base href="/"\s*/?>')


class BasePathMiddleware:
    """Takes `prefix` off the path of each HTTP and WebSocket request that carries it; the bare prefix is
    redirected to the prefix with its slash, where the page's relative addresses resolve."""

    def __init__(self, app: ASGIApp, prefix: str) -> None:
        self.app = app
        self.prefix = prefix
        self.raw_prefix = prefix.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path == self.prefix and scope["type"] == "http":
            query = scope.get("query_string", b"").decode("latin-1")
            target = f"{self.prefix}/" + (f"?{query}" if query else "")
            await RedirectResponse(target, status_code=308)(scope, receive, send)
            return
        if path.startswith(self.prefix + "/"):
            scope = dict(scope)
            scope["path"] = path[len(self.prefix) :]
            raw = scope.get("raw_path")
            if isinstance(raw, bytes) and raw.startswith(self.raw_prefix + b"/"):
                scope["raw_path"] = raw[len(self.raw_prefix) :]
        await self.app(scope, receive, send)


def index_html(template: bytes, prefix: str) -> bytes:
    """The host's index.html with its ``<base href>`` at `prefix`: the page's scripts, styles and chunks
    are addressed relative to it."""
    if not prefix:
        return template
    return BASE_ELEMENT.sub(f'<base href="{prefix}/">'.encode(), template, count=1)
