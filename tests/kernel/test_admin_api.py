"""Admin API: who may use it, supervisors kept to their tenant, tenants, users, roles, grants, menus."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient
from tests.kernel.conftest import ACME, GLOBEX, menu_codes

A = "/api/base/admin"
FORBIDDEN = {"code": 403, "msg": "No permission to access", "data": None}


@pytest.fixture
def supervisor(client: AtriumClient) -> AtriumClient:
    return client.signed_in("supervisor")


def new_tenant_id() -> int:
    return 7_000_000 + secrets.randbelow(10_000_000)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", f"{A}/users"),
        ("GET", f"{A}/roles"),
        ("GET", f"{A}/plugins"),
        ("GET", f"{A}/menus"),
        ("POST", f"{A}/users"),
        ("POST", f"{A}/roles"),
        ("POST", f"{A}/users/state"),
        ("POST", f"{A}/roles/menus"),
        ("POST", f"{A}/users/roles"),
        ("POST", f"{A}/plugins/state"),
        ("POST", f"{A}/password-strategy"),
        ("GET", f"{A}/tenants"),
        ("POST", f"{A}/tenants"),
        ("POST", f"{A}/menus"),
        ("GET", f"{A}/systems"),
        ("POST", f"{A}/systems"),
        ("GET", "/api/kernel/plugins"),
    ],
)
def test_plain_users_are_refused(user_client, client, method, path):
    assert user_client.http.request(method, path, headers=user_client.headers, json={}).json() == FORBIDDEN
    assert client.http.request(method, path, headers=client.headers, json={}).json()["code"] == -1


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", f"{A}/tenants"),
        ("POST", f"{A}/tenants"),
        ("POST", f"{A}/menus"),
        ("GET", f"{A}/systems"),
        ("POST", f"{A}/systems"),
    ],
)
def test_supervisors_are_refused_super_admin_routes(supervisor, method, path):
    answer = supervisor.http.request(method, path, headers=supervisor.headers, json={}).json()
    assert answer == FORBIDDEN


def test_supervisor_works_in_own_tenant_only(supervisor):
    users = supervisor.ok("GET", f"{A}/users")
    assert {"alice", "supervisor"} <= {u["account"] for u in users}
    assert "bob" not in {u["account"] for u in users}
    assert supervisor.ok("GET", f"{A}/users?tenantId={ACME}") == users
    assert supervisor.get(f"{A}/users?tenantId={GLOBEX}") == FORBIDDEN
    assert supervisor.get(f"{A}/roles?tenantId={GLOBEX}") == FORBIDDEN
    assert supervisor.get(f"{A}/plugins?tenantId={GLOBEX}") == FORBIDDEN
    body = {"account": f"x{secrets.token_hex(4)}", "password": "Abc12345", "userFullName": "X"}
    assert supervisor.post(f"{A}/users", json={**body, "tenantId": GLOBEX}) == FORBIDDEN
    assert (
        supervisor.post(f"{A}/roles", json={"roleCode": "r1", "roleName": "R", "tenantId": GLOBEX})
        == FORBIDDEN
    )
    assert (
        supervisor.post(f"{A}/users/state", json={"userId": 1, "enabled": False, "tenantId": GLOBEX})
        == FORBIDDEN
    )
    assert (
        supervisor.post(f"{A}/roles/menus", json={"roleId": 1, "menuIds": [], "tenantId": GLOBEX})
        == FORBIDDEN
    )
    assert (
        supervisor.post(f"{A}/users/roles", json={"userId": 1, "roleId": 1, "tenantId": GLOBEX}) == FORBIDDEN
    )
    strategy = supervisor.post(f"{A}/password-strategy", json={"tenantId": GLOBEX})
    assert strategy == FORBIDDEN


def test_supervisor_creates_a_user_who_must_change_the_password(supervisor, client):
    account = f"s{secrets.token_hex(4)}"
    created = supervisor.ok(
        "POST",
        f"{A}/users",
        json={"params": {"account": account, "password": "Abc12345", "userFullName": "Sam"}},
    )
    assert isinstance(created["userId"], int)
    sam = client.signed_in(account, "Abc12345")
    assert sam.profile["tenantId"] == ACME
    prompt = sam.ok("GET", "/api/base/base-user/check-pwd-login")
    assert prompt["pop"] is True and prompt["optType"] == 1
    assert supervisor.post(
        f"{A}/users", json={"account": account, "password": "Abc12345", "userFullName": "S"}
    ) == {
        "code": 409,
        "msg": "The account already exists",
        "data": None,
    }


RULE = "Password must be 6 to 12 letters, digits or symbols"


@pytest.mark.parametrize(
    ("body", "msg"),
    [
        ({"password": "Abc12345", "userFullName": "X"}, "account: required"),
        # the platform tenant's password strategy (the demo's: 6 to 12, symbols allowed)
        ({"account": "a", "password": "Ab1", "userFullName": "X"}, RULE),
        ({"account": "a", "password": "Abcdefgh12345", "userFullName": "X"}, RULE),
        ({"account": "a", "password": "Abc 1234", "userFullName": "X"}, RULE),
        ({"account": "a", "password": "", "userFullName": "X"}, "password: at least 1 characters"),
        ({"account": "a", "password": "Abc12345"}, "userFullName: required"),
        (
            {"account": "a", "password": "Abc12345", "userFullName": "X", "supervisor": "maybe"},
            "supervisor: must be true or false",
        ),
    ],
)
def test_create_user_messages(admin_client, body, msg):
    assert admin_client.post(f"{A}/users", json=body) == {"code": 400, "msg": msg, "data": None}


def test_admin_lists_and_creates_in_any_tenant(admin_client, client):
    globex = admin_client.ok("GET", f"{A}/users?tenantId={GLOBEX}")
    assert {"alice", "bob", "admin"} <= {u["account"] for u in globex}
    assert admin_client.get(f"{A}/users?tenantId=987654321") == {
        "code": 404,
        "msg": "The tenant does not exist",
        "data": None,
    }
    tid = new_tenant_id()
    assert admin_client.ok(
        "POST", f"{A}/tenants", json={"tenantId": tid, "tenantName": "新公司有限公司"}
    ) == {"tenantId": tid, "systems": ["iotAutho"]}  # the default system is offered
    tenants = {t["tenantId"]: t for t in admin_client.ok("GET", f"{A}/tenants")}
    assert tenants[tid]["tenantName"] == "新公司有限公司" and tenants[tid]["enabled"] is True
    assert {ACME, GLOBEX, -999} <= set(tenants)
    account = f"n{secrets.token_hex(4)}"
    admin_client.ok(
        "POST",
        f"{A}/users",
        json={
            "account": account,
            "password": "Abc12345",
            "userFullName": "N",
            "tenantId": tid,
            "mustChangePassword": False,
        },
    )
    newcomer = client.signed_in(account, "Abc12345")
    assert newcomer.profile["tenantId"] == tid
    assert [s["systemCode"] for s in newcomer.ok("GET", "/api/base/base-user/get-login-user")["systems"]] == [
        "iotAutho"
    ]
    assert newcomer.ok("GET", "/api/base/base-user/check-pwd-login")["pop"] is False
    assert [u["account"] for u in admin_client.ok("GET", f"{A}/users?tenantId={tid}")] == [account]


@pytest.mark.parametrize("name", ["", "   ", "x" * 17, "一二三四五六七八九十一二三四五六七"])
def test_tenant_name_must_be_1_to_16_characters(admin_client, name):
    answer = admin_client.post(f"{A}/tenants", json={"tenantId": new_tenant_id(), "tenantName": name})
    assert answer == {"code": 400, "msg": "Company name must be 1 to 16 characters", "data": None}


def test_tenant_name_message_translated(make_client):
    zh = make_client("zh-cn").signed_in("admin")
    answer = zh.post(f"{A}/tenants", json={"tenantId": new_tenant_id(), "tenantName": "x" * 17})
    assert answer["msg"] == "公司名称长度为 1 到 16 个字符"


def test_tenant_create_edges(admin_client):
    tid = new_tenant_id()
    assert (
        admin_client.ok("POST", f"{A}/tenants", json={"tenantId": tid, "tenantName": "x" * 16})["tenantId"]
        == tid
    )
    dup = admin_client.post(f"{A}/tenants", json={"tenantId": tid, "tenantName": "Again"})
    assert dup == {"code": 409, "msg": "The tenant already exists", "data": None}
    zero = admin_client.post(f"{A}/tenants", json={"tenantId": 0, "tenantName": "Zero"})
    assert zero == {"code": 400, "msg": "tenantId: must be at least 1", "data": None}
    name = admin_client.ok("GET", f"/api/base/base-tenant-system/find-tenant-defined?tenantId={tid}")
    assert name["systemLogo"] == "/assets/default-logo.svg"


def test_roles_grants_and_assignment(admin_client, client, tenant_factory, user_factory, menu_ids):
    tid = tenant_factory()
    account, password, uid = user_factory(tid)
    role = admin_client.ok(
        "POST", f"{A}/roles", json={"roleCode": "viewer", "roleName": "Viewer", "tenantId": tid}
    )
    dup = admin_client.post(f"{A}/roles", json={"roleCode": "viewer", "roleName": "Again", "tenantId": tid})
    assert dup == {"code": 409, "msg": "The role already exists", "data": None}
    bad = admin_client.post(f"{A}/roles", json={"roleCode": "no spaces", "roleName": "X", "tenantId": tid})
    assert bad == {"code": 400, "msg": "roleCode: invalid format", "data": None}
    # the same code in another tenant is another role
    assert admin_client.ok(
        "POST", f"{A}/roles", json={"roleCode": "viewer", "roleName": "V", "tenantId": tenant_factory()}
    )

    unknown_menu = admin_client.post(
        f"{A}/roles/menus", json={"roleId": role["roleId"], "menuIds": [987654321], "tenantId": tid}
    )
    assert unknown_menu == {"code": 404, "msg": "The menu does not exist", "data": None}
    grant = {"roleId": role["roleId"], "menuIds": [menu_ids["partner-site"]], "tenantId": tid}
    assert admin_client.ok("POST", f"{A}/roles/menus", json=grant) is None
    roles = admin_client.ok("GET", f"{A}/roles?tenantId={tid}")
    assert roles == [
        {
            "roleId": role["roleId"],
            "roleCode": "viewer",
            "roleName": "Viewer",
            "menuIds": [str(menu_ids["partner-site"])],
        }
    ]
    user = client.signed_in(account, password)
    assert user.ok("GET", "/api/base/base-rolemenu/find-user-menus")["menus"] == []
    admin_client.ok(
        "POST", f"{A}/users/roles", json={"userId": uid, "roleId": role["roleId"], "tenantId": tid}
    )
    admin_client.ok(
        "POST", f"{A}/users/roles", json={"userId": uid, "roleId": role["roleId"], "tenantId": tid}
    )
    tree = user.ok("GET", "/api/base/base-rolemenu/find-user-menus")["menus"]
    assert menu_codes(tree) == {"workbench", "partner-site"}


def test_roles_of_another_tenant_answer_like_missing_ones(
    supervisor, admin_client, tenant_factory, user_factory
):
    tid = tenant_factory()
    foreign_role = admin_client.ok(
        "POST", f"{A}/roles", json={"roleCode": "r", "roleName": "R", "tenantId": tid}
    )["roleId"]
    _acc, _pw, foreign_user = user_factory(tid)
    role_missing = {"code": 404, "msg": "The role does not exist", "data": None}
    user_missing = {"code": 404, "msg": "The user does not exist", "data": None}
    for rid in (foreign_role, 987654321):
        assert supervisor.post(f"{A}/roles/menus", json={"roleId": rid, "menuIds": []}) == role_missing
    alice_id = next(u["userId"] for u in supervisor.ok("GET", f"{A}/users") if u["account"] == "alice")
    for rid in (foreign_role, 987654321):
        assert supervisor.post(f"{A}/users/roles", json={"userId": alice_id, "roleId": rid}) == role_missing
    staff = next(r["roleId"] for r in supervisor.ok("GET", f"{A}/roles") if r["roleCode"] == "staff")
    for uid in (foreign_user, 987654321):
        assert supervisor.post(f"{A}/users/roles", json={"userId": uid, "roleId": staff}) == user_missing
        assert supervisor.post(f"{A}/users/state", json={"userId": uid, "enabled": False}) == user_missing


def test_supervisor_cannot_disable_a_super_administrator(supervisor, admin_client):
    admin_id = admin_client.profile["userId"]
    assert supervisor.post(f"{A}/users/state", json={"userId": admin_id, "enabled": False}) == FORBIDDEN
    assert admin_client.ok("GET", "/api/base/base-user/get-login-user")["userId"] == admin_id


def test_supervisor_disables_a_user_of_the_tenant(supervisor, person):
    p = person()
    assert supervisor.ok("POST", f"{A}/users/state", json={"userId": p.user_id, "enabled": False}) is None
    assert p.client.get("/api/base/base-user/get-login-user")["code"] == -1
    users = {u["userId"]: u for u in supervisor.ok("GET", f"{A}/users")}
    assert users[p.user_id]["enabled"] is False


def test_systems_and_menus(admin_client, make_client):
    code = f"sys{secrets.token_hex(3)}"
    body = {
        "systemCode": code,
        "systemName": "测试系统",
        "systemEnName": "Test",
        "requestUrl": "/t",
        "useState": 1,
    }
    assert admin_client.ok("POST", f"{A}/systems", json=body) == {"systemCode": code}
    rows = {s["systemCode"]: s for s in admin_client.ok("GET", f"{A}/systems")}
    assert rows[code]["systemName"] == "测试系统" and rows[code]["requestUrl"] == "/t"
    admin_client.ok("POST", f"{A}/systems", json={**body, "useState": 0})
    assert {s["systemCode"]: s for s in admin_client.ok("GET", f"{A}/systems")}[code]["useState"] == 0
    assert admin_client.post(f"{A}/systems", json={**body, "useState": 2}) == {
        "code": 400,
        "msg": "useState: must be at most 1",
        "data": None,
    }
    assert (
        admin_client.post(f"{A}/systems", json={**body, "systemCode": "has space"})["msg"]
        == "systemCode: invalid format"
    )

    folder = admin_client.ok(
        "POST",
        f"{A}/menus",
        json={
            "systemCode": code,
            "menuCode": "folder",
            "menuName": "目录",
            "menuEnName": {"en-us": "Folder"},
        },
    )
    leaf_body = {
        "systemCode": code,
        "menuCode": "leaf",
        "menuName": "页面",
        "menuEnName": {"en-us": "Page", "zh-tw": "頁面"},
        "menuUrl": "/t/page",
        "parentId": int(folder["menuId"]),
        "parameter": '{"menu_type": "DYNAMIC_FORM", "diy_code": "d1"}',
        "sort": 2,
    }
    leaf = admin_client.ok("POST", f"{A}/menus", json={"params": leaf_body})
    listed = {m["menuCode"]: m for m in admin_client.ok("GET", f"{A}/menus?systemCode={code}")}
    assert set(listed) == {"folder", "leaf"}
    assert listed["leaf"]["menuEnName"] == {"en-us": "Page", "zh-tw": "頁面"}
    assert listed["leaf"]["meta"]["params"] == {"menu_type": "DYNAMIC_FORM", "diy_code": "d1"}
    tree = admin_client.ok("GET", f"/api/base/base-rolemenu/find-user-menus?systemCode={code}")["menus"]
    assert [m["menuCode"] for m in tree] == ["folder"] and tree[0]["children"][0]["menuId"] == leaf["menuId"]
    # saving the same code updates the menu
    again = admin_client.ok("POST", f"{A}/menus", json={**leaf_body, "menuName": "新页面"})
    assert again == leaf
    tree = admin_client.ok("GET", f"/api/base/base-rolemenu/find-user-menus?systemCode={code}")["menus"]
    assert tree[0]["children"][0]["menuName"] == "新页面"

    invalid = admin_client.post(f"{A}/menus", json={**leaf_body, "menuCode": "broken", "parameter": "{oops"})
    assert invalid == {"code": 400, "msg": "Menu parameter must be valid JSON", "data": None}
    assert "broken" not in {m["menuCode"] for m in admin_client.ok("GET", f"{A}/menus?systemCode={code}")}
    no_system = admin_client.post(f"{A}/menus", json={**leaf_body, "systemCode": "nope"})
    assert no_system == {"code": 404, "msg": "The system does not exist", "data": None}
    no_parent = admin_client.post(
        f"{A}/menus", json={**leaf_body, "menuCode": "orphan", "parentId": 987654321}
    )
    assert no_parent == {"code": 404, "msg": "The menu does not exist", "data": None}
    zh = make_client("zh-cn").signed_in("admin")
    assert (
        zh.post(f"{A}/menus", json={**leaf_body, "parameter": "{oops"})["msg"] == "菜单参数必须是有效的 JSON"
    )


def test_password_strategy(admin_client, client, tenant_factory, user_factory):
    tid = tenant_factory()
    account, password, _uid = user_factory(tid)
    saved = admin_client.ok(
        "POST",
        f"{A}/password-strategy",
        json={"minLength": 8, "maxLength": 10, "expireDays": 30, "warnDays": 3, "tenantId": tid},
    )
    rule = {
        "pwdTips": "Password: 8 to 10 letters or digits, case-sensitive",
        "minLength": 8,
        "maxLength": 10,
        "allowSymbols": False,
        "pattern": "^[A-Za-z0-9]{8,10}$",
    }
    assert saved == {"expireDays": 30, "warnDays": 3, **rule}
    user = client.signed_in(account, password)
    assert user.ok("GET", "/api/base/tenant-pwd-strategy/find-pwd-msg") == rule
    from tests.kernel.conftest import b64

    short = user.post(
        "/api/base/base-user/update-pwd",
        json={"oldMagic": b64(password), "magic": b64("Abc1234"), "confirmMagic": b64("Abc1234")},
    )
    assert short["msg"] == "The new password must have at least 8 characters"
    backwards = admin_client.post(
        f"{A}/password-strategy", json={"minLength": 10, "maxLength": 8, "tenantId": tid}
    )
    assert backwards == {"code": 400, "msg": "The maximum length cannot be below the minimum", "data": None}


def test_kernel_plugin_list_for_admins(admin_client):
    rows: list[dict[str, Any]] = admin_client.ok("GET", "/api/kernel/plugins")
    for row in rows:
        assert row["status"] in ("loaded", "failed")
        assert (row["error"] is None) == (row["status"] == "loaded")
        assert isinstance(row["enabled"], bool)


def test_a_supervisor_disables_a_user_in_their_tenant_only(supervisor, client, user_factory, kernel):
    from atrium.kernel import accounts
    from atrium.sdk.context import unscoped

    account, password, uid = user_factory(ACME)
    with unscoped(), kernel.db():
        accounts.add_membership(uid, GLOBEX)
    in_acme = client.signed_in(account, password)
    assert in_acme.profile["tenantId"] == ACME
    switched = client.signed_in(account, password).ok(
        "POST", f"/api/base/base-user/change-tenant?tenantId={GLOBEX}"
    )
    in_globex = AtriumClient(client.http)
    in_globex.headers["authorization"] = switched["authorization"]

    supervisor.ok("POST", f"{A}/users/state", json={"userId": uid, "enabled": False})
    assert in_acme.get("/api/base/base-user/get-login-user")["code"] == -1
    assert next(u for u in supervisor.ok("GET", f"{A}/users") if u["userId"] == uid)["enabled"] is False
    # Globex is not the supervisor's business: the user still works there and signs in there
    assert in_globex.ok("GET", "/api/base/base-user/get-login-user")["tenantId"] == GLOBEX
    again = client.signed_in(account, password)
    assert again.profile["tenantId"] == GLOBEX
    assert again.post(f"/api/base/base-user/change-tenant?tenantId={ACME}")["code"] == 404

    supervisor.ok("POST", f"{A}/users/state", json={"userId": uid, "enabled": True})
    assert (
        client.signed_in(account, password).ok("POST", f"/api/base/base-user/change-tenant?tenantId={ACME}")[
            "tenantId"
        ]
        == ACME
    )


def test_super_admin_offers_and_withdraws_a_system_for_a_tenant(admin_client, person, tenant_factory):
    code = f"sys{secrets.token_hex(3)}"
    admin_client.ok("POST", f"{A}/systems", json={"systemCode": code, "systemName": "报表中心"})
    tid = tenant_factory()
    member = person(tid)

    def offered() -> set[str]:
        found = member.client.ok("POST", "/api/base/base-tenant-system/find-user-system")
        return {s["systemCode"] for s in found}

    assert code not in offered()
    body = {"tenantId": tid, "systemCode": code, "systemTitle": "Reports", "themeColor": "#13A8A8"}
    assert admin_client.ok("POST", f"{A}/tenants/systems", json=body) == {
        "tenantId": tid,
        "systemCode": code,
        "offered": True,
    }
    assert code in offered()
    setting = member.client.ok("GET", f"/api/base/base-tenant-system/find-tenant-defined?systemCode={code}")
    assert setting["systemTitle"] == "Reports" and setting["themeColor"] == "#13A8A8"

    withdrawn = admin_client.ok("POST", f"{A}/tenants/systems", json={**body, "offered": False})
    assert withdrawn["offered"] is False
    assert code not in offered()
    # the default system stays: everyone signs in to it
    default = {"tenantId": tid, "systemCode": "iotAutho", "offered": False}
    refused = admin_client.post(f"{A}/tenants/systems", json=default)
    assert refused["code"] == 400
    assert refused["msg"] == "The default system cannot be withdrawn from a tenant"
    missing = {"tenantId": tid, "systemCode": "nope"}
    assert admin_client.post(f"{A}/tenants/systems", json=missing)["code"] == 404
    bad = admin_client.post(f"{A}/tenants/systems", json={**body, "themeColor": "red"})
    assert bad["code"] == 400 and bad["msg"].startswith("themeColor")
    assert admin_client.post(f"{A}/tenants/systems", json={**body, "tenantId": 987654321})["code"] == 404


def test_supervisors_cannot_offer_systems(supervisor):
    answer = supervisor.post(f"{A}/tenants/systems", json={"tenantId": ACME, "systemCode": "iotAutho"})
    assert answer == FORBIDDEN


def test_a_button_of_an_administrators_menu_opens_that_menu_to_its_holders(
    admin_client, client, tenant_factory, user_factory
):
    """The message-management menu is for administrators, yet a role holding its `message:send` button
    reaches it; taking the button away hides the menu again. Other administrators' menus stay hidden."""
    tid = tenant_factory()
    account, password, uid = user_factory(tid)
    role = admin_client.ok(
        "POST", f"{A}/roles", json={"roleCode": "sender", "roleName": "Sender", "tenantId": tid}
    )
    admin_client.ok(
        "POST", f"{A}/users/roles", json={"userId": uid, "roleId": role["roleId"], "tenantId": tid}
    )
    send = next(
        r
        for r in admin_client.ok("GET", f"{A}/resources", params={"systemCode": "iotAutho"})
        if r["resourceCode"] == "message:send"
    )
    user = client.signed_in(account, password)
    menus = "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho"
    assert "admin-message-management" not in menu_codes(user.ok("GET", menus)["menus"])

    grant = {"roleId": role["roleId"], "resourceIds": [int(send["resourceId"])], "tenantId": tid}
    admin_client.ok("POST", f"{A}/roles/resources", json=grant)
    codes = menu_codes(user.ok("GET", menus)["menus"])
    assert "admin-message-management" in codes
    assert not codes & {"admin-tenants", "admin-users", "admin-audit", "form-design"}

    admin_client.ok("POST", f"{A}/roles/resources", json={**grant, "resourceIds": []})
    assert "admin-message-management" not in menu_codes(user.ok("GET", menus)["menus"])
