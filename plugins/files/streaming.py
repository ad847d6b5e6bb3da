"""The upload route's file part streamed into the object store while the request body arrives.

The body is parsed as it comes (``multipart.parse_multipart``); the file part's bytes are handed to the
store's writer a megabyte at a time in a worker thread, and the writer sends them on (to an S3 bucket, in
parts several at once) while more of the body arrives. Nothing is spooled to local disk first. The object
is committed only once the whole body was read and found sound; a body that is cut, passes the size limit
or is refused leaves no object behind (the writer is aborted).
"""

from __future__ import annotations

from dataclasses import dataclass

import anyio
import anyio.to_thread
from starlette.requests import Request

from atrium.sdk.errors import BadRequest, Forbidden
from atrium.sdk.services import ObjectWriter, StoredObject

from . import storage
from .multipart import FilePart, Limits, ParsedForm, parse_multipart
from .policies import UploadPolicy

#: bytes gathered in the event loop before they are handed to the store (one thread hop each)
HAND_ON_BYTES = 4 << 20


def _write_all(writer: ObjectWriter, pieces: list[memoryview]) -> None:
    for piece in pieces:
        writer.write(piece)


class StoreSink:
    """A file part on its way into the object store: gathered in the event loop, handed to the store's
    writer in a worker thread (where it may wait while the store catches up, holding the body back)."""

    def __init__(self, writer: ObjectWriter) -> None:
        self.writer = writer
        self._pending: list[memoryview] = []
        self._pending_bytes = 0

    def write(self, chunk: memoryview) -> None:
        self._pending.append(chunk)
        self._pending_bytes += len(chunk)

    async def flush(self) -> None:
        if self._pending_bytes >= HAND_ON_BYTES:
            await self._hand_on()

    def end(self) -> None:
        return None  # committed once the rest of the body was read

    async def commit(self) -> StoredObject:
        await self._hand_on()
        return await anyio.to_thread.run_sync(self.writer.commit)

    async def discard(self) -> None:
        self._pending, self._pending_bytes = [], 0
        await anyio.to_thread.run_sync(self.writer.abort)

    async def _hand_on(self) -> None:
        pieces, self._pending, self._pending_bytes = self._pending, [], 0
        if pieces:
            await anyio.to_thread.run_sync(_write_all, self.writer, pieces)


@dataclass(frozen=True)
class StreamedUpload:
    """A file part stored in the object store (committed), and the tenant it was stored for."""

    part: FilePart
    stored: StoredObject
    tenant_id: int


async def receive_upload(request: Request, policy: UploadPolicy, tenant_id: int | None) -> StreamedUpload:
    """Read an upload's multipart body, its ``file`` part streamed into the store under a new name; the
    object is committed once the body was read to its end. Raises the reader's errors (the policy's
    size message, a cut or malformed body), ``files:upload.file_required`` / ``files:upload.empty``,
    Forbidden without a tenant, and StorageUnavailable when the store cannot take the bytes; in every
    such case nothing is left in the store."""

    def open_sink(part: FilePart) -> StoreSink:
        if tenant_id is None:
            raise Forbidden()
        return StoreSink(storage.writer(tenant_id, part.extension, part.content_type))

    form = await parse_multipart(request, Limits(policy.max_bytes, policy.too_big()), open_sink)
    try:
        stored = await _commit(form)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await form.discard()
        raise
    found = form.file("file")
    assert found is not None and tenant_id is not None
    return StreamedUpload(found[0], stored, tenant_id)


async def _commit(form: ParsedForm) -> StoredObject:
    found = form.file("file")
    if found is None:
        raise BadRequest("files:upload.file_required")
    part, sink = found
    if part.size == 0:
        raise BadRequest("files:upload.empty")
    assert isinstance(sink, StoreSink)
    return await sink.commit()
