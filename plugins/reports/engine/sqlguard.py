"""An administrator's dataset query, parsed with sqlglot: one read-only query over the source's tables.

Only one query statement is accepted (no writes, DDL, ATTACH, PRAGMA, LOAD DATA, several statements,
SELECT ... INTO). Every function it calls must be on an allow-list of aggregate, window, text, number
and date functions: functions that read files or run code through the source (DuckDB's `read_csv`,
PostgreSQL's `pg_read_file` or `nextval`, SQLite's `load_extension`, MySQL's `LOAD_FILE`, table functions
of any kind) are refused before the query reaches the database, whatever the source's own rights are. A
table must be a plain name, never a quoted file path.
"""

from __future__ import annotations

import re

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from atrium.sdk.errors import BadRequest

_ALLOWED_NAMES = """
    AND OR CASE IF CAST TRY_CAST COALESCE NULLIF IFNULL NVL EXISTS
    COUNT SUM AVG MIN MAX STDDEV STDDEV_POP STDDEV_SAMP VARIANCE VARIANCE_POP GROUP_CONCAT
    ROW_NUMBER RANK DENSE_RANK NTILE LAG LEAD FIRST_VALUE LAST_VALUE PERCENT_RANK CUME_DIST
    ABS ROUND CEIL FLOOR MOD POWER SQRT SIGN EXP LN LOG TRUNC GREATEST LEAST
    UPPER LOWER LENGTH SUBSTRING CONCAT CONCAT_WS TRIM LTRIM RTRIM REPLACE LEFT RIGHT PAD
    STR_POSITION SPLIT_PART
    DATE DATETIME EXTRACT YEAR MONTH DAY QUARTER WEEK DAY_OF_WEEK DAY_OF_YEAR
    DATE_TRUNC TIMESTAMP_TRUNC TIME_TO_STR TO_CHAR STRFTIME DATE_FORMAT STR_TO_DATE STR_TO_TIME
    TS_OR_DS_TO_DATE TS_OR_DS_TO_TIMESTAMP TO_DATE JULIANDAY
    CURRENT_DATE CURRENT_TIMESTAMP NOW DATE_ADD DATE_SUB DATEDIFF
"""
#: functions a dataset query may call, as sqlglot names them (upper case)
ALLOWED_FUNCTIONS = frozenset(_ALLOWED_NAMES.split())
#: function names that read files or reach outside the source get the clearer "no files" message
_FILE_FUNCTION = re.compile(
    r"^(read_|pg_read|pg_ls|pg_stat_file|lo_|load_|readfile|writefile|dblink|copy|glob|sniff_csv|"
    r"parquet_|iceberg_|delta_scan|http|url|file)",
    re.IGNORECASE,
)
_WRITES: tuple[type[exp.Expression], ...] = (
    exp.Insert,
    exp.Update,
    exp.Delete,
    exp.Merge,
    exp.Create,
    exp.Drop,
    exp.Alter,
    exp.Command,
)
_PATH_CHARS = re.compile(
    r"[/\\:]|\.(csv|tsv|parquet|json|jsonl|ndjson|txt|gz|zst|db|duckdb|sqlite|xlsx?)$", re.IGNORECASE
)


def _function_name(node: exp.Func) -> str:
    return str(node.name) if isinstance(node, exp.Anonymous) else node.sql_name()


def check_read_only(sql: str) -> None:
    """Raise BadRequest unless `sql` is a single query that reads tables only, with allowed functions."""
    try:
        statements = [s for s in sqlglot.parse(sql) if s is not None]
    except SqlglotError as exc:
        raise BadRequest("reports:dataset.sql_select_only") from exc
    if len(statements) != 1 or not isinstance(statements[0], exp.Query):
        raise BadRequest("reports:dataset.sql_select_only")
    tree = statements[0]
    if tree.find(exp.Into) is not None or tree.args.get("into") is not None:
        raise BadRequest("reports:dataset.sql_select_only")
    if tree.find(*_WRITES) is not None:  # e.g. a data-modifying WITH clause
        raise BadRequest("reports:dataset.sql_select_only")
    for func in tree.find_all(exp.Func):
        name = _function_name(func)
        if _FILE_FUNCTION.match(name):
            raise BadRequest("reports:dataset.sql_no_files", name=name[:64])
        if name.upper() not in ALLOWED_FUNCTIONS:
            raise BadRequest("reports:dataset.sql_function", name=name[:64])
    for table in tree.find_all(exp.Table):
        if not isinstance(table.this, exp.Identifier):
            name = table.this.sql() if table.this else "?"
            raise BadRequest("reports:dataset.sql_no_files", name=name[:64])
        if _PATH_CHARS.search(table.name):
            raise BadRequest("reports:dataset.sql_no_files", name=table.name[:64])
