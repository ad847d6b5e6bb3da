"""The home dashboard's usage figures follow the caller's grants: the tenant's for tenant administrators and
holders of `tracking:stats` (the platform for super administrators), everyone else only her own events."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from sqlalchemy import func, select

from atrium.plugins.tracking.models import DailyUser
from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.db import session
from atrium.sdk.testing import AtriumClient
from tests.tracking.test_tracking_api import APPS, PAGE, click, page, settle

DASHBOARD = "/api/log/dashboard"
LISTS = ("top-menus", "top-users", "top-tenants", "top-apps")


def grant_button(admin: AtriumClient, kernel: Any, code: str, user_id: int) -> None:
    """Give the user a new role holding the button `code`, through the administration API."""
    from atrium.kernel.models import MenuResource

    with unscoped(), kernel.db():
        button = session().execute(select(MenuResource.id).where(MenuResource.code == code)).scalar()
    assert button is not None, code
    role = admin.ok("POST", "/api/base/admin/roles", json={"roleCode": f"s{user_id}", "roleName": "Stats"})
    admin.ok(
        "POST", "/api/base/admin/roles/resources", json={"roleId": role["roleId"], "resourceIds": [button]}
    )
    admin.ok("POST", "/api/base/admin/users/roles", json={"userId": user_id, "roleId": role["roleId"]})


def user_id_of(kernel: Any, account: str) -> int:
    from atrium.kernel.models import User

    with unscoped(), kernel.db():
        return int(session().execute(select(User.id).where(User.account == account)).scalar_one())


def dashboard(c: AtriumClient, days: int = 7) -> dict[str, Any]:
    """Every dashboard answer of the last `days` days, by route name."""
    out: dict[str, Any] = {"summary": c.ok("GET", f"{DASHBOARD}/summary", params={"days": days})}
    for name in LISTS:
        out[name] = c.ok("GET", f"{DASHBOARD}/{name}", params={"days": days})
    return out


def use(c: AtriumClient, path: str, pages: int, clicks: int, app: str) -> None:
    records = [page(path)] * pages + [click(path, "go")] * clicks
    c.ok("POST", PAGE, json={"params": records})
    c.ok("POST", APPS, json={"params": {"microAppCode": app, "microAppName": app.title(), "loadTime": 100}})


@pytest.fixture
def office(
    client: AtriumClient, tenant_factory: Callable[..., int], user_factory: Callable[..., Any], kernel: Any
) -> dict[str, Any]:
    """A fresh tenant: a viewer and a colleague who both used it, and the tenant's supervisor."""
    tid = tenant_factory()
    people: dict[str, Any] = {"tenant": tid}
    for name, supervisor in (("viewer", False), ("colleague", False), ("boss", True)):
        account, password, uid = user_factory(tid, supervisor=supervisor)
        people[name] = client.signed_in(account, password)
        people[f"{name}_id"] = uid
    use(people["viewer"], "/mine", pages=2, clicks=1, app="letters")
    use(people["colleague"], "/secret", pages=3, clicks=4, app="payroll")
    settle(kernel)
    return people


def test_a_viewer_sees_only_her_own_usage(office: dict[str, Any]) -> None:
    mine = dashboard(office["viewer"])
    summary = mine["summary"]
    assert summary["scope"] == "mine"
    assert (summary["visitTotal"], summary["clickTotal"], summary["loadTotal"]) == (2, 1, 1)
    assert (summary["activeUsers"], summary["activeTenants"]) == (1, 1)
    assert summary["series"][-1]["users"] == 1 and len(summary["series"]) == 7
    assert [(m["menuKey"], m["visits"], m["clicks"]) for m in mine["top-menus"]] == [("mine", 2, 1)]
    assert mine["top-users"] == [
        {"userId": str(office["viewer_id"]), "userName": mine["top-users"][0]["userName"], "count": 4}
    ]
    assert [(t["tenantId"], t["count"], t["peakUsers"]) for t in mine["top-tenants"]] == [
        (str(office["tenant"]), 4, 1)
    ]
    assert [(a["appCode"], a["loads"]) for a in mine["top-apps"]] == [("letters", 1)]
    # the colleague's secret page, payroll app and activity appear nowhere in the viewer's answers
    assert "secret" not in str(mine) and "payroll" not in str(mine)
    assert str(office["colleague_id"]) not in [u["userId"] for u in mine["top-users"]]


def test_the_colleague_sees_her_own_not_the_viewers(office: dict[str, Any]) -> None:
    theirs = dashboard(office["colleague"], days=30)
    assert theirs["summary"]["scope"] == "mine"
    assert (theirs["summary"]["visitTotal"], theirs["summary"]["clickTotal"]) == (3, 4)
    assert [m["menuKey"] for m in theirs["top-menus"]] == ["secret"]
    assert [a["appCode"] for a in theirs["top-apps"]] == ["payroll"]


def test_the_supervisor_sees_the_whole_tenant(office: dict[str, Any]) -> None:
    everyone = dashboard(office["boss"])
    summary = everyone["summary"]
    assert summary["scope"] == "tenant"
    assert (summary["visitTotal"], summary["clickTotal"], summary["loadTotal"]) == (5, 5, 2)
    assert summary["activeUsers"] == 3  # the supervisor signed in too
    assert [m["menuKey"] for m in everyone["top-menus"]] == ["secret", "mine"]
    assert [u["userId"] for u in everyone["top-users"]] == [
        str(office["colleague_id"]),
        str(office["viewer_id"]),
    ]
    assert [(t["tenantId"], t["count"], t["peakUsers"]) for t in everyone["top-tenants"]] == [
        (str(office["tenant"]), 12, 3)
    ]
    assert sorted(a["appCode"] for a in everyone["top-apps"]) == ["letters", "payroll"]


def test_holding_the_stats_button_shows_the_tenant(
    office: dict[str, Any], client: AtriumClient, kernel: Any
) -> None:
    viewer = office["viewer"]
    assert dashboard(viewer)["summary"]["scope"] == "mine"  # kept answers of her scope must not linger
    grant_button(office["boss"], kernel, "tracking:stats", office["viewer_id"])
    assert dashboard(viewer) == dashboard(office["boss"])
    assert dashboard(viewer)["summary"]["scope"] == "tenant"


def test_run_states_need_the_tenants_figures_too(
    office: dict[str, Any], kernel: Any, client: AtriumClient
) -> None:
    tid = office["tenant"]
    run_states = f"{DASHBOARD}/run-states"
    assert office["viewer"].ok("GET", run_states) == {"counts": "processes"}
    with kernel.db(), unscoped():
        kernel.enablement.set(tid, "process", False)
    try:
        assert office["viewer"].ok("GET", run_states) == {"counts": "none", "scope": "mine"}
        jobs = office["boss"].ok("GET", run_states)
        assert jobs["counts"] == "jobs" and jobs["scope"] == "tenant"
        assert {jobs["running"], jobs["failed"], jobs["normal"]} == {0}
    finally:
        with kernel.db(), unscoped():
            kernel.enablement.set(tid, "process", True)


def test_alice_the_demo_viewer_sees_her_own_and_the_supervisor_acmes(
    user_client: AtriumClient, client: AtriumClient, user_factory: Callable[..., Any], kernel: Any
) -> None:
    account, password, other_id = user_factory(1001)
    other = client.signed_in(account, password)
    alice_id = user_id_of(kernel, "alice")
    use(user_client, "/alice-only", pages=1, clicks=2, app="alicenotes")
    use(other, "/not-alices", pages=5, clicks=5, app="othersapp")
    settle(kernel)

    mine = dashboard(user_client, days=30)
    since = date.fromisoformat(mine["summary"]["series"][0]["date"])
    with tenant_scope(1001), kernel.db():
        db = session()
        own = db.execute(
            select(func.sum(DailyUser.visits), func.sum(DailyUser.clicks), func.sum(DailyUser.loads)).where(
                DailyUser.user_id == alice_id, DailyUser.day >= since
            )
        ).one()
        acme = db.execute(
            select(func.sum(DailyUser.clicks), func.count(DailyUser.user_id.distinct())).where(
                DailyUser.day >= since
            )
        ).one()
    summary = mine["summary"]
    assert summary["scope"] == "mine"
    assert (summary["visitTotal"], summary["clickTotal"], summary["loadTotal"]) == tuple(int(x) for x in own)
    assert summary["activeUsers"] == 1
    assert [u["userId"] for u in mine["top-users"]] == [str(alice_id)]
    assert [t["tenantName"] for t in mine["top-tenants"]] == ["Acme"]
    assert "not-alices" not in str(mine) and "othersapp" not in str(mine)
    assert str(other_id) not in str(mine["top-users"])
    today = dashboard(user_client, days=1)
    assert "alice-only" in [m["menuKey"] for m in today["top-menus"]]
    assert "alicenotes" in [a["appCode"] for a in today["top-apps"]]

    supervisor = dashboard(client.signed_in("supervisor"), days=30)["summary"]
    assert supervisor["scope"] == "tenant"
    assert (supervisor["clickTotal"], supervisor["activeUsers"]) == (int(acme[0]), int(acme[1]))
    assert supervisor["clickTotal"] >= summary["clickTotal"] + 5 and supervisor["activeUsers"] > 1
    author = dashboard(client.signed_in("carol"), days=30)["summary"]  # the demo's author holds the button
    assert author == supervisor
