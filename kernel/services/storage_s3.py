"""Objects in an S3-compatible bucket (AWS S3, MinIO, Ceph) through boto3, keyed ``[prefix]<tenant>/<key>``.

Configured by ``ATRIUM_STORAGE_URL=s3://BUCKET[/PREFIX]?endpoint=http://HOST:PORT&region=REGION``, with the
credentials boto3 finds (``AWS_ACCESS_KEY_ID`` / ``AWS_SECRET_ACCESS_KEY``, a profile, an instance role).

A body of up to one part is sent in a single request; a longer one as a multipart upload of equal parts,
sent while the rest is still being read or written (``writer``), completed only once every part is in,
and aborted when the stream fails, so a partial object never shows. The ETag of a written object is the
one the store answered with (for a multipart upload, not a digest of the bytes: the SHA-256 is).

Each part of a multipart upload carries its CRC32, computed here and sent as a plain header, as S3's own
client does by default: the store checks every part and combines the part checksums at completion instead
of reading the whole object again (an emulated store such as moto's otherwise copies the object twice
more to checksum it). botocore's automatic checksums stay off (``when_required``): over https they travel
in aws-chunked trailers, which older S3-compatible servers refuse, whereas they ignore x-amz headers they
do not know.
Connection failures, throttling and refused credentials raise ``StorageUnavailable`` (503), never a bare
500; a missing key raises ``NotFound``.
"""

from __future__ import annotations

import base64
import hashlib
import io
import threading
import urllib.parse
import zlib
from collections import deque
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, BinaryIO

import boto3
import structlog
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from atrium.sdk.errors import NotFound, StorageUnavailable
from atrium.sdk.services import StoredObject

from .storage_base import CHUNK, MB, ObjectStorage, ObjectWriter, checked_key, readonly_bytes

log = structlog.get_logger("atrium.storage")
#: S3 refuses parts under 5 MiB (except the last)
MIN_PART = 5 * MB
PART = 8 * MB
#: parts of one upload sent at once: as a store's own client does, within a few parts of memory
PARTS_IN_FLIGHT = 4
_MISSING = {"404", "NoSuchKey", "NotFound"}


class _EmptyRange(Exception):
    """A range starting at or beyond the end of the object: there is nothing to read."""


@dataclass(frozen=True)
class S3Location:
    bucket: str
    prefix: str = ""
    endpoint: str | None = None
    region: str | None = None

    @classmethod
    def parse(cls, url: str) -> S3Location:
        """``s3://bucket[/prefix]?endpoint=...&region=...``; ValueError for anything else."""
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "s3" or not parts.netloc:
            raise ValueError(f"not an s3://BUCKET address: {url!r}")
        query = dict(urllib.parse.parse_qsl(parts.query))
        unknown = set(query) - {"endpoint", "region"}
        if unknown:
            raise ValueError(f"unknown storage option(s) {sorted(unknown)} in {url!r}")
        prefix = parts.path.strip("/")
        endpoint = query.get("endpoint") or None
        if endpoint and urllib.parse.urlsplit(endpoint).scheme not in ("http", "https"):
            raise ValueError(f"the storage endpoint must be an http(s) address: {endpoint!r}")
        return cls(parts.netloc, f"{prefix}/" if prefix else "", endpoint, query.get("region") or None)


def expected_etag(part_md5s: list[bytes]) -> str:
    """The ETag S3 gives an object uploaded as these parts (plain MD5 for one request)."""
    if len(part_md5s) == 1:
        return part_md5s[0].hex()
    combined = hashlib.md5(b"".join(part_md5s), usedforsecurity=False).hexdigest()
    return f"{combined}-{len(part_md5s)}"


def _error_code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


class _Body(io.RawIOBase):
    """A streamed response body whose connection failures read as ``StorageUnavailable``."""

    def __init__(self, body: Any) -> None:
        self.body = body

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        try:
            data = self.body.read(len(buffer))
        except Exception as exc:  # urllib3's protocol and timeout errors, botocore's read errors
            log.warning("object storage read failed", error=str(exc)[:200])
            raise StorageUnavailable() from exc
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        try:
            self.body.close()
        finally:
            super().close()


class _PartBuffer:
    """Bytes written but not sent yet, kept as the pieces written (no copy) until a part is cut."""

    def __init__(self) -> None:
        self._pieces: deque[bytes | memoryview] = deque()
        self.size = 0

    def add(self, data: bytes | memoryview) -> None:
        if len(data):
            self._pieces.append(data)
            self.size += len(data)

    def take(self, size: int) -> bytes:
        """The first ``size`` bytes (all of them when fewer are held), as one piece."""
        if not self._pieces:
            return b""
        first = self._pieces[0]
        if len(first) == size and isinstance(first, bytes):  # a piece of exactly one part: no copy
            self._pieces.popleft()
            self.size -= size
            return first
        taken: list[bytes | memoryview] = []
        left = size
        while left > 0 and self._pieces:
            piece = self._pieces.popleft()
            if len(piece) > left:
                view = memoryview(piece)
                self._pieces.appendleft(view[left:])
                piece = view[:left]
            taken.append(piece)
            left -= len(piece)
        self.size -= size - left
        return b"".join(taken)

    def clear(self) -> None:
        self._pieces.clear()
        self.size = 0


class _S3Writer(ObjectWriter):
    """An object sent as it is written: up to one part in a single request on commit; beyond that a
    multipart upload whose parts go out (``PARTS_IN_FLIGHT`` at once) while more is written, completed on
    commit and aborted on any failure, so a partial object never shows.

    ``write`` waits while that many parts are being sent (the caller's source is held back rather than
    memory filled), and raises as soon as a part was refused."""

    def __init__(self, store: S3Storage, key: str, full_key: str, content_type: str, sha256: str | None):
        self.store, self.key, self.full_key, self.content_type = store, key, full_key, content_type
        self.sha256 = sha256
        self._buffer = _PartBuffer()
        self._digest = hashlib.sha256()
        self._size = 0
        self._upload_id: str | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._sent: list[Future[Any]] = []
        self._finished = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._finished:
            raise ValueError("this object was already committed or aborted")
        self._buffer.add(readonly_bytes(data))
        try:
            while self._buffer.size > self.store.part_size:  # the last part may be the only short one
                self._send(self._buffer.take(self.store.part_size))
        except BaseException:
            self.abort()
            raise

    def commit(self) -> StoredObject:
        if self._finished:
            raise ValueError("this object was already committed or aborted")
        try:
            stored = self._put_whole() if self._upload_id is None else self._complete()
        except BaseException:
            self.abort()
            raise
        self._finished = True
        return stored

    def abort(self) -> None:
        if self._finished:
            return
        self._finished = True
        self._buffer.clear()
        for f in self._sent:
            f.cancel()
        self._close_pool()  # the parts being sent finish first, so the abort leaves none behind
        if self._upload_id is not None:
            self.store._abort(self.full_key, self._upload_id)

    # -- one request ------------------------------------------------------------------------------------

    def _put_whole(self) -> StoredObject:
        body = self._buffer.take(self._buffer.size)
        digest = hashlib.sha256(body).hexdigest()
        self._check(digest)
        answer = self.store._call(
            "put_object",
            Key=self.full_key,
            Body=body,
            ContentType=self.content_type,
            Metadata={"sha256": digest},
        )
        return StoredObject(self.key, len(body), _etag(answer), digest)

    # -- a multipart upload -----------------------------------------------------------------------------

    def _send(self, body: bytes) -> None:
        self._digest.update(body)
        self._size += len(body)
        pool = self._pool or self._start()
        self._wait_for_room()
        self._sent.append(pool.submit(self._upload_part, len(self._sent) + 1, body))

    def _upload_part(self, number: int, body: bytes) -> dict[str, Any]:
        """Send one part (in a pool thread); answers its entry of the completion request."""
        crc = crc32_header(body)
        answer = self.store._call(
            "upload_part",
            Key=self.full_key,
            UploadId=self._upload_id,
            PartNumber=number,
            Body=body,
            ChecksumCRC32=crc,
        )
        return {"PartNumber": number, "ETag": answer["ETag"], "ChecksumCRC32": crc}

    def _start(self) -> ThreadPoolExecutor:
        metadata = {"sha256": self.sha256} if self.sha256 else {}
        upload = self.store._call(
            "create_multipart_upload",
            Key=self.full_key,
            ContentType=self.content_type,
            Metadata=metadata,
            ChecksumAlgorithm="CRC32",
        )
        self._upload_id = str(upload["UploadId"])
        self._pool = ThreadPoolExecutor(PARTS_IN_FLIGHT, thread_name_prefix="s3-part")
        return self._pool

    def _wait_for_room(self) -> None:
        """Until fewer than ``PARTS_IN_FLIGHT`` parts are on their way (at most that many held in memory);
        a part the store refused raises here."""
        in_flight = [f for f in self._sent if not f.done()]
        if len(in_flight) >= PARTS_IN_FLIGHT:
            wait(in_flight, return_when=FIRST_COMPLETED)
        for f in self._sent:
            if f.done() and f.exception() is not None:
                f.result()

    def _complete(self) -> StoredObject:
        if self._buffer.size:
            self._send(self._buffer.take(self._buffer.size))
        parts = [f.result() for f in self._sent]
        self._close_pool()
        digest = self._digest.hexdigest()
        self._check(digest)
        answer = self.store._call(
            "complete_multipart_upload",
            Key=self.full_key,
            UploadId=self._upload_id,
            MultipartUpload={"Parts": parts},
        )
        return StoredObject(self.key, self._size, _etag(answer), digest)

    def _check(self, digest: str) -> None:
        if self.sha256 and self.sha256 != digest:
            raise ValueError("the stream does not match the checksum given for it")

    def _close_pool(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None


def crc32_header(body: bytes) -> str:
    """A part's CRC32 as the ``x-amz-checksum-crc32`` header carries it (base64 of the big-endian value)."""
    return base64.b64encode(zlib.crc32(body).to_bytes(4, "big")).decode()


def _etag(answer: Any) -> str:
    """The ETag a store answered a write with (S3 sends it quoted)."""
    return str(answer.get("ETag", "")).strip('"')


class S3Storage(ObjectStorage):
    kind = "s3"

    def __init__(self, location: S3Location, *, part_size: int = PART, client: Any = None) -> None:
        if part_size < MIN_PART:
            raise ValueError("S3 parts are at least 5 MiB")
        self.location = location
        self.bucket = location.bucket
        self.part_size = part_size
        self._client = client
        self._lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> S3Storage:
        return cls(S3Location.parse(url), **kwargs)

    @property
    def client(self) -> Any:
        """One boto3 client per store (clients are thread-safe; creating one takes tens of milliseconds)."""
        if self._client is None:
            with self._lock:
                if self._client is None:
                    self._client = self._make_client()
        return self._client

    def _make_client(self) -> Any:
        options: dict[str, Any] = {
            "connect_timeout": 5,
            "read_timeout": 60,
            "retries": {"max_attempts": 3, "mode": "standard"},
            "signature_version": "s3v4",
        }
        if self.location.endpoint:
            options["s3"] = {"addressing_style": "path"}  # MinIO and most self-hosted stores
        if "request_checksum_calculation" in Config.OPTION_DEFAULTS:
            # newer botocore adds CRC checksums that older S3-compatible servers refuse
            options["request_checksum_calculation"] = "when_required"
            options["response_checksum_validation"] = "when_required"
        return boto3.session.Session().client(
            "s3",
            endpoint_url=self.location.endpoint,
            region_name=self.location.region,
            config=Config(**options),
        )

    def _key(self, tenant_id: int, key: str) -> str:
        return f"{self.location.prefix}{int(tenant_id)}/{checked_key(key)}"

    def _call(self, method: str, **kwargs: Any) -> Any:
        """A client call whose failures become the platform's errors."""
        try:
            return getattr(self.client, method)(Bucket=self.bucket, **kwargs)
        except ClientError as exc:
            if _error_code(exc) in _MISSING:
                raise NotFound() from exc
            if _error_code(exc) == "InvalidRange":
                raise _EmptyRange() from exc
            log.warning("object storage refused a request", call=method, error=str(exc)[:200])
            raise StorageUnavailable() from exc
        except BotoCoreError as exc:
            log.warning("object storage is unreachable", call=method, error=str(exc)[:200])
            raise StorageUnavailable() from exc

    # -- writing ----------------------------------------------------------------------------------------

    def put(
        self,
        tenant_id: int,
        key: str,
        stream: BinaryIO,
        content_type: str = "application/octet-stream",
        *,
        sha256: str | None = None,
    ) -> StoredObject:
        """Store a stream; ``sha256`` (hex, when the caller already knows it) is kept in the object's
        metadata even for a multipart upload, whose ETag is not a digest of the bytes."""
        with self.writer(tenant_id, key, content_type, sha256=sha256) as w:
            while chunk := stream.read(CHUNK):
                w.write(chunk)
            return w.commit()

    def writer(
        self,
        tenant_id: int,
        key: str,
        content_type: str = "application/octet-stream",
        *,
        sha256: str | None = None,
    ) -> ObjectWriter:
        """A writer that sends the object's parts while more of it is written (see ``_S3Writer``)."""
        return _S3Writer(self, key, self._key(tenant_id, key), content_type, sha256)

    def _abort(self, full_key: str, upload_id: str) -> None:
        try:
            self.client.abort_multipart_upload(Bucket=self.bucket, Key=full_key, UploadId=upload_id)
        except (ClientError, BotoCoreError) as exc:  # the bucket's lifecycle rule cleans up what is left
            log.warning("could not abort a multipart upload", key=full_key, error=str(exc)[:200])

    def delete(self, tenant_id: int, key: str) -> None:
        try:
            full_key = self._key(tenant_id, key)
        except NotFound:
            return
        try:
            self._call("delete_object", Key=full_key)
        except NotFound:
            return

    # -- reading ----------------------------------------------------------------------------------------

    def get(self, tenant_id: int, key: str, offset: int = 0, length: int | None = None) -> BinaryIO:
        if offset < 0 or (length is not None and length < 0):
            raise ValueError("offset and length must not be negative")
        full_key = self._key(tenant_id, key)
        if length == 0:
            self.stat(tenant_id, key)  # still NotFound for a missing object
            return io.BytesIO(b"")
        extra: dict[str, Any] = {}
        if offset or length is not None:
            end = "" if length is None else str(offset + length - 1)
            extra["Range"] = f"bytes={offset}-{end}"
        try:
            answer = self._call("get_object", Key=full_key, **extra)
        except _EmptyRange:
            return io.BytesIO(b"")
        return io.BufferedReader(_Body(answer["Body"]), CHUNK)

    def stat(self, tenant_id: int, key: str) -> StoredObject:
        answer = self._call("head_object", Key=self._key(tenant_id, key))
        return StoredObject(
            key,
            int(answer.get("ContentLength", 0)),
            str(answer.get("ETag", "")).strip('"'),
            str(answer.get("Metadata", {}).get("sha256", "")),
        )

    def list(self, tenant_id: int, prefix: str = "") -> Iterator[StoredObject]:
        base = f"{self.location.prefix}{int(tenant_id)}/"
        token: dict[str, str] = {}
        while True:
            page = self._call("list_objects_v2", Prefix=base + prefix, **token)
            for item in page.get("Contents", []):
                yield StoredObject(
                    item["Key"][len(base) :], int(item.get("Size", 0)), str(item.get("ETag", "")).strip('"')
                )
            if not page.get("IsTruncated"):
                return
            token = {"ContinuationToken": page["NextContinuationToken"]}

    def signed_url(self, tenant_id: int, key: str, expires_in: int = 300) -> str | None:
        """A presigned GET (made locally, without asking the store whether the object exists)."""
        try:
            url: str = self.client.generate_presigned_url(
                "get_object",
                Params={"Bucket": self.bucket, "Key": self._key(tenant_id, key)},
                ExpiresIn=int(expires_in),
            )
        except BotoCoreError as exc:  # no credentials to sign with
            raise StorageUnavailable() from exc
        return url

    def ready(self) -> bool:
        try:
            self._call("head_bucket")
        except (StorageUnavailable, NotFound):
            return False
        return True
