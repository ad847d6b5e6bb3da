"""The tracking plugin's hook implementations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from atrium.plugins.tracking import api, demo, logins, service
from atrium.plugins.tracking.models import Base
from atrium.plugins.tracking.settings import tracking_settings
from atrium.sdk import MenuSpec, PluginInfo, ResourceSpec, Router, WebModule, WebSlot, hookimpl
from atrium.sdk.types import DatabaseSpec, Event, JobSpec


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="tracking",
        version="1.0.0",
        sdk=">=1.0,<2",
        description="Usage tracking: micro-app loads, page visits and clicks, rolled up for the home cards",
        services={"log": "/api/log"},
        prefixes=[],
        web=WebModule(remote_name="atrium_tracking", exposes=["./App"], slots=[WebSlot(slot="homeCard")]),
    )


@hookimpl
def atrium_routes() -> Router:
    return api.router


@hookimpl
def atrium_database() -> DatabaseSpec:
    return DatabaseSpec(metadata=Base.metadata, migrations=str(Path(__file__).parent / "migrations"))


@hookimpl
def atrium_scheduled_jobs() -> list[JobSpec]:
    return [
        JobSpec(
            id="rollup",
            func=service.run_job,
            trigger="interval",
            trigger_args={"minutes": tracking_settings().rollup_minutes},
        )
    ]


@hookimpl
def atrium_i18n_namespaces() -> list[str]:
    return ["tracking"]


@hookimpl
def atrium_menus() -> list[MenuSpec]:
    # the home dashboard's usage cards; the button shows a member her tenant's usage rather than her own
    return [
        MenuSpec(
            code="usage-statistics",
            name="使用统计",
            url="/home",
            icon="BarChartOutlined",
            sort=92,
            admin_only=True,
            en_name={
                "en-us": "Usage statistics",
                "zh-tw": "使用統計",
                "vi-vn": "Thống kê sử dụng",
                "hu-hu": "Használati statisztika",
            },
            resources=[ResourceSpec(service.STATS_GRANT, "查看统计")],
        )
    ]


@hookimpl
def atrium_demo_data(tenants: dict[str, int]) -> None:
    demo.load(tenants)


@hookimpl
def atrium_usage_totals(tenant_id: int | None, days: int) -> dict[str, Any] | None:
    return service.usage_totals(tenant_id, days)


@hookimpl
def atrium_event(event: Event) -> None:
    logins.record(event)


@hookimpl
def atrium_shutdown() -> None:
    from atrium.sdk.services import services

    try:
        svc: Any = services()
    except RuntimeError:
        return
    service.close(svc)
