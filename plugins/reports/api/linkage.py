"""Routes of linkage, jumps and track actions."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from atrium.plugins.reports.engine import linkage
from atrium.plugins.reports.models import Panel
from atrium.plugins.reports.store.access import get_panel, session_viewer, viewer_scope
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, NotFound
from atrium.sdk.routing import Router

router = Router("/api/dyreport")


class LinkageBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    panelId: str = Field(max_length=32)
    sourceViewId: str = Field(max_length=32)
    linkageInfo: list[dict[str, Any]] = Field(default_factory=list, max_length=200)


class GatherBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    panelId: str = Field(max_length=32)
    sourceViewId: str = Field(max_length=32)


class JumpSetBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    panelId: str = Field(max_length=32)
    sourceViewId: str = Field(max_length=32)
    linkJumpInfoArray: list[dict[str, Any]] = Field(default_factory=list, max_length=200)


class TargetJumpBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    sourcePanelId: str = Field(max_length=32)
    sourceViewId: str = Field(max_length=32)
    sourceFieldId: str | None = Field(default=None, max_length=32)
    targetPanelId: str = Field(max_length=32)


class TrackBody(BaseModel):
    """A click on a chart point (spec 3.7)."""

    model_config = ConfigDict(extra="ignore")
    option: str = Field(pattern="^(linkage|jump)$")
    panelId: str | None = Field(default=None, max_length=32)
    sourcePanelId: str | None = Field(default=None, max_length=32)
    viewId: str | None = Field(default=None, max_length=32)
    sourceViewId: str | None = Field(default=None, max_length=32)
    dimensionList: list[dict[str, Any]] = Field(default_factory=list, max_length=50)
    quotaList: list[dict[str, Any]] = Field(default_factory=list, max_length=50)


@router.get("/linkage/getPanelAllLinkageInfo/{id}", public=True)
def all_linkage(id: str) -> dict[str, list[str]]:  # noqa: A002
    """`{"sourceViewId#sourceFieldId": ["targetViewId#targetFieldId", ...]}`."""
    with viewer_scope() as viewer:
        panel, _ = get_panel(id, viewer)
        return linkage.panel_linkage_info(panel)


@router.post("/linkage/getViewLinkageGather", body=GatherBody)
def linkage_gather(body: GatherBody) -> list[dict[str, Any]]:
    panel, _ = get_panel(body.panelId, session_viewer(), "manage")
    return linkage.linkage_detail(panel, body.sourceViewId)


@router.post("/linkage/saveLinkage", body=LinkageBody)
def save_linkage(body: LinkageBody) -> dict[str, list[str]]:
    panel, _ = get_panel(body.panelId, session_viewer(), "manage")
    linkage.save_linkage(panel, body.sourceViewId, body.linkageInfo)
    return linkage.panel_linkage_info(panel)


@router.get("/linkJump/queryPanelJumpInfo/{id}", public=True)
def panel_jump_info(id: str) -> dict[str, Any]:  # noqa: A002
    """`{baseJumpInfoMap: {"sourceViewId#sourceFieldId": {linkType, jumpType, targetPanelId, publicJumpId,
    content, attachParams, targetViewInfoList}}}`."""
    with viewer_scope() as viewer:
        panel, _ = get_panel(id, viewer)
        return linkage.panel_jump_info(panel)


@router.post("/linkJump/queryTargetPanelJumpInfo", public=True, body=TargetJumpBody)
def target_jump_info(body: TargetJumpBody) -> dict[str, Any]:
    """How a jump's clicked values filter the target panel (asked by the target panel's page)."""
    with viewer_scope() as viewer:
        get_panel(body.targetPanelId, viewer)
        source = session().get(Panel, body.sourcePanelId)
        if source is None:
            raise NotFound("reports:panel.not_found")
        return linkage.target_jump_info(source, body.sourceViewId, body.sourceFieldId, body.targetPanelId)


@router.post("/linkJump/updateJumpSet", body=JumpSetBody)
def update_jump_set(body: JumpSetBody) -> dict[str, Any]:
    panel, _ = get_panel(body.panelId, session_viewer(), "manage")
    linkage.save_jumps(panel, body.sourceViewId, body.linkJumpInfoArray)
    return linkage.panel_jump_info(panel)


@router.post("/track/action", public=True, body=TrackBody)
def track_action(body: TrackBody) -> dict[str, Any]:
    """What a click does: linkage filters per target view, or the jump (address and track filters)."""
    panel_id = body.panelId or body.sourcePanelId or ""
    view_id = body.viewId or body.sourceViewId or ""
    with viewer_scope() as viewer:
        panel, _ = get_panel(panel_id, viewer)
        if not body.dimensionList:
            raise BadRequest("reports:track.no_fields")
        if body.option == "linkage":
            return {
                "option": "linkage",
                "filters": linkage.linkage_filters(panel, view_id, body.dimensionList),
            }
        action = linkage.jump_action(panel, view_id, body.dimensionList)
        if action is None:
            raise BadRequest("reports:jump.none")
        return {"option": "jump", **action}
