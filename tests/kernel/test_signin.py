"""Sign-in: password encryption, answers, messages, captcha, lockout, phone and e-mail codes."""

from __future__ import annotations

import base64
import secrets
from datetime import timedelta
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from atrium.kernel.identity.crypto import seal
from atrium.sdk.db import utcnow
from atrium.sdk.testing import encrypt_password
from tests.kernel.conftest import ACME, unique_phone

LOGIN = "/api/base/base-user/login"
FAILED = {"code": 1001, "msg": "Account or password is wrong", "data": None}


def login_body(c: Any, account: str, password: str, **extra: Any) -> dict[str, Any]:
    return c.post(LOGIN, json={"params": {"account": account, "password": c.encrypt(password), **extra}})


def test_encryption_key_is_p256_and_nonces_differ(client):
    first = client.ok("POST", "/api/base/base-user/get-enryption")
    second = client.ok("POST", "/api/base/base-user/get-enryption")
    key = serialization.load_pem_public_key(first["publicKey"].encode())
    assert isinstance(key, ec.EllipticCurvePublicKey) and key.curve.name == "secp256r1"
    assert first["algorithm"] == "ECDH-P256-HKDF-SHA256-A256GCM"
    assert first["publicKey"].startswith("-----BEGIN PUBLIC KEY-----")
    assert first["expiresIn"] == 120
    assert first["nonce"] != second["nonce"] and len(first["nonce"]) >= 16


def test_replayed_ciphertext_is_refused(client):
    ciphertext = client.encrypt("Alice@123")
    body = {"params": {"account": "alice", "password": ciphertext}}
    assert client.post(LOGIN, json=body)["code"] == 800
    again = client.post(LOGIN, json=body)
    assert again == {"code": 400, "msg": "The sign-in form expired, please try again", "data": None}


def test_unknown_nonce_is_refused(client):
    enc = client.ok("POST", "/api/base/base-user/get-enryption")
    forged = encrypt_password(enc["publicKey"], secrets.token_urlsafe(18), "Alice@123")
    answer = client.post(LOGIN, json={"account": "alice", "password": forged})
    assert answer["code"] == 400
    assert answer["msg"] == "The sign-in form expired, please try again"


def test_expired_nonce_is_refused(client, kernel):
    enc = client.ok("POST", "/api/base/base-user/get-enryption")
    key = f"nonce:{enc['nonce']}"
    assert kernel.cache.get(key) is not None
    kernel.cache.delete(key)  # what the cache does when the nonce's 120 s are over
    ciphertext = encrypt_password(enc["publicKey"], enc["nonce"], "Alice@123")
    answer = client.post(LOGIN, json={"account": "alice", "password": ciphertext})
    assert answer["msg"] == "The sign-in form expired, please try again"


def test_nonce_is_stored_with_its_lifetime(client, kernel):
    enc = client.ok("POST", "/api/base/base-user/get-enryption")
    key = f"nonce:{enc['nonce']}"
    if hasattr(kernel.cache, "client"):
        ttl_ms = kernel.cache.client.pttl(kernel.cache.prefix + key)
        assert 0 < ttl_ms <= 120_000
    else:
        import time

        expires, _value = kernel.cache._data[key]
        assert 0 < expires - time.monotonic() <= 120


@pytest.mark.parametrize("garbage", ["not base64!", base64.b64encode(b"short").decode(), ""])
def test_garbage_ciphertext_gives_a_message(client, garbage):
    answer = client.post(LOGIN, json={"account": "alice", "password": garbage or " "})
    assert answer["code"] == 400
    assert answer["msg"] == "The encrypted password is not valid"


def test_a_changed_or_foreign_ciphertext_gives_a_message(client):
    """A byte changed on the way, or a password sealed to another key, opens to nothing: refused, with the
    same message as garbage, and the nonce is not spent on it."""
    enc = client.ok("POST", "/api/base/base-user/get-enryption")
    good = base64.b64decode(encrypt_password(enc["publicKey"], enc["nonce"], "Alice@123"))
    changed = base64.b64encode(good[:-1] + bytes([good[-1] ^ 1])).decode()
    other = ec.generate_private_key(ec.SECP256R1()).public_key()
    foreign = base64.b64encode(seal(other, f"{enc['nonce']}:Alice@123".encode())).decode()
    for ciphertext in (changed, foreign):
        answer = client.post(LOGIN, json={"account": "alice", "password": ciphertext})
        assert answer == {"code": 400, "msg": "The encrypted password is not valid", "data": None}
    signed = client.post(LOGIN, json={"account": "alice", "password": base64.b64encode(good).decode()})
    assert signed["code"] == 800


def test_login_answer_and_headers(client):
    resp_body = login_body(client, "alice", "Alice@123")
    assert resp_body["code"] == 800 and resp_body["msg"] == "Success"
    data = resp_body["data"]
    assert data["isSuperAdmin"] == 0 and data["isAdmin"] == 0
    assert data["tenantId"] == ACME and data["tenantName"] == "Acme"
    assert data["userFullName"] == "Alice Zhang"
    assert isinstance(data["userId"], int) and data["userId"] > 0
    assert data["systemCode"] == "iotAutho"
    headers = client.last.headers
    assert headers["authorization"] == data["authorization"]
    assert headers["refresh-authorization"] == data["refresh-authorization"]
    assert data["authorization"] != data["refresh-authorization"]


def test_admin_and_supervisor_flags(client):
    admin = login_body(client, "admin", "Admin@123")["data"]
    assert admin["isSuperAdmin"] == 1 and admin["isAdmin"] == 2 and admin["tenantId"] == ACME
    sup = login_body(client, "supervisor", "Super@123")["data"]
    assert sup["isSuperAdmin"] == 0 and sup["isAdmin"] == 2 and sup["tenantId"] == ACME
    bob = login_body(client, "bob", "Bob@12345")["data"]
    assert bob["isSuperAdmin"] == 0 and bob["isAdmin"] == 0 and bob["tenantName"] == "Globex"


def test_account_and_password_are_trimmed(client):
    assert login_body(client, "  alice \t", " Alice@123 ")["code"] == 800


@pytest.mark.parametrize(
    ("locale", "account_msg", "password_msg"),
    [
        ("en-us", "Account cannot be empty", "Password cannot be empty"),
        ("zh-cn", "账号不能为空", "密码不能为空"),
        ("hu-hu", None, None),
    ],
)
def test_empty_account_or_password(make_client, locale, account_msg, password_msg):
    c = make_client(locale)
    no_account = c.post(LOGIN, json={"params": {"account": "   ", "password": c.encrypt("x")}})
    no_password = c.post(LOGIN, json={"params": {"account": "alice", "password": ""}})
    assert no_account["code"] == 400 and no_password["code"] == 400
    if account_msg:
        assert no_account["msg"] == account_msg
        assert no_password["msg"] == password_msg
    else:  # another language: its own words, not the English or Chinese ones
        assert no_account["msg"] not in ("Account cannot be empty", "账号不能为空", "")
        assert no_password["msg"] not in ("Password cannot be empty", "密码不能为空", "")


def test_wrong_unknown_locked_disabled_answer_alike(client, user_factory, set_user):
    account, password, uid = user_factory()
    wrong = login_body(client, account, "Wrong12345")
    unknown = login_body(client, f"nobody{secrets.token_hex(4)}", "Wrong12345")
    locked_acc, locked_pw, locked_id = user_factory()
    set_user(locked_id, locked_until=utcnow() + timedelta(minutes=10), last_failed_at=utcnow())
    locked = login_body(client, locked_acc, locked_pw)
    off_acc, off_pw, off_id = user_factory()
    set_user(off_id, enabled=False)
    disabled = login_body(client, off_acc, off_pw)
    assert wrong == unknown == locked == disabled == FAILED
    assert login_body(client, account, password)["code"] == 800


def test_failed_login_in_chinese(make_client):
    c = make_client("zh-cn")
    answer = login_body(c, f"nobody{secrets.token_hex(4)}", "Wrong12345")
    assert answer == {"code": 1001, "msg": "账号或密码错误", "data": None}


def test_captcha_required_after_three_failures(client, user_factory, kernel):
    account, password, _uid = user_factory()
    for _ in range(3):
        assert login_body(client, account, "Wrong12345") == FAILED
    needs = login_body(client, account, password)
    assert needs == {"code": 1002, "msg": "Please enter the graphic captcha", "data": None}

    cap = client.ok("GET", "/api/base/base-user/captcha")
    assert cap["image"].startswith("data:image/png;base64,")
    png = base64.b64decode(cap["image"].split(",", 1)[1])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    wrong = login_body(client, account, password, captchaId=cap["captchaId"], captchaCode="0000")
    assert wrong == {"code": 1002, "msg": "The graphic captcha is wrong or expired", "data": None}
    # a right captcha lets the password be checked, once: reusing it is refused
    cap = client.ok("GET", "/api/base/base-user/captcha")
    code = kernel.cache.get(f"captcha:{cap['captchaId']}")
    assert len(code) == 4
    assert login_body(client, account, "Wrong12345", captchaId=cap["captchaId"], captchaCode=code) == FAILED
    reused = login_body(client, account, password, captchaId=cap["captchaId"], captchaCode=code)
    assert reused["code"] == 1002 and reused["msg"] == "The graphic captcha is wrong or expired"
    cap = client.ok("GET", "/api/base/base-user/captcha")
    code = kernel.cache.get(f"captcha:{cap['captchaId']}")
    ok = login_body(client, account, password, captchaId=cap["captchaId"], captchaCode=code.lower())
    assert ok["code"] == 800
    # the success cleared the counter: no captcha asked, just the wrong password
    assert login_body(client, account, "Wrong12345") == FAILED
    # unknown accounts are asked for a captcha the same way
    ghost = f"ghost{secrets.token_hex(4)}"
    for _ in range(3):
        login_body(client, ghost, "Wrong12345")
    assert login_body(client, ghost, "Wrong12345")["code"] == 1002


def test_lockout_after_thirty_failures_escalates_and_resets_after_12_hours(
    client, user_factory, set_user, get_user, kernel
):
    account, password, uid = user_factory()
    set_user(uid, failed_count=29, last_failed_at=utcnow())

    def fail_once() -> None:
        kernel.cache.delete(f"login-fail:{account}")  # keep the captcha out of this test
        assert login_body(client, account, "Wrong12345") == FAILED

    waits = []
    for step in range(4):
        fail_once()
        user = get_user(uid)
        assert user.locked_until is not None and user.lock_level == step + 1
        waits.append((user.locked_until - user.last_failed_at).total_seconds() / 60)
        kernel.cache.delete(f"login-fail:{account}")
        assert login_body(client, account, password) == FAILED  # locked: even the right password
        set_user(uid, locked_until=utcnow() - timedelta(seconds=1))  # the wait is over
    assert waits == [1, 2, 4, 8]

    # the wait is over: the right password signs in and clears the counters
    kernel.cache.delete(f"login-fail:{account}")
    assert login_body(client, account, password)["code"] == 800
    user = get_user(uid)
    assert (user.failed_count, user.lock_level, user.locked_until) == (0, 0, None)

    # locked again, then 12 quiet hours: the lock no longer holds
    set_user(
        uid,
        failed_count=35,
        lock_level=3,
        locked_until=utcnow() + timedelta(minutes=15),
        last_failed_at=utcnow() - timedelta(hours=12, minutes=1),
    )
    assert login_body(client, account, password)["code"] == 800

    # after 12 quiet hours a failure counts from one again
    set_user(
        uid, failed_count=35, lock_level=3, locked_until=None, last_failed_at=utcnow() - timedelta(hours=13)
    )
    fail_once()
    user = get_user(uid)
    assert (user.failed_count, user.lock_level, user.locked_until) == (1, 0, None)


def outbox(client: Any, target: str) -> list[dict[str, str]]:
    return [m for m in client.ok("GET", "/api/base/dev/outbox") if m["target"] == target]


def test_phone_code_login(client, user_factory):
    phone = unique_phone()
    _account, _pw, uid = user_factory(mobile=phone)
    assert client.get(f"/api/base/base-user/pre-captcha?phone={phone}")["code"] == 800
    sent = outbox(client, phone)
    assert len(sent) == 1 and sent[0]["channel"] == "sms" and len(sent[0]["code"]) == 6
    code = sent[0]["code"]
    wrong = "000000" if code != "000000" else "111111"
    bad = client.post(LOGIN, json={"loginType": "phone", "phone": phone, "code": wrong})
    assert bad == {"code": 1005, "msg": "The verification code is wrong or expired", "data": None}
    ok = client.post(LOGIN, json={"params": {"loginType": "phone", "phone": phone, "code": code}})
    assert ok["code"] == 800 and ok["data"]["userId"] == uid and ok["data"]["authorization"]
    again = client.post(LOGIN, json={"loginType": "phone", "phone": phone, "code": code})
    assert again["code"] == 1005  # a code signs in once


def test_phone_code_resend_too_soon_and_unknown_numbers(client):
    phone = unique_phone()  # nobody has it: same answer, nothing sent
    assert client.get(f"/api/base/base-user/pre-captcha?phone={phone}")["code"] == 800
    assert outbox(client, phone) == []
    again = client.get(f"/api/base/base-user/pre-captcha?phone={phone}")
    assert again["code"] == 429
    assert again["msg"] == "A code was just sent, please wait before asking again"


@pytest.mark.parametrize(
    ("payload", "msg"),
    [
        ({"phone": "", "code": "123456"}, "Phone number cannot be empty"),
        ({"phone": "12345", "code": "123456"}, "Please enter a correct phone number"),
        ({"phone": "13800000001", "code": " "}, "Verification code cannot be empty"),
    ],
)
def test_phone_login_messages(client, payload, msg):
    answer = client.post(LOGIN, json={"loginType": "phone", **payload})
    assert answer == {"code": 400, "msg": msg, "data": None}


def test_sms_for_other_regions(client, make_client):
    answer = client.get("/api/base/base-user/pre-captcha?phone=%2B14155550100")
    assert answer == {"code": 400, "msg": "SMS codes for other regions are not supported", "data": None}
    zh = make_client("zh-cn").get("/api/base/base-user/pre-captcha?phone=4155550100")
    assert zh["msg"] == "暂不支持其他地区的短信验证码"
    empty = client.get("/api/base/base-user/pre-captcha?phone=")
    assert empty["msg"] == "Phone number cannot be empty"


def test_email_code_login(client, user_factory):
    email = f"u{secrets.token_hex(4)}@example.com"
    _account, _pw, uid = user_factory(email=email)
    assert client.get(f"/api/base/base-user/pre-email-captcha?email={email}")["code"] == 800
    (sent,) = outbox(client, email)
    assert sent["channel"] == "email"
    assert client.post(LOGIN, json={"loginType": "email", "email": email, "code": "99999x"})["code"] == 1005
    ok = client.post(LOGIN, json={"loginType": "email", "email": f" {email} ", "code": sent["code"]})
    assert ok["code"] == 800 and ok["data"]["userId"] == uid
    assert client.get(f"/api/base/base-user/pre-email-captcha?email={email}")["code"] == 429


@pytest.mark.parametrize(
    ("email", "msg"),
    [
        ("", "Email cannot be empty"),
        ("not-an-email", "Please enter a correct email"),
    ],
)
def test_email_messages(client, email, msg):
    assert client.get(f"/api/base/base-user/pre-email-captcha?email={email}")["msg"] == msg
    answer = client.post(LOGIN, json={"loginType": "email", "email": email, "code": "123456"})
    assert answer == {"code": 400, "msg": msg, "data": None}


def test_login_type_must_be_known(client):
    answer = client.post(LOGIN, json={"loginType": "fax", "account": "alice"})
    assert answer["code"] == 400
    assert answer["msg"].startswith("loginType: must be one of")


def test_public_sign_in_options(client):
    types = client.ok("GET", "/api/base/base-sso-oauth-config/get-login-type")
    assert {"type": "account"} in types and {"type": "phone"} in types
    info = client.ok("GET", "/api/base/base-login-config/get-login-info?domainName=acme.localhost")
    assert info["tenantId"] == ACME and info["tenantName"] == "Acme"
    none = client.ok("GET", "/api/base/base-login-config/get-login-info?domainName=nowhere.example")
    assert none["tenantId"] is None


def test_phone_with_country_code_is_the_same_number(client, user_factory):
    phone = unique_phone()
    _account, _pw, uid = user_factory(mobile=phone)
    assert client.get(f"/api/base/base-user/pre-captcha?phone=%2B86{phone}")["code"] == 800
    (sent,) = outbox(client, phone)
    ok = client.post(
        LOGIN, json={"loginType": "phone", "phone": f"+86 {phone}".replace(" ", ""), "code": sent["code"]}
    )
    assert ok["code"] == 800 and ok["data"]["userId"] == uid
    # the resend wait is per number, whichever way it is written
    assert client.get(f"/api/base/base-user/pre-captcha?phone=86{phone}")["code"] == 429


def test_five_wrong_codes_spend_the_code_and_a_new_one_works(client, user_factory, kernel):
    phone = unique_phone()
    _account, _pw, uid = user_factory(mobile=phone)
    client.ok("GET", f"/api/base/base-user/pre-captcha?phone={phone}")
    (first,) = outbox(client, phone)
    wrong = "000000" if first["code"] != "000000" else "111111"
    for _ in range(5):
        assert client.post(LOGIN, json={"loginType": "phone", "phone": phone, "code": wrong})["code"] == 1005
    spent = client.post(LOGIN, json={"loginType": "phone", "phone": phone, "code": first["code"]})
    assert spent["code"] == 1005  # guessing stops after five tries, even with the right code
    kernel.cache.delete(f"code-sent:sms:{phone}")  # the minute before a new code is over
    client.ok("GET", f"/api/base/base-user/pre-captcha?phone={phone}")
    second = outbox(client, phone)[0]
    ok = client.post(LOGIN, json={"loginType": "phone", "phone": phone, "code": second["code"]})
    assert ok["code"] == 800 and ok["data"]["userId"] == uid


def test_a_hash_made_with_heavier_parameters_is_replaced_at_sign_in(client, user_factory, set_user, get_user):
    from argon2 import PasswordHasher

    account, password, uid = user_factory()
    heavy = PasswordHasher(time_cost=3, memory_cost=64 * 1024, parallelism=4).hash(password)
    set_user(uid, password_hash=heavy)
    assert login_body(client, account, "Wrong12345") == FAILED
    assert get_user(uid).password_hash == heavy
    assert login_body(client, account, password)["code"] == 800
    renewed = get_user(uid).password_hash
    assert renewed.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert login_body(client, account, password)["code"] == 800


def test_sign_in_needs_no_second_database_connection(client, kernel, monkeypatch):
    """A sign-in's hooks read plugin enablement through the sign-in's own session: a burst of sign-ins
    can't hold the whole pool while each waits for a second connection."""
    import threading

    from atrium.kernel.enablement import SPACE

    engine = type(kernel.engine)
    real_connect = engine.connect
    taken: list[int] = []

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        taken.append(threading.get_ident())
        return real_connect(self, *args, **kwargs)

    client.encrypt("Alice@123")  # the key pair made before counting
    kernel.local.drop(SPACE)
    with monkeypatch.context() as patched:
        patched.setattr(engine, "connect", counted)
        body = client.login("alice", "Alice@123")
    assert body["code"] == 800, body
    assert kernel.local.get(SPACE, ACME) is not None
    per_thread = {t: taken.count(t) for t in taken}
    assert max(per_thread.values()) == 1, per_thread


def test_a_hash_made_with_other_parameters_is_replaced_on_sign_in(client, user_factory, set_user, get_user):
    """A password stored by argon2's defaults (64 MiB, 3 passes, 4 lanes) still signs in, and is stored again
    with today's parameters; one stored with today's is left as it is."""
    from argon2 import PasswordHasher

    account, password, user_id = user_factory(ACME)
    set_user(user_id, password_hash=PasswordHasher().hash(password))
    assert login_body(client, account, password)["code"] == 800
    replaced = get_user(user_id).password_hash
    assert replaced.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert login_body(client, account, password)["code"] == 800
    assert get_user(user_id).password_hash == replaced
