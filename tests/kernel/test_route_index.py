"""The router's lookups find the route Starlette's walk over every route would find, in the same order."""

from __future__ import annotations

import re
from typing import Any

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import BaseRoute, Match, Mount, Route
from starlette.testclient import TestClient

from atrium.kernel.routing import ExactPathRouter, RouteIndex


def walk(routes: list[BaseRoute], scope: dict[str, Any]) -> BaseRoute | None:
    """Starlette's own rule: the first route that matches at all, when that match is a full one."""
    for route in routes:
        match, _ = route.matches(scope)
        if match is Match.FULL:
            return route
        if match is not Match.NONE:
            return None
    return None


def http(path: str, method: str = "GET") -> dict[str, Any]:
    return {"type": "http", "path": path, "method": method, "root_path": ""}


def answer(name: str) -> Any:
    async def endpoint(request: Any) -> PlainTextResponse:
        return PlainTextResponse(f"{name} {dict(request.path_params)}")

    return endpoint


ROUTES: list[BaseRoute] = [
    Route("/api/items/{id}", answer("item")),
    Route("/api/items/new", answer("new item (shadowed by the route before)")),
    Route("/api/items/{id}/parts/{part}", answer("part")),
    Route("/api/{tenant}/settings", answer("tenant settings")),
    Route("/api/reports/{id:int}", answer("report"), methods=["POST"]),
    Route("/api/reports/latest", answer("latest report")),
    Mount("/files", app=PlainTextResponse("files")),
    Route("/api/{rest:path}", answer("not found")),
    Mount("/", app=PlainTextResponse("web app")),
]


def test_each_path_finds_the_route_the_walk_finds() -> None:
    index = RouteIndex(ROUTES)
    paths = [
        "/api/items/7",
        "/api/items/new",
        "/api/items/7/parts/2",
        "/api/acme/settings",
        "/api/items/settings",
        "/api/reports/12",
        "/api/reports/latest",
        "/api/reports/x",
        "/files/a.txt",
        "/api/unknown/deep/path",
        "/home",
        "/",
    ]
    for path in paths:
        for method in ("GET", "POST"):
            scope = http(path, method)
            found = index.full_match(scope)
            assert (found[0] if found else None) is walk(ROUTES, scope), (method, path)


def test_the_router_answers_as_starlette_does() -> None:
    app = Starlette(routes=ROUTES)
    app.router = ExactPathRouter(ROUTES)
    plain = Starlette(routes=ROUTES)
    with TestClient(app) as ours, TestClient(plain) as theirs:
        for method, path in [
            ("GET", "/api/items/7"),
            ("GET", "/api/items/new"),
            ("GET", "/api/items/7/parts/2"),
            ("GET", "/api/reports/12"),  # a partial match: 405 from Starlette's walk
            ("POST", "/api/reports/12"),
            ("GET", "/api/nothing/here"),
            ("GET", "/files/x"),
            ("GET", "/home"),
        ]:
            a, b = ours.request(method, path), theirs.request(method, path)
            assert (a.status_code, a.text) == (b.status_code, b.text), (method, path)
    assert ours.request("GET", "/api/items/7").text == "item {'id': '7'}"


def test_every_platform_route_is_found_where_the_walk_finds_it(atrium_app: Any) -> None:
    routes = atrium_app.router.routes
    index = RouteIndex(routes)
    checked = 0
    for route in routes:
        if not isinstance(route, Route):
            continue
        path = re.sub(r"\{[^}:]+:int\}", "12", route.path)
        path = re.sub(r"\{[^}]+\}", "abc", path)
        for method in sorted(route.methods or {"GET"}):
            scope = http(path, method)
            found = index.full_match(scope)
            assert (found[0] if found else None) is walk(routes, scope), (method, path)
            checked += 1
    assert checked > 300
