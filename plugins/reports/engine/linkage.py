"""Linkage (a click filters other views of the panel), jumps (a click opens another panel or an address)
and the track filters both produce for their targets (spec 3.6, 3.7)."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from sqlalchemy import delete, select

from atrium.plugins.reports.models import ChartView, DatasetField, Linkage, LinkJump, Panel
from atrium.plugins.reports.store import links
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, NotFound

LINK_TYPES = ("inner", "outer")
JUMP_TYPES = ("_self", "_blank")


def _view(view_id: str, panel: Panel) -> ChartView:
    from atrium.plugins.reports.store.access import component_view_ids

    v = session().get(ChartView, view_id) if view_id else None
    if v is None or (v.panel_id != panel.id and view_id not in component_view_ids(panel.panel_data)):
        raise NotFound("reports:view.not_found")
    return v


def _field_of(view: ChartView, field_id: str) -> DatasetField:
    f = session().get(DatasetField, field_id) if field_id else None
    if f is None or f.dataset_id != view.dataset_id:
        raise BadRequest("reports:field.not_found", id=str(field_id)[:40])
    return f


# ---------------------------------------------------------------------------
# linkage
# ---------------------------------------------------------------------------


def save_linkage(panel: Panel, source_view_id: str, targets: list[dict[str, Any]]) -> None:
    """Replace one source view's linkage: [{targetViewId, linkageFields: [{sourceField, targetField}]}]."""
    db = session()
    source = _view(source_view_id, panel)
    db.execute(delete(Linkage).where(Linkage.panel_id == panel.id, Linkage.source_view_id == source.id))
    for t in targets:
        target = _view(str(t.get("targetViewId", "")), panel)
        if target.id == source.id:
            raise BadRequest("reports:linkage.self")
        pairs = []
        for pair in t.get("linkageFields") or []:
            _field_of(source, str(pair.get("sourceField", "")))
            _field_of(target, str(pair.get("targetField", "")))
            pairs.append({"sourceField": pair["sourceField"], "targetField": pair["targetField"]})
        db.add(
            Linkage(
                panel_id=panel.id,
                source_view_id=source.id,
                target_view_id=target.id,
                fields=json.dumps(pairs),
                active=bool(t.get("active", True)),
            )
        )
    db.flush()


def _linkages(panel_id: str) -> list[Linkage]:
    return list(
        session()
        .execute(select(Linkage).where(Linkage.panel_id == panel_id, Linkage.active.is_(True)))
        .scalars()
    )


def panel_linkage_info(panel: Panel) -> dict[str, list[str]]:
    """`{"sourceViewId#sourceFieldId": ["targetViewId#targetFieldId", ...]}` for the whole panel."""
    out: dict[str, list[str]] = {}
    for lk in _linkages(panel.id):
        for pair in json.loads(lk.fields or "[]"):
            out.setdefault(f"{lk.source_view_id}#{pair['sourceField']}", []).append(
                f"{lk.target_view_id}#{pair['targetField']}"
            )
    return out


def linkage_detail(panel: Panel, source_view_id: str) -> list[dict[str, Any]]:
    return [
        {
            "targetViewId": lk.target_view_id,
            "linkageFields": json.loads(lk.fields or "[]"),
            "active": lk.active,
        }
        for lk in session()
        .execute(
            select(Linkage).where(Linkage.panel_id == panel.id, Linkage.source_view_id == source_view_id)
        )
        .scalars()
    ]


def linkage_filters(
    panel: Panel, source_view_id: str, dimension_list: list[dict[str, Any]]
) -> dict[str, list[dict[str, Any]]]:
    """Filters each target view gets when a point of the source view is clicked (track event `linkage`)."""
    _view(source_view_id, panel)
    info = panel_linkage_info(panel)
    out: dict[str, list[dict[str, Any]]] = {}
    for dim in dimension_list:
        fid, value = str(dim.get("id", "")), dim.get("value")
        for target in info.get(f"{source_view_id}#{fid}", []):
            view_id, field_id = target.split("#", 1)
            out.setdefault(view_id, []).append(
                {
                    "fieldId": field_id,
                    "operator": "eq",
                    "value": [value],
                    "viewIds": [view_id],
                    "sourceViewId": source_view_id,
                }
            )
    return out


# ---------------------------------------------------------------------------
# jumps
# ---------------------------------------------------------------------------


def save_jumps(panel: Panel, source_view_id: str, items: list[dict[str, Any]]) -> None:
    """Replace the jumps of one source view: [{sourceFieldId, linkType, jumpType, targetPanelId, content,
    targetViewInfoList: [{targetViewId, targetFieldId}], attachParams, checked}]."""
    db = session()
    source = _view(source_view_id, panel)
    db.execute(delete(LinkJump).where(LinkJump.panel_id == panel.id, LinkJump.source_view_id == source.id))
    for it in items:
        field = _field_of(source, str(it.get("sourceFieldId", "")))
        link_type = it.get("linkType", "inner")
        if link_type == "other":
            link_type = "outer"
        if link_type not in LINK_TYPES:
            raise BadRequest("reports:jump.link_type")
        jump_type = it.get("jumpType", "_blank")
        if jump_type not in JUMP_TYPES:
            raise BadRequest("reports:jump.jump_type")
        target_panel = it.get("targetPanelId") or None
        targets: list[dict[str, str]] = []
        content = str(it.get("content") or "")
        if link_type == "inner":
            if target_panel:
                tp = session().get(Panel, target_panel)
                if tp is None:
                    raise NotFound("reports:panel.not_found")
                for t in it.get("targetViewInfoList") or []:
                    tv = _view(str(t.get("targetViewId", "")), tp)
                    _field_of(tv, str(t.get("targetFieldId", "")))
                    targets.append({"targetViewId": tv.id, "targetFieldId": str(t["targetFieldId"])})
        else:
            parts = urlsplit(content)
            if parts.scheme not in ("http", "https") or not parts.netloc or "{" in parts.netloc:
                raise BadRequest("reports:jump.url")
        db.add(
            LinkJump(
                panel_id=panel.id,
                source_view_id=source.id,
                source_field_id=field.id,
                link_type=link_type,
                jump_type=jump_type,
                target_panel_id=target_panel,
                content=content,
                target_view_info=json.dumps(targets),
                attach_params=bool(it.get("attachParams")),
                checked=bool(it.get("checked", True)),
            )
        )
    db.flush()


def _jump_public(j: LinkJump, with_public_id: bool = True) -> dict[str, Any]:
    out = {
        "sourceViewId": j.source_view_id,
        "sourceFieldId": j.source_field_id,
        "linkType": "inner" if j.link_type == "inner" else "other",
        "jumpType": j.jump_type,
        "targetPanelId": j.target_panel_id,
        "content": j.content,
        "attachParams": j.attach_params,
        "checked": j.checked,
        "targetViewInfoList": json.loads(j.target_view_info or "[]"),
    }
    if with_public_id:
        out["publicJumpId"] = links.public_jump_id(j.target_panel_id) if j.target_panel_id else None
    return out


def panel_jump_info(panel: Panel) -> dict[str, Any]:
    """`{baseJumpInfoMap: {"sourceViewId#sourceFieldId": jump}}` of the checked jumps of a panel."""
    rows = (
        session()
        .execute(select(LinkJump).where(LinkJump.panel_id == panel.id, LinkJump.checked.is_(True)))
        .scalars()
    )
    return {"baseJumpInfoMap": {f"{j.source_view_id}#{j.source_field_id}": _jump_public(j) for j in rows}}


def target_jump_info(
    source_panel: Panel, source_view_id: str, source_field_id: str | None, target_panel_id: str
) -> dict[str, Any]:
    """`{baseJumpInfoVisualMap: {"sourceViewId#sourceFieldId": ["targetViewId#targetFieldId"]}}` for one
    target panel: how the jump's clicked values become filters there."""
    q = select(LinkJump).where(
        LinkJump.panel_id == source_panel.id,
        LinkJump.source_view_id == source_view_id,
        LinkJump.target_panel_id == target_panel_id,
        LinkJump.checked.is_(True),
    )
    if source_field_id:
        q = q.where(LinkJump.source_field_id == source_field_id)
    out: dict[str, list[str]] = {}
    for j in session().execute(q).scalars():
        for t in json.loads(j.target_view_info or "[]"):
            out.setdefault(f"{j.source_view_id}#{j.source_field_id}", []).append(
                f"{t['targetViewId']}#{t['targetFieldId']}"
            )
    return {"baseJumpInfoVisualMap": out}


PLACEHOLDER = re.compile(r"\{([^{}/?#&=]+)\}")


def fill_placeholders(url: str, dimension_list: list[dict[str, Any]], fields: dict[str, DatasetField]) -> str:
    """An external jump address with `{field}` placeholders (a field's name or its column name) filled with
    the clicked values, each encoded as one path or query component; unknown placeholders stay as written."""
    values: dict[str, str] = {}
    for d in dimension_list:
        f = fields.get(str(d.get("id", "")))
        if f is not None:
            shown = "" if d.get("value") is None else str(d["value"])
            values.setdefault(f.name, shown)
            values.setdefault(f.origin_name, shown)

    def fill(m: re.Match[str]) -> str:
        name = m.group(1).strip()
        return quote(values[name], safe="") if name in values else m.group(0)

    return PLACEHOLDER.sub(fill, url)


def jump_action(
    panel: Panel, source_view_id: str, dimension_list: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """What a click does (track event `jump`): the address to open and, for inner jumps, the track filters
    the target panel's views get. None when no clicked field has a jump."""
    _view(source_view_id, panel)
    jumps = {
        j.source_field_id: j
        for j in session()
        .execute(
            select(LinkJump).where(
                LinkJump.panel_id == panel.id,
                LinkJump.source_view_id == source_view_id,
                LinkJump.checked.is_(True),
            )
        )
        .scalars()
    }
    clicked_fields = {
        f.id: f
        for f in session()
        .execute(
            select(DatasetField).where(DatasetField.id.in_([str(d.get("id", "")) for d in dimension_list]))
        )
        .scalars()
    }
    names = {fid: f.name for fid, f in clicked_fields.items()}
    for dim in dimension_list:
        j = jumps.get(str(dim.get("id", "")))
        if j is None:
            continue
        if j.link_type == "inner":
            if not j.target_panel_id:
                return {"linkType": "inner", "jumpType": j.jump_type, "error": "noTargetPanel"}
            public_id = links.public_jump_id(j.target_panel_id)
            if public_id is None:
                return {
                    "linkType": "inner",
                    "jumpType": j.jump_type,
                    "targetPanelId": j.target_panel_id,
                    "error": "noPublicLink",
                }
            filters: dict[str, list[dict[str, Any]]] = {}
            by_field = {str(d.get("id", "")): d.get("value") for d in dimension_list}
            for t in json.loads(j.target_view_info or "[]"):
                value = by_field.get(j.source_field_id)
                filters.setdefault(t["targetViewId"], []).append(
                    {
                        "fieldId": t["targetFieldId"],
                        "operator": "eq",
                        "value": [value],
                        "viewIds": [t["targetViewId"]],
                        "sourceViewId": source_view_id,
                    }
                )
            return {
                "linkType": "inner",
                "jumpType": j.jump_type,
                "targetPanelId": j.target_panel_id,
                "publicJumpId": public_id,
                "url": f"/dynamic-report/link/{public_id}",
                "trackFilters": filters,
            }
        url = fill_placeholders(j.content, dimension_list, clicked_fields)
        if j.attach_params:
            params = {
                names.get(str(d.get("id")), str(d.get("id"))): ""
                if d.get("value") is None
                else str(d["value"])
                for d in dimension_list
            }
            url = url + ("&" if "?" in url else "?") + urlencode(params)
        return {"linkType": "other", "jumpType": j.jump_type, "url": url}
    return None
