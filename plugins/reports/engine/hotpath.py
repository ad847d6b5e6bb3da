"""The hot path of getData: what a chart request needs of the metadata, cached per tenant "epoch".

Every change of a tenant's report metadata (views, panels, grants, datasets, their fields and versions)
draws a new epoch for the tenant; cached bundles carry the epoch in their key, so they are never used
after a change, in any server process (the cache is Redis when configured). Bundles also expire after a
minute as a safety net.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.orm import Session

from atrium.plugins.reports.engine import viewdef
from atrium.plugins.reports.engine.fields import FieldInfo
from atrium.plugins.reports.models import ChartView, Dataset, Panel, PanelGrant
from atrium.sdk.context import current_context
from atrium.sdk.db import session
from atrium.sdk.kept import Kept
from atrium.sdk.services import services

_PENDING = "rpt_touched_tenants"
BUNDLE_TTL = 60.0
EPOCH_TTL = 24 * 3600.0
_snapshots: Kept[tuple[Dataset, list[FieldInfo]]] = Kept(256)


def _epoch_key(tenant_id: int | None) -> str:
    return f"rpt:epoch:{tenant_id}"


def _new_epoch(tenant_id: int | None) -> None:
    services().cache.set(_epoch_key(tenant_id), secrets.token_hex(8), ttl=EPOCH_TTL)


def touch(tenant_id: int | None = None) -> None:
    """Metadata of the tenant changed: drop every cached bundle of it, now and again once the change is
    committed (so a request that read the old rows in between cannot keep them cached)."""
    tid = tenant_id if tenant_id is not None else current_context().tenant_id
    _new_epoch(tid)
    db = current_context().db
    if db is not None:
        db.info.setdefault(_PENDING, set()).add(tid)


@event.listens_for(Session, "after_commit")
def _after_commit(db: Session) -> None:
    pending = db.info.pop(_PENDING, None)
    for tid in pending or ():
        _new_epoch(tid)


@event.listens_for(Session, "after_rollback")
def _after_rollback(db: Session) -> None:
    db.info.pop(_PENDING, None)


def epoch(tenant_id: int | None) -> str:
    cache = services().cache
    value = cache.get(_epoch_key(tenant_id))
    if value is None:
        value = secrets.token_hex(8)
        cache.set(_epoch_key(tenant_id), value, ttl=EPOCH_TTL)
    return str(value)


def bundle(view_id: str, panel_id: str) -> dict[str, Any] | None:
    """{view, panel: {id, createdBy, onPanel, proxy}, grants, dataset: {id, version, mode}} or None when the
    view, the panel or the dataset is missing (the caller then looks them up one by one for the exact
    error)."""
    if not view_id or not panel_id or len(view_id) > 32 or len(panel_id) > 32:
        return None
    tid = current_context().tenant_id
    key = f"rpt:bundle:{tid}:{epoch(tid)}:{view_id}:{panel_id}"
    cache = services().cache
    found = cache.get(key)
    if found is not None:
        return dict(found)
    row = (
        session()
        .execute(
            select(ChartView, Panel, Dataset)
            .join(Dataset, Dataset.id == ChartView.dataset_id)
            .join(Panel, Panel.id == panel_id)
            .where(ChartView.id == view_id)
        )
        .first()
    )
    if row is None:
        return None
    view, panel, ds = row
    from atrium.plugins.reports.store.access import component_view_ids

    grants = [
        (g.subject_type, g.subject_id, g.can_view, g.can_export, g.can_manage)
        for g in session().execute(select(PanelGrant).where(PanelGrant.panel_id == panel.id)).scalars()
    ]
    found = {
        "view": viewdef.from_row(view),
        "panel": {
            "id": panel.id,
            "createdBy": panel.created_by,
            "onPanel": view.panel_id == panel.id or view.id in component_view_ids(panel.panel_data),
            "proxy": panel.proxy_user_id,
        },
        "grants": grants,
        "dataset": {"id": ds.id, "version": ds.version, "mode": ds.mode},
    }
    cache.set(key, found, ttl=BUNDLE_TTL)
    return found


def dataset_at(ref: dict[str, Any]) -> tuple[Dataset, list[FieldInfo]]:
    """The dataset row (a detached copy) and its chosen fields at the version `ref` ({id, version}) names.

    Kept per process by (tenant, id, version): every change of a dataset or of its fields bumps its version
    in the same transaction, so a kept entry is exactly that version's. An entry is only kept when the
    dataset's version read before and after its fields is the same, so a change committed in between can
    not pair one version's fields with another's number.
    """
    from atrium.plugins.reports.store import datasets

    tid = current_context().tenant_id
    key = (tid, str(ref["id"]), int(ref["version"]))
    found = _snapshots.get(key)
    if found is not None:
        return found
    row = datasets.get_dataset(key[1])
    version = row.version
    fields = datasets.fields_of(row.id)
    session().refresh(row, ["version"])
    copy = Dataset(**{c.key: getattr(row, c.key) for c in Dataset.__table__.columns})
    if row.version == version:
        _snapshots.put((tid, row.id, version), (copy, fields))
    return copy, fields
