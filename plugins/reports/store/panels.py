"""Panels and their views: CRUD, privileges, and JSON export/import of a whole panel.

An export bundle carries the panel, its views, the datasets they use (definitions and fields, never a
data source's credentials), linkage and jumps. Importing it creates new ids for everything and rewrites
every reference (panelData view ids, axis and filter field ids, linkage and jump pairs).
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import delete, select

from atrium.plugins.reports.engine import hotpath, viewdef
from atrium.plugins.reports.models import (
    ChartView,
    Dataset,
    DatasetField,
    Linkage,
    LinkJump,
    Panel,
    PanelGrant,
    PanelLink,
    PanelVersion,
    new_id,
)
from atrium.plugins.reports.store import datasets, links
from atrium.plugins.reports.store.access import Viewer, component_view_ids, privilege_text, privileges
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import BadRequest, Forbidden, NotFound

BUNDLE_VERSION = 1


def json_text(value: Any, default: Any, kind: type) -> str:
    parsed = viewdef.loads(value, default)
    if not isinstance(parsed, kind):
        raise BadRequest("reports:panel.bad_json")
    return json.dumps(parsed, ensure_ascii=False, separators=(",", ":"))


def panel_public(panel: Panel, privs: frozenset[str], detail: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": panel.id,
        "name": panel.name,
        "privileges": privilege_text(privs),
        "createBy": panel.created_by,
        "updateTime": int(panel.updated_at.timestamp() * 1000) if panel.updated_at else None,
        #: the proxy user whose data scope viewers ask for (spec 6), or None
        "proxy": panel.proxy_user_id,
    }
    from atrium.plugins.reports.authoring.versions import publish_state

    out.update(publish_state(panel))
    if detail:
        out["panelData"] = panel.panel_data
        out["panelStyle"] = panel.panel_style
    return out


def list_panels(viewer: Viewer) -> list[dict[str, Any]]:
    rows = session().execute(select(Panel).order_by(Panel.name)).scalars()
    out = []
    for p in rows:
        privs = privileges(p, viewer)
        if "view" in privs:
            out.append(panel_public(p, privs, detail=False))
    return out


def save_panel(
    panel: Panel | None, name: str, panel_data: Any, panel_style: Any, user_id: int | None
) -> Panel:
    db = session()
    if panel is None:
        panel = Panel(created_by=user_id)
        db.add(panel)
    panel.name = name
    panel.panel_data = json_text(panel_data, [], list)
    panel.panel_style = json_text(panel_style, {}, dict)
    # writing the live panel directly replaces any draft of it
    panel.draft_data = panel.draft_style = panel.draft_name = None
    panel.draft_updated_at = None
    panel.updated_at = utcnow()
    db.flush()
    hotpath.touch()
    for vid in component_view_ids(panel.panel_data):
        if db.get(ChartView, vid) is None:
            raise BadRequest("reports:view.not_found_id", id=vid[:40])
    return panel


def delete_panel(panel: Panel) -> None:
    db = session()
    for model in (ChartView, Linkage, LinkJump, PanelGrant, PanelLink, PanelVersion):
        col = model.panel_id
        if model is PanelLink:
            for link in db.execute(select(PanelLink).where(col == panel.id)).scalars():
                links.forget(link.id)
        db.execute(delete(model).where(col == panel.id))
    db.delete(panel)
    hotpath.touch()


def grants(panel: Panel) -> list[dict[str, Any]]:
    return [
        {
            "subjectType": g.subject_type,
            "subjectId": g.subject_id,
            "view": g.can_view,
            "export": g.can_export,
            "manage": g.can_manage,
        }
        for g in session().execute(select(PanelGrant).where(PanelGrant.panel_id == panel.id)).scalars()
    ]


def set_grants(panel: Panel, items: list[dict[str, Any]]) -> None:
    db = session()
    db.execute(delete(PanelGrant).where(PanelGrant.panel_id == panel.id))
    seen = set()
    for it in items:
        st, sid = it.get("subjectType"), it.get("subjectId")
        if st not in ("user", "role") or not isinstance(sid, int) or isinstance(sid, bool):
            raise BadRequest("reports:panel.bad_grant")
        if (st, sid) in seen:
            continue
        seen.add((st, sid))
        manage = bool(it.get("manage"))
        export = manage or bool(it.get("export"))
        db.add(
            PanelGrant(
                panel_id=panel.id,
                subject_type=st,
                subject_id=sid,
                can_view=True,
                can_export=export,
                can_manage=manage,
            )
        )
    db.flush()
    hotpath.touch()
    for link in db.execute(select(PanelLink).where(PanelLink.panel_id == panel.id)).scalars():
        links.forget(link.id)


# ---------------------------------------------------------------------------
# views
# ---------------------------------------------------------------------------


def check_view_fields(d: dict[str, Any]) -> None:
    """Every axis, drill and filter field must be a field of the view's dataset."""
    ds = datasets.get_dataset(d["tableId"])
    ids = {f.id for f in datasets.fields_of(ds.id)}
    for key in ("xaxis", "xaxisExt", "yaxis", "yaxisExt", "extBubble", "drillFields"):
        for item in d[key]:
            if item["id"] not in ids and not (
                item["id"] == "count" and key in ("yaxis", "yaxisExt", "extBubble")
            ):
                raise BadRequest("reports:field.not_found", id=item["id"][:40])
    for c in d["customFilter"]:
        if str(c.get("fieldId")) not in ids:
            raise BadRequest("reports:field.not_found", id=str(c.get("fieldId"))[:40])


def save_view(d: dict[str, Any], existing: ChartView | None) -> ChartView:
    check_view_fields(d)
    view = existing or ChartView(id=d.get("id") or new_id())
    viewdef.apply(view, d)
    view.updated_at = utcnow()
    if existing is None:
        session().add(view)
    session().flush()
    hotpath.touch()
    return view


def panel_views(panel: Panel) -> list[ChartView]:
    ids = set(component_view_ids(panel.panel_data))
    rows = session().execute(select(ChartView).where(ChartView.panel_id == panel.id)).scalars().all()
    extra = ids - {v.id for v in rows}
    if extra:
        rows = list(rows) + list(
            session().execute(select(ChartView).where(ChartView.id.in_(extra))).scalars()
        )
    return list(rows)


# ---------------------------------------------------------------------------
# export / import
# ---------------------------------------------------------------------------


def export_bundle(panel: Panel) -> dict[str, Any]:
    views = panel_views(panel)
    ds_ids = sorted({v.dataset_id for v in views})
    ds_out = []
    for dsid in ds_ids:
        ds = session().get(Dataset, dsid)
        if ds is None:
            continue
        d = datasets.dataset_public(ds)
        d.pop("sync", None)
        ds_out.append(d)
    return {
        "version": BUNDLE_VERSION,
        "panel": {
            "id": panel.id,
            "name": panel.name,
            "panelData": panel.panel_data,
            "panelStyle": panel.panel_style,
        },
        "views": [viewdef.from_row(v) for v in views],
        "datasets": ds_out,
        "linkages": [
            {
                "sourceViewId": lk.source_view_id,
                "targetViewId": lk.target_view_id,
                "linkageFields": json.loads(lk.fields),
                "active": lk.active,
            }
            for lk in session().execute(select(Linkage).where(Linkage.panel_id == panel.id)).scalars()
        ],
        "jumps": [
            {
                "sourceViewId": j.source_view_id,
                "sourceFieldId": j.source_field_id,
                "linkType": j.link_type,
                "jumpType": j.jump_type,
                "targetPanelId": j.target_panel_id,
                "content": j.content,
                "targetViewInfoList": json.loads(j.target_view_info),
                "attachParams": j.attach_params,
                "checked": j.checked,
            }
            for j in session().execute(select(LinkJump).where(LinkJump.panel_id == panel.id)).scalars()
        ],
    }


def _replace_ids(value: Any, mapping: dict[str, str]) -> Any:
    """Rewrite every string equal to an old id (or `a#b` pairs of them) anywhere in a JSON value."""
    if isinstance(value, str):
        if value in mapping:
            return mapping[value]
        if "#" in value:
            return "#".join(mapping.get(p, p) for p in value.split("#"))
        if "," in value and all(p in mapping for p in value.split(",")):
            return ",".join(mapping[p] for p in value.split(","))
        return value
    if isinstance(value, list):
        return [_replace_ids(v, mapping) for v in value]
    if isinstance(value, dict):
        return {k: _replace_ids(v, mapping) for k, v in value.items()}
    return value


def import_bundle(
    bundle: dict[str, Any], user_id: int | None, dataset_map: dict[str, str], define_data: bool = True
) -> Panel:
    """Create the panel of an export bundle with new ids. Datasets are reused when `dataset_map` maps them
    (old id to an existing dataset of this tenant) or when a dataset of the same definition exists;
    otherwise they are created (their tables must exist for this tenant). Without `define_data` (an importer
    who is not an administrator) a bundle that needs a new dataset or calculated field is refused."""
    if (
        not isinstance(bundle, dict)
        or bundle.get("version") != BUNDLE_VERSION
        or not isinstance(bundle.get("panel"), dict)
    ):
        raise BadRequest("reports:panel.bad_bundle")
    db = session()
    mapping: dict[str, str] = {}
    for d in bundle.get("datasets") or []:
        old = str(d.get("id"))
        target_id = dataset_map.get(old)
        target = datasets.get_dataset(target_id) if target_id else _same_dataset(d)
        if target is None:
            if not define_data:
                raise Forbidden("reports:panel.import_datasets")
            target = datasets.save_dataset(
                {
                    "name": d.get("name", "dataset"),
                    "kind": d.get("kind", "table"),
                    "datasourceId": d.get("datasourceId"),
                    "tableName": d.get("tableName"),
                    "sql": d.get("sql"),
                    "mode": d.get("mode", "direct"),
                    "syncInterval": d.get("syncInterval", 0),
                }
            )
        mapping[old] = target.id
        new_fields = {f.origin_name: f for f in datasets.field_rows(target.id)}
        for f in d.get("fields") or []:
            nf = new_fields.get(f.get("originName"))
            if nf is None and f.get("expression"):
                if not define_data:
                    raise Forbidden("reports:panel.import_datasets")
                nf = _import_calc_field(target, f)
            if nf is None:
                raise BadRequest("reports:panel.bundle_field", field=str(f.get("originName"))[:64])
            mapping[str(f["id"])] = nf.id
    views = bundle.get("views") or []
    for v in views:
        mapping[str(v.get("id"))] = new_id()
    mapping[str(bundle["panel"].get("id"))] = new_id()
    panel = Panel(
        id=mapping[str(bundle["panel"]["id"])],
        created_by=user_id,
        name=str(bundle["panel"].get("name"))[:200],
    )
    panel.panel_data = json_text(
        _replace_ids(viewdef.loads(bundle["panel"].get("panelData"), []), mapping), [], list
    )
    panel.panel_style = json_text(bundle["panel"].get("panelStyle"), {}, dict)
    db.add(panel)
    db.flush()
    for v in views:
        v2 = _replace_ids({k: val for k, val in v.items() if k not in ("version", "updateTime")}, mapping)
        v2["panelId"] = panel.id
        body = viewdef.ViewBody.model_validate(v2)
        save_view(viewdef.from_body(body), None)
    for lk in bundle.get("linkages") or []:
        db.add(linkage_row(panel.id, _replace_ids(lk, mapping)))
    for j in bundle.get("jumps") or []:
        j2 = _replace_ids(j, mapping)
        if j2.get("targetPanelId") and db.get(Panel, j2["targetPanelId"]) is None:
            j2["targetPanelId"], j2["targetViewInfoList"] = None, []
        db.add(jump_row(panel.id, j2))
    db.flush()
    return panel


def linkage_row(panel_id: str, lk: dict[str, Any]) -> Linkage:
    """A linkage of a panel from its exported form (bundles and published versions)."""
    return Linkage(
        panel_id=panel_id,
        source_view_id=lk["sourceViewId"],
        target_view_id=lk["targetViewId"],
        fields=json.dumps(lk.get("linkageFields") or []),
        active=bool(lk.get("active", True)),
    )


def jump_row(panel_id: str, j: dict[str, Any]) -> LinkJump:
    """A jump of a panel from its exported form (bundles and published versions)."""
    return LinkJump(
        panel_id=panel_id,
        source_view_id=j["sourceViewId"],
        source_field_id=j["sourceFieldId"],
        link_type=j.get("linkType", "inner"),
        jump_type=j.get("jumpType", "_blank"),
        target_panel_id=j.get("targetPanelId") or None,
        content=j.get("content", ""),
        target_view_info=json.dumps(j.get("targetViewInfoList") or []),
        attach_params=bool(j.get("attachParams")),
        checked=bool(j.get("checked", True)),
    )


def _import_calc_field(target: Dataset, f: dict[str, Any]) -> DatasetField:
    """Recreate an exported calculated field on the dataset the import uses."""
    from atrium.plugins.reports.authoring import calcfield_store

    body = calcfield_store.CalcFieldBody(
        name=str(f.get("name") or f.get("originName"))[:100],
        expression=str(f["expression"]),
        type=f.get("type"),
        role=f.get("role"),
    )
    return calcfield_store.save(target, body)


def _same_dataset(d: dict[str, Any]) -> Dataset | None:
    q = select(Dataset).where(
        Dataset.kind == d.get("kind", "table"),
        Dataset.table_name == (d.get("tableName") or ""),
        Dataset.sql_text == (d.get("sql") or ""),
    )
    ds_id = d.get("datasourceId")
    q = q.where(Dataset.datasource_id == ds_id) if ds_id else q.where(Dataset.datasource_id.is_(None))
    return session().execute(q.limit(1)).scalar()


def get_view(view_id: str) -> ChartView:
    v = session().get(ChartView, view_id) if view_id else None
    if v is None:
        raise NotFound("reports:view.not_found")
    return v
