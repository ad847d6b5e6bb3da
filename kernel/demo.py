"""Demo data: the platform tenant and two tenants, a user of each role, systems, menus, plugin content."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import structlog
from sqlalchemy import select

from atrium.kernel import accounts
from atrium.kernel.identity import register
from atrium.kernel.menus import sync_menus
from atrium.kernel.models import (
    DEFAULT_SYSTEM,
    PLATFORM_TENANT_ID,
    DictItem,
    GreyRule,
    Menu,
    MenuFetch,
    MenuResource,
    PasswordStrategy,
    RoleMenu,
    RoleResource,
    System,
    Tenant,
    User,
)
from atrium.sdk import services as sdk_services
from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.db import session, utcnow

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

log = structlog.get_logger("atrium.demo")

ACCOUNTS = [
    ("admin", "Admin@123", "super administrator (all tenants)"),
    ("supervisor", "Super@123", "supervisor of Acme"),
    ("alice", "Alice@123", "user of Acme and Globex (phone 13800000001), a viewer: designs nothing"),
    ("carol", "Carol@123", "author in Acme: designs reports, forms and processes"),
    ("bob", "Bob@12345", "user of Globex"),
]
#: the buttons that design, deploy or send on others' behalf: held by authors, not by the demo's viewers
AUTHORING = frozenset(
    {
        "dyreport:manage",
        "form:design",
        "process:design",
        "process:deploy",
        "icon:manage",
        "message:send",
        "tracking:stats",
        "form:stats",
        "process:stats",
    }
)
TENANTS = {"platform": PLATFORM_TENANT_ID, "acme": 1001, "globex": 1002}


def demo_strategy() -> PasswordStrategy:
    return PasswordStrategy(min_length=6, max_length=12, expire_days=90, warn_days=7, allow_symbols=True)


SYSTEMS = [
    (DEFAULT_SYSTEM, "统一门户", json.dumps({"en-us": "Unified Portal", "zh-tw": "統一門戶"}), "/", 1, 0),
    (
        "assetMgmt",
        "资产管理",
        json.dumps({"en-us": "Asset Management", "zh-tw": "資產管理"}),
        "/portal",
        1,
        1,
    ),
    ("legacyErp", "旧版ERP", json.dumps({"en-us": "Legacy ERP"}), "/erp", 0, 2),
    ("dataLab", "数据实验室", json.dumps({"en-us": "Data Lab"}), "", 1, 3),
]

LANGUAGES = [
    ("zh-cn", "简体中文"),
    ("zh-tw", "繁體中文"),
    ("en-us", "English"),
    ("vi-vn", "Tiếng Việt"),
    ("hu-hu", "Magyar"),
]
FEEDBACK = [
    (
        "bug",
        {
            "zh-cn": "功能异常",
            "zh-tw": "功能異常",
            "en-us": "Something is broken",
            "vi-vn": "Lỗi chức năng",
            "hu-hu": "Hibás működés",
        },
    ),
    (
        "slow",
        {
            "zh-cn": "页面卡顿",
            "zh-tw": "頁面卡頓",
            "en-us": "Page is slow",
            "vi-vn": "Trang chậm",
            "hu-hu": "Lassú oldal",
        },
    ),
    (
        "suggestion",
        {
            "zh-cn": "优化建议",
            "zh-tw": "優化建議",
            "en-us": "Suggestion",
            "vi-vn": "Góp ý",
            "hu-hu": "Javaslat",
        },
    ),
    ("other", {"zh-cn": "其他", "zh-tw": "其他", "en-us": "Other", "vi-vn": "Khác", "hu-hu": "Egyéb"}),
]


def _menu(
    code: str,
    name: str,
    en: str,
    url: str,
    parent: Menu | None = None,
    system: str = DEFAULT_SYSTEM,
    parameter: dict[str, str] | None = None,
    sort: int = 0,
    manual: str = "",
) -> Menu:
    db = session()
    with unscoped():
        row = db.execute(select(Menu).where(Menu.system_code == system, Menu.code == code)).scalar()
        if row is None:
            row = Menu(system_code=system, code=code)
            db.add(row)
        row.name, row.en_name, row.url = name, json.dumps({"en-us": en}), url
        row.parent_id = parent.id if parent else None
        row.parameter = json.dumps(parameter) if parameter else ""
        row.sort = sort
        row.user_manual_url = manual
        db.flush()
    return row


def load_demo(kernel: Kernel) -> None:
    with unscoped(), kernel.db() as db:
        if db.get(Tenant, TENANTS["acme"]) is not None:
            sync_menus(kernel)
            return
        for code, name, en, url, state, sort in SYSTEMS:
            db.add(System(code=code, name=name, en_name=en, request_url=url, use_state=state, sort=sort))
        db.flush()
        accounts.create_tenant(PLATFORM_TENANT_ID, "平台", systems=(DEFAULT_SYSTEM,))
        accounts.create_tenant(
            TENANTS["acme"], "Acme", domain="acme.localhost", systems=tuple(s[0] for s in SYSTEMS)
        )
        accounts.create_tenant(
            TENANTS["globex"], "Globex", domain="globex.localhost", systems=(DEFAULT_SYSTEM, "assetMgmt")
        )
        accounts.offer_system(
            TENANTS["acme"], DEFAULT_SYSTEM, system_title="Acme 统一门户", theme_color="#204BE3"
        )
        accounts.offer_system(
            TENANTS["globex"], DEFAULT_SYSTEM, system_title="Globex Portal", theme_color="#13A8A8"
        )
        root = accounts.create_user(
            "admin",
            "Admin@123",
            "平台管理员",
            PLATFORM_TENANT_ID,
            super_admin=True,
            email="admin@atrium.example",
            staff_no="P0001",
            department="平台运营部",
        )
        accounts.add_membership(root.id, TENANTS["acme"], supervisor=True)
        accounts.add_membership(root.id, TENANTS["globex"], supervisor=True)
        root.default_tenant_id = TENANTS["acme"]
        accounts.create_user(
            "supervisor",
            "Super@123",
            "王主管",
            TENANTS["acme"],
            supervisor=True,
            staff_no="A0002",
            department="信息部",
            mobile="13800000002",
        )
        alice = accounts.create_user(
            "alice",
            "Alice@123",
            "Alice Zhang",
            TENANTS["acme"],
            staff_no="A0100",
            department="财务部",
            mobile="13800000001",
            email="alice@acme.example",
        )
        accounts.add_membership(alice.id, TENANTS["globex"])
        carol = accounts.create_user(
            "carol",
            "Carol@123",
            "Carol Wu",
            TENANTS["acme"],
            staff_no="A0101",
            department="数据部",
            email="carol@acme.example",
        )
        bob = accounts.create_user(
            "bob",
            "Bob@12345",
            "Bob Li",
            TENANTS["globex"],
            staff_no="G0001",
            department="Sales",
            email="bob@globex.example",
        )
        for i, (code, name) in enumerate(LANGUAGES):
            db.add(DictItem(dic_type="SYSTEM_LANGUAGE_TYPES", dic_code=code, names={"zh-cn": name}, sort=i))
        for i, (code, names) in enumerate(FEEDBACK):
            db.add(DictItem(dic_type="FEEDBACK_DIC", dic_code=code, names=names, sort=i, public=False))
        db.flush()

        sync_menus(kernel)
        work = _menu("workbench", "工作台", "Workbench", "", sort=1)
        _menu("portal-home", "门户首页", "Portal", "/portal", work, sort=1)
        form = _menu(
            "leave-request",
            "请假申请",
            "Leave request",
            "dynamic-form/render",
            work,
            parameter={"menu_type": "DYNAMIC_FORM", "diy_code": "leave-request", "layout_code": "L1"},
            sort=2,
        )
        ext = _menu(
            "partner-site",
            "合作伙伴门户",
            "Partner site",
            "https://partner.example/?token={token}&menuId={menuId}&systemCode={systemCode}"
            "&user={userFullName}",
            work,
            sort=3,
            manual="https://docs.example/partner",
        )
        db.add(MenuFetch(menu_id=ext.id, item_name="合作伙伴", expand={"target": "_blank"}))
        _menu("rule-engine", "规则引擎", "Rule engine", "/rule-center/engine", work, sort=8)
        _menu("api-analytics", "接口分析", "API analytics", "/api-center/analytics", work, sort=9)
        _menu("asset-overview", "资产总览", "Asset overview", "/portal", system="assetMgmt", sort=1)
        db.add(MenuResource(menu_id=form.id, code="leave:submit", name="提交"))
        db.add(MenuResource(menu_id=form.id, code="leave:approve", name="审批"))
        db.flush()

        with unscoped():
            all_menus = db.execute(select(Menu)).scalars().all()
            all_resources = db.execute(select(MenuResource)).scalars().all()
        # the demo's passwords hold a symbol (Admin@123): its tenants' strategies allow symbols, and their
        # screens say so; Globex takes sign-ups (approved by its administrators) so that the flow can be seen
        with tenant_scope(PLATFORM_TENANT_ID):
            db.add(demo_strategy())
        register.save_config(TENANTS["globex"], allow_register=True, register_approval=True)
        for tenant_key in ("acme", "globex"):
            tid = TENANTS[tenant_key]
            with tenant_scope(tid):
                role = accounts.create_role("staff", "员工")
                db.add(demo_strategy())
                for m in all_menus:
                    if not m.admin_only:
                        db.add(RoleMenu(role_id=role.id, menu_id=m.id))
                for r in all_resources:
                    if r.code != "leave:approve" and r.code not in AUTHORING:
                        db.add(RoleResource(role_id=role.id, resource_id=r.id))
                db.flush()
                members = [alice.id] + ([bob.id] if tenant_key == "globex" else [])
                for uid in members:
                    accounts.assign_role(kernel, uid, role.id)
                if tenant_key == "acme":
                    author = accounts.create_role("author", "作者")
                    for m in all_menus:
                        if not m.admin_only:
                            db.add(RoleMenu(role_id=author.id, menu_id=m.id))
                    for r in all_resources:
                        if r.code != "leave:approve":
                            db.add(RoleResource(role_id=author.id, resource_id=r.id))
                    db.flush()
                    accounts.assign_role(kernel, carol.id, author.id)
                if tenant_key == "acme":
                    db.add(GreyRule(user_id=alice.id, header="x-gray-release", value="canary"))
                    db.flush()  # inside Acme's scope: a later flush would stamp it with Globex
        with unscoped():
            for u in db.execute(select(User)).scalars():
                u.pwd_changed_at = utcnow()
        db.flush()
        _plugin_demo_data(kernel, db)


def _plugin_demo_data(kernel: Kernel, db: Any) -> None:
    """Each plugin's demo content in its own savepoint: one that fails is logged and left out, and the
    session stays usable for the other plugins and the kernel (a failed flush used to poison it).

    The platform may not be started yet, so its services are bound here for the plugins' use."""
    token = sdk_services.bind(kernel)  # type: ignore[arg-type]
    try:
        for name in kernel.plugins.order:
            try:
                with db.begin_nested():
                    kernel.plugins.call_one(name, "atrium_demo_data", tenants=dict(TENANTS))
            except Exception:
                log.exception("plugin demo data failed", plugin=name)
    finally:
        sdk_services.unbind(token)
