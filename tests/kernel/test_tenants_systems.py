"""Tenants and systems of the signed-in user; switching; entering a system; tenant branding."""

from __future__ import annotations

import pytest

from atrium.sdk.testing import AtriumClient
from tests.kernel.conftest import ACME, GLOBEX

TENANTS = "/api/base/base-tenant/find-user-tenants-filter-system"
CHANGE = "/api/base/base-user/change-tenant"
GOING = "/api/base/base-user/going-system"
DEFINED = "/api/base/base-tenant-system/find-tenant-defined"


def test_user_tenants(user_client):
    tenants = user_client.ok("POST", f"{TENANTS}?enterType=PC")
    assert tenants == [
        {"tenantId": ACME, "tenantName": "Acme", "parentTenantId": None},
        {"tenantId": GLOBEX, "tenantName": "Globex", "parentTenantId": None},
    ]
    both = user_client.ok("POST", f"{TENANTS}?enterType=PC&systemCode=assetMgmt")
    assert [t["tenantId"] for t in both] == [ACME, GLOBEX]
    acme_only = user_client.ok("POST", f"{TENANTS}?enterType=PC&systemCode=legacyErp")
    assert [t["tenantId"] for t in acme_only] == [ACME]
    assert user_client.ok("POST", f"{TENANTS}?systemCode=nope") == []


def test_bob_sees_only_globex(client):
    bob = client.signed_in("bob")
    assert [t["tenantName"] for t in bob.ok("POST", TENANTS)] == ["Globex"]


def test_change_tenant_to_a_foreign_tenant_answers_like_a_missing_one(person, tenant_factory):
    p = person()
    other = tenant_factory()
    foreign = p.client.post(f"{CHANGE}?tenantId={GLOBEX}")
    stranger = p.client.post(f"{CHANGE}?tenantId={other}")
    missing = p.client.post(f"{CHANGE}?tenantId=987654321")
    assert foreign == stranger == missing == {"code": 404, "msg": "The tenant does not exist", "data": None}
    # the session is untouched by the refusals
    assert p.client.ok("GET", "/api/base/base-user/get-login-user")["tenantId"] == ACME


def test_change_tenant_bad_query(user_client):
    missing = user_client.post(CHANGE)
    assert missing == {"code": 400, "msg": "tenantId: required", "data": None}
    wrong = user_client.post(f"{CHANGE}?tenantId=abc")
    assert wrong == {"code": 400, "msg": "tenantId: must be an integer", "data": None}


def test_change_tenant_in_chinese(make_client):
    c = make_client("zh-cn").signed_in("bob")
    assert c.post(f"{CHANGE}?tenantId={ACME}") == {"code": 404, "msg": "租户不存在", "data": None}


def test_find_user_system(user_client):
    rows = user_client.ok("POST", "/api/base/base-tenant-system/find-user-system")
    by_code = {r["systemCode"]: r for r in rows}
    assert list(by_code) == ["iotAutho", "assetMgmt", "legacyErp", "dataLab"]
    assert by_code["iotAutho"]["requestUrl"] == "/" and by_code["iotAutho"]["useState"] == 1
    assert by_code["assetMgmt"]["requestUrl"] == "/portal"
    assert by_code["legacyErp"]["useState"] == 0
    assert by_code["dataLab"]["requestUrl"] == "" and by_code["dataLab"]["useState"] == 1
    assert by_code["assetMgmt"]["systemName"] == "资产管理"
    assert set(by_code["assetMgmt"]) == {
        "systemCode",
        "systemName",
        "systemEnName",
        "iconUrl",
        "requestUrl",
        "useState",
    }


def test_find_user_system_in_globex(client):
    rows = client.signed_in("bob").ok("POST", "/api/base/base-tenant-system/find-user-system")
    assert [r["systemCode"] for r in rows] == ["iotAutho", "assetMgmt"]


@pytest.mark.parametrize(
    ("system", "code", "msg"),
    [
        ("legacyErp", 1003, "This system is forbidden"),
        ("dataLab", 1004, "This system is not yet open"),
        ("nope", 404, "The system does not exist"),
    ],
)
def test_going_system_refusals(user_client, system, code, msg):
    answer = user_client.post(f"{GOING}?loginFrom=PC&systemCode={system}")
    assert answer == {"code": code, "msg": msg, "data": None}
    assert user_client.get("/api/base/base-user/get-login-user")["code"] == 800


@pytest.mark.parametrize(
    ("locale", "forbidden", "not_open"),
    [("zh-cn", "该系统已禁用", None), ("zh-tw", "該系統已禁用", "該系統暫未開放"), ("hu-hu", None, None)],
)
def test_going_system_refusals_translated(make_client, locale, forbidden, not_open):
    c = make_client(locale).signed_in("alice")
    f = c.post(f"{GOING}?systemCode=legacyErp")
    n = c.post(f"{GOING}?systemCode=dataLab")
    assert (f["code"], n["code"]) == (1003, 1004)
    if forbidden:
        assert f["msg"] == forbidden
    if not_open:
        assert n["msg"] == not_open
    assert f["msg"] not in ("This system is forbidden", "") and n["msg"] not in (
        "This system is not yet open",
        "",
    )


def test_going_system_to_a_system_the_tenant_does_not_have(client):
    bob = client.signed_in("bob")
    assert bob.post(f"{GOING}?systemCode=legacyErp") == {
        "code": 404,
        "msg": "The system does not exist",
        "data": None,
    }


def test_going_system_asset_mgmt(person):
    p = person()
    old = p.client.headers["authorization"]
    data = p.client.ok("POST", f"{GOING}?loginFrom=PC&systemCode=assetMgmt")
    assert data["systemCode"] == "assetMgmt" and data["tenantId"] == ACME and data["userId"] == p.user_id
    for key in ("authorization", "refresh-authorization", "isSuperAdmin", "isAdmin", "userFullName"):
        assert key in data
    assert p.client.last.headers["authorization"] == data["authorization"] != old
    me = p.client.ok("GET", "/api/base/base-user/get-login-user")
    assert me["systemCode"] == "assetMgmt"
    stale = AtriumClient(p.client.http)
    stale.headers["authorization"] = old
    assert stale.get("/api/base/base-user/get-login-user")["code"] == -1
    going_missing = p.client.post(GOING)
    assert going_missing == {"code": 400, "msg": "systemCode: required", "data": None}


def test_tenant_defined_is_public_with_default_logo(client):
    plain = client.ok("GET", f"{DEFINED}?systemCode=iotAutho")
    assert plain == {
        "systemLogo": "/assets/default-logo.svg",
        "iconUrl": "",
        "systemTitle": "统一门户",
        "systemName": "统一门户",
        "systemEnName": plain["systemEnName"],
        "themeColor": "",
    }
    acme = client.ok("GET", f"{DEFINED}?systemCode=iotAutho&tenantId={ACME}")
    assert acme["systemTitle"] == "Acme 统一门户" and acme["themeColor"] == "#204BE3"
    assert acme["systemLogo"] == "/assets/default-logo.svg"
    globex = client.ok("GET", f"{DEFINED}?tenantId={GLOBEX}")
    assert globex["systemTitle"] == "Globex Portal" and globex["themeColor"] == "#13A8A8"
    by_domain = client.ok("GET", f"{DEFINED}?domainName=globex.localhost")
    assert by_domain["systemTitle"] == "Globex Portal"
    asset = client.ok("GET", f"{DEFINED}?systemCode=assetMgmt&tenantId={ACME}")
    assert asset["systemTitle"] == "资产管理"


def test_tenant_defined_for_the_signed_in_tenant(client):
    bob = client.signed_in("bob")
    assert bob.ok("GET", DEFINED)["systemTitle"] == "Globex Portal"


def test_tenant_defined_unknown_system(client, make_client):
    assert client.get(f"{DEFINED}?systemCode=nope") == {
        "code": 404,
        "msg": "The system does not exist",
        "data": None,
    }
    assert make_client("zh-cn").get(f"{DEFINED}?systemCode=nope")["msg"] == "系统不存在"
    assert client.get(f"{DEFINED}?tenantId=x") == {
        "code": 400,
        "msg": "tenantId: must be an integer",
        "data": None,
    }


def test_switching_to_a_tenant_without_the_current_system_lands_in_the_default_system(person, kernel):
    from atrium.kernel import accounts
    from atrium.sdk.context import unscoped

    p = person()
    with unscoped(), kernel.db():
        accounts.add_membership(p.user_id, GLOBEX)
    data = p.client.ok("POST", f"{CHANGE}?tenantId={GLOBEX}&systemCode=legacyErp")
    me = p.client.ok("GET", "/api/base/base-user/get-login-user")
    assert me["tenantId"] == GLOBEX and me["systemCode"] == "iotAutho"
    assert data["tenantId"] == GLOBEX


def test_sign_in_with_a_default_system_the_tenant_lacks(client, user_factory, set_user):
    account, password, uid = user_factory(GLOBEX)
    set_user(uid, default_system_code="dataLab")  # offered to Acme only
    assert client.signed_in(account, password).profile["systemCode"] == "iotAutho"
