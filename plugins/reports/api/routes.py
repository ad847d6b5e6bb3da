"""The plugin's one router: every route module's routes, all under /api/dyreport (service key `dyreport`)."""

from __future__ import annotations

from atrium.plugins.reports.api import authoring, chart, dataset, link, linkage, panel
from atrium.sdk.routing import Router

router = Router()
for part in (chart, dataset, link, linkage, panel, authoring):
    router.include(part.router)
