"""Declaring routes: a plugin lists them on a Router; the kernel turns them into Starlette routes.

Each route names its access rule (``public=True`` or a ``permission``, and the ``grant``, a button code the
plugin declares, that the action needs), its pydantic body and query models
and its response model, from which the OpenAPI document is generated. Handlers return data; the kernel
wraps it in the ``{code, msg, data}`` envelope. A plain function handler runs in the thread pool with a
database session open for it; an ``async def`` handler runs on the event loop and must not touch the
database directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from pydantic import BaseModel

Permission = Literal["user", "admin", "super-admin"]
Handler = Callable[..., Any]
F = TypeVar("F", bound=Handler)


@dataclass
class RouteSpec:
    path: str
    methods: list[str]
    handler: Handler
    public: bool = False
    permission: Permission | None = "user"
    body: type[BaseModel] | None = None
    query: type[BaseModel] | None = None
    response: Any = None
    summary: str = ""
    multipart: bool = False
    raw: bool = False
    plugin: str = ""
    tags: list[str] = field(default_factory=list)
    #: the button code the caller must hold (administrators hold every one), checked before the body is read
    grant: str | None = None


class Router:
    """A list of routes with decorators to add them."""

    def __init__(self, prefix: str = "") -> None:
        self.prefix = prefix
        self.routes: list[RouteSpec] = []

    def route(
        self,
        path: str,
        methods: list[str],
        *,
        public: bool = False,
        permission: Permission | None = "user",
        body: type[BaseModel] | None = None,
        query: type[BaseModel] | None = None,
        response: Any = None,
        summary: str = "",
        multipart: bool = False,
        raw: bool = False,
        grant: str | None = None,
    ) -> Callable[[F], F]:
        """Add a route. ``raw`` handlers get the Starlette request and return a Starlette response. With
        ``grant``, only callers holding that button (and administrators) get further than the sign-in check:
        403 before the body is read."""

        def add(fn: F) -> F:
            self.routes.append(
                RouteSpec(
                    path=self.prefix + path,
                    methods=methods,
                    handler=fn,
                    public=public,
                    permission=None if public else permission,
                    body=body,
                    query=query,
                    response=response,
                    summary=summary or (fn.__doc__ or "").strip().split("\n")[0],
                    multipart=multipart,
                    raw=raw,
                    grant=grant,
                )
            )
            return fn

        return add

    def get(self, path: str, **kw: Any) -> Callable[[F], F]:
        return self.route(path, ["GET"], **kw)

    def post(self, path: str, **kw: Any) -> Callable[[F], F]:
        return self.route(path, ["POST"], **kw)

    def put(self, path: str, **kw: Any) -> Callable[[F], F]:
        return self.route(path, ["PUT"], **kw)

    def delete(self, path: str, **kw: Any) -> Callable[[F], F]:
        return self.route(path, ["DELETE"], **kw)

    def include(self, other: Router) -> None:
        self.routes.extend(other.routes)
