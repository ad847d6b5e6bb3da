"""Hook implementations of the sso plugin."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from atrium.plugins.sso import admin_api, api, service
from atrium.plugins.sso.models import Base
from atrium.plugins.sso.providers.oauth2 import OAuth2Provider
from atrium.plugins.sso.providers.oidc import CloudProvider, OidcProvider
from atrium.plugins.sso.providers.workchat import DingTalkProvider, WeComProvider
from atrium.sdk import hookimpl
from atrium.sdk.routing import Router
from atrium.sdk.types import DatabaseSpec, MenuSpec, PluginInfo, WebModule

#: the administrators' screen, drawn by this plugin's remote (web-plugins/sso); the sign-in pages stay in
#: the host (they are used before anyone is signed in, when no remote is loaded)
ADMIN_PATH = "/third-party/sso-config"


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="sso",
        version="1.0.0",
        sdk=">=1.0,<2",
        description="Single sign-on: OpenID Connect, OAuth2, cloud identity, DingTalk, WeCom",
        services={"third": "/api/third"},
        prefixes=[ADMIN_PATH],
        web=WebModule(remote_name="atrium_sso", exposes=["./App"]),
    )


@hookimpl
def atrium_routes() -> list[Router]:
    return [api.router, admin_api.router]


@hookimpl
def atrium_database() -> DatabaseSpec:
    return DatabaseSpec(metadata=Base.metadata, migrations=str(Path(__file__).parent / "migrations"))


@hookimpl
def atrium_i18n_namespaces() -> list[str]:
    return ["sso"]


@hookimpl
def atrium_sso_providers() -> list[Any]:
    return [OidcProvider(), OAuth2Provider(), CloudProvider(), DingTalkProvider(), WeComProvider()]


@hookimpl
def atrium_login_types(tenant_id: int | None) -> list[dict[str, Any]]:
    return service.login_types(tenant_id)


@hookimpl
def atrium_menus() -> list[MenuSpec]:
    return [
        MenuSpec(
            code="admin-sso-config",
            name="单点登录配置",
            en_name={"en-us": "Single sign-on", "zh-tw": "單點登錄配置"},
            url=ADMIN_PATH,
            icon="SafetyCertificateOutlined",
            sort=90,
        )
    ]


@hookimpl
def atrium_startup(services: Any) -> None:
    service.registry()
