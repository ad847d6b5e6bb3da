"""The tracking service's HTTP API (`/api/log`): the browser's records and the home dashboard's questions.

Records (spec reports.md 3.9 and 7.4) come as one object or a list, wrapped in ``{"params": ...}``; the
whole batch is validated (``records``) before anything is queued. The client's own tenant, user and IP
fields are ignored: the session and the connection say who and where.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, RootModel

from atrium.plugins.tracking import service
from atrium.plugins.tracking.models import APP_LOAD, BUTTON_CLICK, PAGE_VISIT
from atrium.plugins.tracking.records import rows_of
from atrium.plugins.tracking.run_states import run_states
from atrium.sdk.routing import Router

router = Router("/api/log")


class TrackBatch(RootModel[list[Any] | dict[str, Any]]):
    """One record or a list of records."""


class Accepted(BaseModel):
    accepted: int


@router.post("/tracking-web-server/tracking", body=TrackBatch, response=Accepted)
async def track_apps(body: TrackBatch) -> dict[str, int]:
    """Micro-app load records (type 1); queued for the bulk writer, never written one by one."""
    return {"accepted": service.ingest(rows_of(body.root, APP_LOAD, (APP_LOAD,)))}


@router.post("/tracking-web-page/tracking", body=TrackBatch, response=Accepted)
async def track_pages(body: TrackBatch) -> dict[str, int]:
    """Page visit (type 2) and button click (type 3, the default) records."""
    return {"accepted": service.ingest(rows_of(body.root, BUTTON_CLICK, (PAGE_VISIT, BUTTON_CLICK)))}


class DaysQuery(BaseModel):
    days: int = Field(default=7, ge=1, le=366)


@router.get("/dashboard/summary", query=DaysQuery)
def dashboard_summary(query: DaysQuery) -> dict[str, Any]:
    """Loads, visits, clicks, active users and tenants over the last days, with a per-day series and the
    `scope` they count (super administrators: the platform; tenant administrators and holders of
    `tracking:stats`: their tenant; everyone else: their own events, "mine")."""
    return service.summary(query.days, service.viewer_scope())


@router.get("/dashboard/top-menus", query=DaysQuery)
def dashboard_top_menus(query: DaysQuery) -> list[dict[str, Any]]:
    """The ten most used menus (visits plus clicks), in the caller's scope (see the summary)."""
    return service.top_menus(query.days, service.viewer_scope())


@router.get("/dashboard/top-users", query=DaysQuery)
def dashboard_top_users(query: DaysQuery) -> list[dict[str, Any]]:
    """The ten most active users (without the tenant's figures: only the caller)."""
    return service.top_users(query.days, service.viewer_scope())


@router.get("/dashboard/top-tenants", query=DaysQuery)
def dashboard_top_tenants(query: DaysQuery) -> list[dict[str, Any]]:
    """The ten most active tenants (a tenant's users see only their own; without the tenant's figures,
    with the caller's own activity)."""
    return service.top_tenants(query.days, service.viewer_scope())


@router.get("/dashboard/top-apps", query=DaysQuery)
def dashboard_top_apps(query: DaysQuery) -> list[dict[str, Any]]:
    """The ten most loaded micro-apps with their average load time, in the caller's scope."""
    return service.top_apps(query.days, service.viewer_scope())


@router.get("/dashboard/run-states")
def dashboard_run_states() -> dict[str, Any]:
    """Running, failed and normal background jobs, unless the process plugin counts process instances;
    nothing to count (``"counts": "none"``) for a caller without the tenant's figures."""
    return run_states(service.viewer_scope())


class RecentQuery(BaseModel):
    limit: int = Field(default=50, ge=1, le=500)


@router.get("/tracking/recent", permission="admin", query=RecentQuery)
def recent(query: RecentQuery) -> list[dict[str, Any]]:
    """The tenant's latest raw records (administrators)."""
    service.flush()
    return service.recent(query.limit)
