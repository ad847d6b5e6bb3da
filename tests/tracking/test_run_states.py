"""The home dashboard's running / failed / normal card without the process plugin: background jobs."""

from __future__ import annotations

from typing import Any

import pytest

from atrium.plugins.transfer.models import (
    DONE,
    EXPIRED,
    FAILED,
    RUNNING,
    UPLOADED,
    WAITING,
    ExportTask,
    ImportBatch,
)
from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.db import session

RUN_STATES = "/api/log/dashboard/run-states"


def add_jobs(kernel: Any, tenant_id: int, exports: list[int], imports: list[int]) -> None:
    with tenant_scope(tenant_id), kernel.db():
        db = session()
        for status in exports:
            db.add(ExportTask(status=status, file_name="contacts.xlsx"))
        for i, status in enumerate(imports):
            db.add(ImportBatch(batch=f"b{i}", import_id="contacts", status=status))


def set_plugin(kernel: Any, tenant_id: int, plugin: str, enabled: bool) -> None:
    with kernel.db(), unscoped():
        kernel.enablement.set(tenant_id, plugin, enabled)


@pytest.fixture
def without_process(client: Any, kernel: Any, tenant_factory: Any, user_factory: Any) -> tuple[Any, int]:
    """The tenant's administrator: the job counts are tenant-wide figures (a plain member sees none)."""
    tid = tenant_factory()
    account, password, _ = user_factory(tid, supervisor=True)
    set_plugin(kernel, tid, "process", False)
    return client.signed_in(account, password), tid


def test_background_jobs_are_counted_by_state_when_the_process_plugin_is_off(
    without_process: Any, kernel: Any, tenant_factory: Any
) -> None:
    c, tid = without_process
    add_jobs(
        kernel,
        tid,
        exports=[WAITING, RUNNING, DONE, DONE, EXPIRED, FAILED],
        imports=[RUNNING, FAILED, UPLOADED],
    )
    add_jobs(kernel, tenant_factory(), exports=[RUNNING, FAILED, DONE], imports=[FAILED])  # another tenant's
    assert c.ok("GET", RUN_STATES) == {
        "counts": "jobs",
        "running": 3,
        "failed": 2,
        "normal": 3,
        "scope": "tenant",
    }


def test_a_tenant_without_jobs_or_without_the_transfer_plugin_counts_nothing(
    without_process: Any, kernel: Any
) -> None:
    c, tid = without_process
    assert c.ok("GET", RUN_STATES) == {
        "counts": "jobs",
        "running": 0,
        "failed": 0,
        "normal": 0,
        "scope": "tenant",
    }
    add_jobs(kernel, tid, exports=[RUNNING], imports=[])
    set_plugin(kernel, tid, "transfer", False)
    assert c.ok("GET", RUN_STATES) == {
        "counts": "jobs",
        "running": 0,
        "failed": 0,
        "normal": 0,
        "scope": "tenant",
    }


def test_with_the_process_plugin_the_processes_are_counted_by_its_own_card(
    client: Any, tenant_factory: Any, user_factory: Any
) -> None:
    tid = tenant_factory()
    account, password, _ = user_factory(tid)
    assert client.signed_in(account, password).ok("GET", RUN_STATES) == {"counts": "processes"}


def test_run_states_need_a_session(client: Any) -> None:
    assert client.get(RUN_STATES)["code"] == -1
