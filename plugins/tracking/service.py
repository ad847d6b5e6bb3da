"""Tracking without HTTP: turning records into rows, the write buffer, the rollup job and dashboard questions.

Dashboard questions read only the daily rollups (``tracking_daily_*``); the rollup job rebuilds a day's
rollups from the raw events in one transaction, so a reader never sees half a day. Whose usage they count is
the caller's `Scope`: the platform, the tenant, or (without `tracking:stats`) only her own events.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal, TypeVar, cast

from sqlalchemy import Date, String, Table, and_, case, delete, func, insert, literal, select, text

from atrium.plugins.tracking.buffer import Buffer
from atrium.plugins.tracking.bulk import write_rows
from atrium.plugins.tracking.models import (
    APP_LOAD,
    BUTTON_CLICK,
    PAGE_VISIT,
    SIGN_IN,
    SIGN_INS,
    DailyApp,
    DailyMenu,
    DailyTenant,
    DailyUser,
    DailyUserApp,
    DailyUserMenu,
    TrackingEvent,
)
from atrium.plugins.tracking.settings import tracking_settings
from atrium.sdk.context import current_context, current_user, tenant_scope, unscoped
from atrium.sdk.db import session, utcnow
from atrium.sdk.grants import holds_grant
from atrium.sdk.services import Services, services

T = TypeVar("T")

EVENTS = cast(Table, TrackingEvent.__table__)
STR_COLUMNS = {c.name: c.type.length for c in EVENTS.columns if isinstance(c.type, String) and c.type.length}

# ---------------------------------------------------------------------------------------------------------
# the write buffer, one per running platform


_buffers: dict[int, tuple[Services, Buffer]] = {}
_buffers_lock = threading.Lock()


INSERT_COLUMNS = tuple(c.name for c in EVENTS.columns if c.name != "id")


def _writer(svc: Services) -> Any:
    def write(rows: list[dict[str, Any]]) -> None:
        with unscoped(), svc.db() as db:
            write_rows(db.connection(), EVENTS, INSERT_COLUMNS, rows)

    return write


def buffer(svc: Services | None = None) -> Buffer:
    """The buffer of the running platform (created on first use)."""
    svc = svc or services()
    with _buffers_lock:
        found = _buffers.get(id(svc))
        if found is None or found[0] is not svc:
            cfg = tracking_settings()
            found = (svc, Buffer(_writer(svc), cfg.flush_seconds, cfg.flush_rows))
            _buffers[id(svc)] = found
        return found[1]


def flush(svc: Services | None = None) -> int:
    """Write the running platform's queued events now (shutdown, tests, the rollup job)."""
    return buffer(svc).flush()


def close(svc: Services) -> None:
    with _buffers_lock:
        found = _buffers.pop(id(svc), None)
    if found is not None:
        found[1].close()


# ---------------------------------------------------------------------------------------------------------
# records to rows


EPOCH = datetime(1970, 1, 1)


def parse_time(value: Any) -> datetime | None:
    """A browser timestamp: epoch milliseconds (or seconds) or ISO 8601; anything else is left out."""
    try:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return EPOCH + timedelta(milliseconds=value if value > 1e11 else value * 1000)
        if isinstance(value, str) and value:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
            return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
    except (ValueError, OverflowError, OSError):
        return None
    return None


def ingest(rows: list[dict[str, Any]]) -> int:
    """Queue a batch of validated rows (strings already cut to their column sizes) for the bulk writer,
    stamped with the session's tenant and user, the client's IP and the time received; answers how many
    were accepted."""
    ctx = current_context()
    su = current_user()
    stamp = {
        "tenant_id": su.tenant_id,
        "user_id": su.user_id,
        "user_name": su.full_name[:64],
        "client_ip": ctx.client_ip[:64],
        "at": utcnow(),
    }
    for row in rows:
        row.update(stamp)
    buffer().add(rows)
    return len(rows)


# ---------------------------------------------------------------------------------------------------------
# the rollup job


def _day_bounds(day: date) -> tuple[datetime, datetime]:
    start = datetime(day.year, day.month, day.day)
    return start, start + timedelta(days=1)


def rollup_day(day: date) -> None:
    """Rebuild one day's rollups of every tenant from the raw events (inside the caller's transaction)."""
    db = session()
    start, end = _day_bounds(day)
    in_day = and_(TrackingEvent.at >= start, TrackingEvent.at < end)
    d = literal(day, Date)
    for model in (DailyUser, DailyTenant, DailyMenu, DailyApp, DailyUserMenu, DailyUserApp):
        table = cast(Table, model.__table__)
        db.execute(delete(table).where(table.c.day == day))

    def count(kind: int) -> Any:
        return func.sum(case((TrackingEvent.event_type == kind, 1), else_=0))

    db.execute(
        insert(cast(Table, DailyUser.__table__)).from_select(
            ["day", "tenant_id", "user_id", "loads", "visits", "clicks", "logins"],
            select(
                d,
                TrackingEvent.tenant_id,
                TrackingEvent.user_id,
                count(APP_LOAD),
                count(PAGE_VISIT),
                count(BUTTON_CLICK),
                count(SIGN_IN),
            )
            .where(in_day)
            .group_by(TrackingEvent.tenant_id, TrackingEvent.user_id),
        )
    )
    u = DailyUser.__table__.c
    db.execute(
        insert(cast(Table, DailyTenant.__table__)).from_select(
            ["day", "tenant_id", "loads", "visits", "clicks", "users", "logins"],
            select(
                d,
                u.tenant_id,
                func.sum(u.loads),
                func.sum(u.visits),
                func.sum(u.clicks),
                func.count(),
                func.sum(u.logins),
            )
            .where(u.day == day)
            .group_by(u.tenant_id),
        )
    )
    key = case((TrackingEvent.route_code != "", TrackingEvent.route_code), else_=TrackingEvent.route_path)
    db.execute(
        insert(cast(Table, DailyMenu.__table__)).from_select(
            ["day", "tenant_id", "menu_key", "menu_name", "visits", "clicks", "stay_ms"],
            select(
                d,
                TrackingEvent.tenant_id,
                key,
                func.max(TrackingEvent.route_name),
                count(PAGE_VISIT),
                count(BUTTON_CLICK),
                func.sum(TrackingEvent.page_stay_time),
            )
            .where(in_day, TrackingEvent.event_type.in_((PAGE_VISIT, BUTTON_CLICK)), key != "")
            .group_by(TrackingEvent.tenant_id, key),
        )
    )
    db.execute(
        insert(cast(Table, DailyApp.__table__)).from_select(
            ["day", "tenant_id", "app_code", "app_name", "loads", "load_ms"],
            select(
                d,
                TrackingEvent.tenant_id,
                TrackingEvent.app_code,
                func.max(TrackingEvent.app_name),
                func.count(),
                func.sum(TrackingEvent.load_time),
            )
            .where(in_day, TrackingEvent.event_type == APP_LOAD)
            .group_by(TrackingEvent.tenant_id, TrackingEvent.app_code),
        )
    )
    # the same per user: a member's own most used menus and micro-apps
    db.execute(
        insert(cast(Table, DailyUserMenu.__table__)).from_select(
            ["day", "tenant_id", "user_id", "menu_key", "menu_name", "visits", "clicks"],
            select(
                d,
                TrackingEvent.tenant_id,
                TrackingEvent.user_id,
                key,
                func.max(TrackingEvent.route_name),
                count(PAGE_VISIT),
                count(BUTTON_CLICK),
            )
            .where(in_day, TrackingEvent.event_type.in_((PAGE_VISIT, BUTTON_CLICK)), key != "")
            .group_by(TrackingEvent.tenant_id, TrackingEvent.user_id, key),
        )
    )
    db.execute(
        insert(cast(Table, DailyUserApp.__table__)).from_select(
            ["day", "tenant_id", "user_id", "app_code", "app_name", "loads", "load_ms"],
            select(
                d,
                TrackingEvent.tenant_id,
                TrackingEvent.user_id,
                TrackingEvent.app_code,
                func.max(TrackingEvent.app_name),
                func.count(),
                func.sum(TrackingEvent.load_time),
            )
            .where(in_day, TrackingEvent.event_type == APP_LOAD)
            .group_by(TrackingEvent.tenant_id, TrackingEvent.user_id, TrackingEvent.app_code),
        )
    )


def rollup(days: Iterable[date]) -> None:
    with unscoped():
        for day in sorted(set(days)):
            rollup_day(day)
    session().flush()
    bump_generation()


def ensure_partitions(today: date | None = None) -> None:
    """On PostgreSQL: the month partitions of this month and the next exist (older events fall into the
    default partition)."""
    db = session()
    if db.get_bind().dialect.name != "postgresql":
        return
    first = (today or utcnow().date()).replace(day=1)
    for months in (0, 1):
        start = (first + timedelta(days=32 * months)).replace(day=1)
        end = (start + timedelta(days=32)).replace(day=1)
        name = f"tracking_event_{start:%Y%m}"
        exists = db.execute(text("SELECT to_regclass(:n)"), {"n": name}).scalar()
        if exists:
            continue
        # rows of that month already in the default partition move into the new one
        db.execute(text("ALTER TABLE tracking_event DETACH PARTITION tracking_event_default"))
        db.execute(
            text(f"CREATE TABLE {name} PARTITION OF tracking_event FOR VALUES FROM ('{start}') TO ('{end}')")
        )
        db.execute(
            text(
                f"INSERT INTO {name} SELECT * FROM tracking_event_default "
                f"WHERE at >= '{start}' AND at < '{end}'"
            )
        )
        db.execute(text(f"DELETE FROM tracking_event_default WHERE at >= '{start}' AND at < '{end}'"))
        db.execute(text("ALTER TABLE tracking_event ATTACH PARTITION tracking_event_default DEFAULT"))


def drop_expired(now: datetime | None = None) -> None:
    """Drop raw events older than the retention (whole month partitions on PostgreSQL when they can go)."""
    db = session()
    cutoff = (now or utcnow()) - timedelta(days=tracking_settings().retention_days)
    if db.get_bind().dialect.name == "postgresql":
        names = (
            db.execute(
                text(
                    "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                    "JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'tracking_event' "
                    "AND c.relname ~ '^tracking_event_[0-9]{6}$'"
                )
            )
            .scalars()
            .all()
        )
        for name in names:
            start = date(int(name[-6:-2]), int(name[-2:]), 1)
            end = (start + timedelta(days=32)).replace(day=1)
            if datetime(end.year, end.month, end.day) <= cutoff:
                db.execute(text(f"DROP TABLE {name}"))
    db.execute(delete(EVENTS).where(EVENTS.c.at < cutoff))


def run_job() -> None:
    """The scheduled job: write the buffer, bring today's and yesterday's rollups up to date, drop expired
    raw events."""
    flush()
    with unscoped():
        ensure_partitions()
        today = utcnow().date()
        rollup([today - timedelta(days=1), today])
        drop_expired()


# ---------------------------------------------------------------------------------------------------------
# dashboard questions (rollups only)


STATS_GRANT = "tracking:stats"
"""The button that shows a member her tenant's usage; without it (or administration) she sees her own."""


@dataclass(frozen=True, slots=True)
class Scope:
    """Whose usage a dashboard answer counts, decided once per request by `viewer_scope`: the platform
    (super administrators), the caller's tenant (tenant administrators and holders of `tracking:stats`) or
    only the caller's own events (everyone else)."""

    name: Literal["platform", "tenant", "mine"]
    tenant_id: int
    user_id: int

    @property
    def mine(self) -> bool:
        return self.name == "mine"

    @property
    def key(self) -> tuple[Any, ...]:
        """What a kept answer is kept under: answers of different scopes never meet."""
        if self.name == "platform":
            return ("platform",)
        if self.name == "tenant":
            return ("tenant", self.tenant_id)
        return ("mine", self.tenant_id, self.user_id)

    def reading(self) -> AbstractContextManager[Any]:
        """The tenant filter to read under: none for the platform, the session's tenant otherwise."""
        return unscoped() if self.name == "platform" else nullcontext()

    def own(self, model: Any) -> list[Any]:
        """The extra conditions on a per-user rollup: the caller's rows only, in the `mine` scope."""
        return [model.user_id == self.user_id] if self.mine else []


def viewer_scope() -> Scope:
    """The signed-in caller's dashboard scope (the one place the grant is looked at)."""
    su = current_user()
    name: Literal["platform", "tenant", "mine"]
    if su.is_super_admin:
        name = "platform"
    elif holds_grant(STATS_GRANT):
        name = "tenant"
    else:
        name = "mine"
    return Scope(name, su.tenant_id, su.user_id)


MEMO = True
"""Dashboard answers are kept until the next rollup run (they change only then); off for cold timings."""
_memo: dict[tuple[Any, ...], tuple[int, Any]] = {}
GENERATION_KEY = "tracking:rollup-generation"


def _generation() -> int:
    value = services().cache.get(GENERATION_KEY)
    return int(value or 0)


def bump_generation() -> None:
    """Called after rollups change: every process's kept dashboard answers are stale from now on."""
    try:
        services().cache.incr(GENERATION_KEY)
    except RuntimeError:  # no running platform (plain scripts)
        pass


def _remembered(name: str, days: int, scope: Scope, compute: Callable[[], T]) -> T:
    if not MEMO:
        return compute()
    key = (id(services()), name, scope.key, days)
    generation = _generation()
    found = _memo.get(key)
    if found is not None and found[0] == generation:
        return cast(T, found[1])
    value = compute()
    if len(_memo) > 10_000:
        _memo.clear()
    _memo[key] = (generation, value)
    return value


def _sign_ins_today(db: Any, tenant_id: int | None) -> int:
    """Today's sign-ins counted live (the written rows of today, read from their partial index, and those
    still queued), so a sign-in shows at once rather than after the next rollup run."""
    start = datetime.combine(utcnow().date(), datetime.min.time())
    written = db.execute(
        select(func.count()).select_from(TrackingEvent).where(TrackingEvent.at >= start, SIGN_INS)
    ).scalar()
    queued = buffer().pending_where(
        lambda row: row["event_type"] == SIGN_IN and (tenant_id is None or row["tenant_id"] == tenant_id)
    )
    return int(written or 0) + queued


def _window(days: int) -> date:
    return utcnow().date() - timedelta(days=days - 1)


def summary(days: int, scope: Scope | None = None) -> dict[str, Any]:
    """Totals and a per-day series over the last `days` days (kept until the next rollup)."""
    seen = scope or viewer_scope()
    return _remembered("summary", days, seen, lambda: _summary(days, seen))


def _summary(days: int, scope: Scope) -> dict[str, Any]:
    """Totals and a per-day series over the last `days` days (series from the per-tenant rollup, or the
    caller's own rows of the per-user one; the active users of the whole window counted once each from the
    per-user rollup)."""
    since = _window(days)
    if scope.mine:
        daily: Any = select(
            DailyUser.day,
            func.sum(DailyUser.loads),
            func.sum(DailyUser.visits),
            func.sum(DailyUser.clicks),
            func.count(),
        ).where(DailyUser.day >= since, *scope.own(DailyUser))
        active_tenants: Any = select(func.count(DailyUser.tenant_id.distinct())).where(
            DailyUser.day >= since, *scope.own(DailyUser)
        )
    else:
        daily = select(
            DailyTenant.day,
            func.sum(DailyTenant.loads),
            func.sum(DailyTenant.visits),
            func.sum(DailyTenant.clicks),
            func.sum(DailyTenant.users),
        ).where(DailyTenant.day >= since)
        active_tenants = select(func.count(DailyTenant.tenant_id.distinct())).where(DailyTenant.day >= since)
    with scope.reading():
        db = session()
        per_day = db.execute(daily.group_by(daily.selected_columns[0])).all()
        tenants = db.execute(active_tenants).scalar() or 0
        users = (
            db.execute(
                select(func.count(DailyUser.user_id.distinct())).where(
                    DailyUser.day >= since, *scope.own(DailyUser)
                )
            ).scalar()
            or 0
        )
    by_day = {_as_date(r[0]): r for r in per_day}
    series = []
    for i in range(days):
        day = since + timedelta(days=i)
        r = by_day.get(day)
        series.append(
            {
                "date": day.isoformat(),
                "loads": int(r[1]) if r else 0,
                "visits": int(r[2]) if r else 0,
                "clicks": int(r[3]) if r else 0,
                "users": int(r[4]) if r else 0,
            }
        )
    return {
        "scope": scope.name,
        "days": days,
        "loadTotal": sum(s["loads"] for s in series),
        "visitTotal": sum(s["visits"] for s in series),
        "clickTotal": sum(s["clicks"] for s in series),
        "activeUsers": int(users),
        "activeTenants": int(tenants),
        "series": series,
    }


def _as_date(value: Any) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value)[:10])


def top_menus(days: int, scope: Scope | None = None, limit: int = 10) -> list[dict[str, Any]]:
    """The most used menus (visits plus clicks)."""
    seen = scope or viewer_scope()
    return _remembered(f"top_menus:{limit}", days, seen, lambda: _top_menus(days, seen, limit))


def _top_menus(days: int, scope: Scope, limit: int = 10) -> list[dict[str, Any]]:
    since = _window(days)
    m: Any = DailyUserMenu if scope.mine else DailyMenu
    total = func.sum(m.visits + m.clicks)
    with scope.reading():
        rows = (
            session()
            .execute(
                select(m.menu_key, func.max(m.menu_name), func.sum(m.visits), func.sum(m.clicks), total)
                .where(m.day >= since, *scope.own(m))
                .group_by(m.menu_key)
                .order_by(total.desc(), m.menu_key)
                .limit(limit)
            )
            .all()
        )
    return [
        {"menuKey": k, "name": n or k, "visits": int(v), "clicks": int(c), "count": int(t)}
        for k, n, v, c, t in rows
    ]


def top_users(days: int, scope: Scope | None = None, limit: int = 10) -> list[dict[str, Any]]:
    """The most active users (in the `mine` scope: only the caller)."""
    seen = scope or viewer_scope()
    return _remembered(f"top_users:{limit}", days, seen, lambda: _top_users(days, seen, limit))


def _top_users(days: int, scope: Scope, limit: int = 10) -> list[dict[str, Any]]:
    since = _window(days)
    total = func.sum(DailyUser.loads + DailyUser.visits + DailyUser.clicks)
    with scope.reading():
        rows = (
            session()
            .execute(
                select(DailyUser.user_id, total)
                .where(DailyUser.day >= since, *scope.own(DailyUser))
                .group_by(DailyUser.user_id)
                .having(total > 0)
                .order_by(total.desc(), DailyUser.user_id)
                .limit(limit)
            )
            .all()
        )
    people = services().directory.users([int(u) for u, _ in rows])
    return [
        {"userId": str(u), "userName": (people[u].full_name if u in people else str(u)), "count": int(c)}
        for u, c in rows
    ]


def top_tenants(days: int, scope: Scope | None = None, limit: int = 10) -> list[dict[str, Any]]:
    """The most active tenants (platform view); a tenant's users see only their own (in the `mine` scope
    with the caller's own activity)."""
    seen = scope or viewer_scope()
    return _remembered(f"top_tenants:{limit}", days, seen, lambda: _top_tenants(days, seen, limit))


def _top_tenants(days: int, scope: Scope, limit: int = 10) -> list[dict[str, Any]]:
    since = _window(days)
    if scope.mine:
        mine = func.sum(DailyUser.loads + DailyUser.visits + DailyUser.clicks)
        query: Any = (
            select(DailyUser.tenant_id, mine, func.count(DailyUser.user_id.distinct()))
            .where(DailyUser.day >= since, *scope.own(DailyUser))
            .group_by(DailyUser.tenant_id)
            .having(mine > 0)
        )
    else:
        total = func.sum(DailyTenant.loads + DailyTenant.visits + DailyTenant.clicks)
        query = (
            select(DailyTenant.tenant_id, total, func.max(DailyTenant.users))
            .where(DailyTenant.day >= since)
            .group_by(DailyTenant.tenant_id)
            .having(total > 0)
            .order_by(total.desc(), DailyTenant.tenant_id)
        )
    with scope.reading():
        rows = session().execute(query.limit(limit)).all()
    directory = services().directory
    out = []
    for tid, count, users in rows:
        info = directory.tenant(int(tid))
        out.append(
            {
                "tenantId": str(tid),
                "tenantName": info.name if info else str(tid),
                "count": int(count),
                "peakUsers": int(users),
            }
        )
    return out


def top_apps(days: int, scope: Scope | None = None, limit: int = 10) -> list[dict[str, Any]]:
    """The most loaded micro-apps with their average load time."""
    seen = scope or viewer_scope()
    return _remembered(f"top_apps:{limit}", days, seen, lambda: _top_apps(days, seen, limit))


def _top_apps(days: int, scope: Scope, limit: int = 10) -> list[dict[str, Any]]:
    since = _window(days)
    a: Any = DailyUserApp if scope.mine else DailyApp
    loads = func.sum(a.loads)
    with scope.reading():
        rows = (
            session()
            .execute(
                select(a.app_code, func.max(a.app_name), loads, func.sum(a.load_ms))
                .where(a.day >= since, *scope.own(a))
                .group_by(a.app_code)
                .order_by(loads.desc(), a.app_code)
                .limit(limit)
            )
            .all()
        )
    return [
        {"appCode": a, "appName": n or a, "loads": int(c), "avgLoadTime": round(int(ms) / max(int(c), 1))}
        for a, n, c, ms in rows
    ]


def recent(limit: int) -> list[dict[str, Any]]:
    """The tenant's latest raw events (administrators' check that the browser's records arrive)."""
    rows = (
        session()
        .execute(
            select(TrackingEvent).order_by(TrackingEvent.at.desc(), TrackingEvent.id.desc()).limit(limit)
        )
        .scalars()
        .all()
    )
    return [
        {
            "eventType": r.event_type,
            "trackType": r.track_type,
            "userId": str(r.user_id),
            "userName": r.user_name,
            "at": r.at.isoformat(timespec="seconds"),
            "microAppCode": r.app_code,
            "microAppName": r.app_name,
            "loadTime": r.load_time,
            "routePath": r.route_path,
            "routeName": r.route_name,
            "routeCode": r.route_code,
            "pageStayTime": r.page_stay_time,
            "pageRenderTime": r.page_render_time,
            "buttonName": r.button_name,
            "buttonCode": r.button_code,
            "ip": r.client_ip,
            "browserName": r.browser_name,
            "osName": r.os_name,
            "screenWidth": r.screen_width,
            "screenHeight": r.screen_height,
            "systemCode": r.system_code,
        }
        for r in rows
    ]


def usage_totals(tenant_id: int | None, days: int) -> dict[str, Any]:
    """Clicks, the ten most used menus and sign-ins per day over the last `days` days, for one tenant or
    (None) the platform; the kernel's behaviour totals and 7-day sign-ins ask this through
    `atrium_usage_totals`."""
    since = _window(days)
    scope = unscoped() if tenant_id is None else tenant_scope(tenant_id)
    total = func.sum(DailyMenu.visits + DailyMenu.clicks)
    with scope:
        db = session()
        clicks = (
            db.execute(select(func.sum(DailyTenant.clicks)).where(DailyTenant.day >= since)).scalar() or 0
        )
        menus = db.execute(
            select(DailyMenu.menu_key, func.max(DailyMenu.menu_name), total)
            .where(DailyMenu.day >= since)
            .group_by(DailyMenu.menu_key)
            .order_by(total.desc(), DailyMenu.menu_key)
            .limit(10)
        ).all()
        logins = dict(
            db.execute(
                select(DailyTenant.day, func.sum(DailyTenant.logins))
                .where(DailyTenant.day >= since)
                .group_by(DailyTenant.day)
            ).all()
        )
        by_day = {_as_date(d): int(n) for d, n in logins.items()}
        by_day[utcnow().date()] = _sign_ins_today(db, tenant_id)
    series = [since + timedelta(days=i) for i in range(days)]
    return {
        "clickTotal": int(clicks),
        "topMenus": [{"name": n or k, "count": int(c)} for k, n, c in menus],
        "loginSeries": [{"date": d.isoformat(), "count": by_day.get(d, 0)} for d in series],
    }
