"""Preview of an unsaved dataset: its detected fields and its first rows, before anything is stored."""

from __future__ import annotations

from typing import Any, Literal

import sqlalchemy as sa
from pydantic import BaseModel, ConfigDict, Field

from atrium.plugins.reports.engine import sources
from atrium.plugins.reports.engine.fields import FieldInfo, dataease_name, default_role
from atrium.plugins.reports.engine.shape import plain
from atrium.plugins.reports.models import Dataset
from atrium.plugins.reports.store import datasets

PREVIEW_ROWS = 100


class DraftBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    datasourceId: str | None = Field(default=None, max_length=32)
    kind: Literal["table", "sql"] = "table"
    tableName: str | None = Field(default=None, max_length=255)
    sql: str | None = Field(default=None, max_length=100_000)


def preview(body: DraftBody) -> dict[str, Any]:
    """`{fields: [{originName, name, type, role}], rows: [{originName: value}]}` (at most 100 rows).

    The definition passes the same checks as saving a dataset (table names, the SQL guard, who may
    write SQL on the platform database)."""
    table_name, sql_text = (body.tableName or "").strip(), (body.sql or "").strip()
    datasource_id = body.datasourceId or None
    datasets.check_definition(datasource_id, body.kind, table_name, sql_text)
    draft = Dataset(
        datasource_id=datasource_id,
        kind=body.kind,
        table_name=table_name if body.kind == "table" else "",
        sql_text=sql_text if body.kind == "sql" else "",
        mode="direct",
    )
    columns = datasets.detect_columns(draft)
    fields = [
        FieldInfo(f"c{i}", name, name, dataease_name(name), kind, kind, default_role(kind, name))
        for i, (name, kind) in enumerate(columns)
    ]
    src = datasets.source_for(draft)
    rel = datasets.relation(draft, fields, src.flavour)
    stmt = sa.select(*[rel.column(f).label(f"c{i}") for i, f in enumerate(fields)]).select_from(rel.base)
    _, rows = sources.fetch(src, stmt.limit(PREVIEW_ROWS))
    return {
        "fields": [
            {"originName": f.origin_name, "name": f.name, "type": f.type, "role": f.role} for f in fields
        ],
        "rows": [{f.origin_name: plain(v) for f, v in zip(fields, row, strict=True)} for row in rows],
    }
