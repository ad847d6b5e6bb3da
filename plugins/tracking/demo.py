"""Demo usage: 90 days of sign-ins, micro-app loads, page visits and button clicks for the demo tenants'
users, dated relative to today, with their rollups built."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from atrium.plugins.tracking import service
from atrium.plugins.tracking.models import APP_LOAD, BUTTON_CLICK, PAGE_VISIT, SIGN_IN
from atrium.sdk.db import session, utcnow
from atrium.sdk.services import services

DAYS = 90
# (route code, path, name, micro-app code, micro-app name, buttons)
PAGES: list[tuple[str, str, str, str, str, tuple[str, ...]]] = [
    ("home", "/home", "首页", "host", "Shell", ()),
    ("portal-home", "/portal", "门户首页", "portal", "Portal", ("more",)),
    ("leave-request", "/dynamic-form/render/leave-request", "请假申请", "form", "Forms", ("submit", "save")),
    ("message-letters", "/letters", "站内信", "message", "Messages", ("mark-read", "delete")),
    ("dynamic-report", "/dynamic-report/list", "动态报表", "reports", "Reports", ("export", "search")),
    ("file-center", "/fileCenter", "文件中心", "files", "Files", ("upload", "download")),
    ("admin-message-management", "/message-management", "消息管理", "message", "Messages", ("send",)),
    ("admin-watermark", "/system_manage/watermark", "水印设置", "watermark", "Watermark", ("save",)),
    ("news", "/portal/news", "公司新闻", "portal", "Portal", ("search",)),
    ("asset-overview", "/portal", "资产总览", "portal", "Portal", ()),
    ("import-export", "/import-export", "导入导出", "transfer", "Transfer", ("import",)),
    ("content-management", "/content-management", "内容管理", "portal", "Portal", ("publish",)),
]
BROWSERS = [
    ("Chrome", "131.0", "Windows"),
    ("Edge", "131.0", "Windows"),
    ("Chrome", "130.0", "macOS"),
    ("Firefox", "133.0", "Linux"),
]


def events(
    tenant_id: int,
    user_ids: list[int],
    names: dict[int, str],
    now: datetime,
    rng: random.Random,
    per_day: int,
) -> list[dict]:  # type: ignore[type-arg]
    rows: list[dict] = []  # type: ignore[type-arg]
    weights = [1.0 / (i + 1) for i in range(len(PAGES))]
    for days_ago in range(DAYS):
        day = now - timedelta(days=days_ago)
        weekday = day.weekday() < 5
        for uid in user_ids:
            n = rng.randint(per_day // 3, per_day) if weekday else rng.randint(0, per_day // 4)
            browser, version, os_name = rng.choice(BROWSERS)
            common = {
                "tenant_id": tenant_id,
                "user_id": uid,
                "user_name": names.get(uid, "")[:64],
                "system_code": "iotAutho",
                "system_name": "统一门户",
                "version": "1.0.0",
                "client_ip": f"10.0.{tenant_id % 250}.{uid % 250}",
                "browser_name": browser,
                "browser_version": version,
                "os_name": os_name,
                "screen_width": 1920,
                "screen_height": 1080,
                "track_type": "",
                "menu_id": "",
                "route_name": "",
                "route_code": "",
                "route_path": "",
                "page_stay_time": 0,
                "page_render_time": 0,
                "button_name": "",
                "button_code": "",
                "app_code": "",
                "app_name": "",
                "load_time": 0,
            }
            if n:
                signed_in = day.replace(hour=8, minute=uid % 60, second=0, microsecond=0)
                signed_in = min(signed_in, now)
                login = {"at": signed_in, "client_at": signed_in, "event_type": SIGN_IN}
                login["track_type"] = "login"
                rows.append({**common, **login})
            for _ in range(n):
                code, path, name, app, app_name, buttons = rng.choices(PAGES, weights)[0]
                at = day.replace(
                    hour=rng.randint(8, 19),
                    minute=rng.randint(0, 59),
                    second=rng.randint(0, 59),
                    microsecond=0,
                )
                if at > now:
                    at = now - timedelta(minutes=rng.randint(1, 30))
                kind = rng.choices((APP_LOAD, PAGE_VISIT, BUTTON_CLICK), (1, 4, 3))[0]
                row = {
                    **common,
                    "at": at,
                    "client_at": at,
                    "event_type": kind,
                    "app_code": app,
                    "app_name": app_name,
                }
                if kind == APP_LOAD:
                    row["load_time"] = rng.randint(180, 1600)
                else:
                    row.update(route_code=code, route_path=path, route_name=name)
                    if kind == PAGE_VISIT:
                        row.update(
                            track_type="page",
                            page_stay_time=rng.randint(3_000, 600_000),
                            page_render_time=rng.randint(60, 900),
                        )
                    else:
                        button = rng.choice(buttons or ("refresh",))
                        row.update(track_type="button", button_code=f"{code}:{button}", button_name=button)
                rows.append(row)
    return rows


def load(tenants: dict[str, int]) -> None:
    rng = random.Random(14)
    now = utcnow()
    directory = services().directory
    db = session()
    for key, per_day in (("acme", 40), ("globex", 16)):
        tid = tenants.get(key)
        if tid is None:
            continue
        people = directory.members(tid)
        ids = [p.user_id for p in people]
        names = {p.user_id: p.full_name for p in people}
        rows = events(tid, ids, names, now, rng, per_day)
        for start in range(0, len(rows), 2000):
            db.execute(service.EVENTS.insert(), rows[start : start + 2000])
    today = now.date()
    service.rollup(today - timedelta(days=i) for i in range(DAYS))
