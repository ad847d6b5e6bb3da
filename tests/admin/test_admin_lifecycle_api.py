"""Deleting what is no longer used (and refusing, saying why, what still is), a new tenant written whole or
not at all, failed sign-ins and lockouts, the sign-in modes a tenant offers, and effective permissions
that follow every grant change."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient
from tests.admin.conftest import A, C, audit_of

FORBIDDEN = {"code": 403, "msg": "No permission to access", "data": None}

PROFILE = {
    "companyName": "Umbrella",
    "contact": "Alice",
    "contactPhone": "+36 1 234 5678",
    "contactEmail": "alice@umbrella.test",
    "country": "+36",
    "effectiveDate": "2026-01-01",
    "expirationDate": "2027-01-01",
}


def new_tid() -> int:
    return 30_000_000 + secrets.randbelow(10_000_000)


def _system(admin: AtriumClient) -> str:
    code = f"lc{secrets.token_hex(3)}"
    admin.ok("POST", f"{A}/systems", json={"systemCode": code, "systemName": "Lifecycle", "requestUrl": "/x"})
    return code


def _tenant_ids(admin: AtriumClient) -> set[int]:
    return {t["tenantId"] for t in admin.ok("GET", f"{A}/tenants")}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", f"{A}/tenants/delete"),
        ("POST", f"{A}/menus/delete"),
        ("GET", f"{A}/lockouts"),
        ("GET", f"{A}/signin-modes"),
        ("GET", f"{C}/signin-failures"),
        ("POST", f"{C}/tenants"),
    ],
)
def test_plain_users_and_strangers_are_refused(user_client, client, method, path):
    assert user_client.http.request(method, path, headers=user_client.headers, json={}).json() == FORBIDDEN
    assert client.http.request(method, path, headers=client.headers, json={}).json()["code"] == -1


@pytest.mark.parametrize(
    ("method", "path"),
    [("POST", f"{A}/tenants/delete"), ("POST", f"{A}/menus/delete"), ("POST", f"{C}/tenants")],
)
def test_supervisors_are_refused_platform_deletes(boss, method, path):
    assert boss.http.request(method, path, headers=boss.headers, json={}).json() == FORBIDDEN


def test_new_tenant_with_profile_and_systems_in_one_go(admin_client: AtriumClient):
    code = _system(admin_client)
    tid = new_tid()
    created = admin_client.ok(
        "POST",
        f"{C}/tenants",
        json={
            **PROFILE,
            "tenantId": tid,
            "tenantName": "Umbrella",
            "systems": [{"systemCode": code, "systemTitle": "Umbrella Ops", "themeColor": "#123456"}],
        },
    )
    assert created["systems"] == sorted(["iotAutho", code])
    offered = {s["systemCode"]: s for s in admin_client.ok("GET", f"{A}/tenants/systems?tenantId={tid}")}
    assert offered[code]["systemTitle"] == "Umbrella Ops" and offered[code]["themeColor"] == "#123456"
    [profile] = [p for p in admin_client.ok("GET", f"{C}/tenant-profiles") if p["tenantId"] == tid]
    assert profile["companyName"] == "Umbrella" and profile["approvalState"] == "pending"
    [rec] = audit_of(admin_client, "tenant.create", tid)
    assert [s["systemCode"] for s in json.loads(rec["after"])["systems"]] == [code]


def _nothing_of(admin: AtriumClient, kernel: Any, tid: int) -> None:
    from sqlalchemy import func, select

    from atrium.kernel.models import Tenant, TenantSystem
    from atrium.plugins.admin.models import AuditRecord, TenantProfile
    from atrium.sdk.context import unscoped

    assert tid not in _tenant_ids(admin)
    with unscoped(), kernel.db() as db:
        assert db.get(Tenant, tid) is None
        assert db.get(TenantProfile, tid) is None
        for model in (TenantSystem, AuditRecord):
            assert (
                db.execute(select(func.count()).select_from(model).where(model.tenant_id == tid)).scalar()
                == 0
            )


def test_a_failure_half_way_leaves_no_tenant_behind(admin_client: AtriumClient, kernel, monkeypatch):
    code = _system(admin_client)
    tid = new_tid()
    unknown = admin_client.post(
        f"{C}/tenants",
        json={
            **PROFILE,
            "tenantId": tid,
            "tenantName": "Halfway",
            "systems": [{"systemCode": code}, {"systemCode": "no-such-system"}],
        },
    )
    assert (unknown["code"], unknown["msg"]) == (404, "The system does not exist")
    _nothing_of(admin_client, kernel, tid)

    from atrium.plugins.admin import service

    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("disk full")

    monkeypatch.setattr(service, "save_profile", broken)  # the last step fails after tenant and systems
    failed = admin_client.post(
        f"{C}/tenants",
        json={**PROFILE, "tenantId": tid, "tenantName": "Halfway", "systems": [{"systemCode": code}]},
    )
    assert failed["code"] not in (800, -1)
    _nothing_of(admin_client, kernel, tid)
    monkeypatch.undo()

    bad_profile = admin_client.post(
        f"{C}/tenants", json={**PROFILE, "tenantId": tid, "tenantName": "Halfway", "contactEmail": "x@"}
    )
    assert (bad_profile["code"], bad_profile["msg"]) == (400, "Please enter a correct email address")
    _nothing_of(admin_client, kernel, tid)
    assert (
        admin_client.ok("POST", f"{C}/tenants", json={**PROFILE, "tenantId": tid, "tenantName": "Halfway"})[
            "tenantId"
        ]
        == tid
    )


def test_kernel_tenant_call_offers_systems_atomically(admin_client: AtriumClient, kernel):
    tid = new_tid()
    answer = admin_client.post(
        f"{A}/tenants",
        json={"tenantId": tid, "tenantName": "Atomic", "systems": [{"systemCode": "missing-system"}]},
    )
    assert answer["code"] == 404
    _nothing_of(admin_client, kernel, tid)


def test_tenant_delete_refused_while_in_use_then_deleted_and_audited(admin_client, user_factory):
    code = _system(admin_client)
    tid = new_tid()
    admin_client.ok(
        "POST",
        f"{C}/tenants",
        json={**PROFILE, "tenantId": tid, "tenantName": "Doomed", "systems": [{"systemCode": code}]},
    )
    admin_client.ok("POST", f"{A}/roles", json={"roleCode": "temp", "roleName": "Temp", "tenantId": tid})
    _, _, uid = user_factory(tid)
    refused = admin_client.post(f"{A}/tenants/delete", json={"tenantId": tid})
    assert (refused["code"], refused["msg"]) == (409, "The tenant still has 1 users and cannot be deleted")
    zh = AtriumClient(admin_client.http, "zh-cn")
    zh.headers["authorization"] = admin_client.headers["authorization"]
    assert zh.post(f"{A}/tenants/delete", json={"tenantId": tid})["msg"] == "该租户仍有 1 个用户，不能删除"
    assert tid in _tenant_ids(admin_client)

    admin_client.ok("POST", f"{A}/users/state", json={"userId": uid, "enabled": False, "tenantId": tid})
    assert admin_client.post(f"{A}/tenants/delete", json={"tenantId": tid})["code"] == 409  # still a member

    empty = new_tid()
    admin_client.ok(
        "POST",
        f"{C}/tenants",
        json={**PROFILE, "tenantId": empty, "tenantName": "Empty", "systems": [{"systemCode": code}]},
    )
    role = admin_client.ok("POST", f"{A}/roles", json={"roleCode": "r", "roleName": "R", "tenantId": empty})
    admin_client.ok("POST", f"{A}/password-strategy", json={"minLength": 8, "tenantId": empty})
    admin_client.ok("POST", f"{A}/tenants/delete", json={"tenantId": empty})
    assert empty not in _tenant_ids(admin_client)
    assert all(p["tenantId"] != empty for p in admin_client.ok("GET", f"{C}/tenant-profiles"))
    assert admin_client.get(f"{A}/roles?tenantId={empty}")["code"] == 404
    [rec] = audit_of(admin_client, "tenant.delete", empty)
    assert json.loads(rec["before"])["tenantName"] == "Empty" and rec["account"] == "admin"
    assert role["roleId"]
    refused = admin_client.post(f"{A}/systems/delete", json={"systemCode": code})
    assert refused["code"] == 409  # still offered to the first tenant, not to the deleted one
    assert admin_client.post(f"{A}/tenants/delete", json={"tenantId": empty})["code"] == 404
    platform = admin_client.post(f"{A}/tenants/delete", json={"tenantId": -999})
    assert (platform["code"], platform["msg"]) == (400, "The platform tenant cannot be deleted")


def test_menu_delete_refused_while_in_use_then_deleted_and_audited(admin_client, boss):
    parent = int(
        admin_client.ok(
            "POST", f"{A}/menus", json={"menuCode": f"d-{secrets.token_hex(3)}", "menuName": "Parent"}
        )["menuId"]
    )
    child = int(
        admin_client.ok(
            "POST",
            f"{A}/menus",
            json={"menuCode": f"d-{secrets.token_hex(3)}", "menuName": "Child", "parentId": parent},
        )["menuId"]
    )
    button = int(
        admin_client.ok(
            "POST", f"{A}/resources", json={"menuId": child, "resourceCode": "print", "resourceName": "Print"}
        )["resourceId"]
    )
    refused = admin_client.post(f"{A}/menus/delete", json={"menuId": parent})
    assert (refused["code"], refused["msg"]) == (409, "The menu still has 1 sub-menus and cannot be deleted")
    role = boss.ok("POST", f"{A}/roles", json={"roleCode": "printer", "roleName": "Printer"})["roleId"]
    boss.ok("POST", f"{A}/roles/resources", json={"roleId": role, "resourceIds": [button]})
    refused = admin_client.post(f"{A}/menus/delete", json={"menuId": child})
    assert (refused["code"], refused["msg"]) == (
        409,
        "The menu or its buttons are still granted to 1 roles and cannot be deleted",
    )
    boss.ok("POST", f"{A}/roles/resources", json={"roleId": role, "resourceIds": []})
    admin_client.ok("POST", f"{A}/menus/delete", json={"menuId": child})
    admin_client.ok("POST", f"{A}/menus/delete", json={"menuId": parent})
    left = {int(m["menuId"]) for m in admin_client.ok("GET", f"{A}/menus?systemCode=iotAutho")}
    assert not {parent, child} & left
    assert button not in {int(r["resourceId"]) for r in admin_client.ok("GET", f"{A}/resources")}
    [rec] = audit_of(admin_client, "menu.delete", child)
    assert json.loads(rec["before"])["menuName"] == "Child"
    assert admin_client.post(f"{A}/menus/delete", json={"menuId": child})["code"] == 404
    plugin_menu = next(m for m in admin_client.ok("GET", f"{A}/menus") if m.get("plugin") == "admin")
    answer = admin_client.post(f"{A}/menus/delete", json={"menuId": int(plugin_menu["menuId"])})
    assert answer["code"] == 400 and "admin" in answer["msg"]


def test_role_delete_refused_while_held_says_why(boss, user_factory):
    role = boss.ok("POST", f"{A}/roles", json={"roleCode": "held", "roleName": "Held"})["roleId"]
    _, _, uid = user_factory(boss.tenant_id)
    boss.ok("POST", f"{A}/users/roles", json={"userId": uid, "roleId": role})
    refused = boss.post(f"{A}/roles/delete", json={"roleId": role})
    assert (refused["code"], refused["msg"]) == (
        409,
        "The role is still given to 1 users and cannot be deleted",
    )
    boss.ok("POST", f"{A}/users/roles/remove", json={"userId": uid, "roleId": role})
    boss.ok("POST", f"{A}/roles/delete", json={"roleId": role})
    assert audit_of(boss, "role.delete", role)


def test_effective_permissions_follow_every_grant_change(boss, admin_client, user_factory):
    menus = []
    for name in ("First", "Second"):
        code = f"ep-{secrets.token_hex(3)}"
        menus.append(
            int(admin_client.ok("POST", f"{A}/menus", json={"menuCode": code, "menuName": name})["menuId"])
        )
    first, second = menus
    button = int(
        admin_client.ok(
            "POST", f"{A}/resources", json={"menuId": second, "resourceCode": "go", "resourceName": "Go"}
        )["resourceId"]
    )
    role = boss.ok("POST", f"{A}/roles", json={"roleCode": "ep", "roleName": "EP"})["roleId"]
    _, _, uid = user_factory(boss.tenant_id)
    boss.ok("POST", f"{A}/users/roles", json={"userId": uid, "roleId": role})

    def seen() -> tuple[set[int], set[int]]:
        perms = boss.ok("GET", f"{A}/users/permissions?userId={uid}")
        return {int(m["menuId"]) for m in perms["menus"]}, {int(r["resourceId"]) for r in perms["resources"]}

    assert seen() == (set(), set())
    boss.ok("POST", f"{A}/roles/menus", json={"roleId": role, "menuIds": [first]})
    assert seen() == ({first}, set())
    assert seen() == ({first}, set())  # read again: the kept answer is the same
    boss.ok("POST", f"{A}/roles/menus", json={"roleId": role, "menuIds": [second]})
    boss.ok("POST", f"{A}/roles/resources", json={"roleId": role, "resourceIds": [button]})
    assert seen() == ({second}, {button})
    admin_client.ok(
        "POST",
        f"{A}/menus",
        json={"menuCode": f"ep-{secrets.token_hex(3)}", "menuName": "Under", "parentId": first},
    )
    boss.ok("POST", f"{A}/users/roles/remove", json={"userId": uid, "roleId": role})
    assert seen() == (set(), set())
    boss.ok("POST", f"{A}/users/roles", json={"userId": uid, "roleId": role})
    assert seen() == ({second}, {button})
    boss.ok("POST", f"{A}/users/update", json={"userId": uid, "userFullName": "Now boss", "supervisor": True})
    perms = boss.ok("GET", f"{A}/users/permissions?userId={uid}")
    assert perms["all"] is True and {first, second} <= {int(m["menuId"]) for m in perms["menus"]}


def test_effective_permissions_follow_menu_moves_memberships_and_role_deletes(
    boss, admin_client, user_factory
):
    def menu(name: str, parent: int | None = None) -> int:
        body = {"menuCode": f"ep-{secrets.token_hex(3)}", "menuName": name, "parentId": parent}
        return int(admin_client.ok("POST", f"{A}/menus", json=body)["menuId"])

    left, right = menu("Left"), menu("Right")
    leaf = menu("Leaf", left)
    button = int(
        admin_client.ok(
            "POST", f"{A}/resources", json={"menuId": leaf, "resourceCode": "ok", "resourceName": "OK"}
        )["resourceId"]
    )
    role = boss.ok("POST", f"{A}/roles", json={"roleCode": "mv", "roleName": "Mover"})["roleId"]
    boss.ok("POST", f"{A}/roles/menus", json={"roleId": role, "menuIds": [leaf]})
    boss.ok("POST", f"{A}/roles/resources", json={"roleId": role, "resourceIds": [button]})
    _, _, uid = user_factory(boss.tenant_id)
    boss.ok("POST", f"{A}/users/roles", json={"userId": uid, "roleId": role})

    def seen() -> dict[str, Any]:
        perms = boss.ok("GET", f"{A}/users/permissions?userId={uid}")
        return {
            "all": perms["all"],
            "menus": {int(m["menuId"]): m["parentId"] for m in perms["menus"]},
            "buttons": {int(r["resourceId"]) for r in perms["resources"]},
        }

    assert seen() == {"all": False, "menus": {left: None, leaf: str(left)}, "buttons": {button}}
    admin_client.ok("POST", f"{A}/menus/move", json={"menuId": leaf, "parentId": right, "sort": 0})
    assert seen()["menus"] == {right: None, leaf: str(right)}  # the kept answer followed the move
    admin_client.ok(
        "POST", f"{A}/users/memberships", json={"userId": uid, "tenantId": boss.tenant_id, "supervisor": True}
    )
    assert seen()["all"] is True and {left, right, leaf} <= set(seen()["menus"])
    admin_client.ok(
        "POST",
        f"{A}/users/memberships",
        json={"userId": uid, "tenantId": boss.tenant_id, "supervisor": False},
    )
    assert seen() == {"all": False, "menus": {right: None, leaf: str(right)}, "buttons": {button}}
    boss.ok("POST", f"{A}/users/roles/remove", json={"userId": uid, "roleId": role})
    boss.ok("POST", f"{A}/roles/delete", json={"roleId": role})
    assert seen() == {"all": False, "menus": {}, "buttons": set()}


def test_effective_permissions_follow_menu_and_button_renames_and_new_buttons(
    boss, admin_client, user_factory
):
    code = f"ep-{secrets.token_hex(3)}"
    top = int(admin_client.ok("POST", f"{A}/menus", json={"menuCode": code, "menuName": "Reports"})["menuId"])
    role = boss.ok("POST", f"{A}/roles", json={"roleCode": "rn", "roleName": "Renamer"})["roleId"]
    boss.ok("POST", f"{A}/roles/menus", json={"roleId": role, "menuIds": [top]})
    _, _, uid = user_factory(boss.tenant_id)
    boss.ok("POST", f"{A}/users/roles", json={"userId": uid, "roleId": role})

    def seen() -> tuple[dict[int, str], dict[int, str]]:
        perms = boss.ok("GET", f"{A}/users/permissions?userId={uid}")
        return (
            {int(m["menuId"]): m["menuName"] for m in perms["menus"]},
            {int(r["resourceId"]): r["resourceName"] for r in perms["resources"]},
        )

    assert seen() == ({top: "Reports"}, {})
    admin_client.ok("POST", f"{A}/menus", json={"menuId": top, "menuCode": code, "menuName": "Figures"})
    assert seen() == ({top: "Figures"}, {})  # the kept system followed the rename
    button = int(
        admin_client.ok(
            "POST", f"{A}/resources", json={"menuId": top, "resourceCode": "pdf", "resourceName": "PDF"}
        )["resourceId"]
    )
    boss.ok("POST", f"{A}/roles/resources", json={"roleId": role, "resourceIds": [button]})
    assert seen() == ({top: "Figures"}, {button: "PDF"})
    admin_client.ok(
        "POST", f"{A}/resources", json={"menuId": top, "resourceCode": "pdf", "resourceName": "Print"}
    )
    assert seen() == ({top: "Figures"}, {button: "Print"})


def test_failed_sign_ins_and_lockouts_are_listed_and_searchable(
    boss, client, admin_client, user_factory, kernel
):
    account, password, uid = user_factory(boss.tenant_id)
    for _ in range(kernel.settings.login_max_failures):
        kernel.cache.delete(f"login-fail:{account}")  # keep the captcha out of this test
        assert client.login(account, "Wrong0000")["code"] != 800
    kernel.cache.delete(f"login-fail:{account}")
    # each refusal is in the failed sign-ins of the account's tenant, the last ones with the lockout
    failures = boss.ok("GET", f"{C}/signin-failures?keyword={account}&pageRows=50")["list"]
    assert len(failures) == kernel.settings.login_max_failures
    assert {f["reason"] for f in failures} <= {"password", "locked"}
    assert all(f["mode"] == "account" for f in failures)
    assert any(f["lockedUntil"] for f in failures)
    locked = boss.ok("GET", f"{A}/lockouts?keyword={account}")
    [row] = locked["list"]
    assert row["userId"] == uid and row["locked"] is True and row["failedCount"] >= 1 and row["lockedUntil"]
    assert boss.ok("GET", f"{A}/lockouts?keyword=nobody-like-this")["list"] == []
    users = boss.ok("GET", f"{A}/users/page?keyword={account}")["list"]
    assert users[0]["locked"] is True
    boss.ok("POST", f"{A}/users/unlock", json={"userId": uid})
    assert boss.ok("GET", f"{A}/lockouts?keyword={account}")["list"] == []
    kernel.cache.delete(f"login-fail:{account}")
    assert client.login(account, password)["code"] == 800

    other_tenant = admin_client.ok("GET", f"{A}/lockouts?tenantId=1002")
    assert all(r["userId"] != uid for r in other_tenant["list"])
    assert boss.get(f"{A}/lockouts?tenantId=1002") == FORBIDDEN


def test_failed_sign_in_records_are_kept_per_tenant_and_searchable(boss, admin_client, kernel):
    from atrium.sdk.context import unscoped

    account = f"ghost{secrets.token_hex(3)}"
    with unscoped(), kernel.db():  # what the sign-in reports when it refuses an account
        kernel.emit(
            "login.failed",
            tenant_id=boss.tenant_id,
            user_id=boss.user_id,
            account=account,
            mode="account",
            reason="locked",
            ip="203.0.113.9",
            lockedUntil="2030-01-01T10:00:00",
        )
        kernel.emit(
            "login.failed",
            tenant_id=None,
            user_id=None,
            account=f"{account}-x",
            mode="phone",
            reason="unknown",
            ip="198.51.100.1",
        )
    page = boss.ok("GET", f"{C}/signin-failures?keyword={account}")
    [row] = page["list"]
    assert (row["account"], row["reason"], row["ip"], row["lockedUntil"]) == (
        account,
        "locked",
        "203.0.113.9",
        "2030-01-01 10:00:00",
    )
    assert boss.ok("GET", f"{C}/signin-failures?keyword=203.0.113")["total"] >= 1
    assert boss.get(f"{C}/signin-failures?tenantId=1002") == FORBIDDEN
    everyone = admin_client.ok("GET", f"{C}/signin-failures?keyword={account}&pageRows=100")["list"]
    assert {r["account"] for r in everyone} == {account, f"{account}-x"}
    assert admin_client.get(f"{C}/signin-failures?pageRows=101")["code"] == 400


def test_signin_modes_of_a_tenant(boss, admin_client):
    modes = boss.ok("GET", f"{A}/signin-modes")
    types = [m["type"] for m in modes["loginTypes"]]
    assert modes["tenantId"] == boss.tenant_id and types[:3] == ["account", "phone", "email"]
    assert ("qrcode" in types) is boss.ok("GET", "/api/base/admin/signin-config")["qrcodeEnabled"]
    boss.ok("POST", "/api/base/admin/signin-config", json={"qrcodeEnabled": False})
    assert "qrcode" not in [m["type"] for m in boss.ok("GET", f"{A}/signin-modes")["loginTypes"]]
    boss.ok(
        "POST",
        "/api/base/admin/ldap/save",
        json={
            "domain": "corp",
            "serverUrl": "ldap://127.0.0.1:1",
            "searchBase": "dc=corp,dc=test",
        },
    )
    [ldap] = [m for m in boss.ok("GET", f"{A}/signin-modes")["loginTypes"] if m["type"] == "ldap"]
    assert ldap["domains"] == ["corp"]
    assert (
        admin_client.ok("GET", f"{A}/signin-modes?tenantId={boss.tenant_id}")["loginTypes"]
        == boss.ok("GET", f"{A}/signin-modes")["loginTypes"]
    )
    assert boss.get(f"{A}/signin-modes?tenantId=1002") == FORBIDDEN
