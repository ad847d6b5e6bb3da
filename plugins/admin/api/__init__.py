"""The admin plugin's HTTP routes: its own (`audit`) and the administration API, one module per concept."""

from __future__ import annotations

from collections.abc import Iterable

from atrium.plugins.admin.api import audit, menus, roles, settings, signin, systems, tenants, users
from atrium.sdk.routing import Router

#: the administration API's concepts, each after those it builds on (tenants are offered systems)
CONCEPTS = (systems, tenants, users, roles, menus, settings, signin)
#: how the paths of routes that remove an object end
REMOVALS = ("/delete", "/remove")


def removals_last(routers: Iterable[Router]) -> Router:
    """The routers' routes as one router, those that remove an object after every other: the route list and
    the OpenAPI document read in the order objects are made, changed and removed (the authorization matrix
    test calls every operation in that order, on one database)."""
    merged = Router()
    merged.routes = sorted(
        (spec for r in routers for spec in r.routes), key=lambda s: s.path.endswith(REMOVALS)
    )
    return merged


#: every router of the plugin, as `atrium_routes` answers them
ROUTERS: list[Router] = [removals_last(concept.router for concept in CONCEPTS), audit.router]
