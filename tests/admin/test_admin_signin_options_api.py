"""A tenant's sign-in options through the admin API: domain (LDAP) servers and sign-in options across
tenants for super administrators and inside their own for supervisors, every write in the audit log with
its before and after (bind passwords never), and the password, phone-code and e-mail-code modes a tenant
switches off: gone from its sign-in page and refused by the server in the request's language."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient
from tests.admin.conftest import audit_of

FORBIDDEN = {"code": 403, "msg": "No permission to access", "data": None}
B = "/api/base"
LDAP = {"serverUrl": "ldap://127.0.0.1:1", "searchBase": "dc=corp,dc=test", "bindDn": "cn=reader"}
LOGIN = f"{B}/base-user/login"
INFO = f"{B}/base-login-config/get-login-info"
OFF = {
    "account": "Password sign-in is switched off for this organisation",
    "phone": "Phone code sign-in is switched off for this organisation",
    "email": "E-mail code sign-in is switched off for this organisation",
}


def _phone() -> str:
    return "139" + "".join(secrets.choice("0123456789") for _ in range(8))


def _outbox(client: AtriumClient, target: str) -> list[dict[str, str]]:
    return [m for m in client.ok("GET", f"{B}/dev/outbox") if m["target"] == target]


def _modes(client: AtriumClient, **where: Any) -> list[str]:
    query = "&".join(f"{k}={v}" for k, v in where.items())
    return [t["type"] for t in client.ok("GET", f"{INFO}?{query}")["loginTypes"]]


@pytest.fixture
def domain_of(kernel: Any) -> Callable[[int], str]:
    """Give a tenant a sign-in page domain; answers it."""
    from atrium.kernel.models import Tenant
    from atrium.sdk.context import unscoped

    def give(tenant_id: int) -> str:
        name = f"t{secrets.token_hex(4)}.example.test"
        with unscoped(), kernel.db() as db:
            tenant = db.get(Tenant, tenant_id)
            tenant.domain = name
        return name

    return give


@pytest.fixture
def member(boss: AtriumClient, user_factory: Callable[..., Any]) -> Iterator[dict[str, Any]]:
    """A user of the supervisor's tenant with a phone and an e-mail address."""
    phone, email = _phone(), f"m{secrets.token_hex(4)}@example.test"
    account, password, uid = user_factory(boss.tenant_id, mobile=phone, email=email)
    yield {"account": account, "password": password, "userId": uid, "phone": phone, "email": email}


# --- who may call -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", f"{B}/admin/ldap"),
        ("POST", f"{B}/admin/ldap/save"),
        ("POST", f"{B}/admin/ldap/delete?id=1"),
        ("POST", f"{B}/admin/ldap/test?id=1"),
        ("GET", f"{B}/admin/signin-config"),
        ("POST", f"{B}/admin/signin-config"),
        ("GET", f"{B}/admin/registrations"),
        ("POST", f"{B}/admin/registrations/decide"),
    ],
)
def test_plain_users_and_strangers_are_refused(user_client, client, method, path):
    body = {"domain": "corp", **LDAP, "passwordEnabled": False, "userId": 1, "approve": True}
    assert user_client.http.request(method, path, headers=user_client.headers, json=body).json() == FORBIDDEN
    assert client.http.request(method, path, headers=client.headers, json=body).json()["code"] == -1


def test_super_administrators_manage_another_tenants_domain_servers(admin_client, boss, tenant_factory):
    tid = boss.tenant_id
    saved = admin_client.ok(
        "POST",
        f"{B}/admin/ldap/save",
        json={"tenantId": tid, "domain": "north", **LDAP, "bindPassword": "Bind-Secret-1"},
    )
    assert saved["bindPasswordSet"] is True
    # the tenant's own supervisor sees it; the super administrator's own tenant does not have it
    assert [c["domain"] for c in boss.ok("GET", f"{B}/admin/ldap")] == ["north"]
    assert [c["id"] for c in admin_client.ok("GET", f"{B}/admin/ldap?tenantId={tid}")] == [saved["id"]]
    assert saved["id"] not in [c["id"] for c in admin_client.ok("GET", f"{B}/admin/ldap")]
    # without the tenant the server is another tenant's: not found
    missing = admin_client.post(f"{B}/admin/ldap/delete?id={saved['id']}")
    assert (missing["code"], missing["msg"]) == (404, "The domain server does not exist")
    changed = admin_client.ok(
        "POST",
        f"{B}/admin/ldap/save",
        json={"tenantId": tid, "id": int(saved["id"]), "domain": "north", **LDAP, "timeout": 9},
    )
    assert changed["timeout"] == 9 and changed["bindPasswordSet"] is True  # the stored password is kept
    tested = admin_client.post(f"{B}/admin/ldap/test?id={saved['id']}&tenantId={tid}")
    assert (tested["code"], tested["msg"]) == (
        1006,
        "The domain server cannot be reached, please try again later",
    )
    admin_client.ok("POST", f"{B}/admin/ldap/delete?id={saved['id']}&tenantId={tid}")
    assert boss.ok("GET", f"{B}/admin/ldap") == []
    unknown = admin_client.get(f"{B}/admin/ldap?tenantId=987654321")
    assert (unknown["code"], unknown["msg"]) == (404, "The tenant does not exist")


def test_supervisors_stay_in_their_own_tenant(admin_client, boss, tenant_factory):
    other = tenant_factory()
    theirs = admin_client.ok(
        "POST", f"{B}/admin/ldap/save", json={"tenantId": other, "domain": "theirs", **LDAP}
    )
    for method, path in (
        ("GET", f"{B}/admin/ldap?tenantId={other}"),
        ("GET", f"{B}/admin/signin-config?tenantId={other}"),
        ("POST", f"{B}/admin/ldap/delete?id={theirs['id']}&tenantId={other}"),
    ):
        assert boss.http.request(method, path, headers=boss.headers).json() == FORBIDDEN, path
    assert (
        boss.post(f"{B}/admin/signin-config", json={"tenantId": other, "qrcodeEnabled": False}) == FORBIDDEN
    )
    # another tenant's server named by id alone is not found, and stays
    for path in (f"{B}/admin/ldap/delete?id={theirs['id']}", f"{B}/admin/ldap/test?id={theirs['id']}"):
        answer = boss.post(path)
        assert (answer["code"], answer["msg"]) == (404, "The domain server does not exist"), path
    edit = boss.post(f"{B}/admin/ldap/save", json={"id": int(theirs["id"]), "domain": "mine", **LDAP})
    assert edit["code"] == 404
    assert [c["domain"] for c in admin_client.ok("GET", f"{B}/admin/ldap?tenantId={other}")] == ["theirs"]
    assert admin_client.ok("GET", f"{B}/admin/signin-config?tenantId={other}")["qrcodeEnabled"] is True


def test_every_domain_server_and_option_write_is_audited_without_secrets(admin_client, boss, kernel):
    from sqlalchemy import select

    from atrium.kernel.identity.models import LdapConfig
    from atrium.sdk.context import unscoped

    saved = boss.ok(
        "POST", f"{B}/admin/ldap/save", json={"domain": "audited", **LDAP, "bindPassword": "Top-Secret-7"}
    )
    boss.ok(
        "POST",
        f"{B}/admin/ldap/save",
        json={"id": int(saved["id"]), "domain": "audited", **LDAP, "bindPassword": "Newer-Secret-8"},
    )
    boss.ok("POST", f"{B}/admin/ldap/delete?id={saved['id']}")
    with unscoped(), kernel.db() as db:
        assert db.execute(select(LdapConfig).where(LdapConfig.id == int(saved["id"]))).first() is None

    records = audit_of(boss, "ldap.save", saved["id"])
    assert len(records) == 2 and all(r["account"] not in ("", "admin") for r in records)
    changed, created = records  # newest first
    assert created["before"] in ("", "null", None)
    assert json.loads(created["after"])["domain"] == "audited"
    assert json.loads(changed["before"])["bindPasswordSet"] is True
    assert json.loads(changed["after"])["bindPasswordChanged"] is True
    [deleted] = audit_of(boss, "ldap.delete", saved["id"])
    assert json.loads(deleted["before"])["domain"] == "audited"
    everything = json.dumps(admin_client.ok("GET", "/api/admin/audit?keyword=ldap&pageRows=100"))
    assert "Top-Secret-7" not in everything and "Newer-Secret-8" not in everything

    boss.ok("POST", f"{B}/admin/signin-config", json={"qrcodeEnabled": False, "emailCodeEnabled": False})
    [option] = audit_of(boss, "signin_config.save", boss.tenant_id)
    before, after = json.loads(option["before"]), json.loads(option["after"])
    assert (before["qrcodeEnabled"], before["emailCodeEnabled"]) == (True, True)
    assert (after["qrcodeEnabled"], after["emailCodeEnabled"], after["passwordEnabled"]) == (
        False,
        False,
        True,
    )
    # the super administrator reads the tenant's records too
    assert audit_of(admin_client, "signin_config.save", boss.tenant_id, boss.tenant_id)


def test_registration_decisions_are_audited(admin_client, boss, kernel):
    from atrium.kernel.models import Membership, User
    from atrium.sdk.context import unscoped

    with unscoped(), kernel.db() as db:  # a registration waiting for approval
        user = User(account=f"w{secrets.token_hex(4)}", password_hash="", full_name="Waiting")
        db.add(user)
        db.flush()
        db.add(Membership(user_id=user.id, tenant_id=boss.tenant_id, enabled=False))
        uid = user.id
    waiting = admin_client.ok("GET", f"{B}/admin/registrations?tenantId={boss.tenant_id}")
    assert [r["userId"] for r in waiting] == [str(uid)]
    admin_client.ok(
        "POST",
        f"{B}/admin/registrations/decide",
        json={"userId": uid, "approve": True, "tenantId": boss.tenant_id},
    )
    [rec] = audit_of(boss, "registration.decide", uid)
    assert json.loads(rec["after"]) == {"approve": True} and rec["account"] == "admin"


# --- switching modes off ----------------------------------------------------------------------------


def test_every_mode_is_offered_until_switched_off(client, boss, domain_of, user_client):
    page = domain_of(boss.tenant_id)
    assert _modes(client, domainName=page)[:3] == ["account", "phone", "email"]
    assert boss.ok("GET", f"{B}/admin/signin-config") == {
        "allowRegister": False,
        "registerApproval": False,
        "qrcodeEnabled": True,
        "passwordEnabled": True,
        "phoneCodeEnabled": True,
        "emailCodeEnabled": True,
    }
    # the demo accounts sign in with their password as always
    assert client.login("alice", "Alice@123")["code"] == 800
    assert client.login("bob", "Bob@12345")["code"] == 800


def test_a_tenant_without_password_sign_in(client, boss, member, domain_of, http_locale):
    page = domain_of(boss.tenant_id)
    boss.ok("POST", f"{B}/admin/signin-config", json={"passwordEnabled": False})
    assert _modes(client, domainName=page)[:2] == ["phone", "email"]
    assert "account" not in _modes(client, tenantId=boss.tenant_id)
    assert "account" not in [t["type"] for t in boss.ok("GET", "/api/base/admin/signin-modes")["loginTypes"]]

    # the right password lands in a tenant that switched it off: refused, saying why, in the language
    refused = client.login(member["account"], member["password"])
    assert (refused["code"], refused["msg"]) == (400, OFF["account"])
    zh = http_locale("zh-cn")
    assert zh.login(member["account"], member["password"])["msg"] == "该组织已关闭账号密码登录"
    # from the tenant's own page it is refused before the password is even looked at
    wrong = client.login(member["account"], "Wrong0000", domainName=page)
    assert (wrong["code"], wrong["msg"]) == (400, OFF["account"])
    # the phone code still signs the member in
    assert client.get(f"{B}/base-user/pre-captcha?phone={member['phone']}&domainName={page}")["code"] == 800
    [sent] = _outbox(client, member["phone"])
    ok = client.post(LOGIN, json={"loginType": "phone", "phone": member["phone"], "code": sent["code"]})
    assert ok["code"] == 800 and ok["data"]["tenantId"] == boss.tenant_id
    # other tenants are untouched
    assert client.login("alice", "Alice@123")["code"] == 800

    boss.ok("POST", f"{B}/admin/signin-config", json={"passwordEnabled": True})
    assert client.login(member["account"], member["password"])["code"] == 800
    assert _modes(client, domainName=page)[:3] == ["account", "phone", "email"]


def test_a_tenant_without_code_sign_in(client, admin_client, boss, member, domain_of):
    page = domain_of(boss.tenant_id)
    admin_client.ok(
        "POST",
        f"{B}/admin/signin-config",
        json={"tenantId": boss.tenant_id, "phoneCodeEnabled": False, "emailCodeEnabled": False},
    )
    assert _modes(client, domainName=page)[:1] == ["account"]
    assert not {"phone", "email"} & set(_modes(client, domainName=page))

    sms = client.get(f"{B}/base-user/pre-captcha?phone={member['phone']}&tenantId={boss.tenant_id}")
    assert (sms["code"], sms["msg"]) == (400, OFF["phone"])
    mail = client.get(f"{B}/base-user/pre-email-captcha?email={member['email']}&domainName={page}")
    assert (mail["code"], mail["msg"]) == (400, OFF["email"])
    assert _outbox(client, member["phone"]) == [] and _outbox(client, member["email"]) == []
    # a code asked for without naming the tenant does not sign in to it either
    for mode, field, target, ask in (
        ("phone", "phone", member["phone"], "pre-captcha?phone="),
        ("email", "email", member["email"], "pre-email-captcha?email="),
    ):
        assert client.get(f"{B}/base-user/{ask}{target}")["code"] == 800
        [sent] = _outbox(client, target)
        refused = client.post(LOGIN, json={"loginType": mode, field: target, "code": sent["code"]})
        assert (refused["code"], refused["msg"]) == (400, OFF[mode])
    assert client.login(member["account"], member["password"], domainName=page)["code"] == 800


def test_one_of_the_platforms_modes_stays_on(boss, http_locale):
    boss.ok("POST", f"{B}/admin/signin-config", json={"passwordEnabled": False, "phoneCodeEnabled": False})
    last = boss.post(f"{B}/admin/signin-config", json={"emailCodeEnabled": False})
    assert (last["code"], last["msg"]) == (
        400,
        "Keep at least one of password, phone code and e-mail code sign-in on",
    )
    after = boss.ok("GET", f"{B}/admin/signin-config")
    assert (after["passwordEnabled"], after["phoneCodeEnabled"], after["emailCodeEnabled"]) == (
        False,
        False,
        True,
    )
    assert len(audit_of(boss, "signin_config.save", boss.tenant_id)) == 1  # the refused one wrote nothing
    hu = http_locale("hu-hu")
    hu.headers["authorization"] = boss.headers["authorization"]
    refused = hu.post(f"{B}/admin/signin-config", json={"emailCodeEnabled": False})
    assert refused["msg"].startswith("A jelszavas")


@pytest.fixture
def http_locale(client: AtriumClient) -> Callable[[str], AtriumClient]:
    """An anonymous client speaking another language."""
    return lambda locale: AtriumClient(client.http, locale)
