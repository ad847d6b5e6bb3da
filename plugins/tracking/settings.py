"""Settings of the tracking plugin, from ATRIUM_TRACKING_* environment variables."""

from __future__ import annotations

from functools import lru_cache

from pydantic_settings import BaseSettings, SettingsConfigDict


class TrackingSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ATRIUM_TRACKING_", extra="ignore")

    retention_days: int = 180
    """Raw events older than this many days are dropped by the rollup job (rollups are kept)."""
    flush_seconds: float = 1.0
    """The in-process buffer is written at least this often."""
    flush_rows: int = 1000
    """... or as soon as it holds this many events."""
    max_batch: int = 1000
    """Most records one call may carry; a longer batch is refused whole."""
    rollup_minutes: int = 1
    """How often the scheduled job brings today's and yesterday's rollups up to date."""


@lru_cache
def tracking_settings() -> TrackingSettings:
    return TrackingSettings()
