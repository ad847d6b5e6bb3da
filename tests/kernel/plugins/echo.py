"""A tiny essential plugin for the kernel's tests: echoes the request context it was handed."""

from __future__ import annotations

from typing import Any

from atrium.sdk import PluginInfo, Router, current_context, hookimpl

router = Router("/api/echo")


def _context() -> dict[str, Any]:
    ctx = current_context()
    return {
        "locale": ctx.locale,
        "pageName": ctx.page_name,
        "pageEnName": ctx.page_en_name,
        "menuId": ctx.menu_id,
        "requestMenuUrl": ctx.request_menu_url,
        "systemCode": ctx.system_code,
        "controllerURL": ctx.controller_url,
        "loginForm": ctx.login_form,
        "userId": ctx.user.user_id if ctx.user else None,
        "tenantId": ctx.tenant_id,
    }


@router.get("/context", public=True)
def public_context() -> dict[str, Any]:
    """The context of an anonymous call."""
    return _context()


@router.post("/context")
def user_context() -> dict[str, Any]:
    """The context of a signed-in call."""
    return _context()


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(name="echo", version="1.0.0", services={"echo": "/api/echo"}, essential=True)


@hookimpl
def atrium_routes() -> Router:
    return router
