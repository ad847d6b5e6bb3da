"""Hook implementations of the forms plugin."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from atrium.plugins.forms import api, demo, hooks, transfer_hookup
from atrium.plugins.forms.models import Base
from atrium.sdk import MenuSpec, PluginInfo, ResourceSpec, Router, WebModule, WebSlot, hookimpl
from atrium.sdk.transfer import ExportSource, ImportTarget
from atrium.sdk.types import DatabaseSpec

DESIGN_PATH = "/form-design"
PREVIEW_PATH = "/form-preview"
RENDER_PATH = "/dynamic-form"


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="forms",
        version="1.0.0",
        sdk=">=1.0,<2",
        description="Dynamic forms: JSON Schema designs, versions, publishing, rendering and submissions",
        services={"form": "/api/form"},
        prefixes=[DESIGN_PATH, PREVIEW_PATH, RENDER_PATH],
        web=WebModule(
            remote_name="atrium_forms",
            exposes=["./App"],
            slots=[WebSlot(slot="page"), WebSlot(slot="homeCard")],
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
    return ["forms"]


@hookimpl
def atrium_menus() -> list[MenuSpec]:
    return [
        MenuSpec(
            code="form-design",
            name="表单设计",
            url=DESIGN_PATH,
            icon="FormOutlined",
            sort=45,
            admin_only=True,
            en_name={
                "en-us": "Form design",
                "zh-tw": "表單設計",
                "vi-vn": "Thiết kế biểu mẫu",
                "hu-hu": "Űrlaptervező",
            },
            resources=[
                ResourceSpec("form:design", "设计"),
                ResourceSpec("form:export", "导出"),
                ResourceSpec("form:stats", "查看统计"),
            ],
        ),
        MenuSpec(
            code="visitor-registration",
            name="访客登记",
            url="dynamic-form/render",
            icon="IdcardOutlined",
            sort=46,
            is_cache=False,
            parameter={"menu_type": "DYNAMIC_FORM", "diy_code": "visitor-registration", "layout_code": "L2"},
            en_name={
                "en-us": "Visitor registration",
                "zh-tw": "訪客登記",
                "vi-vn": "Đăng ký khách",
                "hu-hu": "Látogatói regisztráció",
            },
        ),
    ]


@hookimpl
def atrium_startup() -> None:
    transfer_hookup.register()


@hookimpl
def atrium_export_sources() -> list[ExportSource]:
    return transfer_hookup.export_sources()


@hookimpl
def atrium_import_targets() -> list[ImportTarget]:
    return transfer_hookup.import_targets()


@hookimpl
def atrium_demo_data(tenants: dict[str, int]) -> None:
    demo.load(tenants)


@hookimpl
def atrium_process_forms(tenant_id: int) -> list[dict[str, Any]]:
    return hooks.process_forms(tenant_id)


@hookimpl
def atrium_process_form_submit(
    tenant_id: int, form_code: str, data: dict[str, Any], user_id: int | None, process: dict[str, Any]
) -> dict[str, Any]:
    return hooks.process_form_submit(tenant_id, form_code, data, user_id, process)
