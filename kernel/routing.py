"""A Starlette router that finds routes without path parameters by a dict lookup, and a layer that sends
the API's exact paths straight to their endpoints.

Starlette tries routes one by one; with every plugin's routes assembled that walk is the largest cost of a
hot request, so exact paths are looked up directly and only the rest fall back to the walk.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from starlette.routing import BaseRoute, Match, Route, Router
from starlette.types import ASGIApp, Receive, Scope, Send


class ExactPathRouter(Router):
    def __init__(self, routes: list[BaseRoute], **kw: Any) -> None:
        super().__init__(routes=routes, **kw)
        self.exact: dict[str, list[Route]] = defaultdict(list)
        for route in routes:
            if isinstance(route, Route) and not route.param_convertors:
                self.exact[route.path].append(route)

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for route in self.exact.get(scope["path"], ()):
                match, child_scope = route.matches(scope)
                if match is Match.FULL:
                    scope.setdefault("router", self)
                    scope["route"] = route
                    scope.update(child_scope)
                    await route.handle(scope, receive, send)
                    return
        await super().app(scope, receive, send)


class DirectEndpoints:
    """Sends a request whose exact path and method belong to a self-contained endpoint (one that answers
    every error itself, in the envelope) straight to it, past Starlette's exception layer and the router;
    everything else (files, the web app, routes with path parameters) goes down the usual stack."""

    def __init__(self, app: ASGIApp, router: ExactPathRouter, direct: type) -> None:
        self.app = app
        self.routes: dict[str, list[Route]] = {
            path: [r for r in found if isinstance(r.app, direct)] for path, found in router.exact.items()
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for route in self.routes.get(scope["path"], ()):
                if route.methods is None or scope["method"] in route.methods:
                    scope["route"] = route
                    await route.app(scope, receive, send)
                    return
        await self.app(scope, receive, send)
