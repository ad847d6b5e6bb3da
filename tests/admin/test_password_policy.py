"""One password policy everywhere: the tenant's own strategy is the rule that the sign-in page's register and
reset forms show (get-login-info), that registration, reset, change and the administrators' new-user and
reset forms check, and that the demo's accounts satisfy (their tenants allow symbols, and say so)."""

from __future__ import annotations

import base64
from typing import Any

from tests.admin.conftest import A

INFO = "/api/base/base-login-config/get-login-info"


def b64(text: str) -> str:
    """The change-password form's encoding of its fields."""
    return base64.b64encode(text.encode()).decode()


def rule_of(client: Any, tenant_id: int) -> dict[str, Any]:
    return client.ok("GET", f"{INFO}?tenantId={tenant_id}")["passwordRule"]


def test_a_tenant_without_a_strategy_has_the_specs_rule(client, tenant_factory) -> None:
    rule = rule_of(client, tenant_factory())
    assert rule["allowSymbols"] is False and (rule["minLength"], rule["maxLength"]) == (6, 12)
    assert rule["pwdTips"] == "Password: 6 to 12 letters or digits, case-sensitive"


def test_the_demo_tenants_allow_symbols_and_say_so(client) -> None:
    for tenant_id in (1001, 1002):
        rule = rule_of(client, tenant_id)
        assert rule["allowSymbols"] is True
        assert rule["pwdTips"] == "Password: 6 to 12 letters, digits or symbols, case-sensitive"
    # Globex takes sign-ups, so that the flow can be seen on its sign-in page; Acme does not
    assert client.ok("GET", f"{INFO}?tenantId=1002")["allowRegister"] is True
    assert client.ok("GET", f"{INFO}?tenantId=1001")["allowRegister"] is False
    zh = client.http.get(f"{INFO}?tenantId=1001", headers={"language": "zh#cn"}).json()["data"]
    assert zh["passwordRule"]["pwdTips"] == "密码为 6 到 12 位字母、数字或符号，区分大小写"


def test_the_administrators_forms_follow_the_strategy(boss) -> None:
    tid = boss.tenant_id
    refused = boss.post(
        f"{A}/users",
        json={"account": "walka1", "password": "Walka@1234", "userFullName": "W", "tenantId": tid},
    )
    assert refused == {"code": 400, "msg": "Password must be 6 to 12 letters or digits", "data": None}
    boss.ok("POST", f"{A}/password-strategy", json={"minLength": 6, "maxLength": 12, "allowSymbols": True})
    assert boss.ok("GET", f"{A}/password-strategy")["allowSymbols"] is True
    made = boss.ok(
        "POST",
        f"{A}/users",
        json={"account": "walka1", "password": "Walka@1234", "userFullName": "W", "tenantId": tid},
    )
    too_long = boss.post(f"{A}/users/password", json={"userId": made["userId"], "password": "Walka@1234567"})
    assert too_long == {
        "code": 400,
        "msg": "Password must be 6 to 12 letters, digits or symbols",
        "data": None,
    }
    boss.ok("POST", f"{A}/users/password", json={"userId": made["userId"], "password": "New#pass1"})


def test_changing_ones_own_password_follows_the_strategy(client, boss, user_factory) -> None:
    account, password, _ = user_factory(boss.tenant_id)
    me = client.signed_in(account, password)
    body = {"oldMagic": b64(password), "magic": b64("Sym@bol12"), "confirmMagic": b64("Sym@bol12")}
    refused = me.post("/api/base/base-user/update-pwd", json=body)
    assert refused["msg"] == "Password must be 6 to 12 letters or digits"
    tips = me.ok("GET", "/api/base/tenant-pwd-strategy/find-pwd-msg")
    assert tips["allowSymbols"] is False and tips["pattern"] == "^[A-Za-z0-9]{6,12}$"
