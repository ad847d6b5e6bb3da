"""Who is asking for report data: a signed-in user, or a shared link's client (header `linkToken`).

Privileges on a panel are `view`, `export` and `manage` (manage includes export, export includes view).
A signed-in user exports only while also holding the `dyreport:export` button (a link's client acts on the
link's own privileges).
Tenant administrators and a panel's creator hold all three; others get them from grants to their user
or one of their roles. A shared link's client acts as the link's owner and sees only the link's panel.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, or_, select

from atrium.plugins.reports.models import Panel, PanelGrant
from atrium.sdk.context import current_context, current_user, tenant_scope
from atrium.sdk.db import session
from atrium.sdk.errors import Forbidden, NotFound, NotLoggedIn
from atrium.sdk.grants import require_grant

LINK_HEADER = "linktoken"
ALL = frozenset({"view", "export", "manage"})
#: the button that lets a signed-in user export at all, on top of a panel's own export privilege
EXPORT_GRANT = "dyreport:export"


@dataclass(frozen=True)
class Viewer:
    tenant_id: int
    user_id: int | None
    roles: frozenset[int] = field(default_factory=frozenset)
    is_admin: bool = False
    link_id: str | None = None
    link_panel_id: str | None = None
    #: a shared link's client: who this one is among the link's clients (kept in its link token)
    link_client: str | None = None


def session_viewer() -> Viewer:
    user = current_user()
    return Viewer(user.tenant_id, user.user_id, frozenset(user.roles), user.is_admin)


@contextmanager
def viewer_scope(allow_link: bool = True) -> Iterator[Viewer]:
    """The caller as a Viewer; a link client runs inside its link's tenant."""
    ctx = current_context()
    token = ctx.headers.get(LINK_HEADER, "").strip() if allow_link else ""
    if token:
        from atrium.plugins.reports.store import links

        link, client = links.check_client(token)
        with tenant_scope(link["tenantId"]):
            yield Viewer(
                link["tenantId"],
                link["userId"],
                frozenset(link["ownerRoles"]),
                link["ownerAdmin"],
                link["id"],
                link["panelId"],
                client,
            )
        return
    if ctx.user is None:
        raise NotLoggedIn()
    yield session_viewer()


def privileges(panel: Panel, viewer: Viewer) -> frozenset[str]:
    grants: list[tuple[str, int, bool, bool, bool]] = []
    if not (viewer.is_admin or (viewer.user_id is not None and panel.created_by == viewer.user_id)):
        subjects = [and_(PanelGrant.subject_type == "user", PanelGrant.subject_id == (viewer.user_id or -1))]
        if viewer.roles:
            subjects.append(and_(PanelGrant.subject_type == "role", PanelGrant.subject_id.in_(viewer.roles)))
        rows = session().execute(select(PanelGrant).where(PanelGrant.panel_id == panel.id, or_(*subjects)))
        grants = [
            (g.subject_type, g.subject_id, g.can_view, g.can_export, g.can_manage) for g in rows.scalars()
        ]
    return privileges_from(panel.id, panel.created_by, grants, viewer)


def privileges_from(
    panel_id: str, created_by: int | None, grants: list[tuple[str, int, bool, bool, bool]], viewer: Viewer
) -> frozenset[str]:
    """The viewer's privileges from a panel's creator and grants (subject type, id, view, export, manage)."""
    if viewer.link_id is not None and panel_id != viewer.link_panel_id:
        return frozenset()
    if viewer.is_admin or (viewer.user_id is not None and created_by == viewer.user_id):
        granted = ALL
    else:
        out: set[str] = set()
        for subject_type, subject_id, can_view, can_export, can_manage in grants:
            mine = (subject_type == "user" and subject_id == viewer.user_id) or (
                subject_type == "role" and subject_id in viewer.roles
            )
            if not mine:
                continue
            if can_manage:
                out |= ALL
            if can_export:
                out |= {"view", "export"}
            if can_view:
                out.add("view")
        granted = frozenset(out)
    if viewer.link_id is not None:
        return granted & {"view", "export"}
    return granted


def privilege_text(privs: frozenset[str]) -> str:
    return ",".join(p for p in ("view", "export", "manage") if p in privs)


def get_panel(panel_id: str, viewer: Viewer, need: str = "view") -> tuple[Panel, frozenset[str]]:
    """The panel if the viewer holds `need` on it. Panels out of reach answer like missing ones."""
    panel = session().get(Panel, panel_id) if panel_id else None
    if panel is None:
        raise NotFound("reports:panel.not_found")
    privs = privileges(panel, viewer)
    if "view" not in privs:
        raise NotFound("reports:panel.not_found")
    if need not in privs:
        raise Forbidden("reports:panel.no_privilege", privilege=need)
    if need == "export" and viewer.link_id is None:
        require_grant(EXPORT_GRANT)
    return panel, privs


def component_view_ids(panel_data: Any) -> list[str]:
    """View ids placed on a panel, including those inside tabs."""
    items = json.loads(panel_data) if isinstance(panel_data, str) else panel_data
    out: list[str] = []

    def walk(components: Any) -> None:
        if not isinstance(components, list):
            return
        for c in components:
            if not isinstance(c, dict):
                continue
            prop = c.get("propValue")
            if c.get("type") == "view" and isinstance(prop, dict) and isinstance(prop.get("viewId"), str):
                out.append(prop["viewId"])
            opts = c.get("options")
            if isinstance(opts, dict):
                for tab in opts.get("tabList") or []:
                    if isinstance(tab, dict) and isinstance(tab.get("content"), dict):
                        walk([tab["content"]])
                    elif isinstance(tab, dict) and isinstance(tab.get("content"), list):
                        walk(tab["content"])

    try:
        walk(items)
    except (TypeError, ValueError):
        return out
    return out
