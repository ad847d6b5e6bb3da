"""The platform's object storage, chosen by ``ATRIUM_STORAGE_URL``: local disk when unset, else an
S3-compatible bucket (``s3://BUCKET?endpoint=...&region=...``). See the SDK's ``FileStorage``."""

from __future__ import annotations

from pathlib import Path

from .storage_base import KEY, NAME, ObjectStorage, checked_key, new_name
from .storage_local import LocalStorage

__all__ = ["KEY", "NAME", "LocalStorage", "ObjectStorage", "build_storage", "checked_key", "new_name"]


def build_storage(url: str, local_root: Path) -> ObjectStorage:
    """The store an address names; ``local_root`` when the address is empty.

    boto3 is imported only for an ``s3://`` address (it is the optional ``s3`` extra)."""
    url = url.strip()
    if not url:
        return LocalStorage(local_root)
    if url.startswith("s3://"):
        try:
            from .storage_s3 import S3Storage
        except ImportError as exc:  # pragma: no cover - depends on the installation
            raise SystemExit("ATRIUM_STORAGE_URL=s3://... needs boto3: pip install 'atrium[s3]'") from exc
        return S3Storage.from_url(url)
    raise SystemExit(f"ATRIUM_STORAGE_URL must be empty (local disk) or s3://BUCKET?endpoint=...: {url!r}")
