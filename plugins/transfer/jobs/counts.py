"""Import and export jobs by state, for the home dashboard's run-state card."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.db import session

from ..models import DONE, EXPIRED, FAILED, RUNNING, WAITING, ExportTask, ImportBatch

STATES = {"running": (WAITING, RUNNING), "failed": (FAILED,), "normal": (DONE, EXPIRED)}
"""An expired export ended normally; its file is gone. Imports not started yet are not jobs."""


def job_counts(tenant_id: int | None) -> dict[str, int]:
    counts = dict.fromkeys(STATES, 0)
    by_state: dict[int, int] = {}
    with unscoped() if tenant_id is None else tenant_scope(tenant_id):
        for model in (ImportBatch, ExportTask):
            rows: Any = session().execute(select(model.status, func.count()).group_by(model.status)).all()
            for status, n in rows:
                by_state[int(status)] = by_state.get(int(status), 0) + int(n)
    for key, states in STATES.items():
        counts[key] = sum(by_state.get(s, 0) for s in states)
    return counts
