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
    #: the document editor: largest file it opens, and how much of a workbook it converts
    editor_max_bytes: int = 10 * MB
    editor_max_sheets: int = 50
    editor_max_rows: int = 10_000
    editor_max_columns: int = 200
    editor_max_cells: int = 200_000
    editor_max_unzipped_bytes: int = 50 * MB
    editor_max_characters: int = 500_000


@lru_cache
def files_settings() -> FilesSettings:
    return FilesSettings()
