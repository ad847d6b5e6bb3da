"""Structured data-source settings: the designer's form (type, host, port, ...) to and from a SQLAlchemy URL.

The URL is built with `URL.create` (never by pasting strings) and stored encrypted as before, password
included; the form's fields shown back are read from that URL, so nothing but the encrypted URL is kept.
File databases (SQLite, DuckDB) must be existing files outside the platform's own data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from atrium.plugins.reports.store import crypto
from atrium.sdk.errors import BadRequest
from atrium.sdk.services import services

SourceType = Literal["sqlite", "postgresql", "mysql", "duckdb"]
FILE_TYPES = ("sqlite", "duckdb")
#: the SQLAlchemy driver each type connects with
DRIVERS = {
    "sqlite": "sqlite",
    "duckdb": "duckdb",
    "postgresql": "postgresql+psycopg",
    "mysql": "mysql+pymysql",
}
#: the type a stored URL's backend shows as in the form
TYPE_OF_BACKEND = {
    "sqlite": "sqlite",
    "duckdb": "duckdb",
    "postgresql": "postgresql",
    "mysql": "mysql",
    "mariadb": "mysql",
}


class SourceSettings(BaseModel):
    """The connection part of the data-source form."""

    model_config = ConfigDict(extra="ignore")
    type: SourceType
    host: str | None = Field(default=None, max_length=255)
    port: int | None = Field(default=None, ge=1, le=65535)
    database: str | None = Field(default=None, max_length=255)
    username: str | None = Field(default=None, max_length=255)
    password: str | None = Field(default=None, max_length=1000)
    path: str | None = Field(default=None, max_length=1000)


def stored_password(url_enc: str) -> str | None:
    """The password inside a stored (encrypted) URL, for an edit that leaves the password empty."""
    raw = crypto.decrypt(url_enc) if url_enc else ""
    if not raw:
        return None
    try:
        return make_url(raw).password
    except (ArgumentError, ValueError):
        return None


def _platform_files() -> tuple[Path | None, Path]:
    settings = services().settings
    var_dir = Path(settings.var_dir).resolve()
    db_file: Path | None = None
    try:
        url = make_url(settings.effective_database_url)
        if url.get_backend_name() == "sqlite" and url.database:
            db_file = Path(url.database).resolve()
    except (ArgumentError, ValueError):
        db_file = None
    return db_file, var_dir


def check_file(path_text: str | None) -> str:
    """An existing database file that is not the platform's own database nor under its var folder."""
    text = (path_text or "").strip()
    if not text:
        raise BadRequest("reports:datasource.path_required")
    path = Path(text).expanduser()
    if not path.is_absolute():
        raise BadRequest("reports:datasource.path_absolute")
    resolved = path.resolve()
    db_file, var_dir = _platform_files()
    if resolved == db_file or resolved.is_relative_to(var_dir):
        raise BadRequest("reports:datasource.path_platform")
    if not resolved.is_file():
        raise BadRequest("reports:datasource.path_missing", path=text[:200])
    return str(resolved)


def build_url(settings: SourceSettings, password_if_empty: str | None = None) -> URL:
    """The SQLAlchemy URL of the settings; an empty password keeps `password_if_empty` (the stored one)."""
    if settings.type in FILE_TYPES:
        return URL.create(DRIVERS[settings.type], database=check_file(settings.path))
    host = (settings.host or "").strip()
    database = (settings.database or "").strip()
    if not host:
        raise BadRequest("reports:datasource.host_required")
    if not database:
        raise BadRequest("reports:datasource.database_required")
    query = {"charset": "utf8mb4"} if settings.type == "mysql" else {}
    return URL.create(
        DRIVERS[settings.type],
        username=(settings.username or "").strip() or None,
        password=settings.password or password_if_empty or None,
        host=host,
        port=settings.port,
        database=database,
        query=query,
    )


def url_text(url: URL) -> str:
    return url.render_as_string(hide_password=False)


def public_settings(raw_url: str) -> dict[str, Any]:
    """The form fields read back from a stored URL (never the password)."""
    empty: dict[str, Any] = {
        "type": "",
        "host": None,
        "port": None,
        "database": None,
        "username": None,
        "path": None,
    }
    if not raw_url:
        return empty
    try:
        url = make_url(raw_url)
    except (ArgumentError, ValueError):
        return empty
    kind = TYPE_OF_BACKEND.get(url.get_backend_name(), url.get_backend_name())
    if kind in FILE_TYPES:
        return {**empty, "type": kind, "path": url.database}
    return {
        "type": kind,
        "host": url.host,
        "port": url.port,
        "database": url.database,
        "username": url.username,
        "path": None,
    }
