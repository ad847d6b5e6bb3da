"""One statement sent to PostgreSQL without waiting for its answer, so the caller works while the database
does: libpq's asynchronous query calls on the session's own psycopg connection, inside its transaction.

A submit sends its insert this way and checks the submission against the schema meanwhile; the check and the
round trip with the database's work overlap instead of adding up.
"""

from __future__ import annotations

import select
from collections.abc import Sequence
from typing import Any

from psycopg import errors, pq

_INTRANS = pq.TransactionStatus.INTRANS
_TUPLES_OK = pq.ExecStatus.TUPLES_OK


class Sent:
    """A statement on its way; `value()` waits for the first column of its first row."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def value(self) -> Any:
        pg = self._conn.pgconn
        pg.consume_input()
        while pg.is_busy():
            select.select([pg.socket], [], [])
            pg.consume_input()
        result = pg.get_result()
        while pg.get_result() is not None:
            pass
        if result is None or result.status != _TUPLES_OK:
            if result is None:
                raise errors.InterfaceError("no answer to the statement")
            raise errors.error_from_result(result, encoding=self._conn.info.encoding)
        raw = result.get_value(0, 0)
        return None if raw is None else bytes(raw).decode(self._conn.info.encoding)


def send(conn: Any, sql: bytes, params: Sequence[object]) -> Sent | None:
    """Sends `sql` (`$1`… placeholders, parameters as text, None for NULL) on `conn`, a psycopg connection.
    None, and nothing sent, when the connection is not inside a transaction: the caller then runs the
    statement the usual way, which begins one as configured."""
    pg = conn.pgconn
    if pg.transaction_status != _INTRANS:
        return None
    encoding = conn.info.encoding
    pg.send_query_params(sql, [None if p is None else str(p).encode(encoding) for p in params])
    while pg.flush():
        readable, _, _ = select.select([pg.socket], [pg.socket], [])
        if readable:
            pg.consume_input()
    return Sent(conn)
