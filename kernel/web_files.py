"""The web bundles' built files: the host's (with index.html for client-side routes) and each plugin's remote.

A file whose name carries its content hash never changes. Browsers keep it for a year without asking again,
and the server keeps it in memory, gzipped once, and answers it in a single write: a first page asks for
some thirty of them at once on six connections, beside its first API calls, and reading each from disk
through the thread pool in 64 KB pieces held those calls back. Anything else (index.html, remoteEntry.js)
is read from disk and checked by the browser every time.

A production build writes each script and style gzipped beside it (`main.1a2b3c4d.js.gz`, see the web SDK's
webpack config): that copy is answered as it is, to a browser that takes gzip, so a server just started
compresses nothing for its first visitor. A copy older than its file is ignored.
"""

from __future__ import annotations

import gzip
import os
import re
import stat
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from mimetypes import guess_type
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles

from atrium.kernel.base_path import index_html
from atrium.kernel.security_headers import FRAME_ANCESTORS
from atrium.sdk.kept import Kept

HASHED_NAME = re.compile(r"\.[0-9a-f]{8,}\.(?:js|css|woff2?|png|svg|jpe?g|webp)$")
IMMUTABLE = "public, max-age=31536000, immutable"
#: types worth compressing (images and fonts already are)
COMPRESSIBLE = (".js", ".css", ".svg", ".json", ".txt", ".html")
#: smaller files gain less from gzip than the header costs
MIN_GZIP = 1024
#: seconds a build's gzipped copy may be older than its file and still be its copy
COPY_SLACK = 2.0
#: the bytes kept in memory across all bundles of one process
MEMORY_LIMIT = 96 * 1024 * 1024

Framing = Callable[[str], Awaitable[tuple[str, ...]]]


async def nobody(_path: str) -> tuple[str, ...]:
    """No other site may frame the page."""
    return ()


@dataclass(frozen=True)
class KeptFile:
    """One hashed file's answer: its headers, its bytes, and its bytes gzipped when that is smaller."""

    headers: dict[str, str]
    body: bytes
    gzipped: bytes | None

    @property
    def size(self) -> int:
        return len(self.body) + len(self.gzipped or b"")


class KeptFiles(Kept[KeptFile]):
    """Hashed files in memory, least recently asked for dropped first beyond `limit` bytes."""

    def __init__(self, limit: int = MEMORY_LIMIT) -> None:
        super().__init__(limit, weigh=_bytes_of)


def _bytes_of(kept: KeptFile) -> int:
    return kept.size


KEPT = KeptFiles()


def built_gzip(full_path: str, stat_result: os.stat_result) -> tuple[Path, os.stat_result] | None:
    """The gzipped copy the build wrote beside a file and its stat, when there is one as new as the file
    (within `COPY_SLACK`: an installed package's files are written one after the other)."""
    copy = Path(full_path + ".gz")
    try:
        copy_stat = copy.stat()
    except OSError:
        return None
    return (copy, copy_stat) if copy_stat.st_mtime >= stat_result.st_mtime - COPY_SLACK else None


def read_kept(full_path: str, stat_result: os.stat_result) -> KeptFile:
    """The file's bytes with the headers Starlette answers it with from disk (type, tag, date), so that a
    HEAD, which is answered from disk, and a GET agree; its length is left to each answer's body."""
    on_disk = FileResponse(full_path, stat_result=stat_result)
    headers = {k: v for k, v in on_disk.headers.items() if k != "content-length"}
    headers["cache-control"] = IMMUTABLE
    body = Path(full_path).read_bytes()
    gzipped = None
    if full_path.endswith(COMPRESSIBLE) and len(body) >= MIN_GZIP:
        built = built_gzip(full_path, stat_result)
        gzipped = built[0].read_bytes() if built is not None else gzip.compress(body, 6)
        if len(gzipped) >= len(body):
            gzipped = None
        else:
            headers["vary"] = "accept-encoding"
    return KeptFile(headers, body, gzipped)


def accepts_gzip(request_headers: Headers) -> bool:
    return any(
        part.split(";")[0].strip() in ("gzip", "*")
        for part in request_headers.get("accept-encoding", "").split(",")
    )


class BuiltFiles(StaticFiles):
    """A web bundle's files: hashed ones from memory (see the module's docstring), the rest from disk."""

    def __init__(self, *, kept: KeptFiles = KEPT, **kw: Any) -> None:
        super().__init__(**kw)
        self.kept = kept

    async def get_response(self, path: str, scope: Any) -> Response:
        if scope["method"] == "GET" and HASHED_NAME.search(path):
            key = f"{self.directory}\0{path}"
            kept = self.kept.get(key)
            if kept is None:
                kept = await run_in_threadpool(self.read_kept, path)
                if kept is not None:
                    self.kept.put(key, kept)
            if kept is not None:
                return self.kept_response(kept, Headers(scope=scope))
        return await super().get_response(path, scope)

    def read_kept(self, path: str) -> KeptFile | None:
        full_path, stat_result = self.lookup_path(path)
        if stat_result is None or not stat.S_ISREG(stat_result.st_mode):
            return None
        return read_kept(full_path, stat_result)

    def kept_response(self, kept: KeptFile, request_headers: Headers) -> Response:
        headers = Headers(kept.headers)
        if self.is_not_modified(headers, request_headers):
            return NotModifiedResponse(headers)
        if kept.gzipped is not None and accepts_gzip(request_headers):
            return Response(kept.gzipped, headers={**kept.headers, "content-encoding": "gzip"})
        return Response(kept.body, headers=kept.headers)

    def file_response(self, full_path: Any, stat_result: Any, scope: Any, status_code: int = 200) -> Response:
        immutable = HASHED_NAME.search(str(full_path)) is not None
        wants_gzip = status_code == 200 and accepts_gzip(Headers(scope=scope))
        copy = built_gzip(str(full_path), stat_result) if wants_gzip else None
        if copy is not None:
            response = self.gzipped_response(full_path, *copy, scope)
        else:
            response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["cache-control"] = IMMUTABLE if immutable else "no-cache"
        return response

    def gzipped_response(self, full_path: Any, copy: Path, copy_stat: os.stat_result, scope: Any) -> Response:
        """The build's gzipped copy of a file, as that file's answer (its type, the copy's tag)."""
        media_type = guess_type(str(full_path))[0] or "application/octet-stream"
        response = FileResponse(copy, stat_result=copy_stat, media_type=media_type)
        response.headers["content-encoding"] = "gzip"
        response.headers["vary"] = "accept-encoding"
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response


class SPAStatic(BuiltFiles):
    """The host's built files, with index.html for client-side routes; under a path prefix, index.html
    names it in its ``<base href>`` (see atrium.kernel.base_path)."""

    def __init__(self, *, frame_ancestors: Framing = nobody, prefix: str = "", **kw: Any) -> None:
        super().__init__(**kw)
        self.frame_ancestors = frame_ancestors
        self.prefix = prefix

    async def get_response(self, path: str, scope: Any) -> Response:
        if self.prefix and path in (".", "index.html"):
            return await self.index_response(scope, path)
        try:
            response = await super().get_response(path, scope)
        except Exception:
            response = Response(status_code=404)
        if response.status_code == 404 and not path.startswith(("api/", "plugins/", "i18n/")):
            return await self.index_response(scope, path)
        return response

    async def index_response(self, scope: Any, path: str) -> Response:
        index = Path(str(self.directory)) / "index.html"
        if not index.exists():
            return Response(status_code=404)
        scope[FRAME_ANCESTORS] = await self.frame_ancestors(scope.get("path", "/" + path))
        headers = {"cache-control": "no-cache"}
        if not self.prefix:
            return FileResponse(index, headers=headers)
        body = await run_in_threadpool(index.read_bytes)
        return Response(index_html(body, self.prefix), media_type="text/html", headers=headers)
