"""The example plugin's hooks: its identity and one sign-in provider."""

from __future__ import annotations

from typing import Any

from atrium.sdk import hookimpl
from atrium.sdk.types import PluginInfo
from atrium_sso_example.provider import MagicLinkProvider


@hookimpl
def atrium_plugin_info() -> PluginInfo:
    return PluginInfo(
        name="sso-example",
        version="0.1.0",
        depends=["sso"],
        enabled_by_default=False,
        description="Example sign-in provider",
    )


@hookimpl
def atrium_sso_providers() -> list[Any]:
    return [MagicLinkProvider()]
