"""Menus: tree and items, hiding rules, grants, search, buttons, badges, fetch entries, default tab."""

from __future__ import annotations

import json
from typing import Any

from atrium.sdk.testing import AtriumClient
from tests.kernel.conftest import ACME, find_menu, menu_codes

MENUS = "/api/base/base-rolemenu/find-user-menus"
KEYWORD = "/api/base/base-rolemenu/get-keyword"
DEFAULT = "/api/base/base-default-menu/save"
ITEM_KEYS = {
    "menuId",
    "menuCode",
    "menuUrl",
    "menuName",
    "menuEnName",
    "menuIconurl",
    "parameter",
    "isCache",
    "isFetch",
    "fetchPath",
    "subscriptKey",
    "subscriptStatus",
    "key",
    "userManualUrl",
    "originalAddr",
    "children",
    "meta",
}


def tree(c: AtriumClient, system: str = "iotAutho") -> list[dict[str, Any]]:
    return c.ok("GET", f"{MENUS}?systemCode={system}")["menus"]


def test_menu_tree_and_item_fields(user_client, menu_ids):
    menus = tree(user_client)
    work = find_menu(menus, "workbench")
    assert work is not None and work["parentId"] is None
    assert [c["menuCode"] for c in work["children"]] == ["portal-home", "leave-request", "partner-site"]
    form = find_menu(menus, "leave-request")
    assert form is not None
    assert set(form) >= ITEM_KEYS
    assert form["menuId"] == str(menu_ids["leave-request"])
    assert form["menuName"] == "请假申请"
    assert form["menuEnName"] == {"en-us": "Leave request"}
    assert form["menuUrl"] == "dynamic-form/render"
    params = json.loads(form["parameter"])
    assert params == {"menu_type": "DYNAMIC_FORM", "diy_code": "leave-request", "layout_code": "L1"}
    assert form["meta"] == {
        "title": "请假申请",
        "enTitle": {"en-us": "Leave request"},
        "params": params,
        "userManualUrl": "",
    }
    assert form["isCache"] == 1 and form["isFetch"] == 0 and form["children"] == []
    partner = find_menu(menus, "partner-site")
    assert partner is not None
    assert partner["userManualUrl"] == partner["meta"]["userManualUrl"] == "https://docs.example/partner"
    assert "{token}" in partner["menuUrl"]


def test_menus_of_another_system_and_the_session_system(user_client):
    assert menu_codes(tree(user_client, "assetMgmt")) == {"asset-overview"}
    default = user_client.ok("GET", MENUS)
    assert "workbench" in menu_codes(default["menus"])


def test_rule_engine_is_always_hidden_and_api_analytics_follows_the_chat_flag(
    admin_client, user_client, server_config
):
    for c in (admin_client, user_client):
        codes = menu_codes(tree(c))
        assert "rule-engine" not in codes and "api-analytics" not in codes
    server_config("AIGC_ENABLE", "true")
    for c in (admin_client, user_client):
        codes = menu_codes(tree(c))
        assert "api-analytics" in codes and "rule-engine" not in codes
    assert admin_client.ok("POST", "/api/base/aigc/enable") is True
    server_config("AIGC_ENABLE", "false")
    assert "api-analytics" not in menu_codes(tree(admin_client))
    assert admin_client.ok("POST", "/api/base/aigc/enable") is False


def test_staff_sees_granted_menus_admin_sees_all(
    admin_client, client, tenant_factory, user_factory, menu_ids
):
    tid = tenant_factory()
    account, password, uid = user_factory(tid)
    user = client.signed_in(account, password)
    assert tree(user) == []  # no role yet: no menus
    role = admin_client.ok(
        "POST", "/api/base/admin/roles", json={"roleCode": "clerk", "roleName": "Clerk", "tenantId": tid}
    )
    admin_client.ok(
        "POST",
        "/api/base/admin/roles/menus",
        json={"roleId": role["roleId"], "menuIds": [menu_ids["leave-request"]], "tenantId": tid},
    )
    admin_client.ok(
        "POST", "/api/base/admin/users/roles", json={"userId": uid, "roleId": role["roleId"], "tenantId": tid}
    )
    # the signed-in user sees the grant at once: the parent comes along for the tree
    assert menu_codes(tree(user)) == {"workbench", "leave-request"}
    admin_codes = menu_codes(tree(admin_client))
    assert {"workbench", "portal-home", "leave-request", "partner-site"} <= admin_codes
    # a second grant replaces the first
    admin_client.ok(
        "POST",
        "/api/base/admin/roles/menus",
        json={"roleId": role["roleId"], "menuIds": [menu_ids["portal-home"]], "tenantId": tid},
    )
    assert menu_codes(tree(user)) == {"workbench", "portal-home"}


def test_keyword_search(user_client, make_client):
    found = user_client.ok("GET", f"{KEYWORD}?keyword=LEAVE&systemCode=iotAutho")
    assert [m["menuCode"] for m in found] == ["leave-request"]
    assert set(found[0]) >= ITEM_KEYS
    zh = make_client("zh-cn").signed_in("alice").ok("GET", f"{KEYWORD}?keyword=请假")
    assert [m["menuCode"] for m in zh] == ["leave-request"]
    assert user_client.ok("GET", f"{KEYWORD}?keyword=rule") == []  # hidden menus are not found
    assert user_client.ok("GET", f"{KEYWORD}?keyword=工作台") == []  # folders without a page are not listed
    assert user_client.ok("GET", f"{KEYWORD}?keyword=%20%20") == []
    asset = user_client.ok("GET", f"{KEYWORD}?keyword=asset&systemCode=assetMgmt")
    assert [m["menuCode"] for m in asset] == ["asset-overview"]
    long = user_client.get(f"{KEYWORD}?keyword={'x' * 65}")
    assert long == {"code": 400, "msg": "keyword: at most 64 characters", "data": None}


def test_keyword_search_sees_only_granted_menus(admin_client, client, tenant_factory, user_factory, menu_ids):
    tid = tenant_factory()
    account, password, uid = user_factory(tid)
    user = client.signed_in(account, password)

    def search(keyword: str) -> list[str]:
        return [m["menuCode"] for m in user.ok("GET", f"{KEYWORD}?keyword={keyword}&systemCode=iotAutho")]

    assert search("leave") == []  # no role yet: nothing to find
    role = admin_client.ok(
        "POST", "/api/base/admin/roles", json={"roleCode": "clerk", "roleName": "Clerk", "tenantId": tid}
    )
    admin_client.ok(
        "POST",
        "/api/base/admin/roles/menus",
        json={"roleId": role["roleId"], "menuIds": [menu_ids["leave-request"]], "tenantId": tid},
    )
    admin_client.ok(
        "POST", "/api/base/admin/users/roles", json={"userId": uid, "roleId": role["roleId"], "tenantId": tid}
    )
    # the grant is found at once, by any case of its name; the menus not granted stay out of reach
    assert search("leave") == ["leave-request"]
    assert search("REQUEST") == ["leave-request"]
    assert search("portal") == []
    admin_client.ok(
        "POST",
        "/api/base/admin/roles/menus",
        json={"roleId": role["roleId"], "menuIds": [menu_ids["portal-home"]], "tenantId": tid},
    )
    assert search("portal") == ["portal-home"]
    assert search("leave") == []


def test_find_resource(admin_client, user_client, menu_ids):
    mid = menu_ids["leave-request"]
    admin_codes = {
        r["resourceCode"] for r in admin_client.ok("GET", f"/api/base/resource/find-resource?menuId={mid}")
    }
    assert admin_codes == {"leave:submit", "leave:approve"}
    staff = user_client.ok("GET", f"/api/base/resource/find-resource?menuId={mid}")
    assert [(r["resourceCode"], r["resourceName"]) for r in staff] == [("leave:submit", "提交")]
    assert set(staff[0]) == {"resourceId", "resourceCode", "resourceName"}
    assert user_client.ok("GET", "/api/base/resource/find-resource?menuId=987654321") == []
    bad = user_client.get("/api/base/resource/find-resource?menuId=abc")
    assert bad == {"code": 400, "msg": "menuId: must be an integer", "data": None}


def test_find_menu_num(user_client):
    nums = user_client.ok(
        "POST", "/api/base/message-subscript/find-menu-num", json={"params": {"keys": ["nope-a", "nope-b"]}}
    )
    assert nums == {"nope-a": 0, "nope-b": 0}
    assert user_client.ok("POST", "/api/base/message-subscript/find-menu-num", json={}) == {}
    many = user_client.post(
        "/api/base/message-subscript/find-menu-num", json={"keys": [f"k{i}" for i in range(101)]}
    )
    assert many == {"code": 400, "msg": "keys: at most 100 items", "data": None}
    wrong = user_client.post("/api/base/message-subscript/find-menu-num", json={"keys": "abc"})
    assert wrong == {"code": 400, "msg": "keys: must be a list", "data": None}


def test_menu_fetch_list(user_client, menu_ids):
    rows = user_client.ok(
        "POST", "/api/base/base-menu-fetch/find-list", json={"params": {"menuId": menu_ids["partner-site"]}}
    )
    assert len(rows) == 1
    assert rows[0]["fetchItemName"] == "合作伙伴" and rows[0]["fetchExpand"] == {"target": "_blank"}
    assert set(rows[0]) == {"menuFetchId", "fetchItemName", "fetchExpand"}
    assert (
        user_client.ok(
            "POST", "/api/base/base-menu-fetch/find-list", json={"menuId": menu_ids["portal-home"]}
        )
        == []
    )
    missing = user_client.post("/api/base/base-menu-fetch/find-list", json={})
    assert missing == {"code": 400, "msg": "menuId: required", "data": None}


def test_menu_fetch_answers_only_menus_in_the_users_tree(person, menu_ids):
    """A user without the role that grants the partner site sees no entries of it."""
    outsider = person()
    found = outsider.client.ok(
        "POST", "/api/base/base-menu-fetch/find-list", json={"menuId": menu_ids["partner-site"]}
    )
    assert found == []


def test_default_menu_set_read_cancel(staff, menu_ids):
    p = staff()
    mid = menu_ids["leave-request"]
    saved = p.client.ok(
        "POST",
        DEFAULT,
        json={"params": {"menuId": mid, "systemCode": "iotAutho", "routePath": "/dynamic-form/render"}},
    )
    expected = {"menuId": str(mid), "routePath": "/dynamic-form/render", "systemCode": "iotAutho"}
    assert saved == expected
    assert p.client.ok("GET", f"{MENUS}?systemCode=iotAutho")["defaultMenu"] == expected
    # changing it replaces it
    other = menu_ids["portal-home"]
    p.client.ok("POST", DEFAULT, json={"menuId": other, "systemCode": "iotAutho", "routePath": "/portal"})
    assert p.client.ok("GET", MENUS)["defaultMenu"]["menuId"] == str(other)
    # other systems keep their own
    assert p.client.ok("GET", f"{MENUS}?systemCode=assetMgmt")["defaultMenu"] is None
    # cancel
    assert p.client.ok("POST", DEFAULT, json={"menuId": None, "systemCode": "iotAutho"}) is None
    assert p.client.ok("GET", f"{MENUS}?systemCode=iotAutho")["defaultMenu"] is None


def test_default_menu_refusals(staff, menu_ids, make_client):
    p = staff()
    not_found = {"code": 404, "msg": "The menu does not exist", "data": None}
    for mid in (menu_ids["rule-engine"], menu_ids["asset-overview"], 987654321):
        body = {"menuId": mid, "systemCode": "iotAutho", "routePath": "/x"}
        assert p.client.post(DEFAULT, json=body) == not_found
    bad_path = p.client.post(DEFAULT, json={"menuId": menu_ids["portal-home"], "routePath": "portal"})
    assert bad_path == {"code": 400, "msg": "The page address is not valid", "data": None}
    assert p.client.ok("GET", MENUS)["defaultMenu"] is None


def test_default_menu_of_a_menu_the_user_was_not_granted(client, tenant_factory, user_factory, menu_ids):
    tid = tenant_factory()
    account, password, _uid = user_factory(tid)
    user = client.signed_in(account, password)
    answer = user.post(DEFAULT, json={"menuId": menu_ids["portal-home"], "routePath": "/portal"})
    assert answer == {"code": 404, "msg": "The menu does not exist", "data": None}


def test_default_menu_is_per_user(staff, user_client, menu_ids):
    p = staff()
    p.client.ok("POST", DEFAULT, json={"menuId": menu_ids["portal-home"], "routePath": "/portal"})
    other = staff()
    assert other.client.ok("GET", MENUS)["defaultMenu"] is None
    assert p.client.ok("GET", MENUS)["defaultMenu"]["routePath"] == "/portal"


def test_menu_answers_are_per_tenant(user_client):
    acme = menu_codes(tree(user_client))
    globex = user_client.ok("POST", "/api/base/base-user/change-tenant?tenantId=1002")
    g = AtriumClient(user_client.http)
    g.headers["authorization"] = globex["authorization"]
    assert menu_codes(tree(g)) == acme  # the staff role of Globex grants the same demo menus
    assert g.ok("GET", "/api/base/base-user/get-login-user")["tenantId"] != ACME
