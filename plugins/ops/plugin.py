"""The ops plugin's hook implementations."""

from __future__ import annotations

from atrium.plugins.ops import api
from atrium.sdk import MenuSpec, PluginInfo, Router, WebModule, hookimpl

MONITOR_PATH = "/actuator-management"
SCHEDULE_PATH = "/schedule"


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="ops",
        version="1.0.0",
        sdk=">=1.0,<2",
        description="For platform administrators: nodes, readiness, queues, storage, scheduled jobs",
        services={"ops": "/api/ops"},
        prefixes=[MONITOR_PATH, SCHEDULE_PATH],
        web=WebModule(remote_name="atrium_ops", exposes=["./App"]),
    )


@hookimpl
def atrium_routes() -> Router:
    return api.router


@hookimpl
def atrium_menus() -> list[MenuSpec]:
    return [
        MenuSpec(
            code="ops-monitor",
            name="运维监控",
            url=MONITOR_PATH,
            icon="DashboardOutlined",
            sort=96,
            admin_only=True,
            en_name={"en-us": "Operations", "zh-tw": "維運監控", "vi-vn": "Vận hành", "hu-hu": "Üzemeltetés"},
        ),
        MenuSpec(
            code="ops-schedule",
            name="定时任务",
            url=SCHEDULE_PATH,
            icon="FieldTimeOutlined",
            sort=97,
            admin_only=True,
            en_name={
                "en-us": "Scheduled jobs",
                "zh-tw": "排程任務",
                "vi-vn": "Tác vụ định kỳ",
                "hu-hu": "Ütemezett feladatok",
            },
        ),
    ]


@hookimpl
def atrium_i18n_namespaces() -> list[str]:
    return ["ops"]
