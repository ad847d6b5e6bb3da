"""Saving and deleting a dataset's calculated fields.

A calculated field is a DatasetField with an `expression`; it has no column in the source, so field
detection (sync_fields) and extract copies leave it alone, and queries compute it (query.Relation).
Before it is stored the expression is tried once on the source (direct mode), so a type error there is
reported now rather than on the first chart.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from atrium.plugins.reports.authoring import calcfields
from atrium.plugins.reports.engine import sources
from atrium.plugins.reports.engine.extract import ExtractNotReady
from atrium.plugins.reports.engine.fields import ROLES, TYPES, dataease_name, default_role, info
from atrium.plugins.reports.engine.query import Relation
from atrium.plugins.reports.models import Dataset, DatasetField, new_id
from atrium.plugins.reports.store import datasets
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, NotFound

#: calculated fields sort after every column of the source
SORT_BASE = 100_000


class CalcFieldBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str | None = Field(default=None, max_length=32)
    name: str = Field(min_length=1, max_length=100)
    expression: str = Field(min_length=1, max_length=calcfields.MAX_LENGTH)
    type: str | None = Field(default=None, max_length=16)
    role: str | None = Field(default=None, max_length=16)


def calc_public(row: DatasetField) -> dict[str, Any]:
    return {
        **info(row).public(),
        "sourceType": row.source_type,
        "checked": row.checked,
        "expression": row.expression,
        "calculated": True,
    }


def _column_types(ds: Dataset) -> dict[str, str]:
    """Columns an expression may read: the dataset's checked source columns, with their field types."""
    return {f.origin_name: f.type for f in datasets.fields_of(ds.id) if not f.is_calculated}


def _try_on_source(ds: Dataset, row: DatasetField) -> None:
    """Run the expression over one row of the dataset; a failure there is the user's input error."""
    fields = [f for f in datasets.fields_of(ds.id) if not f.is_calculated] + [info(row)]

    def make(rel: Relation) -> Any:
        return sa.select(rel.column(info(row)).label("v")).select_from(rel.base).limit(1)

    try:
        datasets.execute(ds, fields, make)
    except ExtractNotReady:
        return  # nothing copied yet to try it on
    except sources.SourceFailed as exc:
        raise BadRequest("reports:calc.failed", reason=str(exc.params.get("reason", ""))[:240]) from exc


def save(ds: Dataset, body: CalcFieldBody) -> DatasetField:
    db = session()
    columns = _column_types(ds)
    calcfields.parse(body.expression, columns)
    name = body.name.strip()
    if not name:
        raise BadRequest("reports:field.name")
    if body.type is not None and body.type not in TYPES:
        raise BadRequest("reports:field.type", type=body.type[:20])
    if body.role is not None and body.role not in ROLES:
        raise BadRequest("reports:field.role", role=body.role[:20])
    rows = datasets.field_rows(ds.id)
    if body.id:
        row = next((f for f in rows if f.id == body.id), None)
        if row is None:
            raise NotFound("reports:field.not_found", id=body.id[:40])
        if not row.expression:
            raise BadRequest("reports:calc.not_calculated", name=row.name)
    else:
        fid = new_id()
        row = DatasetField(
            id=fid,
            dataset_id=ds.id,
            dataease_name=dataease_name(f"calc:{fid}"),
            sort=SORT_BASE + len(rows),
            checked=True,
        )
    if any(f.name == name and f.id != row.id for f in rows):
        raise BadRequest("reports:calc.name_taken", name=name)
    ftype = body.type or calcfields.infer_type(body.expression, columns)
    row.name, row.origin_name, row.expression = name, name, body.expression.strip()
    row.type = row.source_type = ftype
    row.role = body.role or default_role(ftype, name)
    _try_on_source(ds, row)
    if not body.id:
        db.add(row)
    db.flush()
    datasets.bump(ds)
    return row


def delete(ds: Dataset, field_id: str) -> None:
    row = (
        session()
        .execute(select(DatasetField).where(DatasetField.dataset_id == ds.id, DatasetField.id == field_id))
        .scalar()
    )
    if row is None:
        raise NotFound("reports:field.not_found", id=field_id[:40])
    if not row.expression:
        raise BadRequest("reports:calc.not_calculated", name=row.name)
    session().delete(row)
    datasets.bump(ds)
