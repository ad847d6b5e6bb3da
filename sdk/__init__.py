"""The Atrium SDK: the only surface plugins import.

Plugins get hook markers, types, errors, the request context and scoped services from here; they never
import `atrium.kernel`.
"""

from atrium.sdk.context import RequestContext, SessionUser, current_context
from atrium.sdk.errors import (
    AtriumError,
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    NotLoggedIn,
    PluginDisabled,
    TooManyRequests,
)
from atrium.sdk.hookspecs import hookimpl
from atrium.sdk.routing import Router
from atrium.sdk.types import MenuSpec, PluginInfo, ResourceSpec, WebModule, WebSlot

SDK_VERSION = "1.0.0"

__all__ = [
    "SDK_VERSION",
    "AtriumError",
    "BadRequest",
    "Conflict",
    "Forbidden",
    "MenuSpec",
    "NotFound",
    "NotLoggedIn",
    "PluginDisabled",
    "PluginInfo",
    "RequestContext",
    "ResourceSpec",
    "Router",
    "SessionUser",
    "TooManyRequests",
    "WebModule",
    "WebSlot",
    "current_context",
    "hookimpl",
]
