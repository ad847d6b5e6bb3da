"""Routes of data sources, datasets, field values (filter widgets), dynamic dates and extract syncs."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from atrium.plugins.reports.authoring import source_config
from atrium.plugins.reports.authoring.source_config import SourceType
from atrium.plugins.reports.engine import chartdata, extract
from atrium.plugins.reports.engine.chartdata import FilterItem
from atrium.plugins.reports.engine.filters import dynamic_dates
from atrium.plugins.reports.models import Dataset, DatasetField, DataSource, Panel
from atrium.plugins.reports.store import datasets, panels, scope
from atrium.plugins.reports.store.access import get_panel, session_viewer, viewer_scope
from atrium.plugins.reports.store.subjects import named
from atrium.sdk import audit
from atrium.sdk.context import current_tenant, current_user
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, NotFound
from atrium.sdk.grants import holds_grant, require_grant
from atrium.sdk.routing import Router

router = Router("/api/dyreport")


class FieldValuesRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")
    fieldIds: list[str] = Field(min_length=1, max_length=20)
    filter: list[FilterItem] = Field(default_factory=list, max_length=100)
    userId: int | None = None
    panelId: str | None = Field(default=None, max_length=32)


class DynamicRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")
    dkey: str | int = "today"
    dynamicPrefix: int | str | None = None
    dynamicInfill: str | None = None
    dynamicSuffix: str | None = None


class CheckSourceBody(BaseModel):
    """`{url}` (a SQLAlchemy URL), `{id}` (a stored source), or the structured settings (`type`, ...)."""

    model_config = ConfigDict(extra="ignore")
    id: str | None = Field(default=None, max_length=32)
    url: str | None = Field(default=None, max_length=2000)
    type: SourceType | None = None
    host: str | None = Field(default=None, max_length=255)
    port: int | None = Field(default=None, ge=1, le=65535)
    database: str | None = Field(default=None, max_length=255)
    username: str | None = Field(default=None, max_length=255)
    password: str | None = Field(default=None, max_length=1000)
    path: str | None = Field(default=None, max_length=1000)


class DataSourceBody(CheckSourceBody):
    name: str = Field(min_length=1, max_length=100)
    description: str | None = Field(default="", max_length=500)
    queryTimeout: int | None = Field(default=0, ge=0, le=3600)


class DatasetBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str | None = Field(default=None, max_length=32)
    name: str = Field(min_length=1, max_length=100)
    datasourceId: str | None = Field(default=None, max_length=32)
    kind: str = Field(default="table", max_length=16)
    tableName: str | None = Field(default=None, max_length=255)
    sql: str | None = Field(default=None, max_length=100_000)
    mode: str = Field(default="direct", max_length=16)
    syncInterval: int = Field(default=0, ge=0, le=60 * 24 * 31)
    fields: list[dict[str, Any]] | None = None


class FieldsBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    fields: list[dict[str, Any]] = Field(max_length=2000)


# ---------------------------------------------------------------------------
# field values and dynamic dates
# ---------------------------------------------------------------------------


AUTHOR = "dyreport:manage"


def _require_panel_fields(panel: Panel, field_ids: list[str]) -> None:
    """Refuse any field outside the datasets of the panel's views."""
    allowed = {v.dataset_id for v in panels.panel_views(panel)}
    for fid in field_ids:
        f = session().get(DatasetField, fid)
        if f is None or f.dataset_id not in allowed:
            raise BadRequest("reports:field.not_found", id=fid[:40])


@router.post("/dataset/field/multFieldValues", body=FieldValuesRequest)
def mult_field_values(body: FieldValuesRequest) -> list[Any]:
    """Distinct values of the fields (select widgets), optionally filtered, in the caller's data scope (the
    panel's proxy's with `userId`). Report authors read any field; a viewer only the fields of a panel they
    may view (`panelId`)."""
    viewer = session_viewer()
    proxy: int | None = None
    if not holds_grant(AUTHOR):
        panel, _ = get_panel(body.panelId or "", viewer)
        _require_panel_fields(panel, body.fieldIds)
        proxy = panel.proxy_user_id
    elif body.userId is not None and body.panelId:
        proxy = get_panel(body.panelId, viewer)[0].proxy_user_id
    return chartdata.distinct_values(
        body.fieldIds, body.filter, scope.acting_user(viewer, proxy, body.userId)
    )


@router.post("/dataset/field/linkMultFieldValues", public=True, body=FieldValuesRequest)
def link_mult_field_values(body: FieldValuesRequest) -> list[Any]:
    """The same through a shared link: only fields of the datasets of the link's panel."""
    with viewer_scope() as viewer:
        panel, _ = get_panel(viewer.link_panel_id or body.panelId or "", viewer)
        _require_panel_fields(panel, body.fieldIds)
        user = scope.acting_user(viewer, panel.proxy_user_id, body.userId)
        return chartdata.distinct_values(body.fieldIds, body.filter, user)


@router.post("/dataset/field/dynamicDates", public=True, body=DynamicRequest)
def dynamic(body: DynamicRequest) -> dict[str, Any]:
    """The day (or [first, last] days) a dynamic date setting means today: ISO dates and epoch ms."""
    days = dynamic_dates(body.model_dump(exclude_none=True))
    return {
        "dates": [d.isoformat() for d in days],
        "values": [int(datetime(d.year, d.month, d.day).timestamp() * 1000) for d in days],
    }


# ---------------------------------------------------------------------------
# data sources (tenant administrators)
# ---------------------------------------------------------------------------


@router.get("/datasource/list", permission="admin")
def list_datasources() -> list[dict[str, Any]]:
    rows = session().execute(select(DataSource).order_by(DataSource.name)).scalars()
    return [datasets.datasource_public(d) for d in rows]


def _settings_url(body: CheckSourceBody) -> str | None:
    """The URL of structured settings (a file type needs a super administrator first); None without."""
    if body.type is None:
        return body.url
    datasets.require_super_admin_for_files(body.type)
    stored = source_config.stored_password(datasets.get_datasource(body.id).url_enc) if body.id else None
    settings = source_config.SourceSettings.model_validate(body.model_dump())
    return source_config.url_text(source_config.build_url(settings, stored))


@router.post("/datasource/save", permission="admin", body=DataSourceBody)
def save_datasource(body: DataSourceBody) -> dict[str, Any]:
    before = datasets.datasource_public(datasets.get_datasource(body.id)) if body.id else None
    row = datasets.save_datasource(
        body.id, body.name.strip(), _settings_url(body), body.description or "", body.queryTimeout or 0
    )
    after = datasets.datasource_public(row)
    old, new = (None if before is None else _source_fields(before)), _source_fields(after)
    if body.password:  # recorded as a marker only: set, or changed when there was one
        if old is not None and before is not None and before.get("hasCredentials"):
            old["password"] = "\0kept"
        new["password"] = body.password
    audit.record(
        "reports.datasource.save",
        target_type="datasource",
        target_id=row.id,
        target_name=row.name,
        before=old,
        after=new,
    )
    return after


def _source_fields(public: dict[str, Any]) -> dict[str, Any]:
    """What the audit trail keeps of a data source: its settings with the URL's password masked."""
    return {k: v for k, v in public.items() if k not in ("id", "updateTime")}


@router.post("/datasource/validate", permission="admin", body=CheckSourceBody)
def validate_datasource(body: CheckSourceBody) -> dict[str, Any]:
    """`{ok, tables, error?}`: a source that cannot be reached answers ok false and the reason."""
    url = _settings_url(body)
    if not url and not body.id:
        raise BadRequest("reports:source.bad_url")
    return datasets.check_datasource(url, body.id)


@router.post("/datasource/delete/{id}", permission="admin")
def delete_datasource(id: str) -> bool:  # noqa: A002
    before = datasets.datasource_public(datasets.get_datasource(id))
    datasets.delete_datasource(id)
    audit.record(
        "reports.datasource.delete",
        target_type="datasource",
        target_id=id,
        target_name=str(before.get("name") or ""),
        before=_source_fields(before),
    )
    return True


# ---------------------------------------------------------------------------
# datasets
# ---------------------------------------------------------------------------


def _dataset_fields(ds: Dataset) -> dict[str, Any]:
    """What the audit trail keeps of a dataset's definition."""
    return {
        "name": ds.name,
        "datasourceId": ds.datasource_id,
        "kind": ds.kind,
        "tableName": ds.table_name,
        "sql": ds.sql_text,
        "mode": ds.mode,
        "syncInterval": ds.sync_interval,
    }


def _field_names(ds: Dataset) -> list[str]:
    """The dataset's fields as the audit trail lists them (name, with the checked ones marked)."""
    out = []
    for f in datasets.dataset_public(ds)["fields"]:
        label = str(f.get("name") or f.get("originName") or f.get("id") or "")
        out.append(label if f.get("checked", True) else f"({label})")
    return out


def _public(ds: Dataset) -> dict[str, Any]:
    out = datasets.dataset_public(ds)
    user = current_user()
    if not user.is_admin:
        out["sql"] = ""
    return out


@router.get("/dataset/list")
def list_datasets() -> list[dict[str, Any]]:
    """Every dataset of the tenant, for report authors."""
    require_grant(AUTHOR)
    rows = session().execute(select(Dataset).order_by(Dataset.name)).scalars()
    return [_public(d) for d in rows]


@router.get("/dataset/get/{id}")
def get_dataset(id: str) -> dict[str, Any]:  # noqa: A002
    require_grant(AUTHOR)
    return _public(datasets.get_dataset(id))


@router.post("/dataset/save", permission="admin", body=DatasetBody)
def save_dataset(body: DatasetBody) -> dict[str, Any]:
    before = _dataset_fields(datasets.get_dataset(body.id)) if body.id else None
    ds = datasets.save_dataset(body.model_dump())
    audit.record(
        "reports.dataset.save",
        target_type="dataset",
        target_id=ds.id,
        target_name=ds.name,
        before=before,
        after=_dataset_fields(ds),
    )
    return _public(ds)


@router.post("/dataset/fields/{id}", permission="admin", body=FieldsBody)
def update_fields(id: str, body: FieldsBody) -> dict[str, Any]:  # noqa: A002
    ds = datasets.get_dataset(id)
    before = _field_names(ds)
    datasets.update_fields(ds, body.fields)
    audit.record(
        "reports.dataset.fields",
        target_type="dataset",
        target_id=ds.id,
        target_name=ds.name,
        before={"fields": before},
        after={"fields": _field_names(ds)},
    )
    return _public(ds)


@router.post("/dataset/delete/{id}", permission="admin")
def delete_dataset(id: str) -> bool:  # noqa: A002
    ds = datasets.get_dataset(id)
    before = _dataset_fields(ds)
    extract.remove_files(ds)
    scope.forget_dataset(id)
    datasets.delete_dataset(id)
    audit.record(
        "reports.dataset.delete",
        target_type="dataset",
        target_id=id,
        target_name=before["name"],
        before=before,
    )
    return True


class RowPermissionsBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    rules: list[dict[str, Any]] = Field(default_factory=list, max_length=scope.MAX_RULES)


@router.get("/dataset/rowPermissions/{id}", permission="admin")
def get_row_permissions(id: str) -> list[dict[str, Any]]:  # noqa: A002
    """The dataset's row permissions: `[{id, subjectType: user|role, subjectId, subjectName, fieldId,
    operator, value}]`."""
    return named(current_tenant(), scope.list_rules(datasets.get_dataset(id)))


@router.post("/dataset/rowPermissions/{id}", permission="admin", body=RowPermissionsBody)
def save_row_permissions(id: str, body: RowPermissionsBody) -> list[dict[str, Any]]:  # noqa: A002
    """Replace the dataset's row permissions (tenant administrators); answers them as saved."""
    ds = datasets.get_dataset(id)
    before = scope.list_rules(ds)
    fields = {f.id: f for f in datasets.fields_of(ds.id)}
    saved = scope.save_rules(ds, body.rules, fields)
    audit.record(  # a change of the dataset's definition ("saved"), the rules in words
        "reports.dataset.save",
        target_type="dataset",
        target_id=ds.id,
        target_name=ds.name,
        before={"rowPermissions": [_rule_text(r) for r in before]},
        after={"rowPermissions": [_rule_text(r) for r in saved]},
    )
    return named(current_tenant(), saved)


def _rule_text(rule: dict[str, Any]) -> str:
    """A row permission as the audit trail lists it."""
    values = ", ".join(str(v) for v in rule["value"])
    return f"{rule['subjectType']} {rule['subjectId']}: {rule['fieldId']} {rule['operator']} [{values}]"


@router.post("/dataset/preview/{id}", permission="admin")
def preview(id: str) -> dict[str, Any]:  # noqa: A002
    return datasets.preview(datasets.get_dataset(id))


@router.post("/dataset/sync/{id}", permission="admin")
def sync_now(id: str) -> dict[str, Any]:  # noqa: A002
    """Copy an extract dataset now; answers the sync status."""
    ds = datasets.get_dataset(id)
    if ds.mode != "extract":
        raise BadRequest("reports:extract.not_extract")
    return extract.sync(ds)


@router.get("/dataset/syncStatus/{id}")
def sync_status(id: str) -> dict[str, Any]:  # noqa: A002
    require_grant(AUTHOR)
    ds = datasets.get_dataset(id)
    return datasets.sync_status(ds)


@router.post("/dataset/tables/{id}", permission="admin")
def tables(id: str) -> list[str]:  # noqa: A002
    """Tables of a data source (`platform`: the tenant's own tables in the platform database)."""
    if id == "platform":
        from atrium.plugins.reports.models import OwnedTable

        return sorted(session().execute(select(OwnedTable.table_name)).scalars())
    src = datasets.source_for(Dataset(datasource_id=id)) if datasets.get_datasource(id) else None
    if src is None:
        raise NotFound("reports:datasource.not_found")
    return datasets.list_tables(src)


class ExcelBody(BaseModel):
    model_config = ConfigDict(extra="ignore", arbitrary_types_allowed=True)
    file: Any
    name: str = Field(default="", max_length=100)
    headerRow: int = Field(default=1, ge=1, le=1000)


MAX_EXCEL_BYTES = 50 * 1024 * 1024


@router.post("/dataset/importExcel", permission="admin", body=ExcelBody, multipart=True)
def import_excel(body: ExcelBody) -> dict[str, Any]:
    """Multipart `file` (xlsx or xls), `name`, `headerRow`: a new table in the platform database and its
    dataset (kind `excel`)."""
    import tempfile
    from pathlib import Path

    from atrium.plugins.reports.exchange import excel

    upload = body.file
    filename = str(getattr(upload, "filename", "") or "")
    if not hasattr(upload, "file") or not filename.lower().endswith((".xlsx", ".xls")):
        raise BadRequest("reports:excel.type")
    with tempfile.NamedTemporaryFile(suffix=Path(filename).suffix.lower()) as tmp:
        size = 0
        while chunk := upload.file.read(1024 * 1024):
            size += len(chunk)
            if size > MAX_EXCEL_BYTES:
                raise BadRequest("reports:excel.too_big", max=MAX_EXCEL_BYTES // (1024 * 1024))
            tmp.write(chunk)
        tmp.flush()
        header, rows = excel.read_workbook(Path(tmp.name), body.headerRow)
    name = body.name.strip() or Path(filename).stem[:100]
    ds = excel.create_excel_dataset(name, header, rows)
    audit.record(
        "reports.dataset.import_excel",
        target_type="dataset",
        target_id=ds.id,
        target_name=ds.name,
        after={**_dataset_fields(ds), "file": filename[:200], "rows": len(rows)},
    )
    return _public(ds)
