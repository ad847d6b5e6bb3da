"""Memberships edited per tenant: a super administrator adds a user to a tenant, switches the supervisor
flag there and takes the user out again; the last membership stays; supervisors may not do any of it."""

from __future__ import annotations

from typing import Any

from atrium.sdk.testing import AtriumClient
from tests.admin.conftest import A, audit_of

FORBIDDEN = {"code": 403, "msg": "No permission to access", "data": None}


def _tenants_of(admin: AtriumClient, uid: int, tid: int) -> dict[int, dict[str, Any]]:
    detail = admin.ok("GET", f"{A}/users/detail?userId={uid}&tenantId={tid}")
    return {m["tenantId"]: m for m in detail["memberships"]}


def test_add_flag_and_remove_a_membership(
    admin_client: AtriumClient, client: AtriumClient, tenant_factory: Any, user_factory: Any
) -> None:
    home, other = tenant_factory(), tenant_factory()
    account, password, uid = user_factory(home)
    admin_client.ok(
        "POST", f"{A}/users/memberships", json={"userId": uid, "tenantId": other, "supervisor": True}
    )
    assert _tenants_of(admin_client, uid, home)[other]["supervisor"] is True
    role = admin_client.ok("POST", f"{A}/roles", json={"roleCode": "m1", "roleName": "M1", "tenantId": other})
    admin_client.ok(
        "POST", f"{A}/users/roles", json={"userId": uid, "roleId": role["roleId"], "tenantId": other}
    )
    signed = client.signed_in(account, password)
    signed.post(f"/api/base/base-user/change-tenant?tenantId={other}")
    signed.headers["authorization"] = signed.last.headers["authorization"]
    assert signed.get("/api/base/base-user/get-login-user")["data"]["tenantId"] in (other, str(other))

    admin_client.ok("POST", f"{A}/users/memberships/remove", json={"userId": uid, "tenantId": other})

    assert set(_tenants_of(admin_client, uid, home)) == {home}
    [rec] = audit_of(admin_client, "user.membership.remove", uid, tenant_id=other)
    assert '"supervisor": true' in rec["before"]
    admin_client.ok("POST", f"{A}/users/memberships", json={"userId": uid, "tenantId": other})
    assert _tenants_of(admin_client, uid, home)[other]["roles"] == []  # the roles went with the membership
    assert signed.get("/api/base/base-user/get-login-user")["code"] not in (0, 800)  # that session ended


def test_the_last_membership_is_kept(
    admin_client: AtriumClient, tenant_factory: Any, user_factory: Any
) -> None:
    home = tenant_factory()
    _, _, uid = user_factory(home)
    refused = admin_client.post(
        f"{A}/users/memberships/remove", json={"userId": uid, "tenantId": home}, headers={"language": "hu-hu"}
    )
    assert refused["code"] == 409 and "utolsó tagság" in refused["msg"]
    assert set(_tenants_of(admin_client, uid, home)) == {home}


def test_removing_from_a_tenant_the_user_is_not_in_answers_not_found(
    admin_client: AtriumClient, tenant_factory: Any, user_factory: Any
) -> None:
    home, other = tenant_factory(), tenant_factory()
    _, _, uid = user_factory(home)
    missing = admin_client.post(f"{A}/users/memberships/remove", json={"userId": uid, "tenantId": other})
    assert (missing["code"], missing["msg"]) == (404, "The user does not exist")


def test_supervisors_and_plain_users_are_refused(
    boss: Any, user_client: AtriumClient, user_factory: Any
) -> None:
    _, _, uid = user_factory(boss.tenant_id)
    body = {"userId": uid, "tenantId": boss.tenant_id}
    for caller in (boss, user_client):
        assert (
            caller.http.post(f"{A}/users/memberships/remove", headers=caller.headers, json=body).json()
            == FORBIDDEN
        )
