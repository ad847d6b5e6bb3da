"""A tenant may require a password on every shared link: turning a link on without one, or turning a link's
password off, is refused with a clear message; only the tenant's administrators switch the rule."""

from __future__ import annotations

from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient

LINK = "/api/dyreport/api/link"
SETTINGS = "/api/dyreport/settings"
REQUIRED = (
    "Your organisation requires a password on every shared link: set a four-digit password to turn the "
    "link on, and keep it"
)


@pytest.fixture
def tenant(client: AtriumClient, tenant_factory: Any, user_factory: Any) -> dict[str, Any]:
    """A tenant of its own (the rule is the tenant's), its administrator, a member and a panel."""
    tid = tenant_factory()
    account, password, _ = user_factory(tid, supervisor=True)
    boss = client.signed_in(account, password)
    account, password, _ = user_factory(tid)
    member = client.signed_in(account, password)
    panel = boss.ok("POST", "/api/dyreport/panel/save", json={"name": "Shared", "panelData": []})
    return {"id": tid, "boss": boss, "member": member, "panel": panel["id"]}


def test_only_administrators_read_and_switch_the_rule(tenant: dict[str, Any]) -> None:
    boss, member = tenant["boss"], tenant["member"]
    assert boss.ok("GET", SETTINGS) == {"requireLinkPassword": False}
    assert member.get(SETTINGS)["code"] == 403
    assert member.post(SETTINGS, json={"requireLinkPassword": True})["code"] == 403
    assert boss.ok("POST", SETTINGS, json={"requireLinkPassword": True}) == {"requireLinkPassword": True}
    assert boss.ok("GET", SETTINGS) == {"requireLinkPassword": True}
    state = boss.ok("POST", f"{LINK}/currentGenerator/{tenant['panel']}")
    assert state["pwdRequired"] is True and state["canRequirePwd"] is True


def test_the_rule_is_the_tenants_own(tenant: dict[str, Any], admin_client: AtriumClient) -> None:
    tenant["boss"].ok("POST", SETTINGS, json={"requireLinkPassword": True})
    assert admin_client.ok("GET", SETTINGS) == {"requireLinkPassword": False}  # Acme's is unchanged


def test_a_link_is_turned_on_only_with_a_password(tenant: dict[str, Any]) -> None:
    boss, panel = tenant["boss"], tenant["panel"]
    boss.ok("POST", SETTINGS, json={"requireLinkPassword": True})
    refused = boss.post(f"{LINK}/enable/{panel}")
    assert refused["code"] == 400 and refused["msg"] == REQUIRED
    state = boss.ok("POST", f"{LINK}/currentGenerator/{panel}")
    assert state["id"] is None and state["valid"] is False  # nothing was made public
    assert boss.post(f"{LINK}/enable/{panel}", json={"pwd": "12a4"})["code"] == 400
    link = boss.ok("POST", f"{LINK}/enable/{panel}", json={"pwd": "4321"})
    assert link["valid"] is True and link["enablePwd"] is True and link["pwd"] == "4321"

    off = boss.post(f"{LINK}/update", json={"id": link["id"], "enablePwd": False})
    assert off["code"] == 400 and off["msg"] == REQUIRED
    assert boss.ok("POST", f"{LINK}/currentGenerator/{panel}")["enablePwd"] is True
    changed = boss.ok("POST", f"{LINK}/update", json={"id": link["id"], "pwd": "1111"})
    assert changed["enablePwd"] is True and changed["pwd"] == "1111"
    # turning the link off and on again keeps its password: allowed without a new one
    boss.ok("POST", f"{LINK}/update", json={"id": link["id"], "valid": False})
    assert boss.ok("POST", f"{LINK}/enable/{panel}")["valid"] is True
    boss.ok("POST", f"{LINK}/update", json={"id": link["id"], "valid": False})
    assert boss.ok("POST", f"{LINK}/update", json={"id": link["id"], "valid": True})["valid"] is True


def test_a_link_without_password_made_before_the_rule(tenant: dict[str, Any]) -> None:
    """A link on without a password before the rule may be turned off, but not on again without one."""
    boss, panel = tenant["boss"], tenant["panel"]
    link = boss.ok("POST", f"{LINK}/enable/{panel}")
    assert link["enablePwd"] is False and link["pwdRequired"] is False
    boss.ok("POST", SETTINGS, json={"requireLinkPassword": True})
    boss.ok("POST", f"{LINK}/update", json={"id": link["id"], "valid": False})
    for refused in (
        boss.post(f"{LINK}/update", json={"id": link["id"], "valid": True}),
        boss.post(f"{LINK}/enable/{panel}"),
    ):
        assert refused["code"] == 400 and refused["msg"] == REQUIRED
    on = boss.ok(
        "POST", f"{LINK}/update", json={"id": link["id"], "valid": True, "enablePwd": True, "pwd": "2468"}
    )
    assert on["valid"] is True and on["enablePwd"] is True
    boss.ok("POST", SETTINGS, json={"requireLinkPassword": False})
    assert (
        boss.ok("POST", f"{LINK}/update", json={"id": link["id"], "enablePwd": False})["enablePwd"] is False
    )


def test_the_refusal_is_translated(tenant: dict[str, Any]) -> None:
    boss, panel = tenant["boss"], tenant["panel"]
    boss.ok("POST", SETTINGS, json={"requireLinkPassword": True})
    boss.headers["language"] = "zh#cn"
    try:
        refused = boss.post(f"{LINK}/enable/{panel}")
    finally:
        boss.headers["language"] = "en#us"
    assert refused["code"] == 400 and refused["msg"].startswith("您的组织要求每个分享链接都设置密码")
