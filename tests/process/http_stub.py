"""A real HTTP server on 127.0.0.1 for HTTP task tests: each path answers a scripted list of statuses (the
last one repeats) with a JSON echo of what it received, and every request is recorded."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class HttpStub:
    def __init__(self) -> None:
        self.script: dict[str, list[int]] = {}
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                path, _, query = self.path.partition("?")
                with stub.lock:
                    statuses = stub.script.get(path, [200])
                    status = statuses.pop(0) if len(statuses) > 1 else statuses[0]
                    stub.requests.append(
                        {
                            "method": self.command,
                            "path": path,
                            "query": query,
                            "body": raw.decode("utf-8", "replace"),
                            "contentType": self.headers.get("Content-Type", ""),
                        }
                    )
                payload = json.dumps({"got": raw.decode("utf-8", "replace"), "query": query}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_DELETE = _answer  # noqa: N815 - the server's method names

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def answer(self, path: str, *statuses: int) -> str:
        """Script ``path``'s statuses; answers its full address."""
        with self.lock:
            self.script[path] = list(statuses)
        return self.url + path

    def calls(self, path: str) -> list[dict[str, Any]]:
        with self.lock:
            return [r for r in self.requests if r["path"] == path]


@contextmanager
def serving() -> Iterator[HttpStub]:
    stub = HttpStub()
    thread = threading.Thread(target=stub.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield stub
    finally:
        stub.server.shutdown()
        stub.server.server_close()
