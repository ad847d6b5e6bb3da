"""Calculated fields: a scalar SQL-like expression over a dataset's columns, checked node by node.

The expression is parsed with sqlglot and accepted only when every node is on an allow-list: column
references of the dataset (by their name in the source), literals, arithmetic, comparisons, boolean logic,
CASE WHEN, CAST and a small set of row-level functions. Anything else (subqueries, aggregates, other
functions, unknown columns) is refused with a message naming it. The accepted tree is rendered for the
dialect the query runs on (SQLite, PostgreSQL, MySQL/MariaDB, DuckDB for extracts), so one expression
works in direct and extract mode alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlglot.optimizer.annotate_types import annotate_types

from atrium.sdk.errors import BadRequest

MAX_LENGTH = 2000

#: functions a calculated field may call, by sqlglot expression class
ALLOWED_FUNCTIONS: tuple[type[exp.Expression], ...] = (
    exp.Abs,
    exp.Round,
    exp.Ceil,
    exp.Floor,
    exp.Coalesce,
    exp.Nullif,
    exp.Upper,
    exp.Lower,
    exp.Length,
    exp.Substring,
    exp.Concat,
    exp.Trim,
)

#: the other node kinds an expression may contain
ALLOWED_NODES: tuple[type[exp.Expression], ...] = (
    exp.Column,
    exp.Identifier,
    exp.Literal,
    exp.Boolean,
    exp.Null,
    exp.Paren,
    exp.Neg,
    exp.Add,
    exp.Sub,
    exp.Mul,
    exp.Div,
    exp.Mod,
    exp.DPipe,
    exp.EQ,
    exp.NEQ,
    exp.GT,
    exp.GTE,
    exp.LT,
    exp.LTE,
    exp.Is,
    exp.In,
    exp.Between,
    exp.Like,
    exp.And,
    exp.Or,
    exp.Not,
    exp.Case,
    exp.If,
    exp.Cast,
    exp.DataType,
    exp.DataTypeParam,
)

#: sqlglot dialect of each SQLAlchemy dialect name a dataset query runs on
DIALECTS = {
    "sqlite": "sqlite",
    "postgresql": "postgres",
    "mysql": "mysql",
    "mariadb": "mysql",
    "duckdb": "duckdb",
}

_TYPE_OF_SQL = {
    "integer": "BIGINT",
    "float": "DOUBLE",
    "text": "VARCHAR",
    "time": "TIMESTAMP",
}


def _function_name(node: exp.Expr) -> str:
    if isinstance(node, exp.Anonymous):
        return str(node.name)
    if isinstance(node, exp.Func):
        return node.sql_name()
    return type(node).__name__.upper()


def parse(expression: str, columns: Iterable[str]) -> exp.Expr:
    """The checked tree of `expression`; BadRequest naming the first node that is not allowed."""
    text = (expression or "").strip()
    if not text:
        raise BadRequest("reports:calc.empty")
    if len(text) > MAX_LENGTH:
        raise BadRequest("reports:calc.too_long", max=MAX_LENGTH)
    try:
        statements = sqlglot.parse(text)
    except SqlglotError as exc:
        raise BadRequest("reports:calc.syntax", reason=str(exc).splitlines()[0][:200]) from exc
    if len(statements) != 1 or statements[0] is None:
        raise BadRequest("reports:calc.syntax", reason=text[:60])
    tree = statements[0]
    known = set(columns)
    for node in tree.walk():
        if isinstance(node, exp.Query | exp.Subquery):
            raise BadRequest("reports:calc.subquery")
        if isinstance(node, exp.AggFunc | exp.Window):
            raise BadRequest("reports:calc.aggregate", name=_function_name(node)[:64])
        if isinstance(node, exp.Column):
            if node.table or not isinstance(node.this, exp.Identifier):
                raise BadRequest("reports:calc.unknown_column", name=node.sql()[:64])
            if node.name not in known:
                raise BadRequest("reports:calc.unknown_column", name=node.name[:64])
            continue
        if isinstance(node, ALLOWED_FUNCTIONS + ALLOWED_NODES):
            continue
        if isinstance(node, exp.Func):
            raise BadRequest("reports:calc.function", name=_function_name(node)[:64])
        raise BadRequest("reports:calc.not_allowed", name=node.sql()[:64] or type(node).__name__)
    return tree


@lru_cache(maxsize=512)
def render(expression: str, flavour: str, columns: frozenset[str]) -> str:
    """The expression as SQL for the dialect, parenthesised, every column reference quoted."""
    tree = parse(expression, columns).copy()
    for col in list(tree.find_all(exp.Column)):
        col.replace(exp.column(col.name, quoted=True))
    if flavour == "postgresql":
        # PostgreSQL rounds to decimal places only numerics, not double precision
        for node in list(tree.find_all(exp.Round)):
            if node.args.get("decimals") is not None:
                node.set("this", exp.cast(node.this, exp.DataType.build("DECIMAL")))
    sql = tree.sql(dialect=DIALECTS.get(flavour, ""))
    return f"({sql})"


def infer_type(expression: str, column_types: dict[str, str]) -> str:
    """text, integer, float or time: what the expression answers, from the columns' field types."""
    tree = parse(expression, column_types)
    qualified = tree.copy()
    for col in list(qualified.find_all(exp.Column)):
        col.replace(exp.column(col.name, table="t"))
    query = exp.select(qualified.as_("v")).from_("t")
    schema: dict[str, object] = {
        "t": {name: _TYPE_OF_SQL.get(kind, "VARCHAR") for name, kind in column_types.items()}
    }
    try:
        typed = annotate_types(query, schema=schema)
        kind = typed.selects[0].type
    except (SqlglotError, KeyError, AttributeError):
        kind = None
    if kind is None or kind.this == exp.DataType.Type.UNKNOWN:
        return "float" if isinstance(tree, exp.Binary) and not isinstance(tree, exp.DPipe) else "text"
    if kind.is_type(*exp.DataType.INTEGER_TYPES, exp.DataType.Type.BOOLEAN):
        return "integer"
    if kind.is_type(*exp.DataType.REAL_TYPES):
        return "float"
    if kind.is_type(*exp.DataType.TEMPORAL_TYPES):
        return "time"
    return "text"
