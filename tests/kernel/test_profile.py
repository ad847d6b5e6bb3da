"""Profile and account: the current user, authority, password prompts, password change, personal centre."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from PIL import Image

from atrium.sdk.db import utcnow
from atrium.sdk.testing import AtriumClient
from tests.kernel.conftest import ACME, GLOBEX, b64

ME = "/api/base/base-user/get-login-user"
UPDATE_PWD = "/api/base/base-user/update-pwd"
UPDATE_INFO = "/api/base/base-user/update-info"
AVATAR = "/api/base/base-user/upload-avatar"


def test_get_login_user_fields(user_client):
    me = user_client.ok("GET", ME)
    assert me["account"] == "alice" and me["userFullName"] == "Alice Zhang"
    assert me["userHeadImgUrl"] == "defaultImgUrl"
    assert me["tenantId"] == ACME and me["tenantName"] == "Acme"
    assert me["isSuperAdmin"] == 0 and me["isAdmin"] == 0
    assert (me["staffNo"], me["mobile"], me["email"], me["department"]) == (
        "A0100",
        "13800000001",
        "alice@acme.example",
        "财务部",
    )
    for key in ("portalType", "urlLogout", "ssoType", "lang", "defaultSystemCode"):
        assert key in me
    codes = [s["systemCode"] for s in me["systems"]]
    assert codes == ["iotAutho", "assetMgmt", "legacyErp", "dataLab"]
    assert me["systems"][0]["systemName"] == "统一门户"


def test_get_login_user_in_globex_lists_its_systems(client):
    bob = client.signed_in("bob").ok("GET", ME)
    assert bob["tenantId"] == GLOBEX
    assert [s["systemCode"] for s in bob["systems"]] == ["iotAutho", "assetMgmt"]


@pytest.mark.parametrize(
    ("account", "authority"),
    [
        ("admin", "SYS_ADMIN"),
        ("supervisor", "TENANT_ADMIN"),
        ("alice", "CUSTOMER_USER"),
    ],
)
def test_account_authority(client, account, authority):
    info = client.signed_in(account).ok("GET", "/api/account")
    assert info["authority"] == authority
    assert set(info) >= {
        "id",
        "firstName",
        "lastName",
        "phone",
        "email",
        "avatar",
        "customerId",
        "additionalInfo",
    }
    assert info["customerId"] == str(ACME if account != "bob" else GLOBEX)


def test_check_pwd_login_states(person, set_user):
    p = person()
    tips = "Password: 6 to 12 letters, digits or symbols, case-sensitive"  # the demo tenant's strategy
    assert p.client.ok("GET", "/api/base/base-user/check-pwd-login") == {
        "pop": False,
        "optType": 2,
        "reason": "",
        "pwdTips": tips,
    }

    set_user(p.user_id, must_change_pwd=True)
    forced = p.client.ok("GET", "/api/base/base-user/check-pwd-login")
    assert forced == {
        "pop": True,
        "optType": 1,
        "pwdTips": tips,
        "reason": "Please change your password before you continue",
    }

    set_user(p.user_id, must_change_pwd=False, pwd_changed_at=utcnow() - timedelta(days=85, hours=-1))
    warn = p.client.ok("GET", "/api/base/base-user/check-pwd-login")
    assert warn["pop"] is True and warn["optType"] == 2
    assert warn["reason"] == "Your password expires in 5 days. Change it now?"

    set_user(p.user_id, pwd_changed_at=utcnow() - timedelta(days=91))
    expired = p.client.ok("GET", "/api/base/base-user/check-pwd-login")
    assert expired["pop"] is True and expired["optType"] == 1
    assert expired["reason"] == "Your password has expired, please change it"

    set_user(p.user_id, pwd_changed_at=utcnow() - timedelta(days=10))
    assert p.client.ok("GET", "/api/base/base-user/check-pwd-login")["pop"] is False


def test_check_pwd_login_in_chinese(person, set_user):
    p = person(locale="zh-cn")
    set_user(p.user_id, must_change_pwd=True)
    forced = p.client.ok("GET", "/api/base/base-user/check-pwd-login")
    assert forced["reason"] == "首次登录或密码已重置，请修改密码"
    assert forced["pwdTips"] == "密码为 6 到 12 位字母、数字或符号，区分大小写"


def test_find_pwd_msg(user_client, make_client):
    assert user_client.ok("GET", "/api/base/tenant-pwd-strategy/find-pwd-msg") == {
        "pwdTips": "Password: 6 to 12 letters, digits or symbols, case-sensitive",
        "minLength": 6,
        "maxLength": 12,
        "allowSymbols": True,
        "pattern": "^[\\x21-\\x7e]{6,12}$",
    }


RULE = "Password must be 6 to 12 letters, digits or symbols"


def pwd(old: str | None, new: str | None, confirm: str | None) -> dict[str, str]:
    body = {}
    for key, value in (("oldMagic", old), ("magic", new), ("confirmMagic", confirm)):
        if value is not None:
            body[key] = b64(value)
    return body


@pytest.mark.parametrize(
    ("old", "new", "confirm", "msg"),
    [
        (None, "Abc12345", "Abc12345", "Please enter the old password"),
        ("   ", "Abc12345", "Abc12345", "Please enter the old password"),
        ("Passw0rd1", None, None, "Please enter the new password"),
        ("Passw0rd1", "Ab1", "Ab1", "The new password must have at least 6 characters"),
        # the demo tenant's strategy: 6 to 12, symbols allowed (a space is none)
        ("Passw0rd1", "Abc 12345", "Abc 12345", RULE),
        ("Passw0rd1", "Abcdefgh123456", "Abcdefgh123456", RULE),
        ("Passw0rd1", "密码密码密码密码", "密码密码密码密码", RULE),
        ("Passw0rd1", "Abc12345", None, "Please confirm the new password"),
        ("Passw0rd1", "Abc12345", "Abc12346", "Passwords not match"),
        ("Wrong1234", "Abc12345", "Abc12345", "The old password is wrong"),
        ("Passw0rd1", "Passw0rd1", "Passw0rd1", "The new password must differ from the old one"),
    ],
)
def test_update_pwd_messages(person, old, new, confirm, msg):
    p = person()
    answer = p.client.post(UPDATE_PWD, json={"params": pwd(old, new, confirm)})
    assert answer == {"code": 400, "msg": msg, "data": None}
    assert p.client.get(ME)["code"] == 800  # nothing changed: still signed in


def test_update_pwd_messages_in_other_languages(person):
    zh = person(locale="zh-cn")
    assert (
        zh.client.post(UPDATE_PWD, json=pwd("Passw0rd1", "Abc12345", "Abc12346"))["msg"]
        == "两次输入的密码不一致"
    )
    hu = person(locale="hu-hu")
    assert (
        hu.client.post(UPDATE_PWD, json=pwd("Passw0rd1", "Abc12345", "Abc12346"))["msg"]
        == "A jelszavak nem egyeznek"
    )
    tw = person(locale="zh-tw")
    assert (
        tw.client.post(UPDATE_PWD, json=pwd("Passw0rd1", "Abc12345", "Abc12346"))["msg"]
        == "兩次輸入的密碼不一致"
    )


def test_update_pwd_bad_base64(person):
    p = person()
    answer = p.client.post(
        UPDATE_PWD, json={"oldMagic": "%%%", "magic": b64("Abc12345"), "confirmMagic": b64("Abc12345")}
    )
    assert answer == {"code": 400, "msg": "The password encoding is not valid", "data": None}


def test_update_pwd_success(person, client, get_user):
    p = person()
    answer = p.client.post(UPDATE_PWD, json=pwd(f" {p.password} ", "NewPass99", "NewPass99"))
    assert answer["code"] == 800
    assert p.client.get(ME)["code"] == -1
    assert client.login(p.account, p.password)["code"] == 1001
    fresh = client.signed_in(p.account, "NewPass99")
    assert fresh.ok("GET", ME)["userId"] == p.user_id
    assert get_user(p.user_id).must_change_pwd is False


def test_update_pwd_clears_a_forced_change(person, set_user):
    p = person()
    set_user(p.user_id, must_change_pwd=True)
    assert p.client.post(UPDATE_PWD, json=pwd(p.password, "NewPass99", "NewPass99"))["code"] == 800
    again = AtriumClient(p.client.http).signed_in(p.account, "NewPass99")
    assert again.ok("GET", "/api/base/base-user/check-pwd-login")["pop"] is False


def test_update_info(person):
    p = person()
    changed = p.client.ok(
        "POST",
        UPDATE_INFO,
        json={
            "params": {
                "userFullName": "  Zoe Q  ",
                "mobile": "13912345678",
                "email": "zoe@example.com",
                "department": "Ops",
            }
        },
    )
    assert changed == {"changed": ["department", "email", "mobile", "userFullName"]}
    me = p.client.ok("GET", ME)
    assert (me["userFullName"], me["mobile"], me["email"], me["department"]) == (
        "Zoe Q",
        "13912345678",
        "zoe@example.com",
        "Ops",
    )
    same = p.client.post(UPDATE_INFO, json={"userFullName": "Zoe Q", "department": "Ops"})
    assert same == {"code": 400, "msg": "No changes, no need to submit", "data": None}
    empty = p.client.post(UPDATE_INFO, json={})
    assert empty["msg"] == "No changes, no need to submit"
    cleared = p.client.ok("POST", UPDATE_INFO, json={"mobile": ""})
    assert cleared == {"changed": ["mobile"]}
    assert p.client.ok("GET", ME)["mobile"] == ""


@pytest.mark.parametrize(
    ("body", "msg"),
    [
        ({"mobile": "12345"}, "Please enter a correct phone number"),
        ({"email": "zoe@"}, "Please enter a correct email"),
        ({"userFullName": ""}, "userFullName: at least 1 characters"),
        ({"userFullName": "   "}, "userFullName: at least 1 characters"),
        ({"userFullName": "x" * 65}, "userFullName: at most 64 characters"),
        ({"avatarUrl": "https://evil.example/x.png"}, "The avatar address is not valid"),
    ],
)
def test_update_info_refuses_bad_values(person, body, msg):
    p = person()
    assert p.client.post(UPDATE_INFO, json=body) == {"code": 400, "msg": msg, "data": None}
    assert p.client.ok("GET", ME)["userFullName"] == f"User {p.account}"


def test_update_info_in_chinese(person):
    p = person(locale="zh-cn")
    assert p.client.post(UPDATE_INFO, json={})["msg"] == "没有修改，无需提交"
    assert p.client.post(UPDATE_INFO, json={"mobile": "123"})["msg"] == "请输入正确的手机号"


def png_bytes(size: tuple[int, int] = (8, 8)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(buf, format="PNG")
    return buf.getvalue()


def upload(c: AtriumClient, name: str, data: bytes, ctype: str = "image/png") -> dict:
    return c.post(AVATAR, json=None, files={"file": (name, data, ctype)})


def test_upload_avatar_and_read_it_back_in_the_tenant_only(person, user_client):
    p = person()
    answer = upload(p.client, "me.png", png_bytes())
    assert answer["code"] == 800
    url = answer["data"]["url"]
    assert url.startswith(f"/api/base/base-user/avatar/{ACME}/") and url.endswith(".png")
    # the profile shows the new avatar
    assert p.client.ok("GET", ME)["userHeadImgUrl"] == url
    # the owner and another user of Acme read it
    for reader in (p.client, user_client):
        resp = reader.http.get(url, headers=reader.headers)
        assert resp.status_code == 200 and resp.headers["content-type"] == "image/png"
        assert resp.content == png_bytes()
    # a user of Globex gets the same answer as for a file that does not exist
    bob = AtriumClient(user_client.http).signed_in("bob")
    foreign = bob.get(url)
    missing = bob.get(url.rsplit("/", 1)[0] + "/" + "A" * 32 + ".png")
    assert foreign == missing == {"code": 404, "msg": "Not found", "data": None}
    moved = bob.get(url.replace(f"/{ACME}/", f"/{GLOBEX}/"))
    assert moved == missing
    # and anonymous callers are not signed in
    assert AtriumClient(user_client.http).get(url)["code"] == -1


def test_upload_avatar_jpeg(person):
    p = person()
    buf = io.BytesIO()
    Image.new("RGB", (4, 4)).save(buf, format="JPEG")
    answer = upload(p.client, "me.jpg", buf.getvalue(), "image/jpeg")
    assert answer["code"] == 800 and answer["data"]["url"].endswith(".jpg")


def test_upload_avatar_refusals(person, make_client):
    p = person()
    big = png_bytes() + b"\0" * (2 * 1024 * 1024)
    assert upload(p.client, "big.png", big) == {
        "code": 400,
        "msg": "Picture size must not exceed 2MB",
        "data": None,
    }
    fake = upload(p.client, "fake.png", b"MZ\x90\x00 this is not a picture" * 10)
    assert fake == {"code": 400, "msg": "Picture must be JPEG, JPG or PNG", "data": None}
    buf = io.BytesIO()
    Image.new("RGB", (4, 4)).save(buf, format="GIF")
    gif = upload(p.client, "anim.png", buf.getvalue())
    assert gif["msg"] == "Picture must be JPEG, JPG or PNG"
    none = p.client.post(AVATAR, data={"other": "x"})
    assert none == {"code": 400, "msg": "Please upload an avatar", "data": None}
    assert p.client.ok("GET", ME)["userHeadImgUrl"] == "defaultImgUrl"


def test_default_system_set_and_read(person):
    p = person()
    assert p.client.ok("GET", "/api/base/base-system/default-system") == {"systemCode": "iotAutho"}
    assert p.client.ok("GET", "/api/base/base-system/default-system?systemCode=assetMgmt") == {
        "systemCode": "assetMgmt"
    }
    assert p.client.ok("GET", "/api/base/base-system/default-system") == {"systemCode": "assetMgmt"}
    assert p.client.ok("GET", ME)["defaultSystemCode"] == "assetMgmt"
    forbidden = p.client.get("/api/base/base-system/default-system?systemCode=legacyErp")
    assert forbidden == {"code": 1003, "msg": "This system is forbidden", "data": None}
    unknown = p.client.get("/api/base/base-system/default-system?systemCode=nope")
    assert unknown == {"code": 404, "msg": "The system does not exist", "data": None}
    assert p.client.ok("GET", "/api/base/base-system/default-system") == {"systemCode": "assetMgmt"}
    # the next sign-in lands in the default system
    again = AtriumClient(p.client.http).signed_in(p.account, p.password)
    assert again.profile["systemCode"] == "assetMgmt"


def test_update_info_stores_mobile_without_the_country_code(person):
    p = person()
    assert p.client.ok("POST", UPDATE_INFO, json={"mobile": "+8613912345678"}) == {"changed": ["mobile"]}
    assert p.client.ok("GET", ME)["mobile"] == "13912345678"
