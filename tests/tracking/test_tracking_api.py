"""Tracking records in, rollups and dashboard figures out: the `/api/log` service."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from atrium.plugins.tracking import service
from atrium.plugins.tracking.models import SIGN_IN, DailyMenu, DailyUser, TrackingEvent
from atrium.sdk.context import unscoped
from atrium.sdk.db import session, utcnow

PAGE = "/api/log/tracking-web-page/tracking"
APPS = "/api/log/tracking-web-server/tracking"


def page(path: str = "/letters", **extra: Any) -> dict[str, Any]:
    return {
        "eventType": 2,
        "trackType": "page",
        "routePath": path,
        "routeName": "Letters",
        "routeCode": path.strip("/") or "home",
        "pageStayTime": 4200,
        "pageRenderTime": 120,
        "systemCode": "iotAutho",
        "systemName": "Portal",
        "browserName": "Chrome",
        "browserVersion": "131",
        "osName": "Linux",
        "screenWidth": 1920,
        "screenHeight": 1080,
        "timestamp": 1764000000000,
        **extra,
    }


def click(path: str = "/letters", name: str = "mark-read", **extra: Any) -> dict[str, Any]:
    return {
        "trackType": "button",
        "routePath": path,
        "routeCode": path.strip("/"),
        "buttonName": name,
        "routeName": path.strip("/").title(),
        **extra,
    }


def settle(kernel: Any) -> None:
    """What the scheduled job does: write the buffer and roll up today."""
    service.flush(kernel)
    with kernel.db():
        service.rollup([utcnow().date()])


def raw_rows(kernel: Any, tenant_id: int, sign_ins: bool = False) -> list[TrackingEvent]:
    """The tenant's raw events: what the browser sent, and with `sign_ins` the server's sign-in rows too."""
    service.flush(kernel)
    q = select(TrackingEvent).where(TrackingEvent.tenant_id == tenant_id).order_by(TrackingEvent.id)
    if not sign_ins:
        q = q.where(TrackingEvent.event_type != SIGN_IN)
    with kernel.db(), unscoped():
        return list(session().execute(q).scalars())


@pytest.fixture
def fresh(client: Any, tenant_factory: Any, user_factory: Any) -> tuple[Any, int, int]:
    tid = tenant_factory()
    account, password, uid = user_factory(tid)
    return client.signed_in(account, password), tid, uid


def test_page_button_and_app_records_are_stored_with_session_identity(fresh: Any, kernel: Any) -> None:
    c, tid, uid = fresh
    assert c.ok("POST", PAGE, json={"params": [page(), click(), page("/home")]}) == {"accepted": 3}
    app = {
        "microAppName": "Messages",
        "microAppCode": "message",
        "loadTime": 350,
        "version": "1.0.0",
        "tenantId": 1,
        "userId": 1,
        "ip": "1.2.3.4",
    }
    assert c.ok("POST", APPS, json={"params": app}) == {"accepted": 1}
    rows = raw_rows(kernel, tid)
    assert [r.event_type for r in rows] == [2, 3, 2, 1]
    assert {r.user_id for r in rows} == {uid}
    assert (
        rows[0].route_path == "/letters" and rows[0].page_stay_time == 4200 and rows[0].screen_width == 1920
    )
    assert rows[0].client_at is not None and rows[0].client_ip
    assert rows[1].track_type == "button" and rows[1].button_name == "mark-read"
    assert rows[3].app_code == "message" and rows[3].load_time == 350 and rows[3].client_ip != "1.2.3.4"


def test_records_need_a_session(client: Any) -> None:
    assert client.post(PAGE, json={"params": [page()]})["code"] == -1


def test_dashboard_reads_rollups_that_match_raw_events(fresh: Any, kernel: Any) -> None:
    c, tid, uid = fresh
    c.ok("POST", PAGE, json={"params": [page(), page(), click(), click("/home", "refresh"), page("/home")]})
    c.ok(
        "POST",
        APPS,
        json={
            "params": [
                {"microAppCode": "message", "microAppName": "Messages", "loadTime": 300},
                {"microAppCode": "message", "microAppName": "Messages", "loadTime": 500},
            ]
        },
    )
    before = c.ok("GET", "/api/log/dashboard/summary")
    assert before["clickTotal"] == 0 and before["scope"] == "mine"
    settle(kernel)
    summary = c.ok("GET", "/api/log/dashboard/summary")
    assert (summary["visitTotal"], summary["clickTotal"], summary["loadTotal"]) == (3, 2, 2)
    assert summary["activeUsers"] == 1 and len(summary["series"]) == 7
    assert summary["series"][-1] == {
        "date": utcnow().date().isoformat(),
        "loads": 2,
        "visits": 3,
        "clicks": 2,
        "users": 1,
    }
    menus = c.ok("GET", "/api/log/dashboard/top-menus")
    assert [(m["menuKey"], m["visits"], m["clicks"]) for m in menus] == [("letters", 2, 1), ("home", 1, 1)]
    users = c.ok("GET", "/api/log/dashboard/top-users")
    assert users == [{"userId": str(uid), "userName": users[0]["userName"], "count": 7}]
    assert users[0]["userName"].startswith("User ")
    assert c.ok("GET", "/api/log/dashboard/top-apps") == [
        {"appCode": "message", "appName": "Messages", "loads": 2, "avgLoadTime": 400}
    ]
    tenants = c.ok("GET", "/api/log/dashboard/top-tenants")
    assert [t["tenantId"] for t in tenants] == [str(tid)] and tenants[0]["count"] == 7

    # rollups equal a count over the raw rows, and rebuilding a day does not double it
    settle(kernel)
    with kernel.db(), unscoped():
        db = session()
        raw = db.execute(
            select(func.count())
            .select_from(TrackingEvent)
            .where(TrackingEvent.tenant_id == tid, TrackingEvent.event_type == 2)
        ).scalar()
        rolled = db.execute(select(func.sum(DailyUser.visits)).where(DailyUser.tenant_id == tid)).scalar()
        per_menu = db.execute(
            select(func.sum(DailyMenu.visits + DailyMenu.clicks)).where(DailyMenu.tenant_id == tid)
        ).scalar()
    assert raw == rolled == 3 and per_menu == 5


def test_rollup_against_raw_events_on_demo_data(kernel: Any) -> None:
    """Every rollup row of the 90 demo days adds up to the raw events it came from."""
    since = utcnow() - timedelta(days=30)
    with kernel.db(), unscoped():
        db = session()
        raw = dict(
            db.execute(
                select(TrackingEvent.event_type, func.count())
                .where(
                    TrackingEvent.at >= since.replace(hour=0, minute=0, second=0, microsecond=0),
                    TrackingEvent.at < utcnow().replace(hour=0, minute=0, second=0, microsecond=0),
                )
                .group_by(TrackingEvent.event_type)
            ).all()
        )
        rolled = db.execute(
            select(func.sum(DailyUser.loads), func.sum(DailyUser.visits), func.sum(DailyUser.clicks)).where(
                DailyUser.day >= since.date(), DailyUser.day < utcnow().date()
            )
        ).one()
    assert raw and (raw.get(1, 0), raw.get(2, 0), raw.get(3, 0)) == tuple(int(x) for x in rolled)


def test_one_tenant_never_sees_another_tenants_usage(
    fresh: Any, kernel: Any, client: Any, tenant_factory: Any, user_factory: Any
) -> None:
    c, tid, _uid = fresh
    other_tid = tenant_factory()
    account, password, _ = user_factory(other_tid)
    other = client.signed_in(account, password)
    c.ok("POST", PAGE, json={"params": [page("/secret-page"), click("/secret-page", "wire-money")]})
    settle(kernel)
    assert other.ok("GET", "/api/log/dashboard/summary")["clickTotal"] == 0
    assert other.ok("GET", "/api/log/dashboard/top-menus") == []
    assert other.ok("GET", "/api/log/dashboard/top-users") == []
    assert other.ok("GET", "/api/log/dashboard/top-tenants") == []
    assert c.ok("GET", "/api/log/dashboard/summary")["clickTotal"] == 1


def test_super_admin_sees_the_platform(admin_client: Any, client: Any) -> None:
    supervisor = client.signed_in("supervisor")
    platform = admin_client.ok("GET", "/api/log/dashboard/summary?days=30")
    acme = supervisor.ok("GET", "/api/log/dashboard/summary?days=30")
    assert platform["scope"] == "platform" and acme["scope"] == "tenant"
    assert platform["clickTotal"] > acme["clickTotal"] > 0
    names = [t["tenantName"] for t in admin_client.ok("GET", "/api/log/dashboard/top-tenants?days=30")]
    assert names[:2] == ["Acme", "Globex"]
    assert [t["tenantName"] for t in supervisor.ok("GET", "/api/log/dashboard/top-tenants?days=30")] == [
        "Acme"
    ]


def test_unknown_types_and_missing_fields_refuse_the_whole_batch(fresh: Any, kernel: Any) -> None:
    c, tid, _uid = fresh
    unknown = c.post(PAGE, json={"params": [page(), {**page(), "eventType": 7}]})
    assert unknown == {
        "code": 400,
        "msg": "Tracking record 1: type 7 is unknown here (allowed: 2, 3)",
        "data": None,
    }
    load_on_page = c.post(PAGE, json={"params": [{**page(), "eventType": 1}]})
    assert load_on_page["code"] == 400
    missing = c.post(PAGE, json={"params": [page(), click(), {"trackType": "button", "routePath": "/x"}]})
    assert missing["msg"] == "Tracking record 2: buttonName is required"
    no_app = c.post(APPS, json={"params": [{"loadTime": 20}]})
    assert no_app["msg"] == "Tracking record 0: microAppCode is required"
    wrong = c.post(PAGE, json={"params": [{**page(), "loadTime": "slow"}]})
    assert wrong["msg"] == "Tracking record 0: field loadTime is not valid"
    assert raw_rows(kernel, tid) == []


def test_errors_are_translated(fresh: Any) -> None:
    c, _tid, _uid = fresh
    zh = type(c)(c.http, "zh-cn")
    zh.headers["authorization"] = c.headers["authorization"]
    assert (
        zh.post(PAGE, json={"params": [{"eventType": 9, "routePath": "/a"}]})["msg"]
        == "第 0 条埋点记录：类型 9 不受支持（可用：2, 3）"
    )
    for locale in ("zh-tw", "vi-vn", "hu-hu"):
        other = type(c)(c.http, locale)
        other.headers["authorization"] = c.headers["authorization"]
        msg = other.post(PAGE, json={"params": [{"eventType": 9, "routePath": "/a"}]})["msg"]
        assert "9" in msg and "type_unknown" not in msg


def test_over_long_strings_are_cut_and_numbers_clamped(fresh: Any, kernel: Any) -> None:
    c, tid, _uid = fresh
    c.ok(
        "POST",
        PAGE,
        json={
            "params": [
                page(
                    "/p" + "x" * 3000,
                    routeName="n" * 500,
                    browserName="b" * 99,
                    pageStayTime=-5,
                    pageRenderTime=10**15,
                )
            ]
        },
    )
    row = raw_rows(kernel, tid)[0]
    assert len(row.route_path) == 512 and len(row.route_name) == 128 and len(row.browser_name) == 32
    assert row.page_stay_time == 0 and row.page_render_time == 2_147_483_647


def test_fractions_nulls_and_numbers_for_text_are_forgiven(fresh: Any, kernel: Any) -> None:
    c, tid, _uid = fresh
    browser_record = page(
        pageStayTime=4200.7,
        pageRenderTime="",
        screenWidth=None,
        menuId=1234,
        browserVersion=None,
        routeName="  Letters  ",
    )
    assert c.ok("POST", PAGE, json={"params": [click(), browser_record]}) == {"accepted": 2}
    row = raw_rows(kernel, tid)[1]
    assert (row.page_stay_time, row.page_render_time, row.screen_width) == (4200, 0, 0)
    assert (row.menu_id, row.browser_version, row.route_name) == ("1234", "", "Letters")
    refused = c.post(PAGE, json={"params": [click(), click(buttonCode=True), click(routeName={"a": 1})]})
    assert refused["msg"] == "Tracking record 1: field buttonCode is not valid"
    assert c.post(PAGE, json={"params": [page(loadTime="4000.5")]})["msg"] == (
        "Tracking record 0: field loadTime is not valid"
    )
    assert len(raw_rows(kernel, tid)) == 2


def test_large_batches_and_garbage(fresh: Any, kernel: Any) -> None:
    c, tid, _uid = fresh
    big = c.post(PAGE, json={"params": [click()] * 10_000})
    assert big == {
        "code": 400,
        "msg": "A tracking batch may hold at most 1000 records; this one has 10000",
        "data": None,
    }
    assert c.ok("POST", PAGE, json={"params": [click()] * 1000}) == {"accepted": 1000}
    garbage = c.post(
        PAGE, content=b'{"params": [{"trackType": ', headers={"content-type": "application/json"}
    )
    assert garbage["code"] == 400 and garbage["msg"] == "The request body is not valid JSON"
    assert c.post(PAGE, json={"params": ["not a record", 5]})["code"] == 400
    assert c.post(PAGE, json=12)["code"] == 400
    assert len(raw_rows(kernel, tid)) == 1000


def test_disabled_plugin_answers_a_clear_error(fresh: Any, kernel: Any) -> None:
    c, tid, _uid = fresh
    with kernel.db(), unscoped():
        kernel.enablement.set(tid, "tracking", False)
    try:
        assert c.post(PAGE, json={"params": [click()]})["code"] == 460
        manifest = c.ok("GET", "/api/kernel/manifest")
        assert "tracking" not in [p["name"] for p in manifest["plugins"]]
    finally:
        with kernel.db(), unscoped():
            kernel.enablement.set(tid, "tracking", True)
    assert "tracking" in [p["name"] for p in c.ok("GET", "/api/kernel/manifest")["plugins"]]


def test_retention_drops_old_raw_events_but_keeps_rollups(kernel: Any, tenant_factory: Any) -> None:
    tid = tenant_factory()
    old = utcnow() - timedelta(days=400)
    row: dict[str, Any] = {
        c.name: ("" if c.type.python_type is str else 0)
        for c in service.EVENTS.columns
        if c.name not in ("id", "client_at")
    }
    row.update(tenant_id=tid, user_id=1, at=old, event_type=2, route_path="/old", route_code="old")
    with kernel.db(), unscoped():
        session().execute(service.EVENTS.insert(), [row])
        service.rollup([old.date()])
        service.drop_expired()
        left = (
            session()
            .execute(select(func.count()).select_from(TrackingEvent).where(TrackingEvent.tenant_id == tid))
            .scalar()
        )
        kept = (
            session().execute(select(func.sum(DailyUser.visits)).where(DailyUser.tenant_id == tid)).scalar()
        )
    assert left == 0 and kept == 1


def test_kernel_dashboard_reads_the_tracking_store(
    fresh: Any, kernel: Any, admin_client: Any, client: Any, user_factory: Any
) -> None:
    c, tid, _uid = fresh
    account, password, _ = user_factory(tid, supervisor=True)
    boss = client.signed_in(account, password)
    c.ok(
        "POST",
        PAGE,
        json={
            "params": [
                click("/letters", "a"),
                click("/letters", "b"),
                page(),
                page("/home", routeName="Home"),
            ]
        },
    )
    settle(kernel)
    totals = boss.ok("GET", "/api/base/base-behavior/behavior-total7")
    assert totals["clickTotal"] == 2 and totals["scope"] == "tenant"
    assert totals["topMenus"] == [{"name": "Letters", "count": 3}, {"name": "Home", "count": 1}]
    assert (totals["tenantTotal"], totals["userTotal"], totals["questionTotal"]) == (1, 2, 0)
    own = c.ok("GET", "/api/base/base-behavior/behavior-total7")  # a plain member: no tenant-wide figures
    assert own["scope"] == "mine" and "userTotal" not in own and "tenantTotal" not in own
    platform = admin_client.ok("GET", "/api/base/base-behavior/behavior-total7")
    assert platform["tenantTotal"] >= 3 and platform["userTotal"] >= 4
    assert platform["clickTotal"] > totals["clickTotal"]


def test_the_scheduled_job_writes_rolls_up_and_keeps_partitions_ahead(fresh: Any, kernel: Any) -> None:
    from datetime import date

    from sqlalchemy import text

    from atrium.sdk import services as sdk_services

    c, tid, _uid = fresh
    c.ok("POST", PAGE, json={"params": [page(), click()]})
    token = sdk_services.bind(kernel)
    try:
        with kernel.db():
            service.run_job()
            if session().get_bind().dialect.name == "postgresql":
                later = (utcnow().date().replace(day=1) + timedelta(days=130)).replace(day=1)
                service.ensure_partitions(later)
                name = f"tracking_event_{later:%Y%m}"
                assert session().execute(text("SELECT to_regclass(:n)"), {"n": name}).scalar()
                assert later > date.today()
    finally:
        sdk_services.unbind(token)
    summary = c.ok("GET", "/api/log/dashboard/summary")
    assert (summary["visitTotal"], summary["clickTotal"]) == (1, 1)


def test_a_refused_flush_is_kept_and_written_later() -> None:
    from atrium.plugins.tracking.buffer import Buffer

    written: list[list[dict[str, Any]]] = []
    fail = [True]

    def writer(rows: list[dict[str, Any]]) -> None:
        if fail[0]:
            raise RuntimeError("database is locked")
        written.append(rows)

    buf = Buffer(writer, flush_seconds=3600, flush_rows=10_000)
    buf.add([{"n": 1}, {"n": 2}])
    assert buf.flush() == 0 and buf.pending() == 2
    fail[0] = False
    buf.add([{"n": 3}])
    assert buf.flush() == 3 and written == [[{"n": 1}, {"n": 2}, {"n": 3}]]
    buf.close()


def test_sign_ins_recorded_by_tracking_fill_the_seven_day_counts(
    fresh: Any, kernel: Any, client: Any, tenant_factory: Any, user_factory: Any, admin_client: Any
) -> None:
    from atrium.plugins.tracking import logins

    member, tid, uid = fresh
    account, password, _ = user_factory(tid, supervisor=True)
    c = client.signed_in(account, password)  # a second sign-in in the same tenant, by its administrator
    other_tid = tenant_factory()
    other_account, other_password, _ = user_factory(other_tid, supervisor=True)
    other = client.signed_in(other_account, other_password)
    # a sign-in only the tracking store knows of (the kernel's sign-in log has nothing three days back)
    today = utcnow().date()
    earlier = logins.sign_in_row(tid, uid, "Earlier", "iotAutho")
    earlier["at"] = earlier["client_at"] = utcnow() - timedelta(days=3)
    service.buffer(kernel).add([earlier])
    service.flush(kernel)
    with kernel.db():
        service.rollup([today, today - timedelta(days=3)])
    stored = [r for r in raw_rows(kernel, tid, sign_ins=True) if r.event_type == SIGN_IN]
    assert len(stored) == 3 and {r.track_type for r in stored} == {"login"}

    def counts(who: Any) -> dict[str, int]:
        days = who.ok("GET", "/api/base/login-log/user-7day-login-count")
        assert len(days) == 7 and days[-1]["date"] == today.isoformat()
        return {d["date"]: d["count"] for d in days}

    mine, theirs, platform = counts(c), counts(other), counts(admin_client)
    three_days_ago = (today - timedelta(days=3)).isoformat()
    assert (mine[today.isoformat()], mine[three_days_ago]) == (2, 1)
    assert (theirs[today.isoformat()], theirs[three_days_ago]) == (1, 0)
    assert sum(theirs.values()) == 1
    assert platform[today.isoformat()] >= 3 and platform[three_days_ago] >= 1
    assert sum(platform.values()) > sum(mine.values()) + sum(theirs.values())
    assert sum(counts(member).values()) == 1  # a plain member counts her own sign-ins only


def test_seven_day_sign_ins_fall_back_to_the_kernel_log_without_tracking(
    client: Any, kernel: Any, tenant_factory: Any, user_factory: Any
) -> None:
    tid = tenant_factory()
    account, password, _uid = user_factory(tid)
    with kernel.db(), unscoped():
        kernel.enablement.set(tid, "tracking", False)
    c = client.signed_in(account, password)
    client.signed_in(account, password)
    days = c.ok("GET", "/api/base/login-log/user-7day-login-count")
    assert days[-1] == {"date": utcnow().date().isoformat(), "count": 2}
    assert raw_rows(kernel, tid, sign_ins=True) == []  # a tenant without the plugin records nothing
