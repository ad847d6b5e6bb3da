"""Objects in an S3-compatible bucket (AWS S3, MinIO, Ceph) through boto3, keyed ``[prefix]<tenant>/<key>``.

Configured by ``ATRIUM_STORAGE_URL=s3://BUCKET[/PREFIX]?endpoint=http://HOST:PORT&region=REGION``, with the
credentials boto3 finds (``AWS_ACCESS_KEY_ID`` / ``AWS_SECRET_ACCESS_KEY``, a profile, an instance role).

A body of up to one part is sent in a single request; a longer one as a multipart upload of equal parts,
completed only once every part is in, and aborted when the stream fails, so a partial object never shows.
Connection failures, throttling and refused credentials raise ``StorageUnavailable`` (503), never a bare
500; a missing key raises ``NotFound``.
"""

from __future__ import annotations

import hashlib
import io
import threading
import urllib.parse
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

from .storage_base import CHUNK, MB, ObjectStorage, checked_key

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


def _read_part(stream: BinaryIO, size: int) -> bytes:
    """Exactly ``size`` bytes unless the stream ends first (streams may answer short reads)."""
    chunks = []
    left = size
    while left > 0:
        chunk = stream.read(min(left, CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


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
        full_key = self._key(tenant_id, key)
        first = _read_part(stream, self.part_size)
        second = _read_part(stream, self.part_size) if len(first) == self.part_size else b""
        if not second:
            digest = hashlib.sha256(first).hexdigest()
            if sha256 and sha256 != digest:
                raise ValueError("the stream does not match the checksum given for it")
            self._call(
                "put_object",
                Key=full_key,
                Body=first,
                ContentType=content_type,
                Metadata={"sha256": digest},
            )
            md5 = hashlib.md5(first, usedforsecurity=False).digest()
            return StoredObject(key, len(first), expected_etag([md5]), digest)
        return self._put_parts(key, full_key, stream, [first, second], content_type, sha256)

    def _put_parts(
        self,
        key: str,
        full_key: str,
        stream: BinaryIO,
        pending: list[bytes],
        content_type: str,
        sha256: str | None,
    ) -> StoredObject:
        metadata = {"sha256": sha256} if sha256 else {}
        upload = self._call(
            "create_multipart_upload", Key=full_key, ContentType=content_type, Metadata=metadata
        )
        upload_id = upload["UploadId"]
        digest = hashlib.sha256()
        md5s: list[bytes] = []
        sent: list[Future[Any]] = []
        size = 0
        try:
            with ThreadPoolExecutor(PARTS_IN_FLIGHT, thread_name_prefix="s3-part") as pool:
                while body := pending.pop(0) if pending else _read_part(stream, self.part_size):
                    digest.update(body)
                    md5s.append(hashlib.md5(body, usedforsecurity=False).digest())
                    size += len(body)
                    in_flight = [f for f in sent if not f.done()]
                    if len(in_flight) >= PARTS_IN_FLIGHT:  # at most this many parts held in memory
                        wait(in_flight, return_when=FIRST_COMPLETED)
                    sent.append(
                        pool.submit(
                            self._call,
                            "upload_part",
                            Key=full_key,
                            UploadId=upload_id,
                            PartNumber=len(sent) + 1,
                            Body=body,
                        )
                    )
                parts = [{"PartNumber": n, "ETag": f.result()["ETag"]} for n, f in enumerate(sent, 1)]
            if sha256 and sha256 != digest.hexdigest():
                raise ValueError("the stream does not match the checksum given for it")
            self._call(
                "complete_multipart_upload",
                Key=full_key,
                UploadId=upload_id,
                MultipartUpload={"Parts": parts},
            )
        except BaseException:  # the stream failed, the task was interrupted, the store refused a part
            for f in sent:
                f.cancel()
            self._abort(full_key, upload_id)
            raise
        return StoredObject(key, size, expected_etag(md5s), digest.hexdigest())

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
