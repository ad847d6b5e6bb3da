"""Hook implementations of the reports plugin."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from atrium.plugins.reports.api.routes import router
from atrium.plugins.reports.demo import content
from atrium.plugins.reports.engine import extract, sources
from atrium.plugins.reports.exchange import link_export, transfer_hookup
from atrium.plugins.reports.models import Base
from atrium.plugins.reports.settings import report_settings
from atrium.plugins.reports.store import links
from atrium.sdk import MenuSpec, PluginInfo, ResourceSpec, Router, WebModule, WebSlot, hookimpl
from atrium.sdk.transfer import ExportSource, ImportTarget
from atrium.sdk.types import DatabaseSpec, JobSpec


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="reports",
        version="1.0.0",
        sdk=">=1.0,<2",
        description="Dynamic reports: data sources, datasets, chart views, panels, shared links",
        services={"dyreport": "/api/dyreport"},
        prefixes=["/dynamic-report"],
        web=WebModule(remote_name="reports", exposes=["./App"], slots=[WebSlot(slot="page", module="./App")]),
    )


@hookimpl
def atrium_routes() -> Router:
    return router


@hookimpl
def atrium_database() -> DatabaseSpec:
    return DatabaseSpec(metadata=Base.metadata, migrations=str(Path(__file__).parent / "migrations"))


@hookimpl
def atrium_i18n_namespaces() -> list[str]:
    return ["reports"]


@hookimpl
def atrium_menus() -> list[MenuSpec]:
    return [
        MenuSpec(
            code="dynamic-report",
            name="动态报表",
            en_name="Dynamic reports",
            url="/dynamic-report",
            icon="bar-chart",
            sort=40,
            children=[
                MenuSpec(
                    code="dynamic-report-panels",
                    name="报表",
                    en_name={"en-us": "Reports", "zh-tw": "報表", "vi-vn": "Báo cáo", "hu-hu": "Jelentések"},
                    url="/dynamic-report",
                    icon="bar-chart",
                    sort=0,
                    # the buttons belong to the page that shows them: a page loads its own menu's buttons
                    resources=[
                        ResourceSpec("dyreport:export", "导出"),
                        ResourceSpec("dyreport:manage", "管理"),
                    ],
                ),
                MenuSpec(
                    code="dynamic-report-datasource",
                    name="数据源",
                    en_name={
                        "en-us": "Data sources",
                        "zh-tw": "資料來源",
                        "vi-vn": "Nguồn dữ liệu",
                        "hu-hu": "Adatforrások",
                    },
                    url="/dynamic-report/datasource",
                    icon="database",
                    sort=1,
                    admin_only=True,
                ),
                MenuSpec(
                    code="dynamic-report-dataset",
                    name="数据集",
                    en_name={
                        "en-us": "Datasets",
                        "zh-tw": "資料集",
                        "vi-vn": "Tập dữ liệu",
                        "hu-hu": "Adatkészletek",
                    },
                    url="/dynamic-report/dataset",
                    icon="table",
                    sort=2,
                    admin_only=True,
                ),
            ],
        )
    ]


@hookimpl
def atrium_scheduled_jobs() -> list[JobSpec]:
    return [
        JobSpec(
            id="extract-sync",
            func=extract.submit_due,
            trigger="interval",
            # the first check runs at start, so a freshly loaded demo's extract is ready at once
            trigger_args={"seconds": report_settings().sync_check_seconds, "next_run_time": datetime.now()},
        ),
        # files of shared-link exports past their retention
        JobSpec(
            id="link-export-sweep", func=link_export.sweep, trigger="interval", trigger_args={"minutes": 30}
        ),
    ]


@hookimpl
def atrium_demo_data(tenants: dict[str, int]) -> None:
    content.load(tenants)


@hookimpl
def atrium_export_sources() -> list[ExportSource]:
    return transfer_hookup.export_sources()


@hookimpl
def atrium_import_targets() -> list[ImportTarget]:
    return transfer_hookup.import_targets()


@hookimpl
def atrium_shutdown() -> None:
    sources.dispose_all()
    extract.close()


@hookimpl
def atrium_frame_ancestors(path: str) -> list[str] | None:
    return links.frame_ancestors(path)
