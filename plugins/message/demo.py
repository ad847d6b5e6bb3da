"""Demo letters for alice and admin in Acme."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import update

from atrium.plugins.message import directory
from atrium.plugins.message.content import check_and_clean
from atrium.plugins.message.models import READ, Inbox
from atrium.plugins.message.service import store_letter
from atrium.sdk.context import tenant_scope
from atrium.sdk.db import session, utcnow

# (days ago, hours ago, system, recipients, read by, content)
LETTERS: list[tuple[int, int, str, tuple[str, ...], tuple[str, ...], str]] = [
    (9, 3, "iotAutho", ("alice", "admin"), ("alice", "admin"),
     "<p>Welcome to Atrium! The "
     '<a href="https://docs.example/atrium/getting-started">getting-started guide</a> '
     "shows how to find your menus, favourites and letters.</p>"),
    (6, 1, "iotAutho", ("alice",), ("alice",),
     "<p>Your expense claim <strong>EXP-2024-0318</strong> (¥ 1,280.00) was approved by 王主管 "
     "and will be paid with the next payroll.</p>"),
    (3, 5, "iotAutho", ("alice", "admin"), (),
     "<p><strong>系统维护通知</strong>：本周六 22:00–24:00 统一门户升级维护，届时将暂停访问，"
     "请提前保存工作。</p>"),
    (2, 2, "assetMgmt", ("alice",), (),
     "<p>资产 <b>NB-0042</b>（ThinkPad X1 Carbon）已分配给您，请在 "
     '<span style="color:#d4380d">3 个工作日</span>'
     "内到信息部确认领用。</p>"),
    (1, 6, "iotAutho", ("alice", "admin"), (),
     "<p>年度资产盘点已开始：请于 <strong>5 月 31 日</strong>前完成本部门的资产盘点，并在盘点单中确认。</p>"),
    (0, 2, "iotAutho", ("admin",), (),
     "<p>3 users asked for a password reset this week. "
     "Review them under <em>System management → Users</em>.</p>"),
    (0, 1, "iotAutho", ("alice",), (),
     "<p>Reminder: the Q2 budget review with the finance team is tomorrow at <strong>10:00</strong> "
     "in meeting room A-301.</p>"),
]


def load(tenants: dict[str, int]) -> None:
    tid = tenants["acme"]
    with tenant_scope(tid):
        ids = directory.ids_by_account(tid, ["alice", "admin", "supervisor"])
        now = utcnow()
        for days, hours, system, to, read_by, html in LETTERS:
            users = sorted(ids[a] for a in to if a in ids)
            if not users:
                continue
            when = (now - timedelta(days=days, hours=hours)).replace(microsecond=0)
            letter_id, _rows = store_letter(system, check_and_clean(html), users, ids.get("supervisor"), when,
                                         {"users": users, "roles": [], "tenant": False})
            readers = [ids[a] for a in read_by if a in ids]
            if readers:
                session().execute(
                    update(Inbox).where(Inbox.letter_id == letter_id, Inbox.user_id.in_(readers))
                    .values(read_status=READ, read_at=when + timedelta(hours=1))
                    .execution_options(synchronize_session=False)
                )
