"""The kernel's own routes (services `base` and `portal`, plus `/api/kernel` and `/api/account`).

The administration API (`/api/base/admin`) is the admin plugin's; it calls `services().administration`
(`atrium.kernel.administration`)."""

from __future__ import annotations

from atrium.sdk.routing import Router


def kernel_routers() -> list[Router]:
    from atrium.kernel.api import (
        auth,
        ldap_login,
        manifest,
        menus,
        portal,
        qrcode,
        register,
        settings,
        systems,
        user,
    )

    return [
        auth.router,
        user.router,
        user.account_router,
        systems.router,
        menus.router,
        portal.router,
        settings.router,
        manifest.router,
        register.router,
        qrcode.router,
        ldap_login.router,
    ]
