"""Dictionaries, server configuration flags, grey rules, password strategy, table audit configuration and the
login log: who may change them, what is checked, and an audit record of each write."""

from __future__ import annotations

import json
import secrets

import pytest

from tests.admin.conftest import A, audit_of

FORBIDDEN = {"code": 403, "msg": "No permission to access", "data": None}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", f"{A}/dictionaries"),
        ("POST", f"{A}/dictionaries"),
        ("POST", f"{A}/dictionaries/delete"),
        ("GET", f"{A}/server-config"),
        ("POST", f"{A}/server-config"),
        ("GET", f"{A}/grey-rules"),
        ("POST", f"{A}/grey-rules"),
        ("GET", f"{A}/password-strategy"),
        ("GET", f"{A}/login-log"),
    ],
)
def test_plain_users_are_refused(user_client, method, path):
    assert user_client.http.request(method, path, headers=user_client.headers, json={}).json() == FORBIDDEN


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", f"{A}/dictionaries"),
        ("POST", f"{A}/dictionaries/delete"),
        ("GET", f"{A}/server-config"),
        ("POST", f"{A}/server-config"),
    ],
)
def test_supervisors_are_refused_platform_settings(boss, method, path):
    assert boss.http.request(method, path, headers=boss.headers, json={}).json() == FORBIDDEN


def test_dictionary_items_per_locale(admin_client, client):
    kind = f"BENCH_{secrets.token_hex(3).upper()}"
    names = {"zh-cn": "甲", "zh-tw": "甲", "en-us": "Alpha", "vi-vn": "Anpha", "hu-hu": "Alfa"}
    item = admin_client.ok(
        "POST", f"{A}/dictionaries", json={"dicType": kind, "dicCode": "a", "names": names}
    )
    listed = admin_client.ok("GET", f"{A}/dictionaries?dicType={kind}")
    assert kind in listed["types"] and listed["items"][0]["names"] == names
    hu = client.signed_in("admin")
    hu.headers["language"] = "hu#hu"
    assert hu.ok("GET", f"/api/base/dic-items/get-dictype?dicType={kind}")[0]["dicName"] == "Alfa"
    bad = admin_client.post(
        f"{A}/dictionaries", json={"dicType": kind, "dicCode": "b", "names": {"en-us": "B"}}
    )
    assert bad["code"] == 400 and "zh-cn" in bad["msg"]
    bad = admin_client.post(
        f"{A}/dictionaries", json={"dicType": kind, "dicCode": "b c", "names": {"zh-cn": "乙"}}
    )
    assert bad["code"] == 400 and bad["msg"].startswith("dicCode")
    admin_client.ok("POST", f"{A}/dictionaries/delete", json={"diId": int(item["diId"])})
    assert admin_client.ok("GET", f"{A}/dictionaries?dicType={kind}")["items"] == []
    missing = admin_client.post(f"{A}/dictionaries/delete", json={"diId": int(item["diId"])})
    assert missing == {"code": 404, "msg": "The dictionary item does not exist", "data": None}
    assert audit_of(admin_client, "dictionary.save", f"{kind}:a")
    assert audit_of(admin_client, "dictionary.delete", f"{kind}:a")


def test_server_config_flags(admin_client, client):
    flags = {f["configKey"]: f for f in admin_client.ok("GET", f"{A}/server-config")}
    assert flags["DEFAULT_THEMECOLOR"]["default"] == "#204BE3"
    admin_client.ok("POST", f"{A}/server-config", json={"configKey": "SHOW_HELPCENTER", "value": "false"})
    assert client.ok("GET", "/api/base/server-config/get-value-by-key?configKey=SHOW_HELPCENTER") == "false"
    admin_client.ok("POST", f"{A}/server-config", json={"configKey": "SHOW_HELPCENTER", "value": "true"})
    assert admin_client.post(f"{A}/server-config", json={"configKey": "NOPE", "value": "1"})["code"] == 400
    [after, before] = audit_of(admin_client, "config.save", "SHOW_HELPCENTER")[:2]
    assert json.loads(before["after"]) == {"value": "false"} and json.loads(after["after"]) == {
        "value": "true"
    }


def test_grey_rules_reach_the_tenants_users(boss, client, user_factory):
    account, password, uid = user_factory(boss.tenant_id)
    rule = boss.ok("POST", f"{A}/grey-rules", json={"header": "x-canary", "value": "blue"})
    boss.ok("POST", f"{A}/grey-rules", json={"header": "x-only-me", "value": "1", "userId": boss.user_id})
    person = client.signed_in(account, password)
    assert person.ok("GET", "/api/base/grayscale/rule/myid")["headers"] == [
        {"header": "x-canary", "value": "blue"}
    ]
    assert boss.post(f"{A}/grey-rules", json={"header": "bad header", "value": "x"})["code"] == 400
    assert boss.post(f"{A}/grey-rules", json={"header": "x-a", "value": "b", "userId": 1})["code"] == 404
    boss.ok("POST", f"{A}/grey-rules/delete", json={"ruleId": int(rule["ruleId"])})
    assert person.ok("GET", "/api/base/grayscale/rule/myid")["headers"] == []
    assert audit_of(boss, "grey_rule.add", rule["ruleId"]) and audit_of(
        boss, "grey_rule.delete", rule["ruleId"]
    )
    assert boss.get(f"{A}/grey-rules?tenantId=1002") == FORBIDDEN


def test_password_strategy_reads_back(boss):
    assert boss.ok("GET", f"{A}/password-strategy") == {
        "minLength": 6,
        "maxLength": 12,
        "expireDays": 90,
        "warnDays": 7,
        "allowSymbols": False,
        "pattern": "^[A-Za-z0-9]{6,12}$",
        "pwdTips": "Password: 6 to 12 letters or digits, case-sensitive",
    }
    boss.ok("POST", f"{A}/password-strategy", json={"minLength": 8, "maxLength": 10, "expireDays": 30})
    assert boss.ok("GET", f"{A}/password-strategy")["minLength"] == 8
    bad = boss.post(f"{A}/password-strategy", json={"minLength": 10, "maxLength": 8})
    assert bad == {"code": 400, "msg": "The maximum length cannot be below the minimum", "data": None}


def test_table_audit_configuration_is_audited(boss):
    boss.ok("POST", "/api/base/audit-config/save", json={"serverName": "base", "tableName": "orders"})
    boss.ok(
        "POST",
        "/api/base/audit-config/save",
        json={"serverName": "base", "tableName": "orders", "tableAlias": "Orders", "enabled": False},
    )
    [second, first] = audit_of(boss, "audit_config.save", "base:orders")
    assert first["before"] == "" and json.loads(second["before"]) == {"tableAlias": "", "enabled": True}
    assert json.loads(second["after"])["enabled"] is False


def test_login_log_with_failures_and_lockout(boss, client, user_factory):
    account, password, uid = user_factory(boss.tenant_id)
    client.signed_in(account, password)
    assert client.login(account, "Wrong0pass")["code"] != 800
    log = boss.ok("GET", f"{A}/login-log?keyword={account}")
    assert log["total"] == 1
    [row] = log["list"]
    assert row["account"] == account and row["failedCount"] == 1 and row["locked"] is False
    assert boss.ok("GET", f"{A}/login-log?keyword=nobody-{secrets.token_hex(3)}")["total"] == 0
