"""The in-process write buffer: records are appended by the endpoints and written in bulk by one thread.

A flush writes everything taken from the buffer in one transaction (one multi-row insert), so a batch a
client sent is either stored whole or not at all; a flush the database refuses is kept and tried again.
The buffer is written every ``flush_seconds`` or as soon
as it holds ``flush_rows`` events, and once more at shutdown.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import structlog

log = structlog.get_logger("atrium.tracking")

Writer = Callable[[list[dict[str, Any]]], None]
MAX_PENDING = 100_000
"""Rows kept for a later flush while the database refuses writes; beyond this the oldest are dropped."""


class Buffer:
    """Rows waiting to be written; thread-safe; one writer thread started on first use."""

    def __init__(self, writer: Writer, flush_seconds: float, flush_rows: int) -> None:
        self._writer = writer
        self._flush_seconds = flush_seconds
        self._flush_rows = flush_rows
        self._rows: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._write_lock = threading.Lock()
        self._stopped = False
        self._thread: threading.Thread | None = None
        self.written = 0
        self.failed = 0

    def add(self, rows: list[dict[str, Any]]) -> None:
        """Queue a whole batch (never split across two flushes)."""
        with self._lock:
            self._rows.extend(rows)
            size = len(self._rows)
            if self._thread is None and not self._stopped:
                self._thread = threading.Thread(target=self._run, name="atrium-tracking-flush", daemon=True)
                self._thread.start()
        if size >= self._flush_rows:
            self._wake.set()

    def pending(self) -> int:
        with self._lock:
            return len(self._rows)

    def pending_where(self, keep: Callable[[dict[str, Any]], bool]) -> int:
        """How many queued rows `keep` accepts (rows not yet written that a live figure must still count)."""
        with self._lock:
            return sum(1 for row in self._rows if keep(row))

    def flush(self) -> int:
        """Write what is queued now; answers how many rows were written."""
        with self._write_lock:
            with self._lock:
                rows, self._rows = self._rows, []
            if not rows:
                return 0
            try:
                self._writer(rows)
            except Exception:
                # a busy or unreachable database: keep the rows for the next flush, up to a bound
                with self._lock:
                    keep = rows[: max(0, MAX_PENDING - len(self._rows))]
                    self._rows[:0] = keep
                self.failed += len(rows) - len(keep)
                log.exception("tracking flush failed", rows=len(rows), kept=len(keep))
                return 0
            self.written += len(rows)
            return len(rows)

    def _run(self) -> None:
        while not self._stopped:
            self._wake.wait(self._flush_seconds)
            self._wake.clear()
            self.flush()

    def close(self) -> None:
        """Stop the writer thread and write what is left."""
        self._stopped = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.flush()
