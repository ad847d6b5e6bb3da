"""Routes of chart views: definition, data, calculated data of an unsaved view, save, delete, export rows."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from atrium.plugins.reports.engine import chartdata, hotpath, viewdef
from atrium.plugins.reports.engine.chartdata import DataRequest
from atrium.plugins.reports.models import ChartView, Panel
from atrium.plugins.reports.store import panels, scope
from atrium.plugins.reports.store.access import (
    Viewer,
    component_view_ids,
    get_panel,
    privileges_from,
    session_viewer,
    viewer_scope,
)
from atrium.sdk.errors import BadRequest, NotFound
from atrium.sdk.routing import Router

router = Router("/api/dyreport")


class CalcRequest(DataRequest):
    view: viewdef.ViewBody | None = None


class ExportRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")
    viewId: str = Field(max_length=32)
    panelId: str = Field(max_length=32)
    requestList: DataRequest | None = None
    pageIndex: int = Field(default=1, ge=1, le=1_000_000)
    pageRows: int = Field(default=1000, ge=1, le=10_000)


def view_on_panel(view_id: str, panel: Panel) -> ChartView:
    view = panels.get_view(view_id)
    if view.panel_id != panel.id and view.id not in component_view_ids(panel.panel_data):
        raise NotFound("reports:view.not_found")
    return view


def _checked(
    view_id: str, panel_id: str, viewer: Viewer, need: str = "view"
) -> tuple[ChartView, frozenset[str]]:
    view, _, privs = _checked_on(view_id, panel_id, viewer, need)
    return view, privs


def _checked_on(
    view_id: str, panel_id: str, viewer: Viewer, need: str = "view"
) -> tuple[ChartView, Panel, frozenset[str]]:
    panel, privs = get_panel(panel_id, viewer, need)
    return view_on_panel(view_id, panel), panel, privs


@router.post("/chart/view/get/{viewId}/{panelId}", public=True)
def get_view(viewId: str, panelId: str) -> dict[str, Any]:  # noqa: N803 - the spec's path names
    """A view's definition (spec 3.3) on a panel the caller may view."""
    with viewer_scope() as viewer:
        view, privs = _checked(viewId, panelId, viewer)
        out = viewdef.from_row(view)
        out.pop("version", None)
        out["privileges"] = ",".join(sorted(privs))
        return out


@router.post("/chart/view/getData/{viewId}/{panelId}", public=True, body=DataRequest)
def get_data(viewId: str, panelId: str, body: DataRequest) -> dict[str, Any]:  # noqa: N803
    """The view's data for the request's filters, linkage, drill and paging."""
    with viewer_scope() as viewer:
        found = hotpath.bundle(viewId, panelId)
        if found is None or not found["panel"]["onPanel"]:  # the one-by-one lookups say what is missing
            view, row, _ = _checked_on(viewId, panelId, viewer)
            user = scope.acting_user(viewer, row.proxy_user_id, body.user)
            return chartdata.view_data(viewdef.from_row(view), body, user=user)
        panel = found["panel"]
        if "view" not in privileges_from(panel["id"], panel["createdBy"], found["grants"], viewer):
            raise NotFound("reports:panel.not_found")
        user = scope.acting_user(viewer, panel.get("proxy"), body.user)
        return chartdata.view_data(found["view"], body, dataset=found["dataset"], user=user)


@router.post("/chart/view/calcData/{id}", body=CalcRequest)
def calc_data(id: str, body: CalcRequest) -> dict[str, Any]:  # noqa: A002
    """Data of a view definition sent in the body (an unsaved edit); needs manage on the view's panel."""
    viewer = session_viewer()
    existing = _find_view(id)
    if body.view is None:
        if existing is None:
            raise NotFound("reports:view.not_found")
        d = viewdef.from_row(existing)
    else:
        d = viewdef.from_body(body.view)
        d["id"] = id
        d.pop("version", None)
    panel_id = (existing.panel_id if existing else None) or d.get("panelId")
    proxy: int | None = None
    if not panel_id:
        if not viewer.is_admin:
            raise BadRequest("reports:view.panel_required")
    else:
        proxy = get_panel(panel_id, viewer, "manage")[0].proxy_user_id
    panels.check_view_fields(d)
    req = DataRequest.model_validate(body.model_dump(exclude={"view"}))
    return chartdata.view_data(d, req, user=scope.acting_user(viewer, proxy, req.user))


def _find_view(view_id: str) -> ChartView | None:
    from atrium.sdk.db import session

    return session().get(ChartView, view_id) if view_id else None


@router.post("/chart/view/save", body=viewdef.ViewBody)
def save_view(body: viewdef.ViewBody) -> dict[str, Any]:
    """Create or update a view on a panel the caller manages."""
    viewer = session_viewer()
    d = viewdef.from_body(body)
    existing = _find_view(body.id) if body.id else None
    panel_id = d.get("panelId") or (existing.panel_id if existing else None)
    if not panel_id:
        raise BadRequest("reports:view.panel_required")
    get_panel(panel_id, viewer, "manage")
    if existing is not None and existing.panel_id and existing.panel_id != panel_id:
        get_panel(existing.panel_id, viewer, "manage")
    d["panelId"] = panel_id
    view = panels.save_view(d, existing)
    out = viewdef.from_row(view)
    out.pop("version", None)
    return out


@router.post("/chart/view/delete/{id}")
def delete_view(id: str) -> bool:  # noqa: A002
    viewer = session_viewer()
    view = panels.get_view(id)
    if view.panel_id:
        get_panel(view.panel_id, viewer, "manage")
    elif not viewer.is_admin:
        raise NotFound("reports:view.not_found")
    from atrium.sdk.db import session

    session().delete(view)
    hotpath.touch()
    return True


@router.get("/chart/view/listByPanel/{panelId}", public=True)
def list_views(panelId: str) -> list[dict[str, Any]]:  # noqa: N803
    with viewer_scope() as viewer:
        panel, _ = get_panel(panelId, viewer)
        out = []
        for v in panels.panel_views(panel):
            d = viewdef.from_row(v)
            d.pop("version", None)
            out.append(d)
        return out


@router.post("/chart/view/exportData", public=True, body=ExportRequest)
def export_data(body: ExportRequest) -> dict[str, Any]:
    """One page of a view's rows for the export engine: columns and rows (needs the export privilege)."""
    from atrium.plugins.reports.exchange import exporting

    with viewer_scope() as viewer:
        view, panel, _ = _checked_on(body.viewId, body.panelId, viewer, "export")
        req = body.requestList or DataRequest()
        user = scope.acting_user(viewer, panel.proxy_user_id, req.user)
        return exporting.page(viewdef.from_row(view), req, body.pageIndex, body.pageRows, user=user)
