"""Writing validated raw events in bulk, the cheapest way each database offers.

The rows come complete from the API (validated, cut to size, stamped), so nothing is left for the ORM to
do per row. What matters is how often the writer thread gives up the interpreter lock: a driver's
``executemany`` releases it around every row, and under load each release can cost the thread a whole
switch interval while the event loop runs, so the writer falls behind the requests. Hence one statement
per few hundred rows on SQLite (a multi-row ``VALUES``) and ``COPY`` on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, Table

SQLITE_ROWS_PER_STATEMENT = 500
"""26 columns a row: 13,000 parameters a statement, under SQLite's limit of 32,766."""


def write_rows(conn: Connection, table: Table, columns: Sequence[str], rows: list[dict[str, Any]]) -> None:
    """Insert ``rows`` (dicts holding every one of ``columns``) into ``table`` inside the caller's
    transaction."""
    if not rows:
        return
    if conn.dialect.name == "postgresql":
        _copy(conn, table, columns, rows)
    elif conn.dialect.name == "sqlite":
        _values(conn, table, columns, rows)
    else:
        conn.execute(table.insert(), rows)


def _copy(conn: Connection, table: Table, columns: Sequence[str], rows: list[dict[str, Any]]) -> None:
    names = ", ".join(conn.dialect.identifier_preparer.quote(c) for c in columns)
    cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        with cursor.copy(
            f"COPY {conn.dialect.identifier_preparer.format_table(table)} ({names}) FROM STDIN"
        ) as copy:
            for row in rows:
                copy.write_row([row[c] for c in columns])
    finally:
        cursor.close()


@lru_cache(maxsize=4)
def _row_sql(table: Table, columns: tuple[str, ...]) -> tuple[str, str]:
    """The single-row insert as SQLAlchemy compiles it for SQLite, split at its ``VALUES`` tuple."""
    from sqlalchemy.dialects import sqlite

    compiled = table.insert().compile(dialect=sqlite.dialect(), column_keys=list(columns))
    assert compiled.positiontup == list(columns)
    head, _, group = compiled.string.rpartition(" VALUES ")
    return head + " VALUES ", group


def _values(conn: Connection, table: Table, columns: Sequence[str], rows: list[dict[str, Any]]) -> None:
    cols = tuple(columns)
    head, group = _row_sql(table, cols)
    process = {c: p for c in cols if (p := table.c[c].type._cached_bind_processor(conn.dialect))}  # noqa: SLF001
    for column, convert in process.items():
        converted: dict[Any, Any] = {None: None}  # rows of one request share their stamp
        for row in rows:
            value = row[column]
            if value not in converted:
                converted[value] = convert(value)
            row[column] = converted[value]
    cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        for start in range(0, len(rows), SQLITE_ROWS_PER_STATEMENT):
            chunk = rows[start : start + SQLITE_ROWS_PER_STATEMENT]
            cursor.execute(head + ", ".join([group] * len(chunk)), [row[c] for row in chunk for c in cols])
    finally:
        cursor.close()
