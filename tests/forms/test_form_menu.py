"""A published form on a menu of its own: asked for by a tenant administrator in the publish call, granted to
every role of the tenant (a plain member finds it in her menu tree), one menu however often it is published,
refused (with nothing made) for an author who is not an administrator."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient
from tests.forms.conftest import DESIGN, save_design

MENUS = "/api/base/base-rolemenu/find-user-menus"


def flat(tree: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for m in tree:
        yield m
        yield from flat(m.get("children") or [])


def user_menus(c: AtriumClient) -> list[dict[str, Any]]:
    return list(flat(c.ok("GET", MENUS, params={"systemCode": "iotAutho"})["menus"]))


def publish(c: AtriumClient, form_id: str, menu: dict[str, Any] | None) -> dict[str, Any]:
    return c.post(f"{DESIGN}/publish", json={"formId": form_id, "menu": menu})


def drop_menu(supervisor: AtriumClient, admin: AtriumClient, menu_id: str) -> None:
    """Ungrant and delete the menu, so the shared demo tenant's menu trees stay as they were."""
    for role in supervisor.ok("GET", "/api/base/admin/roles"):
        held = [m for m in role["menuIds"] if m != menu_id]
        if len(held) != len(role["menuIds"]):
            body = {"roleId": role["roleId"], "menuIds": [int(m) for m in held]}
            supervisor.ok("POST", "/api/base/admin/roles/menus", json=body)
    admin.ok("POST", "/api/base/admin/menus/delete", json={"menuId": int(menu_id)})


@pytest.fixture
def supervisor(client: AtriumClient) -> AtriumClient:
    return client.signed_in("supervisor")


def test_an_administrator_puts_a_form_on_a_menu_members_see(
    supervisor: AtriumClient, user_client: AtriumClient, admin_client: AtriumClient
) -> None:
    code = f"menuform{secrets.token_hex(3)}"
    options = supervisor.ok("GET", f"{DESIGN}/menu-options")
    system = next(s for s in options["systems"] if s["systemCode"] == "iotAutho")
    parent = next(m for m in system["menus"] if m["title"] in ("Workbench", "工作台"))
    saved = save_design(supervisor, code)
    assert saved["code"] == 800, saved
    form_id = saved["data"]["formId"]
    wish = {"systemCode": "iotAutho", "parentId": parent["value"]}
    out = publish(supervisor, form_id, wish)
    assert out["code"] == 800, out
    menu = out["data"]["menu"]
    try:
        assert menu["parentId"] == parent["value"] and menu["menuName"] == "Expense"
        assert out["data"]["publishedVersion"] == 1
        mine = [m for m in user_menus(user_client) if m["menuCode"] == menu["menuCode"]]
        assert len(mine) == 1 and mine[0]["menuId"] == menu["menuId"]
        assert mine[0]["parentId"] == parent["value"] and mine[0]["menuUrl"] == "dynamic-form/render"
        assert mine[0]["meta"]["params"]["diy_code"] == code
        assert mine[0]["meta"]["enTitle"]["en-us"] == "Expense"
        assert user_client.ok("GET", f"/api/form/render/{code}")["code"] == code

        # publishing again (a new version, another name) keeps the one menu
        again = save_design(supervisor, code, formId=int(form_id))
        second = publish(supervisor, form_id, {**wish, "name": "Expenses 2"})
        assert second["code"] == 800 and second["data"]["menu"]["menuId"] == menu["menuId"], second
        assert again["data"]["version"] == 2
        mine = [m for m in user_menus(user_client) if m["menuCode"] == menu["menuCode"]]
        assert [m["menuName"] for m in mine] == ["Expenses 2"]
    finally:
        drop_menu(supervisor, admin_client, menu["menuId"])


def test_a_wrong_system_or_parent_leaves_the_form_unpublished(supervisor: AtriumClient) -> None:
    code = f"menuform{secrets.token_hex(3)}"
    form_id = save_design(supervisor, code)["data"]["formId"]
    bad = publish(supervisor, form_id, {"systemCode": "noSuchSystem"})
    assert bad["code"] == 404 and "noSuchSystem" in bad["msg"], bad
    bad = publish(supervisor, form_id, {"systemCode": "iotAutho", "parentId": 987654321})
    assert bad["code"] == 404, bad
    detail = supervisor.ok("GET", f"{DESIGN}/detail", params={"formId": form_id})
    assert detail["publishedVersion"] is None, "a refused menu undoes the publish"


def test_an_author_who_is_no_administrator_gets_403_and_no_menu(
    client: AtriumClient, supervisor: AtriumClient
) -> None:
    carol = client.signed_in("carol")
    code = f"menuform{secrets.token_hex(3)}"
    saved = save_design(carol, code)
    assert saved["code"] == 800, saved
    assert carol.get(f"{DESIGN}/menu-options")["code"] == 403
    refused = publish(carol, saved["data"]["formId"], {"systemCode": "iotAutho"})
    assert refused["code"] == 403 and "administrators" in refused["msg"], refused
    zh = carol.post(
        f"{DESIGN}/publish",
        json={"formId": saved["data"]["formId"], "menu": {"systemCode": "iotAutho"}},
        headers={"language": "zh#cn"},
    )
    assert zh["code"] == 403 and zh["msg"] == "只有租户管理员才能为表单添加菜单", zh
    assert not [m for m in user_menus(supervisor) if m["menuCode"].endswith(f"-{code}")]
    detail = supervisor.ok("GET", f"{DESIGN}/detail", params={"formId": saved["data"]["formId"]})
    assert detail["publishedVersion"] is None
    assert publish(carol, saved["data"]["formId"], None)["code"] == 800, "publishing alone stays hers"
