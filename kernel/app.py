"""Assembling the ASGI app once, before it starts: kernel routes, plugin routes, web files, WebSocket."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from atrium.kernel.api import kernel_routers
from atrium.kernel.api.qrcode import make_qrcode_ws_endpoint
from atrium.kernel.base_path import BasePathMiddleware
from atrium.kernel.config import Settings, get_settings
from atrium.kernel.health import Readiness, healthz, make_readyz_endpoint
from atrium.kernel.http import Endpoint, envelope, make_endpoint
from atrium.kernel.logs import configure_logging
from atrium.kernel.metrics import RequestMetrics, make_metrics_endpoint
from atrium.kernel.middleware import ContextMiddleware
from atrium.kernel.openapi import build_openapi
from atrium.kernel.routing import DirectEndpoints, ExactPathRouter
from atrium.kernel.runtime import Kernel
from atrium.kernel.web_files import BuiltFiles, Framing, SPAStatic, nobody
from atrium.kernel.websocket import make_ws_endpoint
from atrium.sdk.context import current_context
from atrium.sdk.routing import Router, RouteSpec

PUBLIC_PATHS = ("/", "/i18n/*", "/plugins/*", "/assets/*", "/api/openapi.json", "/ws", "/healthz", "/readyz")


def collect_routes(kernel: Kernel) -> list[RouteSpec]:
    specs: list[RouteSpec] = []
    for router in kernel_routers():
        specs.extend(router.routes)
    for plugin, result in kernel.plugins.call("atrium_routes").items():
        routers = result if isinstance(result, list) else [result]
        for router in routers:
            if not isinstance(router, Router):
                continue
            for spec in router.routes:
                spec.plugin = plugin
                specs.append(spec)
    return specs


def framing(kernel: Kernel) -> Framing:
    """Which other sites may frame a client route's page, as the plugins answer `atrium_frame_ancestors`."""
    if not kernel.plugins.pm.hook.atrium_frame_ancestors.get_hookimpls():
        return nobody

    def ask(path: str) -> tuple[str, ...]:
        for answer in kernel.plugins.call("atrium_frame_ancestors", path=path).values():
            if answer is not None:
                return tuple(str(origin) for origin in answer)
        return ()

    async def frame_ancestors(path: str) -> tuple[str, ...]:
        return await run_in_threadpool(kernel.run_in_session, ask, {"path": path})

    return frame_ancestors


def installed_remotes(kernel: Kernel) -> dict[str, Path]:
    """The built remote folder of each loaded plugin that ships its own (``atrium_web_remote``)."""
    return {name: p.remote for name, p in kernel.plugins.loaded.items() if p.remote is not None}


def web_routes(
    settings: Settings, frame_ancestors: Framing = nobody, remotes: Mapping[str, Path] | None = None
) -> list[BaseRoute]:
    """The translations, every plugin's built remote at ``/plugins/<name>/`` (the built-ins' from
    ``web-plugins/<name>/dist``, then those of installed plugins from the folder they name, `remotes`), and
    the host."""
    routes: list[BaseRoute] = [
        Mount("/i18n", app=StaticFiles(directory=str(settings.i18n_dir), check_dir=False))
    ]
    mounted: set[str] = set()
    plugins_dir = settings.web_plugins_dir
    if plugins_dir.exists():
        for d in sorted(plugins_dir.iterdir()):
            dist = d / "dist"
            if dist.is_dir():
                routes.append(Mount(f"/plugins/{d.name}", app=BuiltFiles(directory=str(dist))))
                mounted.add(d.name)
    for name, folder in sorted((remotes or {}).items()):
        if name not in mounted:
            routes.append(Mount(f"/plugins/{name}", app=BuiltFiles(directory=str(folder))))
    if settings.web_dir.is_dir():
        routes.append(
            Mount(
                "/",
                app=SPAStatic(
                    directory=str(settings.web_dir),
                    html=True,
                    frame_ancestors=frame_ancestors,
                    prefix=settings.base_path,
                ),
            )
        )
    else:

        async def no_web(_request: Request) -> Response:
            return JSONResponse(
                {"code": 404, "msg": "web bundle not built: run `npm run build`", "data": None}
            )

        routes.append(Route("/", no_web))
    return routes


ALL_METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]


def create_app(settings: Settings | None = None, extra_plugins: list[Any] | None = None) -> Starlette:
    settings = settings or get_settings()
    kernel = Kernel(settings, extra_plugins)
    specs = collect_routes(kernel)
    routes: list[BaseRoute] = [
        Route(
            spec.path,
            make_endpoint(kernel, spec),
            methods=spec.methods,
            name=f"{spec.plugin or 'kernel'}:{spec.path}",
        )
        for spec in specs
    ]
    openapi = build_openapi(specs)

    async def openapi_endpoint(_request: Request) -> Response:
        return JSONResponse(openapi)

    async def api_not_found(request: Request) -> Response:
        del request  # the language (header or Accept-Language) is already in the request context
        return envelope(404, kernel.i18n.t("error.not_found", current_context().locale))

    request_metrics = RequestMetrics()
    readiness = Readiness(kernel)
    routes += [
        # Operators' probes: plain JSON and text outside the envelope, no session, no tenant.
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", make_readyz_endpoint(readiness), methods=["GET"]),
        Route("/metrics", make_metrics_endpoint(kernel, request_metrics), methods=["GET"]),
        Route("/api/openapi.json", openapi_endpoint),
        WebSocketRoute("/ws", make_ws_endpoint(kernel)),
        WebSocketRoute("/ws/qrcode", make_qrcode_ws_endpoint(kernel)),
        Route("/api/{rest:path}", api_not_found, methods=ALL_METHODS),
        *web_routes(settings, framing(kernel), installed_remotes(kernel)),
    ]

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await kernel.start()
        try:
            yield
        finally:
            await kernel.stop()

    configure_logging(settings.log_json)
    router = ExactPathRouter(routes, lifespan=lifespan)
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(
                ContextMiddleware, access_log=settings.access_log, services=kernel, metrics=request_metrics
            ),
            Middleware(DirectEndpoints, router=router, direct=Endpoint),
        ],
        lifespan=lifespan,
    )
    app.router = router
    if settings.base_path:
        app.add_middleware(BasePathMiddleware, prefix=settings.base_path)
    app.state.kernel = kernel
    app.state.route_specs = specs
    app.state.readiness = readiness
    app.state.request_metrics = request_metrics
    return app
