"""Portal: favourites, feedback, dictionaries, server flags, grey rules, dashboards, audit configuration."""

from __future__ import annotations

import pytest

from atrium.sdk.testing import AtriumClient
from tests.kernel.conftest import GLOBEX

FAV_LIST = "/api/portal/portal-favourite/find-list-user"
FAV_SAVE = "/api/portal/portal-favourite/save-one-click"
FAV_DELETE = "/api/portal/portal-favourite/delete-id"
FEEDBACK = "/api/portal/base-exception/save"
NOT_ALLOWED = {"code": 400, "msg": "This page cannot be favourited", "data": None}


def test_favourites_save_list_delete(staff, menu_ids):
    p = staff()
    assert p.client.ok("POST", FAV_LIST, json={"params": {}}) == []
    mid = menu_ids["leave-request"]
    body = {"menuId": mid, "functionUrl": "/dynamic-form/render", "params": {"id": 7, "名": "值"}}
    saved = p.client.ok("POST", FAV_SAVE, json={"params": body})
    again = p.client.ok("POST", FAV_SAVE, json=body)
    assert saved == again  # saving the same page twice keeps one favourite
    rows = p.client.ok("POST", FAV_LIST)
    assert len(rows) == 1
    row = rows[0]
    assert row["favouriteId"] == saved["favouriteId"] and row["menuId"] == str(mid)
    assert row["functionUrl"] == "dynamic-form/render"
    assert row["menuName"] == "请假申请" and row["menuEnName"] == {"en-us": "Leave request"}
    assert row["params"] == '{"id": 7, "名": "值"}'
    assert p.client.ok("GET", f"{FAV_DELETE}?id={saved['favouriteId']}") is None
    assert p.client.ok("POST", FAV_LIST) == []
    gone = p.client.get(f"{FAV_DELETE}?id={saved['favouriteId']}")
    assert gone == {"code": 404, "msg": "The favourite does not exist", "data": None}


def test_favourites_are_private(staff, menu_ids):
    owner, other = staff(), staff()
    fid = owner.client.ok(
        "POST", FAV_SAVE, json={"menuId": menu_ids["portal-home"], "functionUrl": "portal", "params": ""}
    )["favouriteId"]
    assert other.client.ok("POST", FAV_LIST) == []
    foreign = other.client.get(f"{FAV_DELETE}?id={fid}")
    missing = other.client.get(f"{FAV_DELETE}?id=987654321")
    assert foreign == missing == {"code": 404, "msg": "The favourite does not exist", "data": None}
    assert len(owner.client.ok("POST", FAV_LIST)) == 1


@pytest.mark.parametrize(
    "body",
    [
        {"functionUrl": "portal"},  # no menu
        {"menuId": None, "functionUrl": "portal"},
        {"menuId": "portal-home", "functionUrl": "home"},  # the home page
        {"menuId": "portal-home", "functionUrl": "/login"},
        {"menuId": "portal-home", "functionUrl": "   "},
        {"menuId": "rule-engine", "functionUrl": "rule-center/engine"},  # hidden menu
        {"menuId": "asset-overview", "functionUrl": "portal"},  # another system's menu
        {"menuId": 987654321, "functionUrl": "portal"},  # no such menu
    ],
)
def test_pages_that_cannot_be_favourited(staff, menu_ids, body):
    p = staff()
    if isinstance(body.get("menuId"), str):
        body = {**body, "menuId": menu_ids[body["menuId"]]}
    assert p.client.post(FAV_SAVE, json=body) == NOT_ALLOWED
    assert p.client.ok("POST", FAV_LIST) == []


def test_a_menu_not_granted_cannot_be_favourited(client, tenant_factory, user_factory, menu_ids):
    tid = tenant_factory()
    account, password, _uid = user_factory(tid)
    c = client.signed_in(account, password)
    assert c.post(FAV_SAVE, json={"menuId": menu_ids["portal-home"], "functionUrl": "portal"}) == NOT_ALLOWED


def test_favourite_refusal_in_chinese(make_client):
    c = make_client("zh-cn").signed_in("alice")
    assert c.post(FAV_SAVE, json={"functionUrl": "x"}) == {"code": 400, "msg": "该页面不能收藏", "data": None}


def test_favourite_params_too_long(staff, menu_ids):
    p = staff()
    answer = p.client.post(
        FAV_SAVE, json={"menuId": menu_ids["portal-home"], "functionUrl": "portal", "params": "x" * 2001}
    )
    assert answer["code"] == 400 and answer["msg"].startswith("params:")


def test_feedback(person):
    p = person()
    ok = p.client.post(
        FEEDBACK,
        json={
            "params": {
                "ibeOutside": "bug",
                "ibeFunctionName": "Leave request",
                "ibeServiceUrl": "http://testserver/dynamic-form/render",
                "ibeDeviceType": "PC",
                "ibeExceptionDesc": "x" * 200,
                "fileIds": ["abc"],
            }
        },
    )
    assert ok["code"] == 800 and ok["msg"] == "Success" and ok["data"]["id"]


@pytest.mark.parametrize(
    ("body", "msg"),
    [
        ({}, "Please choose a reason"),
        ({"ibeOutside": "  "}, "Please choose a reason"),
        ({"ibeOutside": "weather"}, "The reason is not one of the listed reasons"),
        ({"ibeOutside": "bug", "ibeExceptionDesc": "x" * 201}, "ibeExceptionDesc: at most 200 characters"),
        ({"ibeOutside": "bug", "fileIds": [str(i) for i in range(10)]}, "fileIds: at most 9 items"),
        ({"ibeOutside": "bug", "fileIds": ["x" * 65]}, "An attachment id is not valid"),
    ],
)
def test_feedback_refusals(user_client, body, msg):
    assert user_client.post(FEEDBACK, json=body) == {"code": 400, "msg": msg, "data": None}


def test_feedback_messages_translated(make_client):
    zh = make_client("zh-cn").signed_in("alice")
    assert zh.post(FEEDBACK, json={})["msg"] == "请选择反馈原因"
    assert zh.post(FEEDBACK, json={"ibeOutside": "weather"})["msg"] == "反馈原因无效"
    hu = make_client("hu-hu").signed_in("alice")
    assert hu.post(FEEDBACK, json={})["msg"] not in ("", "Please choose a reason", "请选择反馈原因")


@pytest.mark.parametrize(
    ("locale", "names"),
    [
        ("en-us", ["Something is broken", "Page is slow", "Suggestion", "Other"]),
        ("zh-cn", ["功能异常", "页面卡顿", "优化建议", "其他"]),
        ("zh-tw", ["功能異常", "頁面卡頓", "優化建議", "其他"]),
        ("hu-hu", ["Hibás működés", "Lassú oldal", "Javaslat", "Egyéb"]),
        ("vi-vn", ["Lỗi chức năng", "Trang chậm", "Góp ý", "Khác"]),
    ],
)
def test_feedback_dictionary_per_locale(make_client, locale, names):
    c = make_client(locale).signed_in("alice")
    items = c.ok("GET", "/api/base/dic-items/get-dictype?dicType=FEEDBACK_DIC")
    assert [i["dicName"] for i in items] == names
    assert [i["dicCode"] for i in items] == ["bug", "slow", "suggestion", "other"]
    assert all(i["diId"] for i in items)


def test_public_dictionary(client):
    langs = client.ok("GET", "/api/base/dic-items/get-dictype-notoken?dicType=SYSTEM_LANGUAGE_TYPES")
    assert [i["dicCode"] for i in langs] == ["zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu"]
    assert langs[2]["dicName"] == "English" and langs[0]["dicName"] == "简体中文"
    assert client.ok("GET", "/api/base/dic-items/get-dictype-notoken?dicType=FEEDBACK_DIC") == []
    assert client.ok("GET", "/api/base/dic-items/get-dictype-notoken?dicType=NOPE") == []
    missing = client.get("/api/base/dic-items/get-dictype-notoken")
    assert missing == {"code": 400, "msg": "dicType: required", "data": None}
    assert client.get("/api/base/dic-items/get-dictype?dicType=FEEDBACK_DIC")["code"] == -1


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("SHOW_BPM", "true"),
        ("SHOW_HELPCENTER", "true"),
        ("DEFAULT_THEMECOLOR", "#204BE3"),
        ("HIDE_THEME_CONTROL", "false"),
    ],
)
def test_server_config_defaults(client, key, value):
    assert client.ok("GET", f"/api/base/server-config/get-value-by-key?configKey={key}") == value


def test_server_config_stored_value_and_unknown_key(client, make_client, server_config):
    server_config("SHOW_BPM", "false")
    assert client.ok("GET", "/api/base/server-config/get-value-by-key?configKey=SHOW_BPM") == "false"
    unknown = client.get("/api/base/server-config/get-value-by-key?configKey=SECRET_KEY")
    assert unknown == {"code": 400, "msg": "Unknown configuration key: SECRET_KEY", "data": None}
    zh = make_client("zh-cn").get("/api/base/server-config/get-value-by-key?configKey=FOO")
    assert zh["msg"] == "未知的配置项：FOO"
    empty = client.get("/api/base/server-config/get-value-by-key?configKey=")
    assert empty == {"code": 400, "msg": "configKey: at least 1 characters", "data": None}


def test_tracking_and_aigc_flags(user_client, server_config):
    assert user_client.ok("GET", "/api/base/tracking-web-page/enable") is True
    assert user_client.ok("POST", "/api/base/aigc/enable") is False
    server_config("TRACKING_ENABLE", "false")
    server_config("AIGC_ENABLE", "on")
    assert user_client.ok("GET", "/api/base/tracking-web-page/enable") is False
    assert user_client.ok("POST", "/api/base/aigc/enable") is True


def test_grey_rules(user_client, client):
    rule = {"header": "x-gray-release", "value": "canary"}
    assert rule in user_client.ok("GET", "/api/base/grayscale/rule/myid")["headers"]
    switched = user_client.ok("POST", f"/api/base/base-user/change-tenant?tenantId={GLOBEX}")
    in_globex = AtriumClient(user_client.http)
    in_globex.headers["authorization"] = switched["authorization"]
    assert rule not in in_globex.ok("GET", "/api/base/grayscale/rule/myid")["headers"]
    bob = client.signed_in("bob")
    assert rule not in bob.ok("GET", "/api/base/grayscale/rule/myid")["headers"]


def test_seven_day_login_counts(client, tenant_factory, user_factory):
    from atrium.sdk.db import utcnow

    tid = tenant_factory()
    account, password, _uid = user_factory(tid)
    c = client.signed_in(account, password)
    days = c.ok("GET", "/api/base/login-log/user-7day-login-count")
    assert len(days) == 7
    assert days[-1] == {"date": utcnow().date().isoformat(), "count": 1}
    assert all(d["count"] == 0 for d in days[:-1])
    client.signed_in(account, password)
    assert c.ok("GET", "/api/base/login-log/user-7day-login-count")[-1]["count"] == 2


def test_behavior_total7_after_visits(client, tenant_factory, user_factory):
    tid = tenant_factory()
    account, password, uid = user_factory(tid)
    c = client.signed_in(account, password)
    assert c.ok("GET", "/api/base/base-behavior/behavior-total7")["clickTotal"] == 0
    for page in ("Leave request", "Leave request", "Portal"):
        c.ok("POST", "/api/base/base-behavior/visit", json={"params": {"menuId": "8", "pageName": page}})
    totals = c.ok("GET", "/api/base/base-behavior/behavior-total7")
    assert totals["clickTotal"] == 3
    assert totals["topMenus"] == [{"name": "Leave request", "count": 2}, {"name": "Portal", "count": 1}]
    assert totals["topUsers"] == [{"userId": str(uid), "count": 1}]


def test_audit_config_for_admins_only(client, tenant_factory, user_factory, make_client):
    tid = tenant_factory()
    sup_account, sup_password, _ = user_factory(tid, supervisor=True)
    sup = client.signed_in(sup_account, sup_password)
    assert sup.ok("GET", "/api/base/audit-config/list") == []
    saved = sup.ok(
        "POST",
        "/api/base/audit-config/save",
        json={"params": {"serverName": "base", "tableName": "user_account", "tableAlias": "Users"}},
    )
    again = sup.ok(
        "POST",
        "/api/base/audit-config/save",
        json={"serverName": "base", "tableName": "user_account", "tableAlias": "Accounts", "enabled": False},
    )
    assert saved == again
    assert sup.ok("GET", "/api/base/audit-config/list") == [
        {
            "id": saved["id"],
            "serverName": "base",
            "tableName": "user_account",
            "tableAlias": "Accounts",
            "enabled": False,
        }
    ]
    missing = sup.post("/api/base/audit-config/save", json={"tableName": "x"})
    assert missing == {"code": 400, "msg": "serverName: required", "data": None}
    # another tenant's administrator does not see it
    admin = client.signed_in("admin")
    assert all(r["id"] != saved["id"] for r in admin.ok("GET", "/api/base/audit-config/list"))
    # a user who is not an administrator is refused
    plain_account, plain_password, _ = user_factory(tid)
    plain = client.signed_in(plain_account, plain_password)
    forbidden = {"code": 403, "msg": "No permission to access", "data": None}
    assert plain.get("/api/base/audit-config/list") == forbidden
    assert plain.post("/api/base/audit-config/save", json={"serverName": "a", "tableName": "b"}) == forbidden
    zh = make_client("zh-cn").signed_in(plain_account, plain_password)
    assert zh.get("/api/base/audit-config/list") == {"code": 403, "msg": "无权限访问", "data": None}
