"""The process home card follows the caller's grants: the tenant's instances for tenant administrators and
holders of `process:stats`, everyone else only the instances she started."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select

from atrium.plugins.process.models import ProcessInstance
from atrium.sdk.context import tenant_scope
from atrium.sdk.db import session
from atrium.sdk.testing import AtriumClient
from tests.process.conftest import API, deployed, start
from tests.process.diagrams import approval
from tests.tracking.test_dashboard_scope import grant_button, user_id_of

COUNT = f"{API}/count"


def figures(c: AtriumClient) -> tuple[str, int, int, int, int]:
    n = c.ok("GET", COUNT)
    return n["scope"], n["running"], n["failed"], n["normal"], n["weekTotal"]


def test_members_count_what_they_started_and_the_supervisor_the_tenants(
    boss: Any, tenant: int, member: Callable[..., Any], kernel: Any
) -> None:
    viewer, colleague, manager, director = (member(tenant) for _ in range(4))
    deployed(boss, "expense", approval("expense", manager.user_id, director.user_id))
    start(viewer, "expense", amount=1)
    for _ in range(3):
        start(colleague, "expense", amount=1)

    assert figures(viewer) == ("mine", 1, 0, 0, 1)
    assert figures(colleague) == ("mine", 3, 0, 0, 3)
    assert figures(manager) == ("mine", 0, 0, 0, 0)  # his tasks are not his processes
    assert figures(boss) == ("tenant", 4, 0, 0, 4)
    weekly = viewer.ok("GET", COUNT)["weekly"]
    assert len(weekly) == 7 and weekly[-1]["count"] == 1

    grant_button(boss, kernel, "process:stats", viewer.user_id)
    assert viewer.ok("GET", COUNT) == boss.ok("GET", COUNT)
    assert figures(colleague)[0] == "mine"


def test_alice_counts_hers_and_the_supervisor_acmes(
    user_client: AtriumClient, client: AtriumClient, member: Callable[..., Any], kernel: Any
) -> None:
    for who in (user_client, member(1001), member(1001)):
        start(who, "leave-approval", days=1, startDate="2030-05-06")  # the demo's model (its start form)
    alice_id = user_id_of(kernel, "alice")
    with tenant_scope(1001), kernel.db():
        db = session()
        everyone = db.execute(select(func.count()).select_from(ProcessInstance)).scalar_one()
        hers = db.execute(
            select(func.count()).select_from(ProcessInstance).where(ProcessInstance.started_by == alice_id)
        ).scalar_one()
    assert hers >= 1 and everyone >= hers + 2  # others' instances are there too

    def total(n: dict[str, Any]) -> int:
        return int(n["running"] + n["failed"] + n["normal"] + n["cancelled"])

    mine = user_client.ok("GET", COUNT)
    assert mine["scope"] == "mine" and total(mine) == hers
    acme = client.signed_in("supervisor").ok("GET", COUNT)
    assert acme["scope"] == "tenant" and total(acme) == everyone
    assert client.signed_in("admin").ok("GET", COUNT)["scope"] == "tenant"
    assert client.signed_in("carol").ok("GET", COUNT)["scope"] == "tenant"  # the demo's author holds it
