"""Settings of the transfer plugin, from ATRIUM_TRANSFER_* environment variables."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

MB = 1024 * 1024
REPO_ROOT = Path(__file__).resolve().parents[2]


class TransferSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ATRIUM_TRANSFER_", extra="ignore")

    # -- import
    import_max_bytes: int = 30 * MB
    import_max_rows: int = 500_000
    import_max_columns: int = 200
    zip_max_entries: int = 1000
    zip_max_uncompressed: int = 400 * MB
    #: largest uncompressed/compressed ratio of one entry (entries over 1 MB) before it counts as a zip bomb
    zip_max_ratio: int = 250
    import_chunk_rows: int = 5000
    #: how long import-data waits for the result before answering "import takes too long"
    import_wait_seconds: float = 20.0
    preview_rows: int = 50
    # -- export
    export_sheet_max: int = 100_000
    export_page_rows: int = 1000
    export_max_rows: int = 2_000_000
    export_retention_hours: int = 72
    # -- both
    #: a running task whose heartbeat is older than this is taken as interrupted
    stale_seconds: int = 120
    max_attempts: int = 2
    templates_dir: Path = REPO_ROOT / "templates" / "documents"


@lru_cache
def transfer_settings() -> TransferSettings:
    return TransferSettings()
