"""The dataset query builder: one SQLAlchemy Core statement per chart request.

The relation is a dataset's table, its read-only SQL wrapped as a subquery, or (extract mode) the view
`ds` DuckDB reads from the Parquet file. Dimensions are grouped, quotas aggregated, filters become WHERE
clauses with bound parameters, sorts ORDER BY and paging LIMIT/OFFSET. Only identifiers from the
dataset's metadata (quoted by SQLAlchemy) and server constants ever become SQL text.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.sql.elements import ColumnElement

from atrium.plugins.reports.authoring import calcfields
from atrium.plugins.reports.engine.fields import FieldInfo, sa_type
from atrium.plugins.reports.engine.filters import Condition, TimeValue
from atrium.sdk.errors import BadRequest

AGGREGATIONS = ("sum", "avg", "count", "count_distinct", "max", "min")
DATE_STYLES = ("y", "y_Q", "y_M", "y_M_d", "H_m_s", "y_M_d_H_m", "y_M_d_H_m_s")
STRFTIME = {
    "y": "%Y",
    "y_M": "%Y-%m",
    "y_M_d": "%Y-%m-%d",
    "H_m_s": "%H:%M:%S",
    "y_M_d_H_m": "%Y-%m-%d %H:%M",
    "y_M_d_H_m_s": "%Y-%m-%d %H:%M:%S",
}
PG_FORMAT = {
    "y": "YYYY",
    "y_M": "YYYY-MM",
    "y_M_d": "YYYY-MM-DD",
    "H_m_s": "HH24:MI:SS",
    "y_M_d_H_m": "YYYY-MM-DD HH24:MI",
    "y_M_d_H_m_s": "YYYY-MM-DD HH24:MI:SS",
}
MYSQL_FORMAT = {
    "y": "%Y",
    "y_M": "%Y-%m",
    "y_M_d": "%Y-%m-%d",
    "H_m_s": "%H:%i:%s",
    "y_M_d_H_m": "%Y-%m-%d %H:%i",
    "y_M_d_H_m_s": "%Y-%m-%d %H:%i:%s",
}
_COLON = re.compile(r"(?<!\\):")


@dataclass
class Axis:
    """One field placed on an axis of a view, with how it is grouped, aggregated and sorted."""

    field: FieldInfo
    key: str
    summary: str = ""
    sort: str = "none"
    date_style: str = ""
    date_pattern: str = "date_sub"
    raw: dict[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def is_quota(self) -> bool:
        return bool(self.summary)

    @property
    def statement_key(self) -> tuple[Any, ...]:
        """Everything the statement builder reads of this axis (not its label nor its display settings)."""
        return (self.field, self.summary, self.sort, self.date_style, self.date_pattern)

    @property
    def shown_name(self) -> str:
        """The name the author gave the field on this axis, else the dataset field's own name."""
        name = self.raw.get("name")
        return name.strip()[:100] if isinstance(name, str) and name.strip() else self.field.name


def like_pattern(text: str) -> str:
    """`%text%` with the LIKE wildcards in the text escaped (escape character backslash)."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def clean_sql(sql: str) -> str:
    """An admin's dataset query, checked to be one SELECT and escaped for `text()` (colons)."""
    body = sql.strip().rstrip(";").strip()
    head = body[:10].lower()
    if not body or not (head.startswith("select") or head.startswith("with")) or ";" in body:
        raise BadRequest("reports:dataset.sql_select_only")
    return _COLON.sub(r"\\:", body)


class Relation:
    """The FROM of a dataset's queries and the typed expression of each field on it."""

    def __init__(
        self,
        flavour: str,
        fields: Sequence[FieldInfo],
        *,
        table: str = "",
        sql: str = "",
        schema: str | None = None,
    ) -> None:
        self.flavour = flavour
        self.fields = list(fields)
        cols = [
            sa.column(f.origin_name, self._source_type(f))
            for f in self.fields
            if not f.is_record_count and not f.is_calculated
        ]
        if sql:
            self.base: sa.FromClause = sa.text(clean_sql(sql)).columns(*cols).subquery("ds")
        else:
            self.base = sa.table(table, *cols, schema=schema)
        self._cols = {c.name: c for c in self.base.c}
        self._physical = frozenset(self._cols)

    def _source_type(self, f: FieldInfo) -> sa.types.TypeEngine[Any]:
        if self.flavour == "sqlite" and f.source_type == "time":
            return sa.String()
        return sa_type(f.source_type)

    def column(self, f: FieldInfo) -> ColumnElement[Any]:
        if f.is_calculated:
            sql = calcfields.render(f.expression, self.flavour, self._physical)
            return sa.literal_column(sql, self._source_type(f))
        try:
            return self._cols[f.origin_name]
        except KeyError:
            raise BadRequest("reports:field.not_found", id=f.id) from None

    def value(self, f: FieldInfo) -> ColumnElement[Any]:
        """The field as its declared type (a cast when the admin declared another type than the source's)."""
        col = self.column(f)
        if f.type == f.source_type:
            return col
        if f.type == "time":
            return self.time(f)
        if f.type == "text":
            return sa.cast(col, sa.String)
        return sa.cast(col, sa_type(f.type))

    def time(self, f: FieldInfo) -> ColumnElement[Any]:
        """A time field in a form that compares with bound values: text 'YYYY-MM-DD HH:MM:SS' on SQLite."""
        col = self.column(f)
        if self.flavour == "sqlite":
            return sa.func.datetime(col)
        if f.source_type == "time":
            return col
        return sa.cast(col, sa.DateTime)

    def time_bind(self, at: datetime) -> datetime | str:
        if self.flavour == "sqlite":
            return at.strftime("%Y-%m-%d %H:%M:%S")
        return at

    # -- dimensions and quotas -------------------------------------------------

    def date_label(self, axis: Axis) -> Any:
        """A time dimension grouped by its date style (year, quarter, month, day, ...), as text."""
        f = axis.field
        style = axis.date_style or "y_M_d"
        if style not in DATE_STYLES:
            raise BadRequest("reports:view.date_style", style=style[:20])
        col = self.column(f) if self.flavour == "sqlite" else self.time(f)
        expr = self._quarter(col) if style == "y_Q" else self._part(col, style)
        if axis.date_pattern == "date_split" and style != "H_m_s":
            expr = sa.func.replace(expr, "-", "/")
        return expr

    def _quarter(self, col: Any) -> Any:
        if self.flavour == "sqlite":
            month = sa.cast(sa.func.strftime("%m", col), sa.Integer)
            quarter = (month + 2).self_group().op("/")(3)
            return sa.func.strftime("%Y", col).op("||")("-Q").op("||")(quarter)
        if self.flavour == "postgresql":
            return sa.func.to_char(col, 'YYYY-"Q"Q')
        return sa.func.concat(self._part(col, "y"), "-Q", sa.func.quarter(col))

    def _part(self, col: Any, style: str) -> Any:
        if self.flavour == "sqlite":
            return sa.func.strftime(STRFTIME[style], col)
        if self.flavour == "postgresql":
            return sa.func.to_char(col, PG_FORMAT[style])
        if self.flavour in ("mysql", "mariadb"):
            return sa.func.date_format(col, MYSQL_FORMAT[style])
        return sa.func.strftime(col, STRFTIME[style])

    def dimension(self, axis: Axis) -> Any:
        if axis.field.type == "time" and (axis.date_style or axis.field.source_type == "time"):
            return self.date_label(axis)
        return self.value(axis.field)

    def quota(self, axis: Axis) -> Any:
        f, summary = axis.field, axis.summary
        if summary not in AGGREGATIONS:
            raise BadRequest("reports:view.aggregation", summary=str(summary)[:20])
        if f.is_record_count:
            return sa.func.count()
        if summary in ("sum", "avg") and not f.is_number:
            raise BadRequest("reports:view.aggregation_type", field=f.name, summary=summary)
        col = self.value(f)
        if summary == "count":
            return sa.func.count(col)
        if summary == "count_distinct":
            return sa.func.count(sa.distinct(col))
        if summary == "avg" and self.flavour == "postgresql":
            return sa.cast(sa.func.avg(col), sa.Float)
        if summary == "sum" and self.flavour == "postgresql" and f.type == "float":
            return sa.cast(sa.func.sum(col), sa.Float)
        return getattr(sa.func, summary)(col)

    # -- filters -------------------------------------------------------------------

    def where(self, cond: Condition) -> ColumnElement[bool]:
        f, op, values = cond.field, cond.operator, cond.values
        if f.type == "time":
            return self._time_where(f, op, values)
        col = self.value(f)
        if op == "eq":
            return col.is_(None) if values[0] is None else col == values[0]
        if op == "in":
            present = [v for v in values if v is not None]
            clause = col.in_(present) if present else sa.false()
            return sa.or_(clause, col.is_(None)) if None in values else clause
        if op == "like":
            return col.like(like_pattern(str(values[0])), escape="\\")
        if op in ("ge", "le"):
            bound: object = values[0]  # not Any: a comparison with Any is Any to mypy
            return col >= bound if op == "ge" else col <= bound
        return col.between(values[0], values[1])

    def _time_where(self, f: FieldInfo, op: str, values: tuple[Any, ...]) -> ColumnElement[bool]:
        col = self.time(f)
        tv: list[TimeValue] = list(values)

        def day_or_moment(v: TimeValue) -> ColumnElement[bool]:
            if v.whole_day:
                return sa.and_(col >= self.time_bind(v.at), col < self.time_bind(v.day_end))
            return col == self.time_bind(v.at)

        if op == "eq":
            return day_or_moment(tv[0])
        if op == "in":
            return sa.or_(*[day_or_moment(v) for v in tv])
        if op == "ge":
            return col >= self.time_bind(tv[0].at)
        if op == "le":
            return col < self.time_bind(tv[0].day_end) if tv[0].whole_day else col <= self.time_bind(tv[0].at)
        lo, hi = tv
        upper = col < self.time_bind(hi.day_end) if hi.whole_day else col <= self.time_bind(hi.at)
        return sa.and_(col >= self.time_bind(lo.at), upper)


@dataclass
class Plan:
    """What one chart request asks of the data."""

    dimensions: list[Axis]
    quotas: list[Axis]
    conditions: list[Condition]
    limit: int | None = None
    offset: int = 0
    details: bool = False
    default_sort: bool = True

    def statement_key(self) -> Hashable:
        """Everything `build` reads of the plan: two plans with equal keys build the same statement, down to
        the dates a dynamic filter resolved to (conditions and fields are frozen, compared by value)."""
        return (
            tuple(a.statement_key for a in self.dimensions),
            tuple(a.statement_key for a in self.quotas),
            tuple(self.conditions),
            self.limit,
            self.offset,
            self.details,
            self.default_sort,
        )


def build(rel: Relation, plan: Plan) -> sa.Select[Any]:
    """The statement: dimensions as d0.., quotas as q0.. (raw columns as c0.. for details)."""
    where = [rel.where(c) for c in plan.conditions]
    if plan.details:
        cols = [rel.value(a.field).label(f"c{i}") for i, a in enumerate(plan.dimensions)]
        stmt = sa.select(*cols).select_from(rel.base)
        if where:
            stmt = stmt.where(*where)
        order: list[Any] = [
            sa.literal_column(f"c{i}").asc() if a.sort == "asc" else sa.literal_column(f"c{i}").desc()
            for i, a in enumerate(plan.dimensions)
            if a.sort in ("asc", "desc")
        ]
    else:
        dims = [rel.dimension(a).label(f"d{i}") for i, a in enumerate(plan.dimensions)]
        quotas = [rel.quota(a).label(f"q{i}") for i, a in enumerate(plan.quotas)]
        if not dims and not quotas:
            raise BadRequest("reports:view.no_fields")
        stmt = sa.select(*dims, *quotas).select_from(rel.base)
        if where:
            stmt = stmt.where(*where)
        if dims:
            stmt = stmt.group_by(*[sa.literal_column(str(i + 1)) for i in range(len(dims))])
        order = []
        for i, a in enumerate(plan.dimensions):
            if a.sort in ("asc", "desc"):
                order += _order(f"d{i}", a.sort, rel.flavour)
        for i, a in enumerate(plan.quotas):
            if a.sort in ("asc", "desc"):
                order += _order(f"q{i}", a.sort, rel.flavour)
        if not order and dims and plan.default_sort:
            order = [o for i in range(len(dims)) for o in _order(f"d{i}", "asc", rel.flavour)]
    if order:
        stmt = stmt.order_by(*order)
    if plan.limit is not None:
        stmt = stmt.limit(plan.limit)
    if plan.offset:
        stmt = stmt.offset(plan.offset)
    return stmt


def _order(label: str, direction: str, flavour: str = "") -> list[Any]:
    col: Any = sa.literal_column(label)
    if flavour in ("mysql", "mariadb"):
        # MySQL has no NULLS LAST: its DESC puts nulls last already, ASC needs them pushed behind
        return [col.desc()] if direction == "desc" else [col.is_(None).asc(), col.asc()]
    return [col.asc().nulls_last() if direction == "asc" else col.desc().nulls_last()]


def count_statement(rel: Relation, conditions: list[Condition]) -> sa.Select[Any]:
    stmt = sa.select(sa.func.count()).select_from(rel.base)
    where = [rel.where(c) for c in conditions]
    return stmt.where(*where) if where else stmt


def distinct_statement(
    rel: Relation, f: FieldInfo, conditions: list[Condition], limit: int
) -> sa.Select[Any]:
    col = rel.value(f).label("v")
    stmt = sa.select(col).select_from(rel.base).where(col.is_not(None)).distinct()
    where = [rel.where(c) for c in conditions]
    if where:
        stmt = stmt.where(*where)
    return stmt.order_by(sa.literal_column("v")).limit(limit)
