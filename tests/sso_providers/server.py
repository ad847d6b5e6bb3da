"""One local server on a free port of 127.0.0.1 hosting every fake provider, run by uvicorn in a thread."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from tests.sso_providers.idp import FakeIdP
from tests.sso_providers.workchat import FakeDingTalk, FakeWeCom


@dataclass
class Providers:
    base_url: str
    idp: FakeIdP
    dingtalk: FakeDingTalk
    wecom: FakeWeCom

    def reset(self) -> None:
        self.idp.reset()
        self.dingtalk.reset()
        self.wecom.reset()

    @property
    def slow_url(self) -> str:
        return self.base_url + "/slow"

    @property
    def garbage_url(self) -> str:
        return self.base_url + "/garbage"


async def _slow(request: Request) -> Response:
    await asyncio.sleep(3)
    return HTMLResponse("late")


async def _garbage(request: Request) -> Response:
    return HTMLResponse("<html><body>502 Bad Gateway</body></html>")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve() -> Iterator[Providers]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    idp, dt, wx = FakeIdP("/oidc", base_url=base), FakeDingTalk(), FakeWeCom()
    providers = Providers(base, idp, dt, wx)
    providers.reset()
    routes = [
        *idp.routes(),
        *dt.routes(),
        *wx.routes(),
        Route("/slow/{rest:path}", _slow, methods=["GET", "POST"]),
        Route("/garbage/{rest:path}", _garbage, methods=["GET", "POST"]),
    ]
    app = Starlette(routes=routes)
    server = uvicorn.Server(
        uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="warning", lifespan="off", ws="none", access_log=False
        )
    )
    thread = threading.Thread(target=server.run, name="fake-idp", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the fake identity providers did not start")
        time.sleep(0.02)
    try:
        yield providers
    finally:
        server.should_exit = True
        thread.join(timeout=5)
