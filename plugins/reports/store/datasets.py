"""Data sources and datasets: definitions, field detection, and where a dataset's queries run.

The platform's own database is the default source. There, table datasets may only use tables owned by
the tenant (created by an Excel import or demo data), and SQL datasets need a super administrator: the
platform database holds every tenant's records. A tenant's own data sources (any SQLAlchemy URL whose
driver is installed) allow any table or read-only query; file-based drivers (SQLite, DuckDB) read files
on the server and need a super administrator too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy import select

from atrium.plugins.reports.engine import hotpath, sources
from atrium.plugins.reports.engine.fields import (
    TYPES,
    FieldInfo,
    dataease_name,
    default_role,
    info,
    type_of_sqla,
    type_of_values,
)
from atrium.plugins.reports.engine.query import Relation
from atrium.plugins.reports.engine.sqlguard import check_read_only
from atrium.plugins.reports.models import Dataset, DatasetField, DataSource, OwnedTable
from atrium.plugins.reports.settings import report_settings
from atrium.plugins.reports.store import crypto
from atrium.sdk.context import current_user
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import BadRequest, Forbidden, NotFound
from atrium.sdk.services import services

KINDS = ("table", "sql", "excel")
MODES = ("direct", "extract")
_TABLE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?$")


# ---------------------------------------------------------------------------
# lookups (tenant-scoped: another tenant's ids are simply not found)
# ---------------------------------------------------------------------------


def get_datasource(ds_id: str) -> DataSource:
    row = session().get(DataSource, ds_id) if ds_id else None
    if row is None:
        raise NotFound("reports:datasource.not_found")
    return row


def get_dataset(dataset_id: str) -> Dataset:
    row = session().get(Dataset, dataset_id) if dataset_id else None
    if row is None:
        raise NotFound("reports:dataset.not_found")
    return row


def field_rows(dataset_id: str) -> list[DatasetField]:
    return list(
        session()
        .execute(
            select(DatasetField).where(DatasetField.dataset_id == dataset_id).order_by(DatasetField.sort)
        )
        .scalars()
    )


def fields_of(dataset_id: str) -> list[FieldInfo]:
    return [info(f) for f in field_rows(dataset_id) if f.checked]


def field_exists(field_id: str) -> bool:
    return session().get(DatasetField, field_id) is not None


def source_for(ds: Dataset) -> sources.Source:
    return sources.source_of(get_datasource(ds.datasource_id) if ds.datasource_id else None)


def relation(ds: Dataset, fields: list[FieldInfo], flavour: str) -> Relation:
    if ds.kind == "sql":
        return Relation(flavour, fields, sql=ds.sql_text)
    schema, _, name = ds.table_name.rpartition(".")
    return Relation(flavour, fields, table=name, schema=schema or None)


def execute(
    ds: Dataset,
    fields: list[FieldInfo],
    make: Callable[[Relation], Any],
    *,
    cancel_after: float | None = None,
    statement_key: Hashable | None = None,
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run the statement `make` builds: pushed down to the dataset's source (direct) or DuckDB (extract).

    `statement_key`, when given, says completely what `make` builds (see `extract.query`)."""
    if ds.mode == "extract":
        from atrium.plugins.reports.engine import extract

        return extract.query(ds, fields, make, timeout=cancel_after, statement_key=statement_key)
    src = source_for(ds)
    return sources.fetch(src, make(relation(ds, fields, src.flavour)), cancel_after)


def bump(ds: Dataset) -> None:
    """A new dataset version: cached chart answers of the old one are no longer used."""
    ds.version = (ds.version or 0) + 1
    hotpath.touch()


# ---------------------------------------------------------------------------
# data sources
# ---------------------------------------------------------------------------


def require_super_admin_for_files(driver: str) -> None:
    user = current_user()
    if driver in sources.FILE_DRIVERS and not user.is_super_admin:
        raise Forbidden("reports:datasource.file_driver")


def datasource_public(d: DataSource) -> dict[str, Any]:
    from atrium.plugins.reports.authoring.source_config import public_settings

    url = crypto.decrypt(d.url_enc)
    masked = ""
    if url:
        try:
            masked = sources.normalise_url(url).render_as_string(hide_password=True)
        except Exception:  # noqa: BLE001 - a stored URL that no longer parses is shown masked as empty
            masked = ""
    return {
        "id": d.id,
        "name": d.name,
        "driver": d.driver,
        "url": masked,
        "description": d.description,
        "queryTimeout": d.query_timeout,
        "hasCredentials": bool(url),
        "updateTime": int(d.updated_at.timestamp() * 1000) if d.updated_at else None,
        **public_settings(url),
    }


def save_datasource(
    ds_id: str | None, name: str, url: str | None, description: str, query_timeout: int
) -> DataSource:
    db = session()
    row = get_datasource(ds_id) if ds_id else DataSource(created_by=current_user().user_id)
    if url:
        parsed = sources.normalise_url(url)
        driver = sources.driver_of(parsed)
        require_super_admin_for_files(driver)
        row.url_enc, row.driver = crypto.encrypt(url.strip()), driver
    elif not ds_id:
        raise BadRequest("reports:source.bad_url")
    else:
        require_super_admin_for_files(row.driver)
    row.name, row.description, row.query_timeout = name, description, query_timeout
    if not ds_id:
        db.add(row)
    row.updated_at = utcnow()
    db.flush()
    sources.forget(f"ds:{row.id}:")
    for dataset in db.execute(select(Dataset).where(Dataset.datasource_id == row.id)).scalars():
        bump(dataset)
    return row


def check_datasource(url: str | None, ds_id: str | None) -> dict[str, Any]:
    """Connect and run `SELECT 1`; answers the tables the source has."""
    if url:
        parsed = sources.normalise_url(url)
        require_super_admin_for_files(sources.driver_of(parsed))
        src = sources.Source(
            f"check:{crypto.digest(url)}",
            sources.engine_for(f"check:{crypto.digest(url)}", parsed),
            min(10.0, report_settings().query_timeout),
        )
    else:
        src = sources.source_of(get_datasource(ds_id or ""))
    try:
        sources.fetch(src, sa.text("SELECT 1"))
        return {"ok": True, "tables": list_tables(src)}
    except (sources.SourceFailed, sources.SourceTimeout) as exc:
        # a source that cannot be reached is an answer of the check, not an error of the request
        return {"ok": False, "tables": [], "error": services().t(exc.key, **exc.params)}
    finally:
        if url:
            sources.forget(src.key)


def list_tables(src: sources.Source) -> list[str]:
    with sources.read_only(src) as conn:
        insp = sa.inspect(conn)
        names = list(insp.get_table_names()) + list(insp.get_view_names())
    return sorted(set(names))


def delete_datasource(ds_id: str) -> None:
    row = get_datasource(ds_id)
    used = (
        session()
        .execute(select(sa.func.count()).select_from(Dataset).where(Dataset.datasource_id == ds_id))
        .scalar_one()
    )
    if used:
        raise BadRequest("reports:datasource.in_use", count=used)
    session().delete(row)
    sources.forget(f"ds:{ds_id}:")


# ---------------------------------------------------------------------------
# datasets
# ---------------------------------------------------------------------------


def owned_table(name: str) -> bool:
    return session().get(OwnedTable, name) is not None


def own_table(name: str) -> None:
    session().merge(OwnedTable(table_name=name, created_at=utcnow()))


def check_definition(datasource_id: str | None, kind: str, table_name: str, sql_text: str) -> None:
    user = current_user()
    if kind not in KINDS:
        raise BadRequest("reports:dataset.kind", kind=kind[:20])
    if kind in ("table", "excel"):
        if not _TABLE_NAME.match(table_name or ""):
            raise BadRequest("reports:dataset.table_name")
        if not datasource_id and not owned_table(table_name):
            raise NotFound("reports:dataset.table_not_found", table=table_name[:64])
    elif not datasource_id and not user.is_super_admin:
        raise Forbidden("reports:dataset.platform_sql")
    if kind == "sql":
        check_read_only(sql_text or "")
    if datasource_id:
        get_datasource(datasource_id)


def detect_columns(ds: Dataset) -> list[tuple[str, str]]:
    """(column, type) of a dataset's source: from the table's metadata, or from sample rows of its query."""
    src = source_for(ds)
    if ds.kind == "sql":
        from atrium.plugins.reports.engine.query import clean_sql

        stmt = sa.text(f"SELECT * FROM ({clean_sql(ds.sql_text)}) ds LIMIT 200")
        keys, rows = sources.fetch(src, stmt)
        return [(k, type_of_values([r[i] for r in rows])) for i, k in enumerate(keys)]
    schema, _, name = ds.table_name.rpartition(".")
    if src.flavour == "duckdb":
        # DuckDB's SQLAlchemy inspector cannot read column metadata of current DuckDB releases: sample rows
        table = sa.table(name, schema=schema or None)
        keys, rows = sources.fetch(src, sa.select(sa.text("*")).select_from(table).limit(200))
        return [(k, type_of_values([r[i] for r in rows])) for i, k in enumerate(keys)]
    with sources.read_only(src) as conn:
        insp = sa.inspect(conn)
        try:
            cols = insp.get_columns(name, schema=schema or None)
        except sa.exc.NoSuchTableError:
            cols = []
        if not cols:
            raise NotFound("reports:dataset.table_not_found", table=ds.table_name[:64])
        out = [(c["name"], type_of_sqla(c["type"])) for c in cols]
        if src.flavour == "sqlite":
            # SQLite declares little: refine text columns from sample values (dates kept as text)
            sample: Sequence[sa.Row[*tuple[Any, ...]]] = conn.execute(
                sa.select(*[sa.column(n) for n, _ in out])
                .select_from(sa.table(name, schema=schema or None))
                .limit(200)
            ).fetchall()
            out = [
                (n, t if t != "text" else type_of_values([r[i] for r in sample]))
                for i, (n, t) in enumerate(out)
            ]
    return out


def sync_fields(ds: Dataset, overrides: list[dict[str, Any]] | None = None) -> list[DatasetField]:
    """Create or refresh the dataset's fields from its source; keeps ids, names and roles of known columns."""
    db = session()
    cols = detect_columns(ds)
    existing = {f.origin_name: f for f in field_rows(ds.id) if not f.expression}
    by_origin = {o.get("originName"): o for o in overrides or [] if isinstance(o, dict)}
    keep: list[DatasetField] = []
    for i, (name, ftype) in enumerate(cols):
        row = existing.pop(name, None)
        if row is None:
            row = DatasetField(
                dataset_id=ds.id,
                name=name,
                origin_name=name,
                dataease_name=dataease_name(name),
                type=ftype,
                role=default_role(ftype, name),
            )
            db.add(row)
        row.source_type, row.sort = ftype, i
        o = by_origin.get(name)
        if o:
            apply_field_override(row, o)
        keep.append(row)
    for gone in existing.values():
        db.delete(gone)
    db.flush()
    return keep


def apply_field_override(row: DatasetField, o: dict[str, Any]) -> None:
    if "name" in o:
        name = str(o["name"]).strip()
        if not name or len(name) > 100:
            raise BadRequest("reports:field.name")
        row.name = name
    if "type" in o:
        if o["type"] not in TYPES:
            raise BadRequest("reports:field.type", type=str(o["type"])[:20])
        row.type = o["type"]
    if "role" in o:
        if o["role"] not in ("dimension", "quota"):
            raise BadRequest("reports:field.role", role=str(o["role"])[:20])
        row.role = o["role"]
    if "checked" in o:
        row.checked = bool(o["checked"])


def save_dataset(body: dict[str, Any]) -> Dataset:
    db = session()
    ds_id = body.get("id")
    kind = body.get("kind", "table")
    datasource_id = body.get("datasourceId") or None
    table_name, sql_text = (body.get("tableName") or "").strip(), (body.get("sql") or "").strip()
    mode = body.get("mode", "direct")
    if mode not in MODES:
        raise BadRequest("reports:dataset.mode", mode=str(mode)[:20])
    check_definition(datasource_id, kind, table_name, sql_text)
    if kind == "sql":
        from atrium.plugins.reports.engine.query import clean_sql

        clean_sql(sql_text)
    row = get_dataset(ds_id) if ds_id else Dataset(created_by=current_user().user_id)
    changed = (row.datasource_id, row.kind, row.table_name, row.sql_text) != (
        datasource_id,
        kind,
        table_name,
        sql_text,
    )
    row.name, row.datasource_id, row.kind = body["name"], datasource_id, kind
    row.table_name, row.sql_text = (table_name if kind != "sql" else ""), (sql_text if kind == "sql" else "")
    if row.mode != mode:
        changed = True
    row.mode, row.sync_interval = mode, int(body.get("syncInterval") or 0)
    if not ds_id:
        db.add(row)
    db.flush()
    if changed or not ds_id or body.get("fields"):
        sync_fields(row, body.get("fields"))
    bump(row)
    if row.mode == "extract" and changed:
        row.extract_file, row.sync_status = "", "never"
    return row


def update_fields(ds: Dataset, items: list[dict[str, Any]]) -> None:
    rows = {f.id: f for f in field_rows(ds.id)}
    for o in items:
        row = rows.get(str(o.get("id")))
        if row is None:
            raise NotFound("reports:field.not_found", id=str(o.get("id"))[:40])
        apply_field_override(row, o)
    bump(ds)


def delete_dataset(dataset_id: str) -> None:
    from atrium.plugins.reports.models import ChartView

    ds = get_dataset(dataset_id)
    if session().execute(select(ChartView.id).where(ChartView.dataset_id == dataset_id).limit(1)).first():
        raise BadRequest("reports:dataset.in_use")
    for f in field_rows(dataset_id):
        session().delete(f)
    session().delete(ds)
    hotpath.touch()


def dataset_public(ds: Dataset, with_fields: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": ds.id,
        "name": ds.name,
        "datasourceId": ds.datasource_id,
        "kind": ds.kind,
        "tableName": ds.table_name,
        "sql": ds.sql_text,
        "mode": ds.mode,
        "syncInterval": ds.sync_interval,
        "version": ds.version,
        "sync": sync_status(ds),
    }
    if with_fields:
        out["fields"] = [
            {
                **info(f).public(),
                "sourceType": f.source_type,
                "checked": f.checked,
                "expression": f.expression or "",
                "calculated": bool(f.expression),
            }
            for f in field_rows(ds.id)
        ]
    return out


def sync_status(ds: Dataset) -> dict[str, Any]:
    def ms(t: Any) -> int | None:
        return int(t.timestamp() * 1000) if t else None

    return {
        "status": ds.sync_status,
        "error": ds.sync_error,
        "rows": ds.extract_rows,
        "lastSyncTime": ms(ds.last_sync_at),
        "startedTime": ms(ds.sync_started_at),
        "ready": bool(ds.extract_file) if ds.mode == "extract" else True,
    }


def preview(ds: Dataset, limit: int = 100) -> dict[str, Any]:
    fields = fields_of(ds.id)

    def make(rel: Relation) -> Any:
        return (
            sa.select(*[rel.value(f).label(f.dataease_name) for f in fields])
            .select_from(rel.base)
            .limit(limit)
        )

    keys, rows = execute(ds, fields, make)
    from atrium.plugins.reports.engine.shape import plain

    return {
        "fields": [f.public() for f in fields],
        "rows": [dict(zip(keys, [plain(v) for v in r], strict=True)) for r in rows],
    }


def extract_fields(fields: list[FieldInfo]) -> list[FieldInfo]:
    """Fields as stored in an extract file: already of their declared type."""
    return [replace(f, source_type=f.type) for f in fields]
