"""Shared links: the states of the link page, passwords, locking, tokens on data calls."""

from __future__ import annotations

import time
from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient
from tests.reports.conftest import data


def anonymous(client: AtriumClient, ip: str | None = None) -> AtriumClient:
    other = AtriumClient(client.http)
    if ip:
        other.headers["x-forwarded-for"] = ip
    return other


@pytest.fixture
def link(acme, admin_client) -> dict[str, Any]:
    """A fresh panel (copy of the overview) with a link and no password."""
    bundle = admin_client.ok("GET", f"/api/dyreport/panel/export/{acme.overview}")
    panel = admin_client.ok("POST", "/api/dyreport/panel/import", json={"bundle": bundle})
    lk = admin_client.ok("POST", f"/api/dyreport/api/link/enable/{panel['id']}")
    views = admin_client.ok("GET", f"/api/dyreport/chart/view/listByPanel/{panel['id']}")
    return {**lk, "panelId": panel["id"], "views": {v["name"]: v for v in views}}


def validate(c: AtriumClient, link_id: str, token: str = "") -> dict[str, Any]:
    headers = {"linkToken": token} if token else {}
    return c.ok("POST", "/api/dyreport/api/link/validate", json={"link": link_id}, headers=headers)


def test_link_ids_are_long_random(link, admin_client, acme):
    assert len(link["id"]) >= 32 and link["uri"] == f"/dynamic-report/link/{link['id']}"
    other = admin_client.ok("POST", f"/api/dyreport/api/link/enable/{acme.overview}")
    assert other["id"] != link["id"]
    again = admin_client.ok("POST", f"/api/dyreport/api/link/currentGenerator/{link['panelId']}")
    assert again["id"] == link["id"] and again["valid"] is True
    assert admin_client.ok("POST", f"/api/dyreport/api/link/enable/{link['panelId']}")["id"] == link["id"]


def test_opening_the_share_dialog_makes_nothing_public(admin_client, client, acme):
    """The dialog's first call answers an unshared state and writes no link; only `enable` publishes, and a
    link turned off answers as invalid to everyone."""
    bundle = admin_client.ok("GET", f"/api/dyreport/panel/export/{acme.overview}")
    panel = admin_client.ok("POST", "/api/dyreport/panel/import", json={"bundle": bundle})
    for _ in range(2):
        state = admin_client.ok("POST", f"/api/dyreport/api/link/currentGenerator/{panel['id']}")
        assert state["id"] is None and state["valid"] is False and state["uri"] is None
    lk = admin_client.ok("POST", f"/api/dyreport/api/link/enable/{panel['id']}")
    anon = anonymous(client)
    assert validate(anon, lk["id"])["valid"] is True
    admin_client.ok("POST", "/api/dyreport/api/link/update", json={"id": lk["id"], "valid": False})
    off = validate(anon, lk["id"])
    assert off["valid"] is False and "linkToken" not in off
    assert admin_client.ok("POST", f"/api/dyreport/api/link/currentGenerator/{panel['id']}")["id"] == lk["id"]


def test_open_link_gives_a_token_for_data(link, client, sales):
    anon = anonymous(client)
    resolved = anon.ok("GET", f"/api/dyreport/link/{link['id']}")
    assert resolved["link"] == link["id"]
    state = validate(anon, link["id"])
    assert state["hasPermission"] and state["valid"] and not state["enablePwd"] and not state["expire"]
    assert state["resourceId"] == link["panelId"]
    token = state["linkToken"]
    panel = anon.ok(
        "GET", f"/api/dyreport/api/link/resourceDetail/{link['panelId']}", headers={"linkToken": token}
    )
    assert panel["id"] == link["panelId"] and "view" in panel["privileges"] and panel["panelData"]
    v = link["views"]["总销售额"]
    anon.headers["linkToken"] = token
    answer = data(anon, v)
    assert answer["data"]["series"][0]["data"][0]["value"] == pytest.approx(sum(r["amount"] for r in sales))


def test_data_calls_need_a_token_and_see_only_the_link_panel(link, client, acme):
    anon = anonymous(client)
    v = link["views"]["总销售额"]
    body = anon.post(f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}", json={})
    assert body["code"] == -1
    token = validate(anon, link["id"])["linkToken"]
    anon.headers["linkToken"] = token
    other = acme.view("销售总览", "总销售额")
    body = anon.post(f"/api/dyreport/chart/view/getData/{other['id']}/{other['panelId']}", json={})
    assert body["code"] == 404
    body = anon.post(f"/api/dyreport/chart/view/getData/{other['id']}/{link['panelId']}", json={})
    assert body["code"] == 404
    assert anon.get(f"/api/dyreport/api/link/resourceDetail/{acme.overview}")["code"] == 404
    forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    anon.headers["linkToken"] = forged
    body = anon.post(f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}", json={})
    assert body["code"] == 403
    values = anon.post(
        "/api/dyreport/dataset/field/linkMultFieldValues", json={"fieldIds": [acme.fields["region"]]}
    )
    assert values["code"] == 403
    anon.headers["linkToken"] = token
    values = anon.ok(
        "POST", "/api/dyreport/dataset/field/linkMultFieldValues", json={"fieldIds": [acme.fields["region"]]}
    )
    assert values == ["华东", "华中", "华北", "华南", "西南"]


def test_invalid_and_unknown_links(link, client, admin_client):
    anon = anonymous(client)
    state = validate(anon, "x" * 32)
    assert state == {
        "hasPermission": False,
        "resourceId": None,
        "valid": False,
        "enablePwd": False,
        "passPwd": False,
        "expire": False,
        "locked": False,
    }
    assert anon.get("/api/dyreport/link/nope")["code"] == 404
    token = validate(anon, link["id"])["linkToken"]
    admin_client.ok("POST", "/api/dyreport/api/link/update", json={"id": link["id"], "valid": False})
    state = validate(anon, link["id"])
    assert state["hasPermission"] and state["valid"] is False and "linkToken" not in state
    v = link["views"]["总销售额"]
    body = anon.post(
        f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}", json={}, headers={"linkToken": token}
    )
    assert body["code"] == 403 and body["msg"] == "Invalid link"


def test_expired_link(link, client, admin_client):
    anon = anonymous(client)
    token = validate(anon, link["id"])["linkToken"]
    past = int((time.time() - 60) * 1000)
    admin_client.ok("POST", "/api/dyreport/api/link/update", json={"id": link["id"], "overTime": past})
    state = validate(anon, link["id"])
    assert state["expire"] is True and "linkToken" not in state
    v = link["views"]["总销售额"]
    body = anon.post(
        f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}", json={}, headers={"linkToken": token}
    )
    assert body["code"] == 403 and body["msg"] == "The link has expired"
    future = int((time.time() + 3600) * 1000)
    admin_client.ok("POST", "/api/dyreport/api/link/update", json={"id": link["id"], "overTime": future})
    assert validate(anon, link["id"])["expire"] is False


def test_no_permission_when_the_owner_lost_access(acme, client, user_factory):
    admin = client.signed_in("admin")
    bundle = admin.ok("GET", f"/api/dyreport/panel/export/{acme.overview}")
    panel = admin.ok("POST", "/api/dyreport/panel/import", json={"bundle": bundle})
    account, password, uid = user_factory(1001)
    admin.ok(
        "POST",
        f"/api/dyreport/panel/grants/{panel['id']}",
        json={"grants": [{"subjectType": "user", "subjectId": uid, "manage": True}]},
    )
    owner = client.signed_in(account, password)
    lk = owner.ok("POST", f"/api/dyreport/api/link/enable/{panel['id']}")
    anon = anonymous(client)
    assert validate(anon, lk["id"])["hasPermission"] is True
    admin.ok("POST", f"/api/dyreport/panel/grants/{panel['id']}", json={"grants": []})
    state = validate(anon, lk["id"])
    assert state["hasPermission"] is False and state["resourceId"] is None and "linkToken" not in state


def test_password_flow(link, client, admin_client):
    admin_client.ok(
        "POST", "/api/dyreport/api/link/update", json={"id": link["id"], "enablePwd": True, "pwd": "4821"}
    )
    anon = anonymous(client, "10.1.0.1")
    state = validate(anon, link["id"])
    assert state["enablePwd"] is True and state["passPwd"] is False and "linkToken" not in state
    v = link["views"]["总销售额"]
    assert anon.post(f"/api/dyreport/api/link/resourceDetail/{link['panelId']}")["code"] in (-1, 404)
    wrong = anon.post(
        "/api/dyreport/api/link/validatePwd", json={"password": "1234", "resourceId": link["panelId"]}
    )
    assert wrong["code"] == 800 and not wrong["data"]
    for bad in ("12345", "12a4", "123"):
        body = anon.post("/api/dyreport/api/link/validatePwd", json={"password": bad, "link": link["id"]})
        assert body["code"] == 400 and "exactly four digits" in body["msg"]
    ok = anon.ok("POST", "/api/dyreport/api/link/validatePwd", json={"password": "4821", "link": link["id"]})
    token = ok["linkToken"]
    state = validate(anon, link["id"], token)
    assert state["passPwd"] is True and state["linkToken"] == token
    anon.headers["linkToken"] = token
    assert data(anon, v)["success"] is True
    # changing the password ends the sessions opened with the old one
    admin_client.ok("POST", "/api/dyreport/api/link/update", json={"id": link["id"], "pwd": "9999"})
    body = anon.post(f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}", json={})
    assert body["code"] == 403
    assert validate(anon, link["id"], token)["passPwd"] is False
    tokenless = anonymous(client, "10.1.0.2")
    unpw = tokenless.ok("POST", "/api/dyreport/api/link/validate", json={"link": link["id"]})
    assert "linkToken" not in unpw


def test_rate_limit_and_lock(link, client, admin_client):
    admin_client.ok(
        "POST", "/api/dyreport/api/link/update", json={"id": link["id"], "enablePwd": True, "pwd": "7310"}
    )
    first = anonymous(client, "10.2.0.1")
    for code in ("0000", "0001", "0002", "0003", "0004"):
        assert (
            first.ok(
                "POST", "/api/dyreport/api/link/validatePwd", json={"password": code, "link": link["id"]}
            )
            is False
        )
    limited = first.post("/api/dyreport/api/link/validatePwd", json={"password": "7310", "link": link["id"]})
    assert limited["code"] == 429
    second = anonymous(client, "10.2.0.2")
    for code in ("0005", "0006", "0007", "0008"):
        assert not second.ok(
            "POST", "/api/dyreport/api/link/validatePwd", json={"password": code, "link": link["id"]}
        )
    tenth = second.post("/api/dyreport/api/link/validatePwd", json={"password": "0009", "link": link["id"]})
    assert tenth["code"] == 800 and not tenth["data"]
    third = anonymous(client, "10.2.0.3")
    locked = third.post("/api/dyreport/api/link/validatePwd", json={"password": "7310", "link": link["id"]})
    assert locked["code"] == 403 and "locked" in locked["msg"]
    assert validate(third, link["id"])["locked"] is True
    info = admin_client.ok("POST", f"/api/dyreport/api/link/currentGenerator/{link['panelId']}")
    assert info["locked"] is True and info["failedAttempts"] == 10
    admin_client.ok("POST", "/api/dyreport/api/link/update", json={"id": link["id"], "pwd": "5555"})
    fourth = anonymous(client, "10.2.0.4")
    assert fourth.ok(
        "POST", "/api/dyreport/api/link/validatePwd", json={"password": "5555", "link": link["id"]}
    )


def test_link_management_needs_manage(link, client):
    alice = client.signed_in("alice")
    assert alice.post(f"/api/dyreport/api/link/currentGenerator/{link['panelId']}")["code"] == 404
    assert alice.post(f"/api/dyreport/api/link/enable/{link['panelId']}")["code"] == 404
    assert alice.post("/api/dyreport/api/link/update", json={"id": link["id"], "valid": False})["code"] == 404


def test_links_of_a_tenant_that_disabled_reports_are_refused(link, client, admin_client):
    anon = anonymous(client)
    token = validate(anon, link["id"])["linkToken"]
    v = link["views"]["总销售额"]
    admin_client.ok(
        "POST",
        "/api/base/admin/plugins/state",
        json={"plugin": "reports", "enabled": False, "tenantId": 1001},
    )
    try:
        state = validate(anon, link["id"])
        assert state["valid"] is False and state["hasPermission"] is False and "linkToken" not in state
        body = anon.post(
            f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}",
            json={},
            headers={"linkToken": token},
        )
        assert body["code"] == 403
    finally:
        admin_client.ok(
            "POST",
            "/api/base/admin/plugins/state",
            json={"plugin": "reports", "enabled": True, "tenantId": 1001},
        )
    assert validate(anon, link["id"])["valid"] is True


def test_rotating_a_link_moves_it_to_a_new_address(link, client, admin_client):
    admin_client.ok(
        "POST", "/api/dyreport/api/link/update", json={"id": link["id"], "enablePwd": True, "pwd": "2468"}
    )
    anon = anonymous(client, "10.1.0.9")
    pwd = {"password": "2468", "link": link["id"]}
    opened = anon.ok("POST", "/api/dyreport/api/link/validatePwd", json=pwd)
    token = opened["linkToken"]
    v = link["views"]["总销售额"]
    anon.headers["linkToken"] = token
    assert data(anon, v)["success"] is True

    rotated = admin_client.ok("POST", "/api/dyreport/api/link/rotate", json={"id": link["id"]})
    assert rotated["id"] != link["id"] and len(rotated["id"]) >= 32
    assert rotated["enablePwd"] and rotated["pwd"] == "2468" and rotated["resourceId"] == link["panelId"]
    # the old address and the sessions opened through it stop working; the new one works with the password
    assert anon.post(f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}", json={})["code"] == 403
    old = validate(anonymous(client, "10.1.0.10"), link["id"])
    assert not old["valid"] or not old["hasPermission"]
    assert validate(anonymous(client), rotated["id"])["enablePwd"] is True
    again = admin_client.ok("POST", f"/api/dyreport/api/link/currentGenerator/{link['panelId']}")
    assert again["id"] == rotated["id"]
    alice = client.signed_in("alice")
    assert alice.post("/api/dyreport/api/link/rotate", json={"id": rotated["id"]})["code"] == 404
