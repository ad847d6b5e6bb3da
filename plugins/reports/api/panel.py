"""Routes of panels: list, read, save, delete, grants, JSON export and import."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from atrium.plugins.reports.engine import hotpath
from atrium.plugins.reports.store import panels, scope
from atrium.plugins.reports.store.access import ALL, get_panel, session_viewer, viewer_scope
from atrium.plugins.reports.store.subjects import proxy_name, subject_names
from atrium.sdk import audit
from atrium.sdk.errors import BadRequest, Forbidden
from atrium.sdk.grants import require_grant
from atrium.sdk.routing import Router

router = Router("/api/dyreport")
#: the button that creates and imports panels (administrators hold every button); editing an existing panel
#: needs that panel's own manage privilege instead
MANAGE = "dyreport:manage"


class PanelBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str | None = Field(default=None, max_length=32)
    name: str = Field(min_length=1, max_length=200)
    panelData: Any = None
    panelStyle: Any = None


class GrantsBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    grants: list[dict[str, Any]] = Field(default_factory=list, max_length=1000)


class ImportBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    bundle: dict[str, Any]
    datasetMap: dict[str, str] = Field(default_factory=dict)


@router.get("/panel/list")
def list_panels() -> list[dict[str, Any]]:
    """Panels the caller may view, with the caller's privileges."""
    return panels.list_panels(session_viewer())


@router.get("/panel/findOne/{id}", public=True)
def find_one(id: str) -> dict[str, Any]:  # noqa: A002
    with viewer_scope() as viewer:
        panel, privs = get_panel(id, viewer)
        return _with_proxy_name(panels.panel_public(panel, privs), viewer.tenant_id, privs)


@router.post("/panel/save", body=PanelBody)
def save_panel(body: PanelBody) -> dict[str, Any]:
    """Create a panel (holders of the `dyreport:manage` button) or update one the caller manages (the
    panel's own manage privilege: its creator, a grant, or an administrator)."""
    viewer = session_viewer()
    if body.id:
        panel, _ = get_panel(body.id, viewer, "manage")
    else:
        require_grant(MANAGE)
        panel = None
    saved = panels.save_panel(panel, body.name.strip(), body.panelData, body.panelStyle, viewer.user_id)
    return panels.panel_public(saved, ALL if panel is None else get_panel(saved.id, viewer)[1])


@router.post("/panel/delete/{id}")
def delete_panel(id: str) -> bool:  # noqa: A002
    panel, _ = get_panel(id, session_viewer(), "manage")
    panels.delete_panel(panel)
    return True


@router.get("/panel/grants/{id}")
def get_grants(id: str) -> list[dict[str, Any]]:  # noqa: A002
    panel, _ = get_panel(id, session_viewer(), "manage")
    return panels.grants(panel)


@router.post("/panel/grants/{id}", body=GrantsBody)
def set_grants(id: str, body: GrantsBody) -> list[dict[str, Any]]:  # noqa: A002
    viewer = session_viewer()
    panel, _ = get_panel(id, viewer, "manage")
    before = panels.grants(panel)
    panels.set_grants(panel, body.grants)
    after = panels.grants(panel)
    names = subject_names(viewer.tenant_id, [*before, *after])
    audit.record(
        "reports.panel.grants",
        target_type="panel",
        target_id=panel.id,
        target_name=panel.name,
        before=_grant_words(before, names),
        after=_grant_words(after, names),
    )
    return after


def _grant_words(grants: list[dict[str, Any]], names: dict[tuple[str, int], str]) -> dict[str, str]:
    """Each person or role with what they may do (``view, export, manage``)."""
    out: dict[str, str] = {}
    for g in grants:
        key = (str(g["subjectType"]), int(g["subjectId"]))
        label = f"{key[0]}:{names.get(key) or key[1]}"
        out[label] = ", ".join(p for p in ("view", "export", "manage") if g.get(p))
    return out


class ProxyBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    #: the proxy user (a member of the tenant), or None for no proxy
    userId: int | None = Field(default=None, ge=1, lt=2**63)


@router.post("/panel/proxy/{id}", body=ProxyBody)
def set_proxy(id: str, body: ProxyBody) -> dict[str, Any]:  # noqa: A002
    """Set or clear the panel's proxy user (spec 6): data and option requests naming that user answer in
    their data scope. Needs manage on the panel; naming anyone but oneself needs a tenant administrator."""
    viewer = session_viewer()
    panel, privs = get_panel(id, viewer, "manage")
    if body.userId is not None and body.userId != viewer.user_id and not viewer.is_admin:
        raise Forbidden("reports:proxy.admin_only")
    if body.userId is not None and not scope.is_member(body.userId):
        raise BadRequest("reports:proxy.unknown_user")
    before = panel.proxy_user_id
    if before != body.userId:
        panel.proxy_user_id = body.userId
        hotpath.touch()
        names = subject_names(
            viewer.tenant_id, [{"subjectType": "user", "subjectId": u} for u in (before, body.userId) if u]
        )
        audit.record(  # "changed the reports settings of" the panel: its proxy
            "reports.settings.save",
            target_type="panel",
            target_id=panel.id,
            target_name=panel.name,
            before={"proxy": names.get(("user", before)) if before else None},
            after={"proxy": names.get(("user", body.userId)) if body.userId else None},
        )
    return _with_proxy_name(panels.panel_public(panel, privs), viewer.tenant_id, privs)


def _with_proxy_name(answer: dict[str, Any], tenant_id: int, privs: frozenset[str]) -> dict[str, Any]:
    """A panel's answer with its proxy user's name (``proxyName``) for those who manage it; viewers, shared
    links among them, learn no one's name."""
    if "manage" in privs and answer.get("proxy") is not None:
        answer["proxyName"] = proxy_name(tenant_id, int(answer["proxy"]))
    return answer


@router.get("/panel/export/{id}")
def export_panel(id: str) -> dict[str, Any]:  # noqa: A002
    """The panel with its views, datasets, linkage and jumps as one JSON bundle."""
    panel, _ = get_panel(id, session_viewer(), "manage")
    return panels.export_bundle(panel)


@router.post("/panel/import", grant=MANAGE, body=ImportBody)
def import_panel(body: ImportBody) -> dict[str, Any]:
    """Create a panel from an export bundle (holders of `dyreport:manage`); only administrators may have it
    create datasets or calculated fields, others map the bundle's datasets to existing ones."""
    viewer = session_viewer()
    panel = panels.import_bundle(body.bundle, viewer.user_id, body.datasetMap, define_data=viewer.is_admin)
    return panels.panel_public(panel, ALL)
