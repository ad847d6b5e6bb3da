"""Chart data: from a view definition and a request (filters, linkage, drill, paging) to the answer.

One aggregated statement per request, pushed down to the source (direct) or DuckDB (extract); pandas
only shapes the aggregated rows. Answers are cached under the view's and the dataset's versions and a
digest of the request; `cache: false` bypasses the cache.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from atrium.plugins.reports.engine import hotpath, shape
from atrium.plugins.reports.engine.fields import RECORD_COUNT_ID, FieldInfo, record_count_field
from atrium.plugins.reports.engine.filters import Condition, condition
from atrium.plugins.reports.engine.query import Axis, Plan, Relation, build, count_statement
from atrium.plugins.reports.engine.viewdef import SINGLE_VALUE_KINDS, is_text_kind
from atrium.plugins.reports.models import Dataset
from atrium.plugins.reports.settings import report_settings
from atrium.plugins.reports.store import crypto, datasets, scope
from atrium.plugins.reports.store.scope import DataUser, Rule
from atrium.sdk.context import current_context
from atrium.sdk.errors import BadRequest
from atrium.sdk.services import services

MAX_PAGE_SIZE = 10_000


class FilterItem(BaseModel):
    """A filter (spec 3.4): from a filter widget, a linkage click, a jump or the address."""

    model_config = ConfigDict(extra="ignore")
    componentId: str | None = Field(default=None, max_length=64)
    fieldId: str = Field(max_length=64)
    operator: str | None = Field(default=None, max_length=16)
    value: Any = None
    viewIds: list[str] | None = None
    sourceViewId: str | None = Field(default=None, max_length=64)
    dynamic: dict[str, Any] | None = None


class DrillItem(BaseModel):
    model_config = ConfigDict(extra="ignore")
    fieldId: str | None = Field(default=None, max_length=64)
    value: Any = None
    datasetTableField: dict[str, Any] | None = None

    @property
    def field_id(self) -> str:
        if self.fieldId:
            return self.fieldId
        if self.datasetTableField and isinstance(self.datasetTableField.get("id"), str):
            return str(self.datasetTableField["id"])
        return ""


class DataRequest(BaseModel):
    """The body of getData and calcData."""

    model_config = ConfigDict(extra="ignore")
    filter: list[FilterItem] = Field(default_factory=list, max_length=200)
    linkageFilters: list[FilterItem] = Field(default_factory=list, max_length=200)
    outerParamsFilters: list[FilterItem] = Field(default_factory=list, max_length=200)
    urlFilter: list[FilterItem] = Field(default_factory=list, max_length=200)
    drill: list[DrillItem] = Field(default_factory=list, max_length=20)
    queryFrom: str = Field(default="panel", max_length=16)
    cache: bool = True
    resultMode: str | None = Field(default=None, pattern="^(all|custom)$")
    resultCount: int | None = Field(default=None, ge=1, le=100_000)
    pageSize: int | None = Field(default=None, ge=1, le=MAX_PAGE_SIZE)
    goPage: int | None = Field(default=None, ge=1, le=1_000_000)
    pageNum: int | None = Field(default=None, ge=1, le=1_000_000)
    #: the panel's proxy user, when the request answers in the proxy's data scope (see `store.scope`)
    user: int | None = None


def _axis(item: dict[str, Any], fields: dict[str, FieldInfo], quota: bool, used: set[str]) -> Axis:
    fid = item["id"]
    if fid == RECORD_COUNT_ID and quota:
        f = record_count_field(services().t("reports:field.record_count"))
    else:
        f = fields.get(fid)  # type: ignore[assignment]
        if f is None:
            raise BadRequest("reports:field.not_found", id=fid[:40])
    key = f.dataease_name
    n = 1
    while key in used:
        n += 1
        key = f"{f.dataease_name}_{n}"
    used.add(key)
    summary = ""
    if quota:
        summary = item.get("summary") or ("count" if f.type == "text" or f.type == "time" else "sum")
    return Axis(
        f,
        key,
        summary,
        item.get("sort") or "none",
        item.get("dateStyle") or "",
        item.get("datePattern") or "date_sub",
        item,
    )


def _conditions(
    items: list[FilterItem], fields: dict[str, FieldInfo], view_id: str | None
) -> list[Condition]:
    out = []
    for it in items:
        if it.viewIds and view_id and view_id not in it.viewIds:
            continue
        f = fields.get(it.fieldId)
        if f is None:
            if not datasets.field_exists(it.fieldId):
                raise BadRequest("reports:field.not_found", id=it.fieldId[:40])
            continue  # a widget bound to a field of another dataset does not filter this view
        c = condition(f, it.operator, it.value, it.dynamic)
        if c is not None:
            out.append(c)
    return out


def _static_filters(view: dict[str, Any], fields: dict[str, FieldInfo]) -> list[Condition]:
    items = [FilterItem.model_validate(c) for c in view.get("customFilter") or []]
    return _conditions(items, fields, None)


def drill_state(
    view: dict[str, Any], req: DataRequest, fields: dict[str, FieldInfo]
) -> tuple[list[dict[str, Any]], list[Condition], list[dict[str, Any]]]:
    """The x axis after drilling, the drill conditions, and the drill filters echoed to the viewer.

    The level is the number of drill filters: x shows drillFields[level], filtered by the values clicked
    at the levels above (spec 4: "Drill moves to the next drill field, using the count of drill filters").
    """
    xaxis = list(view.get("xaxis") or [])
    drill_fields = view.get("drillFields") or []
    if not drill_fields:
        if req.drill:
            raise BadRequest("reports:drill.not_enabled")
        return xaxis, [], []
    level = len(req.drill)
    if level >= len(drill_fields):
        raise BadRequest("reports:drill.too_deep", levels=len(drill_fields))
    conds: list[Condition] = []
    echo: list[dict[str, Any]] = []
    for i, d in enumerate(req.drill):
        expected = drill_fields[i]["id"]
        if d.field_id != expected:
            raise BadRequest("reports:drill.field", id=d.field_id[:40] or "-")
        f = fields.get(expected)
        if f is None:
            raise BadRequest("reports:field.not_found", id=expected[:40])
        value = d.value if isinstance(d.value, list) else [d.value]
        c = condition(f, "eq", value[:1])
        if c is not None:
            conds.append(c)
        echo.append({"fieldId": f.id, "value": value[:1], "datasetTableField": f.public()})
    first = drill_fields[0]["id"]
    pos = next((i for i, a in enumerate(xaxis) if a.get("id") == first), None)
    current = {**drill_fields[level]}
    if pos is None:
        xaxis.insert(0, current)
    else:
        xaxis[pos] = {**xaxis[pos], **current} if level == 0 else current
    return xaxis, conds, echo


def cache_key(view: dict[str, Any], ds: dict[str, Any], req: DataRequest, viewer_key: str) -> str:
    ctx = current_context()
    ident = (view.get("id"), view.get("version")) if view.get("version") else crypto.digest(view)
    body = req.model_dump(exclude={"cache", "user"}, exclude_defaults=True)
    digest = crypto.digest(ident, ds["id"], ds["version"], ds["mode"], body, ctx.locale, viewer_key)
    return f"rpt:data:{ctx.tenant_id}:{digest}"


def view_data(
    view: dict[str, Any], req: DataRequest, *, user: DataUser, dataset: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The chart answer for a view definition: the view fields plus `data`, `success`, drill and paging,
    in the data scope of `user` (the row permissions that name them).

    `dataset` ({id, version, mode}) spares the lookup when the caller already knows it (the hot path)."""
    ds: Dataset | None = None
    if dataset is None:
        ds = datasets.get_dataset(view.get("tableId") or "")
        dataset = {"id": ds.id, "version": ds.version, "mode": ds.mode}
    rules = scope.applicable(str(dataset["id"]), user)
    key = cache_key(view, dataset, req, scope.scope_key(rules))
    cache = services().cache
    if req.cache:
        hit = cache.get(key)
        if hit is not None:
            return {**_public_view(view), **hit}
    field_list: list[FieldInfo] | None = None
    if ds is None:
        ds, field_list = hotpath.dataset_at(dataset)
    answer = compute(view, ds, req, field_list, rules)
    cache.set(key, answer, ttl=report_settings().cache_ttl)
    return {**_public_view(view), **answer}


def _public_view(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "version"}


def compute(
    view: dict[str, Any],
    ds: Dataset,
    req: DataRequest,
    field_list: list[FieldInfo] | None = None,
    rules: list[Rule] | None = None,
) -> dict[str, Any]:
    """The answer of a view over `ds`, restricted by the row permissions `rules`."""
    if field_list is None:
        field_list = datasets.fields_of(ds.id)
    fields = {f.id: f for f in field_list}
    source_fields = [f.public() for f in field_list]  # the dataset's fields, for drill and jump settings
    kind = view.get("type", "bar")
    view_id = view.get("id")
    xaxis, drill_conds, drill_echo = drill_state(view, req, fields)
    conds = scope.conditions(rules or [], fields)
    conds += _static_filters(view, fields)
    conds += _conditions(req.filter, fields, view_id)
    conds += _conditions(req.linkageFilters, fields, view_id)
    conds += _conditions(req.outerParamsFilters, fields, view_id)
    conds += _conditions(req.urlFilter, fields, view_id)
    conds += drill_conds
    used: set[str] = set()
    extra: dict[str, Any] = {"drill": bool(drill_echo), "drillFilters": drill_echo}

    if kind == "table-info":
        cols = [_axis(a, fields, False, used) for a in xaxis]
        if not cols:
            raise BadRequest("reports:view.no_fields")
        page = req.goPage or req.pageNum or 1
        size = req.pageSize or int(view.get("pageSize") or 20)
        plan = Plan(cols, [], conds, limit=size, offset=(page - 1) * size, details=True)
        rows = _rows(ds, field_list, plan)
        _, total = datasets.execute(
            ds, field_list, lambda rel: count_statement(rel, conds), statement_key=("count", tuple(conds))
        )
        data = shape.details(cols, rows)
        data["sourceFields"] = source_fields
        extra.update(pageNum=page, pageSize=size, resultTotal=int(total[0][0]))
        data.update(pageNum=page, pageSize=size, resultTotal=extra["resultTotal"])
        return {"data": data, "success": True, **extra}

    dims = [_axis(a, fields, False, used) for a in xaxis]
    ext_dims = [_axis(a, fields, False, used) for a in view.get("xaxisExt") or []]
    quotas: list[tuple[str, Axis]] = []
    for axis_name in ("yaxis", "yaxisExt", "extBubble"):
        quotas += [(axis_name, _axis(a, fields, True, used)) for a in view.get(axis_name) or []]
    if kind in SINGLE_VALUE_KINDS or (is_text_kind(kind) and not dims):
        dims, ext_dims = [], []
    q_axes = [a for _, a in quotas]
    if not dims and not ext_dims and not q_axes:
        raise BadRequest("reports:view.no_fields")
    mode = req.resultMode or view.get("resultMode") or "all"
    limit = (
        int(req.resultCount or view.get("resultCount") or 1000)
        if mode == "custom"
        else (report_settings().max_groups + 1)
    )
    plan = Plan(dims + ext_dims, q_axes, conds, limit=limit)

    if kind == "table-pivot":
        data = _pivot(ds, field_list, dims, ext_dims, q_axes, conds, plan)
        data["sourceFields"] = source_fields
        return {"data": data, "success": True, **extra}

    rows = _rows(ds, field_list, plan)
    truncated = mode != "custom" and len(rows) > report_settings().max_groups
    rows = rows[: report_settings().max_groups] if truncated else rows
    data = shape.chart(dims, ext_dims, quotas, rows, with_derived=True)
    data["truncated"] = truncated
    data["sourceFields"] = source_fields
    return {"data": data, "success": True, **extra}


def _rows(ds: Dataset, field_list: list[FieldInfo], plan: Plan) -> list[tuple[Any, ...]]:
    """The rows of the plan's statement, whose compiled form is kept under the plan's statement key."""
    key = ("plan", plan.statement_key())
    return datasets.execute(ds, field_list, lambda rel: build(rel, plan), statement_key=key)[1]


def _pivot(
    ds: Dataset,
    field_list: list[FieldInfo],
    rows_dims: list[Axis],
    col_dims: list[Axis],
    quotas: list[Axis],
    conds: list[Condition],
    plan: Plan,
) -> dict[str, Any]:
    rows = _rows(ds, field_list, plan)

    def total(dims: list[Axis]) -> list[tuple[Any, ...]]:
        return _rows(ds, field_list, Plan(dims, quotas, conds, limit=plan.limit))

    row_totals = total(rows_dims) if rows_dims and col_dims else []
    col_totals = total(col_dims) if col_dims else []
    grand = total([])[0] if quotas else None
    data = shape.chart(rows_dims, col_dims, [("yaxis", q) for q in quotas], rows, with_derived=False)
    data["pivot"] = shape.pivot(rows_dims, col_dims, quotas, rows, row_totals, col_totals, grand)
    return data


def distinct_values(field_ids: list[str], filters: list[FilterItem], user: DataUser) -> list[Any]:
    """Distinct values of one or more fields (filter widgets), merged and sorted, among the rows of the
    data scope of `user`."""
    from atrium.plugins.reports.engine.query import distinct_statement
    from atrium.plugins.reports.models import DatasetField
    from atrium.sdk.db import session

    limit = report_settings().max_field_values
    values: set[Any] = set()
    for fid in field_ids[:20]:
        row = session().get(DatasetField, fid) if fid else None
        if row is None:
            raise BadRequest("reports:field.not_found", id=str(fid)[:40])
        ds = datasets.get_dataset(row.dataset_id)
        field_list = datasets.fields_of(ds.id)
        fields = {f.id: f for f in field_list}
        f = fields.get(fid)
        if f is None:
            continue
        conds = scope.conditions(scope.applicable(ds.id, user), fields) + _conditions(filters, fields, None)

        def make(rel: Relation, f: FieldInfo = f, conds: list[Condition] = conds) -> Any:
            return distinct_statement(rel, f, conds, limit)

        _, rows = datasets.execute(ds, field_list, make)
        values.update(shape.plain(r[0], f.type == "integer") for r in rows)
    return sorted(values, key=lambda v: (isinstance(v, str), v))[:limit]
