"""Settings from ATRIUM_* environment variables, with embedded defaults."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent
#: a checkout keeps its data beside the sources; an installed package keeps it in the working directory
DEFAULT_VAR_DIR = ROOT / "var" if (ROOT / "pyproject.toml").is_file() else Path.cwd() / "var"
DEMO_SECRET = "atrium-demo-secret-key-not-for-production-use"
BASE_PATH = re.compile(r"(?:/[A-Za-z0-9._-]+)+")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ATRIUM_", extra="ignore")

    database_url: str = ""
    redis_url: str = ""
    redis_prefix: str = "atrium:"
    secret_key: str = DEMO_SECRET
    demo: bool = False
    var_dir: Path = DEFAULT_VAR_DIR
    storage_url: str = Field(
        default="",
        description="object storage for files every node serves: empty for local disk under var_dir, or "
        "s3://BUCKET?endpoint=http(s)://HOST:PORT&region=REGION (credentials from AWS_ACCESS_KEY_ID / "
        "AWS_SECRET_ACCESS_KEY)",
    )
    web_dir: Path = ROOT / "web-host" / "dist"
    web_plugins_dir: Path = ROOT / "web-plugins"
    i18n_dir: Path = ROOT / "i18n"
    token_minutes: int = 720
    refresh_token_minutes: int = 60 * 24 * 7
    refresh_grace_seconds: int = Field(
        default=30, description="how long requests that raced a refresh get the pair it was spent for"
    )
    load_plugins: str = Field(default="", description="comma-separated allow-list of plugin ids")
    dev_outbox: bool = False
    access_log: bool = False
    log_json: bool = True
    scheduler: bool = True
    task_threads: int = Field(
        default=2, description="RQ worker threads in each server process when Redis is configured"
    )
    task_timeout_seconds: int = 3600
    task_lease_seconds: int = Field(
        default=30,
        ge=3,
        description="a running task's lease, renewed while it runs; lapses if its worker dies",
    )
    task_grace_seconds: float = Field(
        default=10.0, ge=0, description="how long a stopping worker lets its running task finish"
    )
    public_origin: str = ""
    base_path: str = Field(
        default="",
        description="the path prefix the platform is served under behind a reverse proxy, e.g. /atrium "
        "(empty: at the site's root); the proxy may pass the prefix on or strip it",
    )
    metrics_allow: str = Field(
        default="127.0.0.0/8,::1", description="networks (comma-separated CIDRs) that may read /metrics"
    )
    metrics_token: str = Field(default="", description="a bearer token that reads /metrics from anywhere")
    login_max_failures: int = 30
    captcha_after_failures: int = 3

    @field_validator("base_path")
    @classmethod
    def _one_path_prefix(cls, value: str) -> str:
        """``atrium/``, ``/atrium`` and ``/atrium/`` all mean ``/atrium``; ``/`` means the root."""
        prefix = "/" + value.strip().strip("/")
        if prefix == "/":
            return ""
        if not BASE_PATH.fullmatch(prefix):
            raise ValueError("ATRIUM_BASE_PATH: letters, digits, '-', '_', '.' and '/' between segments only")
        return prefix

    @property
    def effective_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.var_dir / 'atrium.db'}"

    def check_secret(self) -> None:
        """Refuse to run on a default or short secret unless this is the demo."""
        if self.demo:
            return
        if self.secret_key == DEMO_SECRET or len(self.secret_key) < 32:
            raise SystemExit(
                "ATRIUM_SECRET_KEY must be set to a random value of at least 32 characters "
                "(only `atrium demo` runs on the built-in key)"
            )


@lru_cache
def get_settings() -> Settings:
    return Settings()
