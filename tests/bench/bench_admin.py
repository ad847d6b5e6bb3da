"""The administration console's hot paths, each beside hand-written SQL measured in the same run.

- The user list (`GET /api/base/admin/users/page`) over 100,000 users across 1,000 tenants, searched by a
  keyword and paged (20 rows). Two tenants: a large one (20,000 members) and a typical one (about 80).
  Each is measured twice, with the same hand-written count and page statements as the baseline:
  the kernel's query (its function in a database session) beside the SQL on the same engine; and the HTTP
  call as a super administrator (in-process client: routing, session, envelope included) beside a
  signed-in route of the same app that runs the hand-written SQL and answers the same page, so both sides
  carry the same request stack. Budget: p99 at most 1.5x.
- The effective permissions of a user with 50 roles (menus and buttons through their roles, parents
  added), computed by the kernel's function, beside two hand-written SQL queries returning the same ids:
  as served from the in-process cache; cold, the answers dropped before every timed call (what the first
  read after a grant, role or membership change costs); and coldest, the system's kept menus and buttons
  dropped too (the first read after a menu or button change, once per process; shown for what it costs).
  Budget: p99 under 5 ms, from the cache and after a grant change.

Run: .venv/bin/python -m tests.bench.bench_admin   (USERS=20000 for a quick look; on PostgreSQL with
ATRIUM_BENCH_DATABASE_URL=postgresql://..., or ATRIUM_BENCH_DB=pg with ATRIUM_BENCH_PG; the tables go to a
fresh schema, dropped afterwards, and are analysed once loaded, as autovacuum does in a running database)
"""

from __future__ import annotations

import os
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from sqlalchemy import insert, text
from starlette.testclient import TestClient

from atrium.sdk import PluginInfo, Router, hookimpl
from atrium.sdk.testing import encrypt_password
from tests.bench.report import report

USERS = int(os.environ.get("USERS", "100000"))
TENANTS = 1000
BIG = 20_000
FIRST_TENANT = 5_000_000
ROUNDS = 300
ROLES = 50


class PageQuery(BaseModel):
    tenantId: int
    keyword: str
    pageIndex: int


class HandWritten:
    """A plugin with one signed-in route that answers the user page from the hand-written SQL."""

    router = Router("/api/bench-sql")

    @staticmethod
    @router.get("/users", permission="super-admin", query=PageQuery)
    def users(query: PageQuery) -> dict[str, Any]:
        from atrium.sdk.db import session

        args = {"tid": query.tenantId, "kw": f"%{query.keyword.lower()}%"}
        db = session()
        total = db.execute(COUNT_SQL, args).scalar()
        rows = db.execute(PAGE_SQL, {**args, "off": (query.pageIndex - 1) * 20}).all()
        people = [{"userId": r[0], "account": r[1], "userFullName": r[2]} for r in rows]
        return {"total": total, "list": people}

    @hookimpl
    def atrium_plugin_info(self) -> PluginInfo:
        return PluginInfo(
            name="bench-sql", version="1.0.0", services={"bench-sql": "/api/bench-sql"}, essential=True
        )

    @hookimpl
    def atrium_routes(self) -> Router:
        return self.router


def database_url() -> str:
    """PostgreSQL when asked for (ATRIUM_BENCH_DATABASE_URL, or ATRIUM_BENCH_DB=pg with ATRIUM_BENCH_PG)."""
    if os.environ.get("ATRIUM_BENCH_DATABASE_URL"):
        return os.environ["ATRIUM_BENCH_DATABASE_URL"]
    return os.environ.get("ATRIUM_BENCH_PG", "") if os.environ.get("ATRIUM_BENCH_DB") == "pg" else ""


def make_app(db_url: str) -> tuple[Any, TestClient]:
    from atrium.kernel.config import Settings
    from atrium.sdk.testing import build_app

    var = Path(tempfile.mkdtemp(prefix="atrium-bench-admin-"))
    settings = Settings(
        var_dir=var,
        database_url=db_url,
        demo=True,
        scheduler=False,
        secret_key="bench-" + secrets.token_hex(24),
    )
    app = build_app(settings, extra_plugins=[HandWritten()])
    http = TestClient(app, base_url="http://testserver")
    http.__enter__()
    return app.state.kernel, http


def fill(kernel: Any) -> tuple[int, int]:
    """1,000 tenants; the first holds 20,000 members, the others share the rest. Answers two tenant ids."""
    from atrium.kernel.models import Membership, Tenant, User

    big = min(BIG, USERS // 5)
    with kernel.engine.begin() as conn:
        conn.execute(
            insert(Tenant.__table__),
            [
                {
                    "id": FIRST_TENANT + i,
                    "name": f"Bench {i}",
                    "domain": "",
                    "use_limit_code": "",
                    "enabled": True,
                }
                for i in range(TENANTS)
            ],
        )
        first_id = conn.execute(text("SELECT COALESCE(MAX(id), 0) FROM user_account")).scalar() + 1
        words = ["north", "south", "east", "west", "harbour", "valley", "river", "stone"]
        for start in range(0, USERS, 10_000):
            batch = range(start, min(start + 10_000, USERS))
            conn.execute(
                insert(User.__table__),
                [
                    {
                        "id": first_id + i,
                        "account": f"bench{i:06d}",
                        "password_hash": "",
                        "full_name": f"{words[i % 8].title()} {words[(i // 8) % 8]} {i}",
                        "is_super_admin": False,
                        "enabled": True,
                    }
                    for i in batch
                ],
            )
            conn.execute(
                insert(Membership.__table__),
                [
                    {
                        "user_id": first_id + i,
                        "is_supervisor": False,
                        "enabled": True,
                        "tenant_id": FIRST_TENANT if i < big else FIRST_TENANT + 1 + (i % (TENANTS - 1)),
                    }
                    for i in batch
                ],
            )
    return FIRST_TENANT, FIRST_TENANT + 7


def analyse(kernel: Any) -> None:
    """Give PostgreSQL's planner the statistics autovacuum would gather after the bulk load."""
    if kernel.engine.dialect.name == "postgresql":
        with kernel.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("ANALYZE"))


def sign_in(http: TestClient) -> dict[str, str]:
    enc = http.post("/api/base/base-user/get-enryption").json()["data"]
    body = http.post(
        "/api/base/base-user/login",
        json={"account": "admin", "password": encrypt_password(enc["publicKey"], enc["nonce"], "Admin@123")},
    ).json()
    assert body["code"] == 800, body
    return {"authorization": body["data"]["authorization"], "language": "en#us"}


def p99(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100)[98]


def timed(fn: Callable[[], Any]) -> float:
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1000


PAGE_SQL = text(
    "SELECT u.id, u.account, u.full_name, u.mobile, u.email, u.enabled, u.locked_until, u.failed_count,"
    " u.is_super_admin, m.tenant_id, m.enabled, m.is_supervisor FROM user_account u"
    " JOIN membership m ON m.user_id = u.id WHERE m.tenant_id = :tid"
    " AND (lower(u.account) LIKE :kw OR lower(u.full_name) LIKE :kw) ORDER BY u.id LIMIT 20 OFFSET :off"
)
COUNT_SQL = text(
    "SELECT count(*) FROM user_account u JOIN membership m ON m.user_id = u.id WHERE m.tenant_id = :tid"
    " AND (lower(u.account) LIKE :kw OR lower(u.full_name) LIKE :kw)"
)


def user_list(
    kernel: Any, http: TestClient, headers: dict[str, str], tenant_id: int, label: str, page: int = 3
) -> None:
    from atrium.kernel.administration.users import user_page
    from atrium.sdk.context import unscoped

    keyword = "harbour"
    query = f"tenantId={tenant_id}&keyword={keyword}&pageIndex={page}&pageRows=20"
    url = f"/api/base/admin/users/page?{query}"
    first = http.get(url, headers=headers).json()
    assert first["code"] == 800 and first["data"]["list"], first
    expected = (first["data"]["total"], [u["userId"] for u in first["data"]["list"]])

    def sql() -> tuple[int, list[int]]:
        with kernel.engine.connect() as conn:
            args = {"tid": tenant_id, "kw": f"%{keyword}%"}
            total = conn.execute(COUNT_SQL, args).scalar()
            rows = conn.execute(PAGE_SQL, {**args, "off": (page - 1) * 20}).all()
        return total, [r[0] for r in rows]

    def kernel_query() -> dict[str, Any]:
        with unscoped(), kernel.db():
            return user_page(tenant_id, keyword, page, 20)

    answer = kernel_query()
    assert sql() == expected == (answer["total"], [u["userId"] for u in answer["list"]])
    sql_url = f"/api/bench-sql/users?{query}"
    by_hand = http.get(sql_url, headers=headers).json()["data"]
    assert (by_hand["total"], [u["userId"] for u in by_hand["list"]]) == expected

    fn_ms, sql_ms, api_ms, api_sql_ms = [], [], [], []
    for _ in range(ROUNDS):  # in turn, so every side sees the same neighbours
        fn_ms.append(timed(kernel_query))
        sql_ms.append(timed(sql))
        api_ms.append(timed(lambda: http.get(url, headers=headers)))
        api_sql_ms.append(timed(lambda: http.get(sql_url, headers=headers)))
    print(
        f"  {label}: median query {statistics.median(fn_ms):.3f} ms vs {statistics.median(sql_ms):.3f} ms,"
        f" HTTP {statistics.median(api_ms):.3f} ms vs {statistics.median(api_sql_ms):.3f} ms",
        flush=True,
    )
    report(
        f"user list searched and paged, {label} (p99, query)",
        p99(fn_ms),
        p99(sql_ms),
        "ms",
        "1.5x",
        baseline_name="hand-written SQL",
    )
    report(
        f"user list searched and paged, {label} (p99, HTTP)",
        p99(api_ms),
        p99(api_sql_ms),
        "ms",
        "1.5x",
        baseline_name="hand-written SQL behind the same signed-in route",
    )


def permissions(kernel: Any, tenant_id: int) -> None:
    from atrium.kernel.api.permissions import PERMISSIONS, STRUCTURE, effective_permissions
    from atrium.kernel.models import Menu, MenuResource, Role, RoleMenu, RoleResource, UserRole
    from atrium.sdk.context import tenant_scope, unscoped

    with kernel.engine.begin() as conn:
        uid = conn.execute(
            text("SELECT user_id FROM membership WHERE tenant_id = :t LIMIT 1"), {"t": tenant_id}
        ).scalar()
        base = conn.execute(text("SELECT COALESCE(MAX(id), 0) FROM menu")).scalar() + 1
        conn.execute(
            insert(Menu.__table__),
            [
                {
                    "id": base + i,
                    "system_code": "iotAutho",
                    "code": f"bench-menu-{i}",
                    "name": f"Menu {i}",
                    "url": "",
                    "en_name": "",
                    "icon": "",
                    "parameter": "",
                    "is_cache": True,
                    "is_fetch": False,
                    "fetch_path": "",
                    "subscript_key": "",
                    "subscript_status": 0,
                    "user_manual_url": "",
                    "original_addr": "",
                    "plugin": "",
                    "admin_only": False,
                    "sort": i,
                    "parent_id": None if i < 20 else base + i % 20,
                }
                for i in range(400)
            ],
        )
        rbase = conn.execute(text("SELECT COALESCE(MAX(id), 0) FROM menu_resource")).scalar() + 1
        conn.execute(
            insert(MenuResource.__table__),
            [
                {"id": rbase + i, "menu_id": base + i % 400, "code": f"b{i}", "name": f"Button {i}"}
                for i in range(800)
            ],
        )
        role_base = conn.execute(text("SELECT COALESCE(MAX(id), 0) FROM role")).scalar() + 1
        conn.execute(
            insert(Role.__table__),
            [
                {"id": role_base + r, "tenant_id": tenant_id, "code": f"bench{r}", "name": f"Bench {r}"}
                for r in range(ROLES)
            ],
        )
        conn.execute(
            insert(UserRole.__table__),
            [{"tenant_id": tenant_id, "user_id": uid, "role_id": role_base + r} for r in range(ROLES)],
        )
        conn.execute(
            insert(RoleMenu.__table__),
            [
                {"tenant_id": tenant_id, "role_id": role_base + r, "menu_id": base + (r * 7 + k) % 400}
                for r in range(ROLES)
                for k in range(8)
            ],
        )
        conn.execute(
            insert(RoleResource.__table__),
            [
                {"tenant_id": tenant_id, "role_id": role_base + r, "resource_id": rbase + (r * 11 + k) % 800}
                for r in range(ROLES)
                for k in range(10)
            ],
        )

    analyse(kernel)

    def computed() -> dict[str, Any]:
        with unscoped(), kernel.db(), tenant_scope(tenant_id):
            return effective_permissions(uid, tenant_id, "iotAutho")

    menus_sql = text(
        "SELECT DISTINCT rm.menu_id FROM user_role ur JOIN role_menu rm ON rm.role_id = ur.role_id"
        " AND rm.tenant_id = ur.tenant_id WHERE ur.user_id = :u AND ur.tenant_id = :t"
    )
    buttons_sql = text(
        "SELECT DISTINCT rr.resource_id FROM user_role ur JOIN role_resource rr ON rr.role_id = ur.role_id"
        " AND rr.tenant_id = ur.tenant_id WHERE ur.user_id = :u AND ur.tenant_id = :t"
    )

    def sql() -> tuple[list[int], list[int]]:
        with kernel.engine.connect() as conn:
            args = {"u": uid, "t": tenant_id}
            return list(conn.execute(menus_sql, args).scalars()), list(
                conn.execute(buttons_sql, args).scalars()
            )

    answer = computed()
    granted_menus, granted_buttons = sql()
    assert len(answer["roleIds"]) == ROLES and {int(m["menuId"]) for m in answer["menus"]} >= set(
        granted_menus
    )
    shown_buttons = {int(r["resourceId"]) for r in answer["resources"]}
    assert shown_buttons <= set(granted_buttons) and shown_buttons

    def cold() -> dict[str, Any]:  # the first read after a grant change: nothing kept
        kernel.local.drop(PERMISSIONS)
        return computed()

    def coldest() -> dict[str, Any]:  # the first read after a menu or button change
        kernel.local.drop(STRUCTURE)
        return cold()

    kernel.local.drop(PERMISSIONS)
    assert cold() == answer and coldest() == answer

    fn_ms, cold_ms, coldest_ms, sql_ms = [], [], [], []
    for _ in range(ROUNDS):
        fn_ms.append(timed(computed))
        cold_ms.append(timed(cold))
        coldest_ms.append(timed(coldest))
        sql_ms.append(timed(sql))
    print(
        f"  effective permissions: median {statistics.median(fn_ms):.3f} ms from the cache,"
        f" {statistics.median(cold_ms):.3f} ms cold, {statistics.median(coldest_ms):.3f} ms after a menu"
        f" change, vs {statistics.median(sql_ms):.3f} ms",
        flush=True,
    )
    report(
        f"effective permissions, {ROLES} roles, from the cache (p99)",
        p99(fn_ms),
        p99(sql_ms),
        "ms",
        "< 5 ms",
        baseline_name="hand-written SQL",
    )
    report(
        f"effective permissions, {ROLES} roles, cold: answers dropped before each call (p99)",
        p99(cold_ms),
        p99(sql_ms),
        "ms",
        "< 5 ms",
        baseline_name="hand-written SQL",
    )
    report(
        f"effective permissions, {ROLES} roles, after a menu change: menus and answers dropped (p99)",
        p99(coldest_ms),
        p99(sql_ms),
        "ms",
        "none: paid once per process after a menu or button change",
        baseline_name="hand-written SQL",
    )


def main() -> None:
    url = database_url()
    if not url:
        run("")
        return
    from tests.bench.bench_kernel import postgres_schema

    with postgres_schema(url) as in_schema:
        run(in_schema)


def run(db_url: str) -> None:
    print(f"database: {'PostgreSQL' if db_url else 'SQLite'}", flush=True)
    kernel, http = make_app(db_url)
    t = time.perf_counter()
    big, typical = fill(kernel)
    print(f"filled {USERS:,} users in {TENANTS:,} tenants in {time.perf_counter() - t:.1f} s", flush=True)
    analyse(kernel)
    headers = sign_in(http)
    user_list(kernel, http, headers, big, f"{min(BIG, USERS // 5):,}-member tenant")
    user_list_small(kernel, http, headers, typical)
    permissions(kernel, typical)
    http.__exit__(None, None, None)
    kernel.engine.dispose()


def user_list_small(kernel: Any, http: TestClient, headers: dict[str, str], tenant_id: int) -> None:
    with kernel.engine.connect() as conn:
        n = conn.execute(
            text("SELECT count(*) FROM membership WHERE tenant_id = :t"), {"t": tenant_id}
        ).scalar()
    if n >= 60:
        user_list(kernel, http, headers, tenant_id, f"{n}-member tenant", page=1)


if __name__ == "__main__":
    main()
