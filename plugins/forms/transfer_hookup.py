"""The thin coupling to the transfer plugin: submissions export through its asynchronous export (source
``api/form/submission/exportData``) and each published form is an import target ``form-<code>``.

Offered through the SDK's transfer hooks (``atrium_export_sources``, ``atrium_import_targets``): the
targets are kept here (read at start, added when a form is published) and handed out when transfer asks.
When the transfer plugin is not installed nobody asks and forms work on their own.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import date, datetime
from typing import Any

import structlog
from sqlalchemy import select

from atrium.plugins.forms import dictionaries, service
from atrium.plugins.forms import schema as fs
from atrium.plugins.forms.models import Form, FormVersion
from atrium.sdk import AtriumError
from atrium.sdk.context import current_context, unscoped
from atrium.sdk.db import session
from atrium.sdk.services import services
from atrium.sdk.transfer import (
    ExportColumn,
    ExportRequest,
    ExportSource,
    FieldType,
    ImportField,
    ImportTarget,
)

log = structlog.get_logger("atrium.forms.transfer")
EXPORT_URL = "api/form/submission/exportData"
TYPES: dict[str, FieldType] = {"number": "float", "integer": "int", "boolean": "bool"}
#: an import reads a dictionary's codes again after this many seconds
DICT_SECONDS = 10.0
#: the import targets of the published forms, by code
_targets: dict[str, ImportTarget] = {}


def _query(params: dict[str, Any]) -> tuple[Form, service.ListQuery]:
    nested = params.get("params")
    inner: dict[str, Any] = nested if isinstance(nested, dict) else params
    form = service.get_form(str(inner.get("formId") or inner.get("formCode") or ""))
    found = inner.get("filters")
    filters: dict[str, Any] = found if isinstance(found, dict) else {}
    q = service.ListQuery(
        keyword=str(inner.get("keyword") or ""),
        filters={k: str(v) for k, v in filters.items()},
        status=str(inner.get("status") or ""),
    )
    return form, q


def export_columns(form: Form) -> list[tuple[str, str]]:
    row = service.get_version(form, form.published_version or form.latest_version)
    cols = [
        (k, fs.label(row.schema, k))
        for k in fs.data_fields(row.schema)
        if row.schema["properties"][k].get("x-kind") != "table"
    ]
    t = services().t
    return [
        *cols,
        ("_createdBy", t("forms:export.createdBy")),
        ("_createdAt", t("forms:export.createdAt")),
        ("_status", t("forms:export.status")),
    ]


def _cell(value: Any) -> Any:
    if isinstance(value, list | dict):
        return fs.index_text(value) or ""
    return value


def _columns(req: ExportRequest) -> list[ExportColumn]:
    form, _ = _query(req.params)
    return [ExportColumn(key=k, title=t) for k, t in export_columns(form)]


def _rows(req: ExportRequest) -> Iterator[dict[str, Any]]:
    form, q = _query(req.params)
    states = {s: services().t(f"forms:export.status_{s}") for s in ("draft", "submitted")}
    for sub in service.iter_submissions(form, q, req.user):
        out = {k: _cell(v) for k, v in sub.data.items()}
        out.update(
            _createdBy=sub.created_by_name,
            _createdAt=sub.created_at.isoformat(sep=" ", timespec="seconds"),
            _status=states.get(sub.status, sub.status),
        )
        yield out


def _count(req: ExportRequest) -> int:
    form, q = _query(req.params)
    return service.count_submissions(form, q, req.user)


SOURCE = ExportSource(
    url=EXPORT_URL,
    name={"zh-cn": "表单数据", "en-us": "Form submissions"},
    rows=_rows,
    count=_count,
    columns=_columns,
)


def export_sources() -> list[ExportSource]:
    return [SOURCE]


def import_targets() -> list[ImportTarget]:
    return list(_targets.values())


def register() -> bool:
    """Read the published forms' import targets (at start), when the transfer plugin is there to ask."""
    if "transfer" not in services().iter_plugins():
        log.info("transfer plugin not installed: no form export or import")
        return False
    with unscoped(), services().db():
        try:
            found = (
                session()
                .execute(
                    select(Form, FormVersion).join(
                        FormVersion,
                        (FormVersion.form_id == Form.id) & (FormVersion.version == Form.published_version),
                    )
                )
                .all()
            )
        except Exception:  # tables not created yet (first start before `atrium db upgrade`)
            log.info("form tables not ready: import targets registered when forms are published")
            found = []
        for form, row in found:
            register_form(form, row)
    return True


def _convert(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == datetime.min.time() else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return value


def register_form(form: Form, row: FormVersion) -> None:
    """Register (or replace) the import target of a published form: its scalar fields as columns."""
    schema = row.schema
    required = set(schema.get("required") or [])
    fields = []
    for key in fs.data_fields(schema):
        prop = schema["properties"][key]
        ptype = prop.get("type")
        if ptype not in ("string", "number", "integer", "boolean"):
            continue
        kind: FieldType = "date" if prop.get("format") == "date" else TYPES.get(str(ptype), "str")
        labels = {"zh-cn": prop.get("title") or key, **(prop.get("x-i18n") or {})}
        fields.append(
            ImportField(
                key,
                labels,
                type=kind,
                required=key in required,
                max_length=prop.get("maxLength"),
                aliases=(key,),
            )
        )
    code = form.code

    version_id = service.version_key(row)

    def prepare(data: dict[str, Any]) -> dict[str, Any]:
        return fs.clean(schema, {k: _convert(v) for k, v in data.items() if v is not None})

    dict_keys = fs.dict_fields(schema)
    recent: dict[str, tuple[float, set[str]]] = {}

    def codes(dic_type: str) -> set[str]:
        """A dictionary's codes, read again after a few seconds (rows are checked one by one)."""
        hit = recent.get(dic_type)
        if hit is None or time.monotonic() - hit[0] > DICT_SECONDS:
            hit = (time.monotonic(), dictionaries.codes(dic_type))
            recent[dic_type] = hit
        return hit[1]

    def validate_row(data: dict[str, Any]) -> str | None:
        """Checked against the schema published when the target was registered, and dictionary fields
        against their dictionaries."""
        try:
            cleaned = prepare(data)
        except AtriumError as exc:
            return services().t(exc.key, **exc.params)
        errors = fs.errors_of(fs.validators.get(version_id, schema), schema, cleaned)
        if dict_keys:
            seen = {e["field"] for e in errors}
            more = fs.reference_errors(schema, cleaned, codes, lambda ids: {})
            errors += [e for e in more if e["field"] not in seen]
        return "; ".join(e["message"] for e in errors) or None

    def write(rows: list[dict[str, Any]]) -> None:
        found, current = service.published(code)
        service.bulk_store(found, current, [prepare(r) for r in rows], current_context().user)

    names = form.name or {}
    target = ImportTarget(
        code=f"form-{code}",
        name={k: f"{v}" for k, v in names.items()} or code,
        fields=fields,
        write=write,
        validate_row=validate_row,
    )
    _targets[target.code] = target
