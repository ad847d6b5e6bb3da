"""A Starlette router that finds its routes by lookups instead of a walk, and a layer that sends API requests
straight to their endpoints.

Starlette tries routes one by one; with every plugin's routes assembled that walk is the largest cost of a
hot request. Exact paths are looked up directly; a route with path parameters is only tried for paths that
start with its literal head (the part before its first parameter), in the order Starlette would try it.
"""

from __future__ import annotations

from collections import defaultdict
from heapq import merge
from typing import Any

from starlette.routing import BaseRoute, Match, Route, Router
from starlette.types import ASGIApp, Receive, Scope, Send


def literal_head(path: str) -> str:
    """A parametrised route's path up to the last "/" before its first parameter."""
    head = path.split("{", 1)[0]
    return head[: head.rfind("/") + 1]


class RouteIndex:
    """The routes that can match a path, in the router's order, found by lookups.

    A path-parameter route can only match paths that start with its literal head; an exact route only its
    own path; anything else (mounts, websockets) is a candidate for every path."""

    def __init__(self, routes: list[BaseRoute]) -> None:
        self.by_head: dict[str, list[tuple[int, BaseRoute]]] = defaultdict(list)
        self.exact: dict[str, list[tuple[int, BaseRoute]]] = defaultdict(list)
        self.always: list[tuple[int, BaseRoute]] = []
        for i, route in enumerate(routes):
            if isinstance(route, Route) and route.param_convertors:
                self.by_head[literal_head(route.path)].append((i, route))
            elif isinstance(route, Route):
                self.exact[route.path].append((i, route))
            else:
                self.always.append((i, route))

    def candidates(self, path: str) -> list[BaseRoute]:
        lists = [self.always, self.exact.get(path, [])]
        end = path.find("/")
        while end != -1:
            found = self.by_head.get(path[: end + 1])
            if found:
                lists.append(found)
            end = path.find("/", end + 1)
        return [route for _, route in merge(*lists, key=lambda item: item[0])]

    def full_match(self, scope: Scope) -> tuple[BaseRoute, Scope] | None:
        """The route Starlette's walk would handle the request with, when that walk's first match is a full
        one; None leaves the request to the walk (a partial match, a redirect, not found)."""
        for route in self.candidates(scope["path"]):
            match, child_scope = route.matches(scope)
            if match is Match.FULL:
                return route, child_scope
            if match is not Match.NONE:
                return None
        return None


MATCH = "atrium.route_match"
"""The scope key under which `DirectEndpoints` hands the router the match it already found."""


class ExactPathRouter(Router):
    def __init__(self, routes: list[BaseRoute], **kw: Any) -> None:
        super().__init__(routes=routes, **kw)
        self.index = RouteIndex(routes)

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            found = scope.pop(MATCH) if MATCH in scope else self.index.full_match(scope)
            if found is not None:
                route, child_scope = found
                scope.setdefault("router", self)
                scope["route"] = route
                scope.update(child_scope)
                await route.handle(scope, receive, send)
                return
        await super().app(scope, receive, send)


class DirectEndpoints:
    """Sends a request whose route is a self-contained endpoint (one that answers every error itself, in the
    envelope) straight to it, past Starlette's exception layer and the router; everything else (files, the
    web app) goes down the usual stack."""

    def __init__(self, app: ASGIApp, router: ExactPathRouter, direct: type) -> None:
        self.app = app
        self.direct = direct
        self.index = router.index
        self.routes: dict[str, list[Route]] = {
            path: [r for _, r in found if isinstance(r, Route) and isinstance(r.app, direct)]
            for path, found in router.index.exact.items()
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for route in self.routes.get(scope["path"], ()):
                if route.methods is None or scope["method"] in route.methods:
                    scope["route"] = route
                    await route.app(scope, receive, send)
                    return
            found = self.index.full_match(scope)
            if found is not None and isinstance(found[0], Route) and isinstance(found[0].app, self.direct):
                scope["route"] = found[0]
                scope.update(found[1])
                await found[0].app(scope, receive, send)
                return
            scope[MATCH] = found
        await self.app(scope, receive, send)
