"""Settings of the reports plugin: the node's, from ATRIUM_REPORTS_* environment variables, and each
tenant's own, kept with the plugin's state for the tenant (`services().plugin_settings`)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic_settings import BaseSettings, SettingsConfigDict

from atrium.sdk.services import services

PLUGIN = "reports"
#: the tenant's rule that every shared link has a password (enabling without one, or removing it, is refused)
REQUIRE_LINK_PASSWORD = "requireLinkPassword"


class ReportSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ATRIUM_REPORTS_", extra="ignore")

    query_timeout: float = 30.0
    """Seconds a data query may run before it is cancelled (a data source may set a lower one)."""
    cache_ttl: float = 300.0
    """Seconds a chart result stays cached (the key also carries the dataset and view versions)."""
    max_groups: int = 10_000
    """Most rows a chart (not a table-info page) answers when its result mode is `all`."""
    max_field_values: int = 1_000
    """Most distinct values `multFieldValues` answers."""
    link_token_minutes: int = 120
    """Lifetime of the signed token a shared link's client gets after validation."""
    link_max_failures: int = 10
    """Wrong passwords after which a shared link locks until its owner resets it."""
    link_tries_per_minute: int = 5
    """Password tries one client gets per minute on one link."""
    sync_check_seconds: int = 60
    """How often the scheduler looks for extract datasets that are due."""
    extract_cache_mb: int = 2048
    """Most megabytes of extract files each node keeps in its cache under var/reports/extracts (fetched from
    the object storage on first use; the least recently used go first, never the one a query reads)."""
    timezone: str = ""
    """Time zone of dynamic dates (today, month start, ...); empty means the server's local time."""


@lru_cache
def report_settings() -> ReportSettings:
    return ReportSettings()


def tenant_settings(tenant_id: int) -> dict[str, Any]:
    """The tenant's settings of the plugin, with their defaults."""
    saved = services().plugin_settings(tenant_id, PLUGIN)
    return {REQUIRE_LINK_PASSWORD: bool(saved.get(REQUIRE_LINK_PASSWORD, False))}


def links_need_password(tenant_id: int) -> bool:
    """Whether the tenant requires a password on every shared link."""
    return bool(tenant_settings(tenant_id)[REQUIRE_LINK_PASSWORD])


def save_tenant_settings(tenant_id: int, require_link_password: bool) -> dict[str, Any]:
    """Save the tenant's settings (in the current transaction); answers them as `tenant_settings` does."""
    services().save_plugin_settings(tenant_id, PLUGIN, {REQUIRE_LINK_PASSWORD: require_link_password})
    return tenant_settings(tenant_id)
