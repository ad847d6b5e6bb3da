"""The audit trail records every security-relevant write, never a secret, and reads in words."""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from atrium.sdk.audit import CHANGED, SET, redact_pair
from atrium.sdk.testing import AtriumClient
from tests.admin.conftest import A, C

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ("zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu")
LINK = "/api/dyreport/api/link"


def b64(text: str) -> str:
    import base64

    return base64.b64encode(text.encode()).decode()


def trail(c: AtriumClient, **params: Any) -> list[dict[str, Any]]:
    """Records (newest first) as the client reads them."""
    return c.ok("GET", f"{C}/audit", params={"pageRows": 100, **params})["list"]


def mine(rows: list[dict[str, Any]], target: int) -> list[dict[str, Any]]:
    """The records of one object (a keyword search for id 15 also finds 115 and 1015)."""
    return [r for r in rows if r["target"] == str(target)]


def stored(kernel: Any, target: str) -> list[dict[str, Any]]:
    """The stored rows of an object, every column."""
    with kernel.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT * FROM admin_audit WHERE target = :t ORDER BY id"), {"t": target})
        return [dict(r._mapping) for r in rows]


def new_panel(admin: AtriumClient) -> dict[str, Any]:
    name = f"Audit panel {secrets.token_hex(3)}"
    return admin.ok("POST", "/api/dyreport/panel/save", json={"name": name})


# ---------------------------------------------------------------------------
# what is recorded
# ---------------------------------------------------------------------------


def test_share_link_on_password_off_are_three_named_entries_without_the_password(admin_client, kernel):
    panel = new_panel(admin_client)
    link = admin_client.ok("POST", f"{LINK}/enable/{panel['id']}")
    password = "8375"
    admin_client.ok("POST", f"{LINK}/update", json={"id": link["id"], "enablePwd": True, "pwd": password})
    admin_client.ok("POST", f"{LINK}/update", json={"id": link["id"], "valid": False})

    rows = trail(admin_client, keyword=panel["id"])
    assert [r["action"] for r in rows] == [
        "reports.link.disable",
        "reports.link.password.set",
        "reports.link.enable",
    ]
    assert {r["targetName"] for r in rows} == {panel["name"]}
    assert {r["targetType"] for r in rows} == {"panel"}
    assert json.loads(rows[1]["after"]) == {"enablePwd": True, "pwd": SET}
    assert rows[0]["changes"] == [{"field": "valid", "label": "on", "before": "yes", "after": "no"}]
    assert rows[2]["summary"].endswith(f"turned on the shared link of dashboard “{panel['name']}”")

    records = stored(kernel, panel["id"])
    assert len(records) == 3
    for record in records:  # neither the password nor the link's address (it opens the panel) is kept
        text = json.dumps({k: v for k, v in record.items() if k != "at"}, default=str)  # not its clock
        assert password not in text and link["id"] not in text

    admin_client.ok("POST", f"{LINK}/update", json={"id": link["id"], "valid": True, "pwd": "1111"})
    rows = trail(admin_client, keyword=panel["id"])
    assert [r["action"] for r in rows[:2]] == ["reports.link.password.change", "reports.link.enable"]
    assert json.loads(rows[0]["after"])["pwd"] == CHANGED
    admin_client.ok("POST", f"{LINK}/update", json={"id": link["id"], "enablePwd": False})
    admin_client.ok("POST", f"{LINK}/rotate", json={"id": link["id"]})
    assert [r["action"] for r in trail(admin_client, keyword=panel["id"])[:2]] == [
        "reports.link.rotate",
        "reports.link.password.remove",
    ]


def test_panel_grants_and_publishing_are_recorded(admin_client):
    panel = new_panel(admin_client)
    alice = admin_client.ok("GET", f"{A}/users", params={"keyword": "alice"})
    rows = alice["list"] if isinstance(alice, dict) else alice
    uid = next(u["userId"] for u in rows if u["account"] == "alice")
    grants = [{"subjectType": "user", "subjectId": uid, "view": True, "export": True}]
    admin_client.ok("POST", f"/api/dyreport/panel/grants/{panel['id']}", json={"grants": grants})
    admin_client.ok("POST", "/api/dyreport/panel/publish", json={"id": panel["id"], "note": "first"})
    rows = trail(admin_client, keyword=panel["id"])
    assert [r["action"] for r in rows] == ["reports.panel.publish", "reports.panel.grants"]
    [change] = rows[1]["changes"]
    assert change["label"].startswith("user:") and "(alice)" in change["label"]
    assert change["after"] == "view, export"


def test_dataset_saved_and_data_source_deleted_are_recorded(admin_client, kernel, tmp_path):
    path = tmp_path / "shop.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE sales (region TEXT, amount INTEGER)")
    con.commit()
    con.close()
    src = admin_client.ok(
        "POST", "/api/dyreport/datasource/save", json={"name": "Audited shop", "url": f"sqlite:///{path}"}
    )
    ds = admin_client.ok(
        "POST",
        "/api/dyreport/dataset/save",
        json={"name": "Audited sales", "datasourceId": src["id"], "kind": "table", "tableName": "sales"},
    )
    [saved] = trail(admin_client, action="reports.dataset.save", keyword=ds["id"])
    assert saved["targetName"] == "Audited sales" and saved["targetTypeText"] == "dataset"
    assert {c["field"]: c["after"] for c in saved["changes"]}["tableName"] == "sales"
    admin_client.ok("POST", f"/api/dyreport/dataset/delete/{ds['id']}")
    admin_client.ok("POST", f"/api/dyreport/datasource/delete/{src['id']}")
    [deleted] = trail(admin_client, action="reports.datasource.delete", keyword=src["id"])
    assert deleted["targetName"] == "Audited shop" and deleted["actionText"] == "deleted"
    assert trail(admin_client, action="reports.dataset.delete", keyword=ds["id"])

    secret = "Sekr3tPw9"
    url = f"postgresql://reader:{secret}@127.0.0.1:1/shop"
    pg = admin_client.ok("POST", "/api/dyreport/datasource/save", json={"name": "Audited pg", "url": url})
    admin_client.ok(
        "POST",
        "/api/dyreport/datasource/save",
        json={
            "id": pg["id"],
            "name": "Audited pg",
            "type": "postgresql",
            "host": "127.0.0.1",
            "port": 1,
            "database": "shop",
            "username": "reader",
            "password": "N3wSecret",
        },
    )
    admin_client.ok("POST", f"/api/dyreport/datasource/delete/{pg['id']}")
    records = stored(kernel, pg["id"])
    assert [r["action"] for r in records] == ["reports.datasource.save"] * 2 + ["reports.datasource.delete"]
    assert all(
        secret not in json.dumps(r, default=str) and "N3wSecret" not in json.dumps(r, default=str)
        for r in records
    )
    assert json.loads(records[1]["after"])["password"] == CHANGED


def test_a_plugin_disabled_for_a_tenant_is_recorded_from_the_api_and_outside_requests(
    boss, admin_client, kernel
):
    boss.ok("POST", f"{A}/plugins/state", json={"plugin": "watermark", "enabled": False})
    [rec] = trail(admin_client, action="plugin.state", tenantId=boss.tenant_id)
    assert (rec["target"], rec["targetType"], rec["userId"]) == ("watermark", "plugin", boss.user_id)
    assert rec["changes"] == [{"field": "enabled", "label": "enabled", "before": "yes", "after": "no"}]

    from atrium.sdk.context import unscoped

    with unscoped(), kernel.db():  # as the command line does it
        kernel.enablement.set(boss.tenant_id, "watermark", True)
    rows = trail(admin_client, action="plugin.state", tenantId=boss.tenant_id)
    assert len(rows) == 2 and rows[0]["userId"] is None and rows[0]["who"] == "the system"
    assert json.loads(rows[0]["after"]) == {"enabled": True}


def test_a_password_change_is_recorded_without_the_password(client, admin_client, user_factory, kernel):
    account, password, uid = user_factory(1001)
    me = client.signed_in(account, password)
    new = "Zq8w7e6r5"
    me.ok(
        "POST",
        "/api/base/base-user/update-pwd",
        json={"oldMagic": b64(password), "magic": b64(new), "confirmMagic": b64(new)},
    )
    [rec] = mine(trail(admin_client, action="user.password.change", keyword=str(uid)), uid)
    assert rec["userId"] == uid and rec["targetName"] == f"User {account} ({account})"
    assert json.loads(rec["before"]) == {"password": SET} and json.loads(rec["after"]) == {
        "password": CHANGED
    }
    assert rec["changes"][0]["before"] == "set" and rec["changes"][0]["after"] == "changed"
    for row in stored(kernel, str(uid)):
        text = json.dumps(row, default=str)
        assert password not in text and new not in text and b64(new) not in text

    admin_client.ok("POST", f"{A}/users/password", json={"userId": uid, "password": "Reset123"})
    [reset] = mine(trail(admin_client, action="user.password.reset", keyword=str(uid)), uid)
    assert "Reset123" not in reset["before"] + reset["after"]


# ---------------------------------------------------------------------------
# reading it
# ---------------------------------------------------------------------------


def test_filters_by_person_action_and_dates(boss, client, user_factory):
    tid = boss.tenant_id
    account, password, uid = user_factory(tid, supervisor=True)
    other = client.signed_in(account, password)
    boss.ok("POST", f"{A}/roles", json={"roleCode": "flt1", "roleName": "Filtered 1"})
    other.ok("POST", f"{A}/roles", json={"roleCode": "flt2", "roleName": "Filtered 2"})
    other.ok("POST", f"{A}/password-strategy", json={"minLength": 8, "maxLength": 12})

    mine = trail(boss, userId=boss.user_id)
    assert mine and {r["userId"] for r in mine} == {boss.user_id}
    theirs = trail(boss, userId=uid)
    assert [r["action"] for r in theirs] == ["password.strategy", "role.create"]
    assert theirs[0]["who"] == f"User {account} ({account})"
    assert [r["targetName"] for r in trail(boss, userId=uid, action="role.create")] == ["Filtered 2"]

    today = datetime.now(UTC).date()
    assert len(trail(boss, action="role.create", dateFrom=str(today), dateTo=str(today))) == 2
    assert trail(boss, action="role.create", dateTo=str(today - timedelta(days=1))) == []
    assert trail(boss, action="role.create", dateFrom=str(today + timedelta(days=1))) == []
    # a reader 14 hours ahead of UTC late in their day still finds today's records under their own date
    ahead = trail(
        boss,
        action="role.create",
        dateFrom=str(today),
        dateTo=str(today + timedelta(days=1)),
        tzOffset=-14 * 60,
    )
    assert len(ahead) == 2

    people = boss.ok("GET", f"{C}/audit/people")
    assert {p["userId"] for p in people} >= {boss.user_id, uid}
    actions = {a["action"]: a["text"] for a in boss.ok("GET", f"{C}/audit/actions")}
    assert (
        actions["role.create"] == "created"
        and actions["reports.link.enable"] == "turned on the shared link of"
    )


def test_entries_read_in_words_in_english_and_chinese(boss):
    boss.ok("POST", f"{A}/roles", json={"roleCode": "words", "roleName": "Worded"})
    [en] = trail(boss, action="role.create")
    assert en["actionText"] == "created" and en["targetTypeText"] == "role"
    assert en["summary"] == f"{en['who']} created role “Worded”"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", en["atUtc"])
    labels = {c["label"]: c["after"] for c in en["changes"]}
    assert labels["role name"] == "Worded" and labels["role code"] == "words"

    zh = AtriumClient(boss.http, "zh-cn")
    zh.headers["authorization"] = boss.headers["authorization"]
    [cn] = trail(zh, action="role.create")
    assert cn["actionText"] == "创建了" and cn["targetTypeText"] == "角色"
    assert cn["summary"] == f"{cn['who']} 创建了角色“Worded”"
    assert {c["label"]: c["after"] for c in cn["changes"]}["角色名称"] == "Worded"

    export = zh.ok("GET", f"{C}/audit/export", params={"action": "role.create", "tzOffset": -480})
    header, line = export["content"].strip().splitlines()
    assert header.startswith("auditId,at,tenantId")
    assert "创建了" in line and "角色名称: （无） → Worded" in line
    assert "{" not in line  # no JSON in the export


def test_secrets_become_markers():
    before = {
        "name": "a",
        "clientSecret": "s1",
        "enablePwd": True,
        "nested": {"token": "t"},
        "url": "pg://u:pw@h/db",
    }
    after = {
        "name": "a",
        "clientSecret": "s2",
        "enablePwd": False,
        "nested": {"token": ""},
        "url": "pg://u:pw@h/db",
    }
    old, new = redact_pair(before, after)
    assert old == {
        "name": "a",
        "clientSecret": SET,
        "enablePwd": True,
        "nested": {"token": SET},
        "url": "pg://u:***@h/db",
    }
    assert (
        new["clientSecret"] == CHANGED
        and new["enablePwd"] is False
        and new["nested"] == {"token": "[removed]"}
    )


# ---------------------------------------------------------------------------
# every action has words
# ---------------------------------------------------------------------------

CALL = re.compile(r"\b(?:audit|record|audit_record)\(\s*\"([a-z_]+(?:\.[a-z_]+)+)\"")


def recorded_actions() -> set[str]:
    """Every action code written in an audit call of the kernel and the plugins."""
    found: set[str] = set()
    for top in ("kernel", "plugins", "sdk"):
        for src in (ROOT / top).rglob("*.py"):
            if "node_modules" in src.parts or "migrations" in src.parts:
                continue
            found |= set(CALL.findall(src.read_text("utf-8")))
    return found


def test_every_recorded_action_has_words_in_every_language():
    actions = recorded_actions()
    expected = {
        "reports.link.enable",
        "reports.link.disable",
        "reports.link.password.set",
        "reports.dataset.save",
        "reports.datasource.delete",
        "plugin.state",
        "user.password.change",
        "sso.config.update",
        "user.create",
        "tenant.profile",
        "audit_config.save",
    }
    assert expected <= actions, sorted(expected - actions)
    for loc in LOCALES:
        words = json.loads((ROOT / "i18n" / loc / "admin.json").read_text("utf-8"))["audit"]
        missing = sorted(a for a in actions if not words["action"].get(a))
        assert not missing, (loc, missing)


# ---------------------------------------------------------------------------
# every field a record names has words
# ---------------------------------------------------------------------------

CODE_LIKE = re.compile(r"^(?:[a-z]+(?:[A-Z][a-z0-9]*)+|[a-z]+(?:-[a-z]+)+)$")  # menuCode, zh-cn


def test_every_changed_field_of_the_console_writes_reads_in_words(admin_client, tenant_factory):
    code = f"words-{secrets.token_hex(3)}"
    menu = admin_client.ok(
        "POST",
        f"{A}/menus",
        json={
            "menuCode": code,
            "menuName": "Worded menu",
            "menuEnName": {"zh-cn": "菜单", "en-us": "Menu"},
            "menuUrl": f"/{code}",
            "isCache": True,
            "subscriptStatus": 1,
        },
    )
    assert menu["menuId"]
    renamed = {"menuCode": code, "menuName": "Worded menu 2", "isFetch": True}
    admin_client.ok("POST", f"{A}/menus", json=renamed)
    names = {"zh-cn": "甲", "en-us": "A"}
    admin_client.ok("POST", f"{A}/dictionaries", json={"dicType": code, "dicCode": "a", "names": names})
    rule = {"minLength": 8, "maxLength": 16, "allowSymbols": True, "tenantId": tenant_factory()}
    admin_client.ok("POST", f"{A}/password-strategy", json=rule)

    for locale in LOCALES:
        reader = AtriumClient(admin_client.http, locale)
        reader.headers["authorization"] = admin_client.headers["authorization"]
        actions = {"menu.save", "dictionary.save", "password.strategy"}
        rows = [r for r in trail(reader) if r["action"] in actions]
        assert actions <= {r["action"] for r in rows}
        raw = {
            (r["action"], c["field"], c["label"])
            for r in rows
            for c in r["changes"]
            if any(CODE_LIKE.match(word) for word in re.split(r"\s*/\s*", c["label"]))
        }
        assert not raw, (locale, sorted(raw))
