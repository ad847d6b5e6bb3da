"""Country dial codes and phone numbers of other regions."""

from __future__ import annotations

import pytest


def test_dial_codes_cover_every_country_in_five_languages(client):
    codes = client.ok("GET", "/api/base/base-user/dial-codes")
    assert len(codes) > 200
    assert codes[0] == {
        "code": "+86",
        "value": "CN",
        "names": {"en-us": "China", "zh-cn": "中国", "zh-tw": "中國", "vi-vn": "Trung Quốc", "hu-hu": "Kína"},
        "sms": True,
    }
    by_region = {c["value"]: c for c in codes}
    assert by_region["HU"]["code"] == "+36" and by_region["HU"]["names"]["hu-hu"] == "Magyarország"
    assert by_region["VN"]["names"]["vi-vn"] == "Việt Nam" and by_region["VN"]["sms"] is False
    assert by_region["US"]["code"] == by_region["CA"]["code"] == "+1"
    assert all(
        c["code"].startswith("+") and set(c["names"]) == {"en-us", "zh-cn", "zh-tw", "vi-vn", "hu-hu"}
        for c in codes
    )


@pytest.mark.parametrize(
    ("phone", "msg"),
    [
        ("+14155550100", "SMS codes for other regions are not supported"),
        ("+36201234567", "SMS codes for other regions are not supported"),
        ("+1415", "Please enter a correct phone number"),
        ("+999123", "Please enter a correct phone number"),
    ],
)
def test_foreign_numbers(client, phone, msg):
    quoted = phone.replace("+", "%2B")
    for path in ("pre-captcha", "register/pre-captcha", "reset-pwd/pre-captcha"):
        assert client.get(f"/api/base/base-user/{path}?phone={quoted}") == {
            "code": 400,
            "msg": msg,
            "data": None,
        }
    login = client.post(
        "/api/base/base-user/login", json={"loginType": "phone", "phone": phone, "code": "123456"}
    )
    assert login == {"code": 400, "msg": msg, "data": None}


def test_foreign_number_message_in_traditional_chinese(make_client):
    answer = make_client("zh-tw").get("/api/base/base-user/pre-captcha?phone=%2B84912345678")
    assert answer["msg"] == "暫不支持其他地區的短信驗證碼"
