"""Settings of the files plugin, from ATRIUM_FILES_* environment variables."""

from __future__ import annotations

from functools import lru_cache

from pydantic_settings import BaseSettings, SettingsConfigDict

MB = 1024 * 1024


class FilesSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ATRIUM_FILES_", extra="ignore")

    #: largest file of the generic upload (images and icons have their own, smaller limits)
    max_file_bytes: int = 100 * MB
    image_max_bytes: int = 2097152
    image_max_pixels: int = 40_000_000
    icon_max_bytes: int = 1 * MB
    #: how long a signed link (getUrl, getDownUrlByName) stays valid, in seconds
    link_ttl: int = 3600


@lru_cache
def files_settings() -> FilesSettings:
    return FilesSettings()
