"""The console's calls: role boundaries, validation in the request's language, an audit record per write."""

from __future__ import annotations

import json
import secrets

import pytest

from atrium.sdk.testing import AtriumClient
from tests.admin.conftest import A, C, audit_of

FORBIDDEN = {"code": 403, "msg": "No permission to access", "data": None}
GLOBEX = 1002


def new_tid() -> int:
    return 8_000_000 + secrets.randbelow(10_000_000)


PROFILE = {
    "companyName": "Initech",
    "contact": "Bill",
    "contactPhone": "+36 1 234 5678",
    "contactEmail": "bill@initech.test",
    "tenantType": "enterprise",
    "enterpriseCode": "INI-1",
    "country": "+36",
    "state": "Pest",
    "effectiveDate": "2026-01-01",
    "expirationDate": "2027-01-01",
    "size": 120,
}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", f"{A}/users/page"),
        ("GET", f"{A}/users/detail?userId=1"),
        ("POST", f"{A}/users/update"),
        ("POST", f"{A}/users/password"),
        ("POST", f"{A}/users/unlock"),
        ("GET", f"{A}/users/permissions?userId=1"),
        ("POST", f"{A}/roles/delete"),
        ("POST", f"{A}/roles/resources"),
        ("GET", f"{A}/resources"),
        ("POST", f"{A}/tenants/state"),
        ("POST", f"{A}/menus/move"),
        ("POST", f"{A}/systems/delete"),
        ("GET", f"{C}/audit"),
        ("GET", f"{C}/audit/export"),
        ("GET", f"{C}/tenant-profiles"),
        ("POST", f"{C}/tenant-profiles"),
        ("GET", f"{C}/countries"),
    ],
)
def test_plain_users_and_strangers_are_refused(user_client, client, method, path):
    assert user_client.http.request(method, path, headers=user_client.headers, json={}).json() == FORBIDDEN
    assert client.http.request(method, path, headers=client.headers, json={}).json()["code"] == -1


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", f"{A}/tenants/state"),
        ("GET", f"{A}/tenants/systems?tenantId=1001"),
        ("POST", f"{A}/menus/move"),
        ("POST", f"{A}/systems/delete"),
        ("POST", f"{A}/resources"),
        ("POST", f"{A}/users/memberships"),
        ("GET", f"{C}/tenant-profiles"),
        ("POST", f"{C}/tenant-profiles"),
        ("POST", f"{C}/tenant-profiles/check"),
        ("POST", f"{C}/tenant-profiles/approval"),
    ],
)
def test_supervisors_are_refused_platform_calls(boss, method, path):
    assert boss.http.request(method, path, headers=boss.headers, json={}).json() == FORBIDDEN


def test_tenant_profile_validation_in_the_request_language(admin_client: AtriumClient):
    tid = new_tid()
    admin_client.ok("POST", f"{A}/tenants", json={"tenantId": tid, "tenantName": "Initech"})
    cases = [
        ({"companyName": ""}, "Company name must be 1 to 16 characters"),
        ({"companyName": "x" * 17}, "Company name must be 1 to 16 characters"),
        ({"contactPhone": "12ab"}, "Please enter a correct phone number"),
        ({"contactEmail": "bill@"}, "Please enter a correct email address"),
        ({"country": "+999"}, "Please choose a country from the list"),
        ({"effectiveDate": None}, "Please choose the effective date"),
        ({"expirationDate": None}, "Please choose the expiration date"),
        ({"expirationDate": "2025-12-31"}, "The expiration date must be after the effective date"),
    ]
    for change, msg in cases:
        for path in ("/tenant-profiles", "/tenant-profiles/check"):
            answer = admin_client.post(C + path, json={**PROFILE, "tenantId": tid, **change})
            assert (answer["code"], answer["msg"]) == (400, msg), (path, change)
    assert admin_client.ok("POST", f"{C}/tenant-profiles/check", json={**PROFILE, "tenantId": tid}) is None
    zh = AtriumClient(admin_client.http, "zh-cn")
    zh.headers["authorization"] = admin_client.headers["authorization"]
    answer = zh.post(f"{C}/tenant-profiles", json={**PROFILE, "tenantId": tid, "contactPhone": "abc"})
    assert answer["msg"] == "请输入正确的手机号"
    hu = AtriumClient(admin_client.http, "hu-hu")
    hu.headers["authorization"] = admin_client.headers["authorization"]
    assert hu.post(f"{C}/tenant-profiles", json={**PROFILE, "tenantId": tid, "effectiveDate": None})[
        "msg"
    ] == ("Válassza ki a hatálybalépés dátumát")
    assert admin_client.ok("GET", f"{C}/tenant-profiles") is not None
    assert all(
        p["tenantId"] != tid for p in admin_client.ok("GET", f"{C}/tenant-profiles")
    )  # nothing half-written


def test_tenant_lifecycle_is_audited(admin_client: AtriumClient):
    tid = new_tid()
    admin_client.ok("POST", f"{A}/tenants", json={"tenantId": tid, "tenantName": "Initech"})
    saved = admin_client.ok("POST", f"{C}/tenant-profiles", json={**PROFILE, "tenantId": tid})
    assert saved["approvalState"] == "pending" and saved["country"] == "+36"
    approved = admin_client.ok(
        "POST", f"{C}/tenant-profiles/approval", json={"tenantId": tid, "approvalState": "approved"}
    )
    assert approved["approvalState"] == "approved"
    admin_client.ok("POST", f"{A}/tenants/state", json={"tenantId": tid, "enabled": False})
    assert [t for t in admin_client.ok("GET", f"{A}/tenants") if t["tenantId"] == tid][0]["enabled"] is False
    admin_client.ok("POST", f"{A}/tenants/state", json={"tenantId": tid, "enabled": True})
    for action in ("tenant.create", "tenant.profile", "tenant.approval"):
        [rec] = audit_of(admin_client, action, tid)
        assert rec["account"] == "admin" and rec["tenantId"] == tid
    [resumed, suspended] = audit_of(admin_client, "tenant.state", tid)
    assert json.loads(suspended["after"]) == {"enabled": False} and json.loads(resumed["after"]) == {
        "enabled": True
    }
    [approval] = audit_of(admin_client, "tenant.approval", tid)
    assert json.loads(approval["before"]) == {"approvalState": "pending"}
    assert (
        admin_client.post(f"{A}/tenants/state", json={"tenantId": new_tid(), "enabled": False})["code"] == 404
    )


def test_country_list_has_five_languages(admin_client):
    rows = admin_client.ok("GET", f"{C}/countries")
    hungary = next(r for r in rows if r["code"] == "+36")
    assert hungary["names"] == {
        "zh-cn": "匈牙利",
        "zh-tw": "匈牙利",
        "en-us": "Hungary",
        "vi-vn": "Hungary",
        "hu-hu": "Magyarország",
    }
    assert all(set(r["names"]) == {"zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu"} for r in rows)


def test_users_paged_searched_and_edited_with_audit(boss, client, admin_client):
    tid = boss.tenant_id
    made = []
    for i in range(23):
        made.append(
            boss.ok(
                "POST",
                f"{A}/users",
                json={
                    "account": f"pg{i:02d}{secrets.token_hex(3)}",
                    "password": "Abc12345",
                    "userFullName": f"Pager {i}",
                },
            )["userId"]
        )
    first = boss.ok("GET", f"{A}/users/page?pageRows=20")
    assert first["total"] == 24 and len(first["list"]) == 20
    second = boss.ok("GET", f"{A}/users/page?pageRows=20&pageIndex=2")
    assert len(second["list"]) == 4
    found = boss.ok("GET", f"{A}/users/page?keyword=Pager 1")
    assert {u["userFullName"] for u in found["list"]} == {"Pager 1", *{f"Pager {i}" for i in range(10, 20)}}
    assert boss.ok("GET", f"{A}/users/page?keyword=%25")["total"] == 0  # a wildcard is searched literally
    uid = made[0]
    bad = boss.post(f"{A}/users/update", json={"userId": uid, "userFullName": "New", "email": "nope"})
    assert bad["code"] == 400 and bad["msg"].startswith("email")
    after = boss.ok(
        "POST",
        f"{A}/users/update",
        json={"userId": uid, "userFullName": "Renamed", "mobile": "13900001111", "supervisor": True},
    )
    assert after["userFullName"] == "Renamed" and after["isAdmin"] == 2
    [rec] = audit_of(boss, "user.update", uid)
    assert (
        json.loads(rec["before"])["userFullName"] == "Pager 0"
        and json.loads(rec["after"])["userFullName"] == "Renamed"
    )
    assert rec["tenantId"] == tid
    assert audit_of(boss, "user.create", uid)


def test_reset_password_and_unlock(boss, client):
    created = boss.ok(
        "POST",
        f"{A}/users",
        json={
            "account": f"rp{secrets.token_hex(4)}",
            "password": "Abc12345",
            "userFullName": "Reset Me",
            "mustChangePassword": False,
        },
    )
    uid = created["userId"]
    weak = boss.post(f"{A}/users/password", json={"userId": uid, "password": "abc"})
    assert weak["code"] == 400
    boss.ok("POST", f"{A}/users/password", json={"userId": uid, "password": "New12345"})
    account = boss.ok("GET", f"{A}/users/detail?userId={uid}")["account"]
    assert client.login(account, "Abc12345")["code"] != 800
    signed = client.login(account, "New12345")
    assert signed["code"] == 800
    boss.ok("POST", f"{A}/users/unlock", json={"userId": uid})
    [rec] = audit_of(boss, "user.password.reset", uid)
    assert "New12345" not in rec["before"] + rec["after"]
    assert audit_of(boss, "user.unlock", uid)


def test_supervisor_naming_another_tenants_user_gets_not_found(boss, admin_client):
    bob = next(u for u in admin_client.ok("GET", f"{A}/users?tenantId={GLOBEX}") if u["account"] == "bob")
    for path, body in [
        ("/users/update", {"userId": bob["userId"], "userFullName": "Hacked"}),
        ("/users/password", {"userId": bob["userId"], "password": "Abc12345"}),
        ("/users/unlock", {"userId": bob["userId"]}),
    ]:
        assert boss.post(A + path, json=body)["code"] == 404, path
    assert boss.get(f"{A}/users/detail?userId={bob['userId']}")["code"] == 404
    assert boss.get(f"{A}/users/permissions?userId={bob['userId']}")["code"] == 404
    assert boss.get(f"{C}/audit?tenantId={GLOBEX}") == FORBIDDEN
    assert all(r["tenantId"] == boss.tenant_id for r in boss.ok("GET", f"{C}/audit?pageRows=100")["list"])


def _menu_with_button(admin: AtriumClient) -> tuple[int, int, str]:
    code = f"adm-test-{secrets.token_hex(3)}"
    menu_id = int(
        admin.ok(
            "POST", f"{A}/menus", json={"menuCode": code, "menuName": "Console test", "menuUrl": f"/{code}"}
        )["menuId"]
    )
    res = int(
        admin.ok(
            "POST",
            f"{A}/resources",
            json={"menuId": menu_id, "resourceCode": "export", "resourceName": "Export"},
        )["resourceId"]
    )
    return menu_id, res, code


def test_roles_grants_and_effective_permissions(boss, admin_client, client, user_factory):
    menu_id, res, code = _menu_with_button(admin_client)
    role = boss.ok("POST", f"{A}/roles", json={"roleCode": "clerk", "roleName": "Clerk"})["roleId"]
    boss.ok("POST", f"{A}/roles/menus", json={"roleId": role, "menuIds": [menu_id]})
    boss.ok("POST", f"{A}/roles/resources", json={"roleId": role, "resourceIds": [res]})
    assert boss.ok("GET", f"{A}/roles/resources?roleId={role}") == [str(res)]
    account, password, uid = user_factory(boss.tenant_id)
    boss.ok("POST", f"{A}/users/roles", json={"userId": uid, "roleId": role})
    perms = boss.ok("GET", f"{A}/users/permissions?userId={uid}")
    assert [m["menuCode"] for m in perms["menus"]] == [code]
    assert [r["resourceCode"] for r in perms["resources"]] == ["export"]
    person = client.signed_in(account, password)
    assert (
        person.ok("GET", f"/api/base/resource/find-resource?menuId={menu_id}")[0]["resourceCode"] == "export"
    )
    refused = boss.post(f"{A}/roles/delete", json={"roleId": role})
    assert refused["code"] == 409 and "1 users" in refused["msg"]
    boss.ok("POST", f"{A}/users/roles/remove", json={"userId": uid, "roleId": role})
    boss.ok("POST", f"{A}/roles/delete", json={"roleId": role})
    assert all(r["roleId"] != role for r in boss.ok("GET", f"{A}/roles"))
    for action, target in [
        ("role.create", role),
        ("role.menus", role),
        ("role.resources", role),
        ("user.role.add", uid),
        ("user.role.remove", uid),
        ("role.delete", role),
    ]:
        assert audit_of(boss, action, target), action
    [grant] = audit_of(boss, "role.menus", role)
    assert json.loads(grant["after"]) == {"menuIds": [menu_id]}
    assert boss.post(f"{A}/roles/resources", json={"roleId": role, "resourceIds": [10**9]})["code"] == 404


def test_supervisor_cannot_touch_another_tenants_roles(boss, admin_client):
    role = admin_client.ok(
        "POST",
        f"{A}/roles",
        json={"roleCode": f"g{secrets.token_hex(3)}", "roleName": "G", "tenantId": GLOBEX},
    )["roleId"]
    assert boss.post(f"{A}/roles/delete", json={"roleId": role})["code"] == 404
    assert boss.post(f"{A}/roles/resources", json={"roleId": role, "resourceIds": []})["code"] == 404
    assert boss.post(f"{A}/roles/delete", json={"roleId": role, "tenantId": GLOBEX}) == FORBIDDEN


def test_menus_move_reparent_and_fields(admin_client):
    parent = int(
        admin_client.ok(
            "POST", f"{A}/menus", json={"menuCode": f"p-{secrets.token_hex(3)}", "menuName": "Parent"}
        )["menuId"]
    )
    kids = [
        int(
            admin_client.ok(
                "POST",
                f"{A}/menus",
                json={
                    "menuCode": f"k{i}-{secrets.token_hex(3)}",
                    "menuName": f"Kid {i}",
                    "parentId": parent,
                    "sort": i,
                    "menuEnName": {"en-us": f"Kid {i}", "hu-hu": f"Gyerek {i}"},
                    "menuIconurl": "StarOutlined",
                    "isCache": False,
                    "subscriptKey": "todo",
                    "userManualUrl": "https://help.test/x",
                    "parameter": json.dumps(
                        {"menu_type": "DYNAMIC_FORM", "diy_code": "f1", "layout_code": "l1"}
                    ),
                },
            )["menuId"]
        )
        for i in range(3)
    ]
    admin_client.ok("POST", f"{A}/menus/move", json={"menuId": kids[2], "parentId": parent, "sort": 0})
    menus = {int(m["menuId"]): m for m in admin_client.ok("GET", f"{A}/menus")}
    listed = [int(m["menuId"]) for m in admin_client.ok("GET", f"{A}/menus")]
    assert [k for k in listed if k in kids] == [kids[2], kids[0], kids[1]]
    kid = menus[kids[0]]
    assert kid["menuIconurl"] == "StarOutlined" and kid["isCache"] == 0 and kid["subscriptKey"] == "todo"
    assert kid["menuEnName"] == {"en-us": "Kid 0", "hu-hu": "Gyerek 0"}
    assert (
        admin_client.post(f"{A}/menus/move", json={"menuId": parent, "parentId": kids[0], "sort": 0})["code"]
        == 400
    )
    admin_client.ok("POST", f"{A}/menus/move", json={"menuId": kids[1], "parentId": None, "sort": 0})
    assert admin_client.ok("GET", f"{A}/menus") and audit_of(admin_client, "menu.move", kids[1])
    [move] = audit_of(admin_client, "menu.move", kids[1])
    assert json.loads(move["before"])["parentId"] == parent and json.loads(move["after"])["parentId"] is None
    bad = admin_client.post(f"{A}/menus", json={"menuCode": "x", "menuName": "X", "parameter": "{nope"})
    assert bad == {"code": 400, "msg": "Menu parameter must be valid JSON", "data": None}


def test_systems_in_use_cannot_be_deleted(admin_client):
    code = f"sys{secrets.token_hex(3)}"
    admin_client.ok(
        "POST", f"{A}/systems", json={"systemCode": code, "systemName": "Sys", "requestUrl": "/x"}
    )
    tid = new_tid()
    admin_client.ok("POST", f"{A}/tenants", json={"tenantId": tid, "tenantName": "Sys Co"})
    admin_client.ok(
        "POST", f"{A}/tenants/systems", json={"tenantId": tid, "systemCode": code, "themeColor": "#112233"}
    )
    assert [
        s["themeColor"]
        for s in admin_client.ok("GET", f"{A}/tenants/systems?tenantId={tid}")
        if s["systemCode"] == code
    ] == ["#112233"]
    refused = admin_client.post(f"{A}/systems/delete", json={"systemCode": code})
    assert refused["code"] == 409 and "1 tenants" in refused["msg"]
    admin_client.ok(
        "POST", f"{A}/tenants/systems", json={"tenantId": tid, "systemCode": code, "offered": False}
    )
    admin_client.ok("POST", f"{A}/systems/delete", json={"systemCode": code})
    assert code not in {s["systemCode"] for s in admin_client.ok("GET", f"{A}/systems")}
    for action in ("system.save", "system.delete"):
        assert audit_of(admin_client, action, code), action
    assert audit_of(admin_client, "tenant.system", code, tenant_id=tid)
    assert admin_client.post(f"{A}/systems/delete", json={"systemCode": "iotAutho"})["code"] == 400


def test_plugin_switch_and_password_strategy_are_audited(boss):
    boss.ok("POST", f"{A}/plugins/state", json={"plugin": "watermark", "enabled": False})
    assert not next(p for p in boss.ok("GET", f"{A}/plugins") if p["name"] == "watermark")["enabled"]
    boss.ok("POST", f"{A}/plugins/state", json={"plugin": "watermark", "enabled": True})
    records = audit_of(boss, "plugin.state", "watermark")
    assert [json.loads(r["after"]) for r in records] == [{"enabled": True}, {"enabled": False}]
    assert boss.post(f"{A}/plugins/state", json={"plugin": "admin", "enabled": False})["code"] == 400
    boss.ok("POST", f"{A}/password-strategy", json={"minLength": 8, "maxLength": 12})
    assert audit_of(boss, "password.strategy", boss.tenant_id)


def test_audit_search_paging_and_export(boss):
    for i in range(3):
        boss.ok("POST", f"{A}/roles", json={"roleCode": f"aud{i}", "roleName": f"Audited {i}"})
    page = boss.ok("GET", f"{C}/audit?action=role.create&pageRows=2")
    assert page["total"] == 3 and len(page["list"]) == 2
    assert json.loads(page["list"][0]["after"])["roleCode"] == "aud2"  # newest first
    export = boss.ok("GET", f"{C}/audit/export?action=role.create")
    lines = export["content"].strip().splitlines()
    assert lines[0].startswith("auditId,at,tenantId") and len(lines) == 4
