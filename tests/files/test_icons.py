"""Icon uploads (SVG sanitised, size and type rules) and custom icons with their permission matrix."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient

from .util import BASE, ICONS, picture, switch_tenant, upload, uploaded

EVIL_SVG = b"""<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"
     onload="alert(1)">
  <script>alert(document.cookie)</script>
  <foreignObject><iframe src="https://evil.example/"/></foreignObject>
  <image href="https://evil.example/track.png"/>
  <use xlink:href="https://evil.example/sprite.svg#a"/>
  <use href="#dot"/>
  <a href="javascript:alert(1)"><rect width="5" height="5"/></a>
  <circle id="dot" cx="5" cy="5" r="4" fill="url(https://evil.example/x)" onclick="alert(2)"
          style="fill: red; background: url(http://evil.example/y)"/>
  <path d="M0 0L10 10" stroke="blue" stroke-width="1"/>
</svg>"""

ENTITY_SVG = b"""<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
<svg xmlns="http://www.w3.org/2000/svg"><text>&lol2;</text></svg>"""


def make_icon(c: AtriumClient, name: str = "Icon") -> dict[str, Any]:
    f = uploaded(c, "icon.png", picture(), "image/png", "icon")
    data: dict[str, Any] = c.ok(
        "POST",
        f"{ICONS}/save",
        json={
            "params": {
                "iconName": name,
                "iconUrl": f["filePath"],
                "iconFormat": "image/png",
                "fileId": f["fileId"],
                "tenantId": 1002,
            }
        },
    )
    return data


def test_svg_icons_are_sanitised(user_client: AtriumClient) -> None:
    f = uploaded(user_client, "evil.svg", EVIL_SVG, "image/svg+xml", "icon")
    assert f["contentType"] == "image/svg+xml"
    resp = user_client.http.get(f["filePath"], headers=user_client.headers)
    body = resp.content.decode()
    for bad in (
        "script",
        "onload",
        "onclick",
        "foreignObject",
        "iframe",
        "evil.example",
        "javascript:",
        "<image",
    ):
        assert bad not in body, bad
    assert "<path" in body and 'href="#dot"' in body and "<circle" in body
    assert resp.headers["x-content-type-options"] == "nosniff"
    assert "sandbox" in resp.headers["content-security-policy"]


@pytest.mark.parametrize("payload", [ENTITY_SVG, b"<html><body>not svg</body></html>", b"<svg", b"\xff\xfe"])
def test_svg_with_entities_or_not_svg_is_refused(user_client: AtriumClient, payload: bytes) -> None:
    body = upload(user_client, "x.svg", payload, "image/svg+xml", "icon")
    assert body["code"] == 400 and body["msg"] == "Only image files can be uploaded"


def test_icon_rules(user_client: AtriumClient) -> None:
    refused = upload(user_client, "a.txt", b"text", "text/plain", "icon")
    assert refused["msg"] == "Only image files can be uploaded"
    assert upload(user_client, "a.gif", picture("GIF"), "image/gif", "icon")["code"] == 800
    big = picture() + b"\0" * (1024 * 1024)
    assert upload(user_client, "big.png", big, "image/png", "icon") == {
        "code": 400,
        "msg": "The image cannot exceed 1MB",
        "data": None,
    }


@pytest.fixture
def author(client: AtriumClient) -> AtriumClient:
    """The demo author carol, whose role holds the `icon:manage` button in Acme."""
    return client.signed_in("carol")


def test_save_requires_name_and_file(author: AtriumClient) -> None:
    f = uploaded(author, "i.png", picture(), "image/png", "icon")
    body = author.post(f"{ICONS}/save", json={"iconName": "  ", "fileId": f["fileId"]})
    assert body["code"] == 400 and body["msg"] == "Please enter the icon name"
    body = author.post(f"{ICONS}/save", json={"iconName": "x"})
    assert body["code"] == 400 and body["msg"] == "Please upload the icon file"
    doc = uploaded(author, "doc.txt", b"x", "text/plain")
    body = author.post(f"{ICONS}/save", json={"iconName": "x", "fileId": doc["fileId"]})
    assert body["code"] == 400 and body["msg"] == "Please upload the icon file"


def test_icons_need_the_manage_button(user_client: AtriumClient, author: AtriumClient) -> None:
    """alice, a viewer without `icon:manage`, may upload a picture but not make, change or delete icons."""
    f = uploaded(user_client, "i.png", picture(), "image/png", "icon")
    body = user_client.post(f"{ICONS}/save", json={"iconName": "x", "fileId": f["fileId"]})
    assert body["code"] == 403 and body["msg"] == "You do not have permission for this action"
    icon = make_icon(author, "Carol's own")
    assert user_client.post(f"{ICONS}/update", json={"ciId": icon["ciId"], "iconName": "y"})["code"] == 403
    assert user_client.get(f"{ICONS}/delete", params={"ciId": icon["ciId"]})["code"] == 403
    listed = {i["ciId"]: i for i in user_client.ok("GET", f"{ICONS}/get-all")}
    assert listed[icon["ciId"]]["canEdit"] is False
    author.ok("GET", f"{ICONS}/delete", params={"ciId": icon["ciId"]})


def test_save_update_delete_round_trip(author: AtriumClient) -> None:
    user_client = author
    icon = make_icon(user_client, "Mine")
    assert icon["ciId"] and icon["tenantId"] == 1001 and icon["iconFormat"] == "image/png"
    assert icon["createdBy"] == user_client.profile["userId"]
    listed = {i["ciId"]: i for i in user_client.ok("GET", f"{ICONS}/get-all")}
    assert listed[icon["ciId"]]["iconName"] == "Mine" and listed[icon["ciId"]]["canEdit"] is True
    square = b'<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>'
    svg = uploaded(user_client, "s.svg", square, "image/svg+xml", "icon")
    updated = user_client.ok(
        "POST", f"{ICONS}/update", json={"ciId": icon["ciId"], "iconName": "Renamed", "fileId": svg["fileId"]}
    )
    assert updated["iconName"] == "Renamed" and updated["iconFormat"] == "image/svg+xml"
    assert user_client.get(icon["iconUrl"])["code"] == 404  # the replaced picture is gone
    via_save = user_client.ok(
        "POST", f"{ICONS}/save", json={"ciId": icon["ciId"], "iconName": "Again", "iconUrl": svg["filePath"]}
    )
    assert via_save["ciId"] == icon["ciId"] and via_save["iconName"] == "Again"
    assert user_client.get(f"{BASE}/delete-id", params={"id": svg["fileId"]})["code"] == 409
    user_client.ok("GET", f"{ICONS}/delete", params={"ciId": icon["ciId"]})
    assert icon["ciId"] not in {i["ciId"] for i in user_client.ok("GET", f"{ICONS}/get-all")}
    assert user_client.get(f"{ICONS}/delete", params={"ciId": icon["ciId"]})["code"] == 404
    assert user_client.get(svg["filePath"])["code"] == 404


def test_demo_icons_for_acme(user_client: AtriumClient) -> None:
    names = {i["iconName"] for i in user_client.ok("GET", f"{ICONS}/get-all")}
    assert {"Acme dot", "Acme tile", "Acme star"} <= names


# -- permission matrix ------------------------------------------------------------------------------------
# rows: who acts; columns: whose icon. Expected code of update and delete.


@pytest.fixture(scope="module")
def actors(atrium_app: Any) -> dict[str, AtriumClient]:
    """Signed-in clients, once per module (signing in costs a password hash each time)."""
    from sqlalchemy import select

    from atrium.kernel import accounts
    from atrium.kernel.models import Role
    from atrium.sdk.context import tenant_scope, unscoped

    client = AtriumClient(atrium_app.state.http)
    with unscoped(), atrium_app.state.kernel.db() as db:
        author = db.execute(select(Role.id).where(Role.tenant_id == 1001, Role.code == "author")).scalar_one()
        second = accounts.create_user(f"icons-{secrets.token_hex(3)}", "Carol@123", "Second author", 1001)
        second_id, second_account = second.id, second.account
        with tenant_scope(1001):
            accounts.assign_role(atrium_app.state.kernel, second_id, author)
        boss = accounts.create_user(
            f"gx-{secrets.token_hex(3)}", "Carol@123", "Globex boss", 1002, supervisor=True
        )
        boss_account = boss.account
    return {
        "alice": client.signed_in("alice"),
        "carol": client.signed_in("carol"),
        "author2": client.signed_in(second_account, "Carol@123"),
        "supervisor": client.signed_in("supervisor"),
        "admin": client.signed_in("admin"),
        "platform": switch_tenant(client.signed_in("admin"), -999),
        "globex": client.signed_in(boss_account, "Carol@123"),
    }


@pytest.fixture
def icons(actors: dict[str, AtriumClient]) -> dict[str, Any]:
    return {
        "clients": actors,
        "icons": {
            who: make_icon(actors[who], f"{who}'s") for who in ("carol", "supervisor", "platform", "globex")
        },
    }


MATRIX = [
    # actor, owner of the icon, expected code; carol and author2 hold `icon:manage`, alice does not
    ("carol", "carol", 800),  # a holder of the button changes their own icon
    ("author2", "carol", 403),  # not another holder's
    ("alice", "carol", 403),  # nor anyone without the button
    ("carol", "supervisor", 403),
    ("supervisor", "carol", 800),  # an admin of the icon's tenant
    ("admin", "carol", 800),  # the super admin signed into Acme
    ("supervisor", "platform", 403),  # a tenant admin may not change the platform's icons
    ("carol", "platform", 403),
    ("platform", "platform", 800),  # an admin signed into the platform tenant
    ("globex", "carol", 404),  # another tenant's icon is not found
    ("carol", "globex", 404),
    ("supervisor", "globex", 404),
]


@pytest.mark.parametrize(("actor", "owner", "code"), MATRIX)
def test_permission_matrix_update(icons: dict[str, Any], actor: str, owner: str, code: int) -> None:
    c = icons["clients"][actor]
    icon = icons["icons"][owner]
    body = c.post(f"{ICONS}/update", json={"ciId": icon["ciId"], "iconName": "changed"})
    assert body["code"] == code, body
    if code == 404:
        assert body == c.post(f"{ICONS}/update", json={"ciId": 99999999, "iconName": "changed"})


@pytest.mark.parametrize(("actor", "owner", "code"), MATRIX)
def test_permission_matrix_delete(icons: dict[str, Any], actor: str, owner: str, code: int) -> None:
    c = icons["clients"][actor]
    icon = icons["icons"][owner]
    body = c.get(f"{ICONS}/delete", params={"ciId": icon["ciId"]})
    assert body["code"] == code, body
    if code == 404:
        assert body == c.get(f"{ICONS}/delete", params={"ciId": 99999999})


def test_get_all_shows_can_edit_per_the_rule(icons: dict[str, Any]) -> None:
    seen = {i["ciId"]: i for i in icons["clients"]["author2"].ok("GET", f"{ICONS}/get-all")}
    mine = icons["icons"]
    assert seen[mine["carol"]["ciId"]]["canEdit"] is False
    platform_icon = seen[mine["platform"]["ciId"]]
    assert platform_icon["canEdit"] is False and platform_icon["tenantId"] == -999
    assert mine["globex"]["ciId"] not in seen
    own = {i["ciId"]: i for i in icons["clients"]["carol"].ok("GET", f"{ICONS}/get-all")}
    assert own[mine["carol"]["ciId"]]["canEdit"] is True
    viewer = {i["ciId"]: i for i in icons["clients"]["alice"].ok("GET", f"{ICONS}/get-all")}
    assert viewer[mine["carol"]["ciId"]]["canEdit"] is False
    sup = {i["ciId"]: i for i in icons["clients"]["supervisor"].ok("GET", f"{ICONS}/get-all")}
    assert sup[mine["carol"]["ciId"]]["canEdit"] is True
    # the platform icon's picture is served to Acme users through its signed address
    resp = icons["clients"]["author2"].http.get(seen[mine["platform"]["ciId"]]["iconSrc"])
    assert resp.status_code == 200 and resp.headers["content-type"] == "image/png"
