"""An administrator's dataset query, parsed with sqlglot: one read-only query over the source's tables.

A query that reads files or runs code through its source (DuckDB's `read_csv` or a quoted file path in
FROM, PostgreSQL's `pg_read_file`, SQLite's `load_extension`, MySQL's `LOAD_FILE` or `INTO OUTFILE`, table
functions of any kind) is refused before it reaches the database, whatever the source's own rights are.
"""

from __future__ import annotations

import re

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from atrium.sdk.errors import BadRequest

_FORBIDDEN_FUNCTION = re.compile(
    r"^(read_|pg_read|pg_ls|pg_stat_file|pg_file|lo_|load_|readfile|writefile|edit$|glob$|dblink|copy|"
    r"query|system|shell|sys_|http|url|sqlite_|duckdb_|pragma|current_setting|set_config|install|attach|"
    r"sniff_csv|parquet_|iceberg_|delta_scan|getenv|file)",
    re.IGNORECASE,
)
_PATH_CHARS = re.compile(
    r"[/\\:]|\.(csv|tsv|parquet|json|jsonl|ndjson|txt|gz|zst|db|duckdb|sqlite|xlsx?)$", re.IGNORECASE
)


def _function_name(node: exp.Func) -> str:
    return node.name if isinstance(node, exp.Anonymous) else node.sql_name()


def check_read_only(sql: str) -> None:
    """Raise BadRequest unless `sql` is a single query that reads tables only."""
    try:
        statements = [s for s in sqlglot.parse(sql) if s is not None]
    except SqlglotError as exc:
        raise BadRequest("reports:dataset.sql_select_only") from exc
    if len(statements) != 1 or not isinstance(statements[0], exp.Query):
        raise BadRequest("reports:dataset.sql_select_only")
    tree = statements[0]
    if tree.find(exp.Into) is not None or tree.args.get("into") is not None:
        raise BadRequest("reports:dataset.sql_select_only")
    for func in tree.find_all(exp.Func):
        name = _function_name(func)
        if _FORBIDDEN_FUNCTION.match(name):
            raise BadRequest("reports:dataset.sql_no_files", name=name[:64])
    for table in tree.find_all(exp.Table):
        if not isinstance(table.this, exp.Identifier):
            name = table.this.sql() if table.this else "?"
            raise BadRequest("reports:dataset.sql_no_files", name=name[:64])
        if _PATH_CHARS.search(table.name):
            raise BadRequest("reports:dataset.sql_no_files", name=table.name[:64])
