"""Panel drafts, publishing, versions and rollback.

The designer edits a draft (draft_data, draft_style, draft_name) next to the live panel that viewers and
shared links read. Publishing copies the draft to the live panel and stores a version: the components,
the style and a snapshot of the panel's chart views, linkage and jumps. Rolling back makes a version's
content live again (views restored, recreated when deleted) and is itself recorded as a new version.
Each of these runs in the request's one transaction: it is written whole or not at all.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select

from atrium.plugins.reports.engine import hotpath, viewdef
from atrium.plugins.reports.models import ChartView, Linkage, LinkJump, Panel, PanelVersion
from atrium.plugins.reports.store import panels
from atrium.plugins.reports.store.access import component_view_ids
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import BadRequest, NotFound
from atrium.sdk.services import services

MAX_PANEL_TEXT = 5_000_000
MAX_COMPONENTS = 2_000
MAX_SIZE = 100_000


def ms(at: datetime | None) -> int | None:
    return int(at.timestamp() * 1000) if at else None


def has_unpublished(panel: Panel) -> bool:
    if panel.draft_data is None:
        return False
    return (panel.draft_data, panel.draft_style, panel.draft_name) != (
        panel.panel_data,
        panel.panel_style,
        panel.name,
    )


def is_live(panel: Panel) -> bool:
    """Whether viewers see something of the panel: a version was published, or the live panel was written
    directly with components (the demo, an import, panel/save). A panel made in the designer and never
    published is not live: viewers see an empty page."""
    if panel.published_version:
        return True
    try:
        components = viewdef.loads(panel.panel_data, [])
    except BadRequest:
        return False
    return isinstance(components, list) and len(components) > 0


def publish_state(panel: Panel) -> dict[str, Any]:
    """The fields panel/list and panel/draft add: the newest published version, pending changes, and
    whether the panel is live at all (`live` false: never published)."""
    return {
        "publishedVersion": panel.published_version or 0,
        "hasUnpublished": has_unpublished(panel),
        "live": is_live(panel),
    }


def draft_public(panel: Panel, privileges: str) -> dict[str, Any]:
    """The draft (or the live panel when there is none) as the designer reads it."""
    drafted = panel.draft_data is not None
    return {
        "id": panel.id,
        "name": panel.draft_name if drafted and panel.draft_name else panel.name,
        "panelData": panel.draft_data if drafted else panel.panel_data,
        "panelStyle": panel.draft_style if drafted and panel.draft_style is not None else panel.panel_style,
        "draftUpdateTime": ms(panel.draft_updated_at),
        **publish_state(panel),
        "privileges": privileges,
    }


# ---------------------------------------------------------------------------
# validation of components
# ---------------------------------------------------------------------------


def _check_components(components: list[Any]) -> None:
    """Each component is an object with a type; its style sizes, when given, are numbers in range."""
    if len(components) > MAX_COMPONENTS:
        raise BadRequest("reports:panel.too_many_components", max=MAX_COMPONENTS)
    for c in components:
        if not isinstance(c, dict) or not isinstance(c.get("type"), str) or not c["type"]:
            raise BadRequest("reports:panel.bad_component")
        style = c.get("style")
        if style is None:
            continue
        if not isinstance(style, dict):
            raise BadRequest("reports:panel.bad_component")
        for key in ("left", "top", "width", "height"):
            value = style.get(key)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise BadRequest("reports:panel.bad_size", key=key)
            low = 0 if key in ("width", "height") else -MAX_SIZE
            if not low <= value <= MAX_SIZE:
                raise BadRequest("reports:panel.bad_size", key=key)
        options = c.get("options")
        tabs = options.get("tabList") if isinstance(options, dict) else None
        for tab in tabs if isinstance(tabs, list) else []:
            content = tab.get("content") if isinstance(tab, dict) else None
            if isinstance(content, dict):
                _check_components([content])
            elif isinstance(content, list):
                _check_components(content)


def missing_views(panel: Panel, panel_data: str) -> list[str]:
    """View ids the components use that do not exist or belong to another panel (and were not already
    placed on the live panel)."""
    live = set(component_view_ids(panel.panel_data))
    out = []
    for vid in component_view_ids(panel_data):
        view = session().get(ChartView, vid)
        if view is None or (view.panel_id != panel.id and vid not in live):
            out.append(vid)
    return out


def _checked_texts(panel_data: Any, panel_style: Any) -> tuple[str, str]:
    try:
        data_text = panels.json_text(panel_data, [], list)
        style_text = panels.json_text(panel_style, {}, dict)
    except BadRequest as exc:
        raise BadRequest("reports:panel.bad_json") from exc
    if len(data_text) > MAX_PANEL_TEXT or len(style_text) > MAX_PANEL_TEXT:
        raise BadRequest("reports:panel.too_big")
    _check_components(json.loads(data_text))
    return data_text, style_text


# ---------------------------------------------------------------------------
# draft, publish, versions, rollback
# ---------------------------------------------------------------------------


def save_draft(panel: Panel, name: str | None, panel_data: Any, panel_style: Any) -> Panel:
    data_text, style_text = _checked_texts(panel_data, panel_style)
    missing = missing_views(panel, data_text)
    if missing:
        raise BadRequest("reports:panel.missing_views", ids=", ".join(m[:40] for m in missing[:20]))
    panel.draft_data, panel.draft_style = data_text, style_text
    panel.draft_name = (name or "").strip() or panel.draft_name or panel.name
    panel.draft_updated_at = utcnow()
    session().flush()
    return panel


def clear_draft(panel: Panel) -> None:
    panel.draft_data = panel.draft_style = panel.draft_name = None
    panel.draft_updated_at = None


def snapshot(panel: Panel) -> dict[str, Any]:
    """The panel's chart views, linkage and jumps as JSON-ready data."""
    bundle = panels.export_bundle(panel)
    return {"views": bundle["views"], "linkages": bundle["linkages"], "jumps": bundle["jumps"]}


def _next_version(panel: Panel) -> int:
    newest = (
        session()
        .execute(select(func.max(PanelVersion.version)).where(PanelVersion.panel_id == panel.id))
        .scalar()
    )
    return max(int(newest or 0), panel.published_version or 0) + 1


def _record(panel: Panel, note: str, user_id: int | None) -> PanelVersion:
    row = PanelVersion(
        panel_id=panel.id,
        version=_next_version(panel),
        name=panel.name,
        panel_data=panel.panel_data,
        panel_style=panel.panel_style,
        views=json.dumps(snapshot(panel), ensure_ascii=False, separators=(",", ":")),
        note=note[:500],
        published_by=user_id,
        published_at=utcnow(),
    )
    session().add(row)
    panel.published_version = row.version
    session().flush()
    return row


def publish(panel: Panel, note: str, user_id: int | None) -> PanelVersion:
    """Make the draft live and record it as a new version."""
    if panel.draft_data is not None:
        missing = missing_views(panel, panel.draft_data)
        if missing:
            raise BadRequest("reports:panel.missing_views", ids=", ".join(m[:40] for m in missing[:20]))
        panel.panel_data = panel.draft_data
        panel.panel_style = panel.draft_style if panel.draft_style is not None else panel.panel_style
        panel.name = panel.draft_name or panel.name
    clear_draft(panel)
    panel.updated_at = utcnow()
    row = _record(panel, note, user_id)
    hotpath.touch()
    return row


def list_versions(panel: Panel) -> list[dict[str, Any]]:
    rows = list(
        session()
        .execute(
            select(PanelVersion)
            .where(PanelVersion.panel_id == panel.id)
            .order_by(PanelVersion.version.desc())
        )
        .scalars()
    )
    people = services().directory.users({r.published_by for r in rows if r.published_by is not None})
    return [
        {
            "version": r.version,
            "name": r.name,
            "note": r.note,
            "publishedBy": r.published_by,
            "publishedByName": people[r.published_by].full_name if r.published_by in people else "",
            "publishTime": ms(r.published_at),
        }
        for r in rows
    ]


def _restore_view(panel: Panel, d: dict[str, Any]) -> None:
    """A view as it was in the snapshot (its id kept; recreated when it was deleted)."""
    body = viewdef.ViewBody.model_validate({**d, "panelId": panel.id})
    definition = viewdef.from_body(body)
    view = session().get(ChartView, d["id"])
    if view is None:
        view = ChartView(id=d["id"])
        session().add(view)
    viewdef.apply(view, definition)
    view.updated_at = utcnow()


def _restore_interactions(panel: Panel, saved: dict[str, Any]) -> None:
    db = session()
    db.execute(delete(Linkage).where(Linkage.panel_id == panel.id))
    db.execute(delete(LinkJump).where(LinkJump.panel_id == panel.id))
    for lk in saved.get("linkages") or []:
        db.add(panels.linkage_row(panel.id, lk))
    for j in saved.get("jumps") or []:
        if j.get("targetPanelId") and db.get(Panel, j["targetPanelId"]) is None:
            j = {**j, "targetPanelId": None}
        db.add(panels.jump_row(panel.id, j))


def rollback(panel: Panel, version: int, user_id: int | None) -> PanelVersion:
    """Make `version` live (panel, draft, views, linkage, jumps) and record that as a new version."""
    row = (
        session()
        .execute(
            select(PanelVersion).where(PanelVersion.panel_id == panel.id, PanelVersion.version == version)
        )
        .scalar()
    )
    if row is None:
        raise NotFound("reports:panel.version_not_found", version=version)
    saved = json.loads(row.views or "{}")
    for d in saved.get("views") or []:
        _restore_view(panel, d)
    session().flush()
    _restore_interactions(panel, saved)
    panel.name, panel.panel_data, panel.panel_style = row.name, row.panel_data, row.panel_style
    clear_draft(panel)
    panel.updated_at = utcnow()
    session().flush()
    recorded = _record(panel, services().t("reports:panel.rollback_note", version=version), user_id)
    hotpath.touch()
    return recorded
