"""The tracking service's HTTP API (`/api/log`): the browser's records and the home dashboard's questions.

Records (spec reports.md 3.9 and 7.4) come as one object or a list, wrapped in ``{"params": ...}``. A batch
is validated whole before anything is queued: an unknown type, a missing field or more than ``max_batch``
records refuses the batch with a message naming the record; strings longer than their column are cut to
size and numbers outside 0 to 2,147,483,647 are clamped, as the README documents. The client's own tenant,
user and IP fields are ignored: the session and the connection say who and where.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError, model_validator

from atrium.plugins.tracking import service
from atrium.plugins.tracking.models import APP_LOAD, BUTTON_CLICK, PAGE_VISIT, TYPES
from atrium.plugins.tracking.settings import tracking_settings
from atrium.sdk.errors import BadRequest
from atrium.sdk.routing import Router

router = Router("/api/log")

INT_MAX = 2_147_483_647
TRACK_TYPES = {"page": PAGE_VISIT, "button": BUTTON_CLICK}
# wire name -> column
STRINGS = {
    "trackType": "track_type",
    "systemCode": "system_code",
    "systemName": "system_name",
    "microAppCode": "app_code",
    "microAppName": "app_name",
    "version": "version",
    "browserName": "browser_name",
    "browserVersion": "browser_version",
    "osName": "os_name",
    "menuId": "menu_id",
    "routeName": "route_name",
    "routeCode": "route_code",
    "routePath": "route_path",
    "buttonName": "button_name",
    "buttonCode": "button_code",
}
NUMBERS = {
    "loadTime": "load_time",
    "screenWidth": "screen_width",
    "screenHeight": "screen_height",
    "pageStayTime": "page_stay_time",
    "pageRenderTime": "page_render_time",
}


class TrackRecord(BaseModel):
    """One tracking record (reports.md 3.9). Unknown fields (tenantId, userId, ip, ...) are ignored."""

    model_config = ConfigDict(extra="ignore")
    eventType: int | None = Field(default=None, description="1 micro-app load, 2 page visit, 3 button click")
    trackType: str = Field(default="", description="`page` or `button`")
    timestamp: int | float | str | None = None
    systemCode: str = ""
    systemName: str = ""
    microAppCode: str = ""
    microAppName: str = ""
    loadTime: int = 0
    version: str = ""
    browserName: str = ""
    browserVersion: str = ""
    osName: str = ""
    screenWidth: int = 0
    screenHeight: int = 0
    menuId: str = ""
    routeName: str = ""
    routeCode: str = ""
    routePath: str = ""
    pageStayTime: int = 0
    pageRenderTime: int = 0
    buttonName: str = ""
    buttonCode: str = ""

    @model_validator(mode="before")
    @classmethod
    def _fit(cls, data: Any) -> Any:
        """Cut strings to their column sizes, clamp numbers, accept `type` for `eventType`."""
        if not isinstance(data, dict):
            return data
        out = dict(data)
        if out.get("eventType") is None and "type" in out:
            out["eventType"] = out["type"]
        for wire, column in STRINGS.items():
            value = out.get(wire)
            if value is None:
                out.pop(wire, None)
            elif isinstance(value, int | float) and not isinstance(value, bool):
                out[wire] = str(value)[: service.STR_COLUMNS[column]]
            elif isinstance(value, str):
                out[wire] = value.strip()[: service.STR_COLUMNS[column]]
        for wire in NUMBERS:
            value = out.get(wire)
            if value is None or value == "":
                out.pop(wire, None)
            elif isinstance(value, int | float) and not isinstance(value, bool):
                out[wire] = max(0, min(INT_MAX, int(value)))
        return out


class TrackBatch(RootModel[list[dict[str, Any]] | dict[str, Any]]):
    """One record or a list of records."""


def _records(body: TrackBatch, default_type: int, allowed: tuple[int, ...]) -> list[service.Record]:
    raw = body.root if isinstance(body.root, list) else [body.root]
    limit = tracking_settings().max_batch
    if len(raw) > limit:
        raise BadRequest("tracking:batch_too_long", count=len(raw), max=limit)
    out = []
    for index, item in enumerate(raw):
        try:
            rec = TrackRecord.model_validate(item)
        except ValidationError as exc:
            err = exc.errors(include_url=False)[0]
            field = ".".join(str(p) for p in err.get("loc", ())) or "-"
            raise BadRequest("tracking:record_invalid", index=index, field=field) from exc
        kind = rec.eventType if rec.eventType is not None else TRACK_TYPES.get(rec.trackType, default_type)
        if kind not in TYPES or kind not in allowed:
            raise BadRequest(
                "tracking:type_unknown", index=index, type=kind, allowed=", ".join(str(t) for t in allowed)
            )
        missing = _missing(kind, rec)
        if missing:
            raise BadRequest("tracking:field_missing", index=index, field=missing)
        fields: dict[str, Any] = {col: getattr(rec, wire) for wire, col in STRINGS.items()}
        fields.update({col: getattr(rec, wire) for wire, col in NUMBERS.items()})
        if kind == BUTTON_CLICK and not fields["track_type"]:
            fields["track_type"] = "button"
        fields["client_at"] = service.parse_time(rec.timestamp)
        out.append(service.Record(kind, fields))
    return out


def _missing(kind: int, rec: TrackRecord) -> str:
    if kind == APP_LOAD and not (rec.microAppCode or rec.microAppName):
        return "microAppCode"
    if kind in (PAGE_VISIT, BUTTON_CLICK) and not rec.routePath:
        return "routePath"
    if kind == BUTTON_CLICK and not (rec.buttonName or rec.buttonCode):
        return "buttonName"
    return ""


class Accepted(BaseModel):
    accepted: int


@router.post("/tracking-web-server/tracking", body=TrackBatch, response=Accepted)
async def track_apps(body: TrackBatch) -> dict[str, int]:
    """Micro-app load records (type 1); queued for the bulk writer, never written one by one."""
    return {"accepted": service.ingest(_records(body, APP_LOAD, (APP_LOAD,)))}


@router.post("/tracking-web-page/tracking", body=TrackBatch, response=Accepted)
async def track_pages(body: TrackBatch) -> dict[str, int]:
    """Page visit (type 2) and button click (type 3, the default) records."""
    return {"accepted": service.ingest(_records(body, BUTTON_CLICK, (PAGE_VISIT, BUTTON_CLICK)))}


class DaysQuery(BaseModel):
    days: int = Field(default=7, ge=1, le=366)


@router.get("/dashboard/summary", query=DaysQuery)
def dashboard_summary(query: DaysQuery) -> dict[str, Any]:
    """Loads, visits, clicks, active users and tenants over the last days, with a per-day series
    (super administrators: the platform; everyone else: their tenant)."""
    return service.summary(query.days)


@router.get("/dashboard/top-menus", query=DaysQuery)
def dashboard_top_menus(query: DaysQuery) -> list[dict[str, Any]]:
    """The ten most used menus (visits plus clicks)."""
    return service.top_menus(query.days)


@router.get("/dashboard/top-users", query=DaysQuery)
def dashboard_top_users(query: DaysQuery) -> list[dict[str, Any]]:
    """The ten most active users."""
    return service.top_users(query.days)


@router.get("/dashboard/top-tenants", query=DaysQuery)
def dashboard_top_tenants(query: DaysQuery) -> list[dict[str, Any]]:
    """The ten most active tenants (a tenant's users see only their own)."""
    return service.top_tenants(query.days)


@router.get("/dashboard/top-apps", query=DaysQuery)
def dashboard_top_apps(query: DaysQuery) -> list[dict[str, Any]]:
    """The ten most loaded micro-apps with their average load time."""
    return service.top_apps(query.days)


class RecentQuery(BaseModel):
    limit: int = Field(default=50, ge=1, le=500)


@router.get("/tracking/recent", permission="admin", query=RecentQuery)
def recent(query: RecentQuery) -> list[dict[str, Any]]:
    """The tenant's latest raw records (administrators)."""
    service.flush()
    return service.recent(query.limit)
