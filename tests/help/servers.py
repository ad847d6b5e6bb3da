"""Local servers for the help tests: any ASGI app under uvicorn in a thread, and an OpenAI-compatible
`/v1/chat/completions` endpoint whose behaviour is chosen by the requested model name."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

ANSWER = ["You can ", "change your password ", "from the user menu [1]."]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(app: Any) -> Iterator[str]:
    """Run an ASGI app on a free port in a background thread; yields its base URL."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="off", log_level="error")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the local server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


class FakeLlm:
    """Speaks the streaming chat-completions format. Models: `ok` (three pieces; after the first it waits
    until `release` is set, at most 10 s), `refuse` (401 with an error body), `broken` (one piece, then an
    error event), `slow` (nothing for 30 s)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.release = threading.Event()
        self.closed = threading.Event()  # set when a stream ends early because the caller went away
        self.app = Starlette(routes=[Route("/v1/chat/completions", self.completions, methods=["POST"])])

    @staticmethod
    def _chunk(text: str) -> bytes:
        choice = {"index": 0, "delta": {"content": text}}
        body = {"id": "c1", "object": "chat.completion.chunk", "choices": [choice]}
        return f"data: {json.dumps(body)}\n\n".encode()

    async def completions(self, request: Request) -> Response:
        body = await request.json()
        self.requests.append({"body": body, "authorization": request.headers.get("authorization", "")})
        model = body.get("model")
        if model == "refuse":
            return JSONResponse(
                {"error": {"message": "Invalid API key", "type": "invalid_request_error"}}, status_code=401
            )

        async def stream() -> AsyncIterator[bytes]:
            if model == "slow":
                await asyncio.sleep(30)
            if model == "broken":
                yield self._chunk("Partial ")
                yield b'data: {"error": {"message": "model overloaded"}}\n\n'
                return
            yield self._chunk(ANSWER[0])
            try:
                for _ in range(1000):
                    if self.release.is_set():
                        break
                    await asyncio.sleep(0.01)
            except asyncio.CancelledError:
                self.closed.set()
                raise
            for piece in ANSWER[1:]:
                yield self._chunk(piece)
            yield b"data: [DONE]\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream")


def read_events(lines: Iterator[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Parse Server-Sent Events from response lines: (event, data)."""
    event, data = "message", ""
    for line in lines:
        if line == "":
            if data:
                yield event, json.loads(data)
            event, data = "message", ""
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data += line[5:].strip()
