"""The admin plugin's hook implementations."""

from __future__ import annotations

from pathlib import Path

from atrium.plugins.admin import api, service, transfer
from atrium.plugins.admin.models import Base
from atrium.sdk import MenuSpec, PluginInfo, Router, WebModule, hookimpl
from atrium.sdk.transfer import ExportSource, ImportTarget
from atrium.sdk.types import DatabaseSpec, Event

PREFIXES = ["/rent-mannage", "/system_manage", "/platform"]


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="admin",
        version="1.0.0",
        sdk=">=1.0,<2",
        essential=True,
        description="Administration console: tenants, users, roles, grants, menus, systems, plugins, audit",
        services={"admin": "/api/admin"},
        prefixes=PREFIXES,
        web=WebModule(remote_name="atrium_admin", exposes=["./App"]),
    )


@hookimpl
def atrium_routes() -> list[Router]:
    """The console's own routes (`/api/admin`) and the administration API (`/api/base/admin`)."""
    return api.ROUTERS


@hookimpl
def atrium_database() -> DatabaseSpec:
    return DatabaseSpec(metadata=Base.metadata, migrations=str(Path(__file__).parent / "migrations"))


# (code, name, url, icon, en-us, zh-tw, vi-vn, hu-hu)
PAGES = [
    (
        "admin-tenants",
        "租户管理",
        "/rent-mannage",
        "ApartmentOutlined",
        "Tenants",
        "租戶管理",
        "Đối tượng thuê",
        "Bérlők",
    ),
    (
        "admin-users",
        "用户管理",
        "/system_manage/users",
        "UserOutlined",
        "Users",
        "使用者管理",
        "Người dùng",
        "Felhasználók",
    ),
    (
        "admin-roles",
        "角色管理",
        "/system_manage/roles",
        "TeamOutlined",
        "Roles",
        "角色管理",
        "Vai trò",
        "Szerepkörök",
    ),
    ("admin-menus", "菜单管理", "/system_manage/menus", "MenuOutlined", "Menus", "選單管理", "Menu", "Menük"),
    (
        "admin-systems",
        "系统维护",
        "/system_manage/systems",
        "AppstoreOutlined",
        "Systems",
        "系統維護",
        "Hệ thống",
        "Rendszerek",
    ),
    ("admin-plugins", "插件管理", "/platform", "ApiOutlined", "Plugins", "外掛管理", "Plugin", "Bővítmények"),
    (
        "admin-audit",
        "审计日志",
        "/system_manage/audit",
        "AuditOutlined",
        "Audit log",
        "稽核日誌",
        "Nhật ký kiểm tra",
        "Auditnapló",
    ),
    (
        "admin-settings",
        "系统设置",
        "/system_manage/settings",
        "ControlOutlined",
        "Settings",
        "系統設定",
        "Cài đặt",
        "Beállítások",
    ),
]


@hookimpl
def atrium_menus() -> list[MenuSpec]:
    children = [
        MenuSpec(
            code=code,
            name=name,
            url=url,
            icon=icon,
            sort=i + 1,
            admin_only=True,
            en_name={"en-us": en, "zh-tw": tw, "vi-vn": vi, "hu-hu": hu},
        )
        for i, (code, name, url, icon, en, tw, vi, hu) in enumerate(PAGES)
    ]
    return [
        MenuSpec(
            code="admin-console",
            name="系统管理",
            icon="SettingOutlined",
            sort=90,
            admin_only=True,
            en_name={
                "en-us": "Administration",
                "zh-tw": "系統管理",
                "vi-vn": "Quản trị",
                "hu-hu": "Adminisztráció",
            },
            children=children,
        )
    ]


@hookimpl
def atrium_event(event: Event) -> None:
    service.on_event(event)


@hookimpl
def atrium_import_targets() -> list[ImportTarget]:
    return transfer.import_targets()


@hookimpl
def atrium_export_sources() -> list[ExportSource]:
    return transfer.export_sources()


@hookimpl
def atrium_i18n_namespaces() -> list[str]:
    return ["admin"]
