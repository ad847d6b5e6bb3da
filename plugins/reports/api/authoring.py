"""Routes the report designer adds: dataset drafts, calculated fields, panel drafts, publishing, versions,
rollback and the people and roles a panel can be shared with."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from atrium.plugins.reports.authoring import calcfield_store, draft_preview, subjects, versions
from atrium.plugins.reports.authoring.calcfield_store import CalcFieldBody
from atrium.plugins.reports.authoring.draft_preview import DraftBody
from atrium.plugins.reports.store import datasets, panels
from atrium.plugins.reports.store.access import get_panel, privilege_text, session_viewer
from atrium.sdk import audit
from atrium.sdk.routing import Router

router = Router("/api/dyreport")


class DraftPanelBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str = Field(min_length=1, max_length=32)
    name: str | None = Field(default=None, max_length=200)
    panelData: Any = None
    panelStyle: Any = None


class PublishBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str = Field(min_length=1, max_length=32)
    note: str = Field(default="", max_length=500)


class RollbackBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str = Field(min_length=1, max_length=32)
    version: int = Field(ge=1)


class SubjectQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")
    keyword: str = Field(default="", max_length=100)


# ---------------------------------------------------------------------------
# datasets
# ---------------------------------------------------------------------------


@router.post("/dataset/previewDraft", permission="admin", body=DraftBody)
def preview_draft(body: DraftBody) -> dict[str, Any]:
    """Fields and the first 100 rows of a dataset definition that is not saved yet."""
    return draft_preview.preview(body)


@router.post("/dataset/calcField/{datasetId}", permission="admin", body=CalcFieldBody)
def save_calc_field(datasetId: str, body: CalcFieldBody) -> dict[str, Any]:  # noqa: N803 - the API's name
    """Create (no id) or change a calculated field of the dataset."""
    ds = datasets.get_dataset(datasetId)
    return calcfield_store.calc_public(calcfield_store.save(ds, body))


@router.post("/dataset/calcField/delete/{datasetId}/{fieldId}", permission="admin")
def delete_calc_field(datasetId: str, fieldId: str) -> bool:  # noqa: N803
    calcfield_store.delete(datasets.get_dataset(datasetId), fieldId)
    return True


# ---------------------------------------------------------------------------
# panels: draft, publish, versions, rollback
# ---------------------------------------------------------------------------


@router.get("/panel/draft/{id}")
def get_draft(id: str) -> dict[str, Any]:  # noqa: A002
    panel, privs = get_panel(id, session_viewer(), "manage")
    return versions.draft_public(panel, privilege_text(privs))


@router.post("/panel/saveDraft", body=DraftPanelBody)
def save_draft(body: DraftPanelBody) -> dict[str, Any]:
    panel, privs = get_panel(body.id, session_viewer(), "manage")
    versions.save_draft(panel, body.name, body.panelData, body.panelStyle)
    return versions.draft_public(panel, privilege_text(privs))


@router.post("/panel/publish", body=PublishBody)
def publish(body: PublishBody) -> dict[str, Any]:
    viewer = session_viewer()
    panel, _ = get_panel(body.id, viewer, "manage")
    before = panel.published_version or 0
    row = versions.publish(panel, body.note.strip(), viewer.user_id)
    audit.record(
        "reports.panel.publish",
        target_type="panel",
        target_id=panel.id,
        target_name=panel.name,
        before={"version": before},
        after={"version": row.version, "note": body.note.strip()},
    )
    return {"version": row.version, "publishTime": versions.ms(row.published_at)}


@router.get("/panel/versions/{id}")
def list_versions(id: str) -> list[dict[str, Any]]:  # noqa: A002
    panel, _ = get_panel(id, session_viewer(), "manage")
    return versions.list_versions(panel)


@router.post("/panel/rollback", body=RollbackBody)
def rollback(body: RollbackBody) -> dict[str, Any]:
    viewer = session_viewer()
    panel, privs = get_panel(body.id, viewer, "manage")
    before = panel.published_version or 0
    row = versions.rollback(panel, body.version, viewer.user_id)
    audit.record(
        "reports.panel.rollback",
        target_type="panel",
        target_id=panel.id,
        target_name=panel.name,
        before={"version": before},
        after={"version": row.version, "restoredVersion": body.version},
    )
    return panels.panel_public(panel, privs)


@router.get("/panel/subjects", permission="admin", query=SubjectQuery)
def list_subjects(query: SubjectQuery) -> dict[str, Any]:
    """Users and roles of the tenant (at most 50 each) matching the keyword, for the privileges dialog."""
    return subjects.find(session_viewer().tenant_id, query.keyword)
