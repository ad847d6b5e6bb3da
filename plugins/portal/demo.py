"""Demo articles for Acme and Globex: announcements, hot topics, featured articles and company news."""

from __future__ import annotations

from datetime import timedelta

from atrium.plugins.portal import service
from atrium.sdk.db import utcnow

ACME = [
    (
        "announcement",
        "系统维护通知",
        "本周六 22:00–24:00 统一门户升级维护。",
        "<p>本周六 <strong>22:00–24:00</strong> 统一门户升级维护，届时将暂停访问，请提前保存工作。</p>",
        True,
        1,
        0,
    ),
    (
        "announcement",
        "Year-end asset inventory",
        "Finish your department's inventory by the end of the month.",
        "<p>The annual asset inventory has started. Please confirm every item in your inventory sheet.</p>",
        False,
        3,
        0,
    ),
    (
        "hot",
        "How to file an expense claim",
        "A step-by-step guide to expense claims.",
        "<ol><li>Open <em>Expense claims</em></li><li>Attach receipts</li><li>Submit for approval</li></ol>",
        False,
        12,
        318,
    ),
    (
        "hot",
        "新员工入职指南",
        "入职第一周需要完成的事项。",
        "<p>领取工牌、开通账号、参加安全培训。</p>",
        False,
        20,
        204,
    ),
    (
        "hot",
        "VPN setup for remote work",
        "Connect from home in five minutes.",
        "<p>Install the client, sign in with your portal account and pick the nearest gateway.</p>",
        False,
        30,
        97,
    ),
    (
        "featured",
        "Designing forms that people finish",
        "Short forms, clear labels, fewer abandoned requests.",
        "<p>Keep forms short and explain why each field is needed.</p>",
        False,
        6,
        45,
    ),
    (
        "featured",
        "数字化转型白皮书",
        "公司 2025 数字化路线图解读。",
        "<p>从流程在线化到数据驱动决策。</p>",
        False,
        15,
        61,
    ),
    (
        "news",
        "Acme opens its Budapest office",
        "Our new European hub opens next month.",
        "<p>The Budapest office will host sales and support for Central Europe.</p>",
        True,
        2,
        40,
    ),
    (
        "news",
        "Q3 results: record growth",
        "Revenue grew 28% year over year.",
        "<p>Thanks to every team for an outstanding quarter.</p>",
        False,
        9,
        88,
    ),
    (
        "news",
        "公司荣获年度最佳雇主",
        "人力资源协会年度评选结果揭晓。",
        "<p>感谢每一位同事的付出。</p>",
        False,
        25,
        52,
    ),
]
GLOBEX = [
    (
        "announcement",
        "Globex portal launched",
        "Welcome to the new Globex portal.",
        "<p>All Globex tools are now one click away.</p>",
        True,
        4,
        0,
    ),
    (
        "news",
        "Globex wins the regional logistics award",
        "Recognised for on-time delivery.",
        "<p>Our logistics team delivered 99.2% of shipments on time.</p>",
        False,
        10,
        12,
    ),
]


def _articles(rows: list[tuple[str, str, str, str, bool, int, int]]) -> list[dict[str, object]]:
    now = utcnow()
    return [
        {
            "category": cat,
            "title": title,
            "summary": summary,
            "content": content,
            "pinned": pinned,
            "public": cat == "news",
            "published_at": now - timedelta(days=days),
            "views": views,
            "cover_url": "",
        }
        for cat, title, summary, content, pinned, days, views in rows
    ]


def load(tenants: dict[str, int]) -> None:
    if "acme" in tenants:
        service.seed(tenants["acme"], _articles(ACME))
    if "globex" in tenants:
        service.seed(tenants["globex"], _articles(GLOBEX))
