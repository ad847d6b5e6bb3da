"""The plugin's HTTP routes, all under /api/dyreport (service key `dyreport`)."""

from __future__ import annotations

from atrium.plugins.reports import routes_chart, routes_dataset, routes_link, routes_linkage, routes_panel
from atrium.plugins.reports.authoring import routes as routes_authoring
from atrium.sdk.routing import Router

router = Router()
for part in (routes_chart, routes_dataset, routes_link, routes_linkage, routes_panel, routes_authoring):
    router.include(part.router)
