"""Hook implementations of the process plugin."""

from __future__ import annotations

from pathlib import Path

from atrium.plugins.process import api, demo
from atrium.plugins.process.engine import timers
from atrium.plugins.process.models import Base
from atrium.sdk import MenuSpec, PluginInfo, ResourceSpec, Router, WebModule, WebSlot, hookimpl
from atrium.sdk.types import DatabaseSpec, JobSpec

PREFIX = "/process_manage"


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="process",
        version="1.0.0",
        sdk=">=1.0,<2",
        description="Process designer (BPMN 2.0) and workflow engine: models, deployments, instances, tasks",
        services={"process": "/api/process"},
        prefixes=[PREFIX],
        web=WebModule(
            remote_name="atrium_process",
            exposes=["./App"],
            slots=[WebSlot(slot="page"), WebSlot(slot="homeCard"), WebSlot(slot="portalPanel")],
        ),
    )


@hookimpl
def atrium_routes() -> Router:
    return api.router


@hookimpl
def atrium_database() -> DatabaseSpec:
    return DatabaseSpec(metadata=Base.metadata, migrations=str(Path(__file__).parent / "migrations"))


@hookimpl
def atrium_scheduled_jobs() -> list[JobSpec]:
    return timers.scheduled_jobs()


@hookimpl
def atrium_i18n_namespaces() -> list[str]:
    return ["process"]


@hookimpl
def atrium_menus() -> list[MenuSpec]:
    return [
        MenuSpec(
            code="process-manage",
            name="流程管理",
            url=PREFIX,
            icon="ApartmentOutlined",
            sort=44,
            en_name={
                "en-us": "Processes",
                "zh-tw": "流程管理",
                "vi-vn": "Quy trình",
                "hu-hu": "Folyamatok",
            },
            resources=[
                ResourceSpec("process:design", "设计"),
                ResourceSpec("process:deploy", "部署"),
                ResourceSpec("process:stats", "查看统计"),
            ],
        )
    ]


@hookimpl
def atrium_demo_data(tenants: dict[str, int]) -> None:
    demo.load(tenants)
