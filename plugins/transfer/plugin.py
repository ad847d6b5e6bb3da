"""Hook implementations of the transfer plugin (import and export)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from atrium.sdk import MenuSpec, PluginInfo, Router, WebModule, hookimpl
from atrium.sdk.types import DatabaseSpec, JobSpec

from . import api, demo, service
from .jobs import scheduled
from .jobs.counts import job_counts
from .models import Base


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="transfer",
        version="1.0.0",
        sdk=">=1.0,<2",
        depends=["files"],
        description="Excel import wizard and history, asynchronous Excel exports, Word exports",
        services={"import": "/api/import", "dataexport": "/api/dataexport"},
        prefixes=["/data-transfer"],
        web=WebModule(
            remote_name="atrium_transfer",
            exposes=["./App", "./ImportWizard", "./ExportButton", "./WordExport", "./exportTask"],
        ),
    )


@hookimpl
def atrium_routes() -> Router:
    return api.router


@hookimpl
def atrium_database() -> DatabaseSpec:
    return DatabaseSpec(metadata=Base.metadata, migrations=str(Path(__file__).parent / "migrations"))


@hookimpl
def atrium_i18n_namespaces() -> list[str]:
    return ["transfer"]


@hookimpl
def atrium_menus() -> list[MenuSpec]:
    return service.menus()


@hookimpl
def atrium_scheduled_jobs() -> list[JobSpec]:
    return scheduled.scheduled_jobs()


@hookimpl
def atrium_startup(services: Any) -> None:
    service.startup(services)


@hookimpl
def atrium_demo_data(tenants: dict[str, int]) -> None:
    demo.load(tenants)


@hookimpl
def atrium_background_job_counts(tenant_id: int | None) -> dict[str, int]:
    return job_counts(tenant_id)
