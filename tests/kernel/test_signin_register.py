"""Self-registration and forgotten passwords: codes, rules, messages, enumeration, sessions ending."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import delete

from atrium.kernel.identity.models import SigninConfig
from atrium.sdk.testing import AtriumClient
from tests.kernel.conftest import ACME, unique_phone

REGISTER = "/api/base/base-user/register"
RESET = "/api/base/base-user/reset-pwd"
LOGIN = "/api/base/base-user/login"


def outbox(client: AtriumClient, target: str) -> list[dict[str, str]]:
    return [m for m in client.ok("GET", "/api/base/dev/outbox") if m["target"] == target]


@pytest.fixture
def signin_options(kernel: Any, rows: Any) -> Iterator[Callable[..., None]]:
    """Set a tenant's sign-in options for one test."""
    touched: list[int] = []

    def put(tenant_id: int = ACME, **values: bool) -> None:
        with rows() as db:
            row = db.get(SigninConfig, tenant_id)
            if row is None:
                row = SigninConfig(tenant_id=tenant_id, allow_register=False, register_approval=False)
                db.add(row)
            for key, value in values.items():
                setattr(row, key, value)
        touched.append(tenant_id)

    yield put
    with rows() as db:
        db.execute(delete(SigninConfig).where(SigninConfig.tenant_id.in_(touched)))


def form(c: AtriumClient, **fields: Any) -> dict[str, Any]:
    password = fields.pop("password", "abc123")
    confirm = fields.pop("confirm", password)
    body = {
        "domainName": "acme.localhost",
        "registerType": "phone",
        "account": f"r{secrets.token_hex(4)}",
        "userFullName": "New Person",
        "agree": True,
        "password": c.encrypt(password) if password else "",
        "confirmPassword": c.encrypt(confirm) if confirm else "",
        **fields,
    }
    return body


def sms_code(client: AtriumClient, path: str, phone: str) -> str:
    assert client.get(f"{path}?phone={phone}")["code"] == 800
    sent = outbox(client, phone)
    assert sent, "no code was sent"
    return sent[0]["code"]


def test_register_with_a_phone_code_then_sign_in(client, signin_options):
    signin_options(allow_register=True)
    info = client.ok("GET", "/api/base/base-login-config/get-login-info?domainName=acme.localhost")
    assert info["allowRegister"] is True
    phone = unique_phone()
    code = sms_code(client, "/api/base/base-user/register/pre-captcha", phone)
    body = form(client, phone=phone, code=code)
    answer = client.ok("POST", REGISTER, json={"params": body})
    assert answer["account"] == body["account"] and answer["approval"] == "none"
    signed = client.login(body["account"], "abc123")
    assert signed["code"] == 800 and signed["data"]["tenantId"] == ACME
    assert signed["data"]["userFullName"] == "New Person"
    # the code registered once
    again = client.post(REGISTER, json=form(client, phone=phone, code=code))
    assert again == {"code": 1005, "msg": "The verification code is wrong or expired", "data": None}


def test_register_by_email_in_chinese(client, make_client, signin_options):
    signin_options(allow_register=True)
    zh = make_client("zh-cn")
    email = f"n{secrets.token_hex(4)}@example.com"
    zh.ok("GET", f"/api/base/base-user/register/pre-email-captcha?email={email}")
    (sent,) = outbox(client, email)
    bad = zh.post(REGISTER, json=form(zh, registerType="email", email=email, code=sent["code"], agree=False))
    assert bad == {"code": 400, "msg": "请阅读并同意用户协议和隐私政策", "data": None}
    ok = zh.post(REGISTER, json=form(zh, registerType="email", email=email, code=sent["code"]))
    assert ok["code"] == 800


@pytest.mark.parametrize(
    ("password", "confirm", "msg"),
    [
        # the demo tenant's strategy allows symbols (a space is none)
        ("abc12", "abc12", "Password must be 6 to 12 letters, digits or symbols"),
        ("abcdef1234567", "abcdef1234567", "Password must be 6 to 12 letters, digits or symbols"),
        ("abc 123", "abc 123", "Password must be 6 to 12 letters, digits or symbols"),
        ("abc123", "ABC123", "Passwords not match"),
        ("", "", "Password cannot be empty"),
    ],
)
def test_register_password_rules(client, signin_options, password, confirm, msg):
    signin_options(allow_register=True)
    answer = client.post(
        REGISTER, json=form(client, phone=unique_phone(), code="123456", password=password, confirm=confirm)
    )
    assert answer == {"code": 400, "msg": msg, "data": None}


@pytest.mark.parametrize(
    ("fields", "msg"),
    [
        ({"phone": ""}, "Phone number cannot be empty"),
        ({"phone": "12345"}, "Please enter a correct phone number"),
        ({"account": ""}, "Account cannot be empty"),
        ({"account": "a b"}, "Account must be 2 to 64 letters, digits or _ . @ -"),
        ({"userFullName": " "}, "Name cannot be empty"),
        ({"code": ""}, "Verification code cannot be empty"),
        ({"registerType": "email", "email": "nope"}, "Please enter a correct email"),
    ],
)
def test_register_form_messages(client, signin_options, fields, msg):
    signin_options(allow_register=True)
    body = form(client, phone=unique_phone(), code="123456")
    body.update(fields)
    assert client.post(REGISTER, json=body) == {"code": 400, "msg": msg, "data": None}


def test_register_closed_unless_the_tenant_allows_it(client, tenant_factory):
    tid = tenant_factory()
    info = client.ok("GET", f"/api/base/base-login-config/get-login-info?tenantId={tid}")
    assert info["allowRegister"] is False
    answer = client.post(REGISTER, json=form(client, tenantId=tid, phone=unique_phone(), code="123456"))
    assert answer == {"code": 403, "msg": "Registration is not open for this organisation", "data": None}


def test_register_taken_account_keeps_the_code(client, signin_options, user_factory):
    signin_options(allow_register=True)
    taken, _pw, _uid = user_factory()
    phone = unique_phone()
    code = sms_code(client, "/api/base/base-user/register/pre-captcha", phone)
    clash = client.post(REGISTER, json=form(client, account=taken, phone=phone, code=code))
    assert clash == {"code": 409, "msg": "This account is already taken", "data": None}
    assert client.post(REGISTER, json=form(client, phone=phone, code=code))["code"] == 800


def test_register_with_approval(client, admin_client, signin_options):
    signin_options(allow_register=True, register_approval=True)
    phone = unique_phone()
    code = sms_code(client, "/api/base/base-user/register/pre-captcha", phone)
    body = form(client, phone=phone, code=code)
    assert client.ok("POST", REGISTER, json=body)["approval"] == "pending"
    assert client.login(body["account"], "abc123")["code"] == 1001  # not before the approval
    waiting = admin_client.ok("GET", "/api/base/admin/registrations")
    (mine,) = [r for r in waiting if r["account"] == body["account"]]
    assert mine["mobile"] == phone
    admin_client.ok(
        "POST", "/api/base/admin/registrations/decide", json={"userId": mine["userId"], "approve": True}
    )
    assert client.login(body["account"], "abc123")["code"] == 800
    assert not [
        r for r in admin_client.ok("GET", "/api/base/admin/registrations") if r["account"] == body["account"]
    ]


def test_signin_options_are_for_administrators(admin_client, user_client, rows):
    try:
        assert user_client.post("/api/base/admin/signin-config", json={"allowRegister": True})["code"] == 403
        saved = admin_client.ok("POST", "/api/base/admin/signin-config", json={"allowRegister": True})
        assert saved == {
            "allowRegister": True,
            "registerApproval": False,
            "qrcodeEnabled": True,
            "passwordEnabled": True,
            "phoneCodeEnabled": True,
            "emailCodeEnabled": True,
        }
        assert admin_client.ok("GET", "/api/base/admin/signin-config")["allowRegister"] is True
    finally:
        with rows() as db:
            db.execute(delete(SigninConfig).where(SigninConfig.tenant_id == ACME))


def test_reset_password_by_phone_ends_every_session(client, user_factory):
    phone = unique_phone()
    account, old, _uid = user_factory(mobile=phone)
    first = client.signed_in(account, old)
    second = client.signed_in(account, old)
    assert first.get("/api/base/base-user/get-login-user")["code"] == 800
    code = sms_code(client, "/api/base/base-user/reset-pwd/pre-captcha", phone)
    wrong = "000000" if code != "000000" else "111111"
    bad = client.post(
        RESET,
        json={
            "phone": phone,
            "code": wrong,
            "password": client.encrypt("newpass1"),
            "confirmPassword": client.encrypt("newpass1"),
        },
    )
    assert bad == {"code": 1005, "msg": "The verification code is wrong or expired", "data": None}
    assert client.login(account, old)["code"] == 800  # nothing changed
    client.ok(
        "POST",
        RESET,
        json={
            "params": {
                "phone": phone,
                "code": code,
                "password": client.encrypt("newpass1"),
                "confirmPassword": client.encrypt("newpass1"),
            }
        },
    )
    for c in (first, second):
        assert c.get("/api/base/base-user/get-login-user")["code"] == -1
    assert client.login(account, old)["code"] == 1001
    assert client.login(account, "newpass1")["code"] == 800
    reused = client.post(
        RESET,
        json={
            "phone": phone,
            "code": code,
            "password": client.encrypt("other22"),
            "confirmPassword": client.encrypt("other22"),
        },
    )
    assert reused["code"] == 1005


def test_reset_by_email_and_rules(client, user_factory):
    email = f"r{secrets.token_hex(4)}@example.com"
    account, _old, _uid = user_factory(email=email)
    client.ok("GET", f"/api/base/base-user/reset-pwd/pre-email-captcha?email={email}")
    (sent,) = outbox(client, email)
    mismatch = client.post(
        RESET,
        json={
            "resetType": "email",
            "email": email,
            "code": sent["code"],
            "password": client.encrypt("abc123"),
            "confirmPassword": client.encrypt("abc124"),
        },
    )
    assert mismatch == {"code": 400, "msg": "Passwords not match", "data": None}
    short = client.post(
        RESET,
        json={
            "resetType": "email",
            "email": email,
            "code": sent["code"],
            "password": client.encrypt("abc"),
            "confirmPassword": client.encrypt("abc"),
        },
    )
    assert short["msg"] == "Password must be 6 to 12 letters or digits"
    ok = client.post(
        RESET,
        json={
            "resetType": "email",
            "email": email,
            "code": sent["code"],
            "password": client.encrypt("Abc123"),
            "confirmPassword": client.encrypt("Abc123"),
        },
    )
    assert ok["code"] == 800
    assert client.login(account, "abc123")["code"] == 1001  # case-sensitive
    assert client.login(account, "Abc123")["code"] == 800


def test_reset_answers_alike_for_unknown_contacts(client, user_factory):
    known = unique_phone()
    user_factory(mobile=known)
    unknown = unique_phone()
    a = client.get(f"/api/base/base-user/reset-pwd/pre-captcha?phone={known}")
    b = client.get(f"/api/base/base-user/reset-pwd/pre-captcha?phone={unknown}")
    assert a == b == {"code": 800, "msg": "Success", "data": None}
    assert outbox(client, unknown) == []
    assert client.get(f"/api/base/base-user/reset-pwd/pre-captcha?phone={unknown}") == client.get(
        f"/api/base/base-user/reset-pwd/pre-captcha?phone={known}"
    )  # both wait before a resend
    guess = client.post(
        RESET,
        json={
            "phone": unknown,
            "code": "123456",
            "password": client.encrypt("abc123"),
            "confirmPassword": client.encrypt("abc123"),
        },
    )
    assert guess == {"code": 1005, "msg": "The verification code is wrong or expired", "data": None}


def test_a_code_is_for_its_own_account(client, user_factory):
    mine, other = unique_phone(), unique_phone()
    _a, _pw, _uid = user_factory(mobile=mine)
    other_account, other_pw, _ = user_factory(mobile=other)
    code = sms_code(client, "/api/base/base-user/reset-pwd/pre-captcha", mine)
    stolen = client.post(
        RESET,
        json={
            "phone": other,
            "code": code,
            "password": client.encrypt("abc123"),
            "confirmPassword": client.encrypt("abc123"),
        },
    )
    assert stolen["code"] == 1005
    assert client.login(other_account, other_pw)["code"] == 800
    # a sign-in code is not a reset code either
    client.ok("GET", f"/api/base/base-user/pre-captcha?phone={other}")
    login_code = outbox(client, other)[0]["code"]
    assert (
        client.post(
            RESET,
            json={
                "phone": other,
                "code": login_code,
                "password": client.encrypt("abc123"),
                "confirmPassword": client.encrypt("abc123"),
            },
        )["code"]
        == 1005
    )


def test_send_limits_per_number_and_per_address(client, kernel, user_factory):
    phone = unique_phone()
    user_factory(mobile=phone)
    path = "/api/base/base-user/reset-pwd/pre-captcha"
    assert client.get(f"{path}?phone={phone}")["code"] == 800
    wait = client.get(f"{path}?phone={phone}")
    assert wait == {"code": 429, "msg": "A code was just sent, please wait before asking again", "data": None}
    for _ in range(9):
        kernel.cache.delete(f"code-sent:reset:sms:{phone}")  # the minute between two sends is over
        assert client.get(f"{path}?phone={phone}")["code"] == 800
    kernel.cache.delete(f"code-sent:reset:sms:{phone}")
    limit = client.get(f"{path}?phone={phone}")
    assert limit == {"code": 429, "msg": "Too many codes requested, please try again later", "data": None}
    # the address's own limit: many numbers from one address
    refused = None
    for _ in range(40):
        answer = client.get(f"{path}?phone={unique_phone()}")
        if answer["code"] == 429:
            refused = answer
            break
    assert refused == {"code": 429, "msg": "Too many codes requested, please try again later", "data": None}
    kernel.cache.delete("code-ip:reset:testclient")
