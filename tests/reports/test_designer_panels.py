"""Panel drafts, publishing, versions, rollback, the sharing subjects and the designer's menus."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient
from tests.reports.test_designer_sources import globex

P = "/api/dyreport/panel"


def view_component(view_id: str, left: int = 0) -> dict[str, Any]:
    return {
        "id": f"c-{view_id[:6]}",
        "type": "view",
        "component": "user-view",
        "propValue": {"viewId": view_id},
        "style": {"left": left, "top": 0, "width": 400, "height": 300},
    }


@pytest.fixture
def panel(admin_client) -> Iterator[dict[str, Any]]:
    """A new, empty panel as the designer starts one."""
    made: dict[str, Any] = admin_client.ok("POST", f"{P}/save", json={"name": "designer", "panelData": []})
    yield made
    admin_client.post(f"{P}/delete/{made['id']}")


def new_view(client: AtriumClient, acme: Any, panel_id: str, name: str) -> dict[str, Any]:
    view: dict[str, Any] = client.ok(
        "POST",
        "/api/dyreport/chart/view/save",
        json={
            "panelId": panel_id,
            "tableId": acme.dataset_id,
            "name": name,
            "type": "bar",
            "render": "echarts",
            "xaxis": [{"id": acme.fields["region"]}],
            "yaxis": [{"id": acme.fields["amount"], "summary": "sum"}],
        },
    )
    return view


def listed(client: AtriumClient, panel_id: str) -> dict[str, Any]:
    return next(p for p in client.ok("GET", f"{P}/list") if p["id"] == panel_id)


def test_draft_publish_rollback(admin_client, client, acme, panel):
    pid = panel["id"]
    assert {k: listed(admin_client, pid)[k] for k in ("publishedVersion", "hasUnpublished")} == {
        "publishedVersion": 0,
        "hasUnpublished": False,
    }
    fresh = admin_client.ok("GET", f"{P}/draft/{pid}")
    assert fresh["panelData"] == "[]" and fresh["draftUpdateTime"] is None and fresh["publishedVersion"] == 0
    admin_client.ok("POST", f"{P}/grants/{pid}", json={"grants": [{"subjectType": "user", "subjectId": 3}]})
    alice = client.signed_in("alice")
    assert alice.ok("GET", f"{P}/findOne/{pid}")["panelData"] == "[]"

    v1 = new_view(admin_client, acme, pid, "first view")
    draft = admin_client.ok(
        "POST",
        f"{P}/saveDraft",
        json={
            "id": pid,
            "name": "Sales v1",
            "panelData": [view_component(v1["id"])],
            "panelStyle": {"width": 1600},
        },
    )
    assert draft["name"] == "Sales v1" and draft["hasUnpublished"] is True and draft["draftUpdateTime"] > 0
    assert json.loads(draft["panelData"])[0]["propValue"]["viewId"] == v1["id"]
    assert json.loads(draft["panelStyle"]) == {"width": 1600}
    # viewers still see the live panel only
    for c in (admin_client, alice):
        live = c.ok("GET", f"{P}/findOne/{pid}")
        assert live["panelData"] == "[]" and live["name"] == "designer"
    assert listed(admin_client, pid)["hasUnpublished"] is True

    first = admin_client.ok("POST", f"{P}/publish", json={"id": pid, "note": "first"})
    assert first["version"] == 1 and first["publishTime"] > 0
    seen = alice.ok("GET", f"{P}/findOne/{pid}")
    assert seen["name"] == "Sales v1" and json.loads(seen["panelData"])[0]["propValue"]["viewId"] == v1["id"]
    assert {k: listed(admin_client, pid)[k] for k in ("publishedVersion", "hasUnpublished")} == {
        "publishedVersion": 1,
        "hasUnpublished": False,
    }

    v2 = new_view(admin_client, acme, pid, "second view")
    admin_client.ok(
        "POST",
        f"{P}/saveDraft",
        json={
            "id": pid,
            "panelData": json.dumps([view_component(v1["id"]), view_component(v2["id"], 400)]),
            "panelStyle": "{}",
        },
    )
    assert admin_client.ok("POST", f"{P}/publish", json={"id": pid, "note": "second"})["version"] == 2
    assert len(json.loads(alice.ok("GET", f"{P}/findOne/{pid}")["panelData"])) == 2

    history = admin_client.ok("GET", f"{P}/versions/{pid}")
    assert [(h["version"], h["note"], h["name"]) for h in history] == [
        (2, "second", "Sales v1"),
        (1, "first", "Sales v1"),
    ]
    assert history[0]["publishedBy"] == history[1]["publishedBy"] is not None
    assert history[0]["publishedByName"] and history[0]["publishTime"] >= history[1]["publishTime"]

    # the first view is deleted and renamed ones changed: rolling back to 1 restores it as it was
    admin_client.ok("POST", f"/api/dyreport/chart/view/delete/{v1['id']}")
    admin_client.ok("POST", "/api/dyreport/chart/view/save", json={**v2, "name": "renamed"})
    restored = admin_client.ok("POST", f"{P}/rollback", json={"id": pid, "version": 1})
    assert restored["id"] == pid and restored["publishedVersion"] == 3 and restored["hasUnpublished"] is False
    assert [c["propValue"]["viewId"] for c in json.loads(restored["panelData"])] == [v1["id"]]
    views = {v["id"]: v for v in admin_client.ok("GET", f"/api/dyreport/chart/view/listByPanel/{pid}")}
    assert (
        views[v1["id"]]["name"] == "first view" and views[v1["id"]]["xaxis"][0]["id"] == acme.fields["region"]
    )
    data = admin_client.ok("POST", f"/api/dyreport/chart/view/getData/{v1['id']}/{pid}", json={})
    assert len(data["data"]["x"]) >= 3
    assert (
        json.loads(alice.ok("GET", f"{P}/findOne/{pid}")["panelData"])[0]["propValue"]["viewId"] == v1["id"]
    )
    history = admin_client.ok("GET", f"{P}/versions/{pid}")
    assert [h["version"] for h in history] == [3, 2, 1] and history[0]["note"] == "Rolled back to version 1"
    missing = admin_client.post(f"{P}/rollback", json={"id": pid, "version": 9})
    assert missing["code"] == 404 and missing["msg"] == "Version 9 not found"


def test_publish_refuses_deleted_views_and_save_clears_the_draft(admin_client, acme, panel):
    pid = panel["id"]
    view = new_view(admin_client, acme, pid, "short-lived")
    admin_client.ok("POST", f"{P}/saveDraft", json={"id": pid, "panelData": [view_component(view["id"])]})
    admin_client.ok("POST", f"/api/dyreport/chart/view/delete/{view['id']}")
    refused = admin_client.post(f"{P}/publish", json={"id": pid})
    assert refused["code"] == 400 and view["id"] in refused["msg"] and "do not exist" in refused["msg"]
    assert admin_client.ok("GET", f"{P}/versions/{pid}") == []
    assert admin_client.ok("GET", f"{P}/findOne/{pid}")["panelData"] == "[]"

    admin_client.ok(
        "POST", f"{P}/save", json={"id": pid, "name": "direct", "panelData": [], "panelStyle": {}}
    )
    after = admin_client.ok("GET", f"{P}/draft/{pid}")
    assert after["hasUnpublished"] is False and after["draftUpdateTime"] is None and after["name"] == "direct"


@pytest.mark.parametrize(
    "panel_data,message",
    [
        ({"not": "a list"}, "Invalid panel data"),
        ("[not json", "Invalid panel data"),
        ([{"style": {}}], "Invalid component"),
        ([{"type": "v-text", "style": "wide"}], "Invalid component"),
        ([{"type": "v-text", "style": {"width": -5}}], "width must be a number"),
        ([{"type": "v-text", "style": {"height": "tall"}}], "height must be a number"),
        ([view_component("0" * 32)], "do not exist or belong to another panel"),
    ],
)
def test_bad_drafts_are_refused(admin_client, panel, panel_data, message):
    body = admin_client.post(f"{P}/saveDraft", json={"id": panel["id"], "panelData": panel_data})
    assert body["code"] == 400 and message in body["msg"], body
    assert admin_client.ok("GET", f"{P}/draft/{panel['id']}")["draftUpdateTime"] is None


def test_views_of_other_panels_are_refused(admin_client, acme, panel):
    foreign = acme.view("销售总览", "总销售额")
    body = admin_client.post(
        f"{P}/saveDraft", json={"id": panel["id"], "panelData": [view_component(foreign["id"])]}
    )
    assert body["code"] == 400 and foreign["id"] in body["msg"]


def test_designer_calls_refused_for_users_and_other_tenants(admin_client, client, acme, panel):
    pid = panel["id"]
    admin_client.ok("POST", f"{P}/grants/{pid}", json={"grants": [{"subjectType": "user", "subjectId": 3}]})
    admin_client.ok("POST", f"{P}/publish", json={"id": pid})
    alice = client.signed_in("alice")
    other = globex(client)
    calls = (
        ("GET", f"{P}/draft/{pid}", None),
        ("POST", f"{P}/saveDraft", {"id": pid, "panelData": []}),
        ("POST", f"{P}/publish", {"id": pid}),
        ("GET", f"{P}/versions/{pid}", None),
        ("POST", f"{P}/rollback", {"id": pid, "version": 1}),
    )
    for method, url, payload in calls:
        mine = alice.post(url, json=payload) if method == "POST" else alice.get(url)
        assert mine["code"] == 403 and "manage" in mine["msg"], (url, mine)
        theirs = other.post(url, json=payload) if method == "POST" else other.get(url)
        assert theirs["code"] == 404 and theirs["msg"] == "Panel not found", (url, theirs)
    assert admin_client.ok("GET", f"{P}/versions/{pid}")[0]["version"] == 1


def test_subjects_for_the_privileges_dialog(admin_client, client, user_factory):
    account, _, uid = user_factory(1001)
    everyone = admin_client.ok("GET", f"{P}/subjects")
    assert 0 < len(everyone["users"]) <= 50 and len(everyone["roles"]) <= 50
    assert set(everyone["users"][0]) == {"id", "name", "account"} and set(everyone["roles"][0]) == {
        "id",
        "name",
    }
    found = admin_client.ok("GET", f"{P}/subjects?keyword=ALI")
    assert [u["account"] for u in found["users"]] == ["alice"]
    assert all("ali" in r["name"].casefold() for r in found["roles"])
    assert admin_client.ok("GET", f"{P}/subjects?keyword=zzz-nobody") == {"users": [], "roles": []}
    mine = admin_client.ok("GET", f"{P}/subjects?keyword={account}")["users"]
    assert [(u["id"], u["account"]) for u in mine] == [(uid, account)]
    assert globex(client).ok("GET", f"{P}/subjects?keyword={account}")["users"] == []
    assert client.signed_in("alice").get(f"{P}/subjects")["code"] == 403


def test_designer_menus(admin_client, client):
    def find(items: list[dict[str, Any]], code: str) -> dict[str, Any] | None:
        for item in items:
            if item["menuCode"] == code:
                return item
            hit = find(item["children"], code)
            if hit is not None:
                return hit
        return None

    menus = admin_client.ok("GET", "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho")["menus"]
    parent = find(menus, "dynamic-report")
    assert parent is not None
    children = {c["menuCode"]: c for c in parent["children"]}
    assert children["dynamic-report-datasource"]["menuUrl"] == "/dynamic-report/datasource"
    assert children["dynamic-report-dataset"]["menuUrl"] == "/dynamic-report/dataset"
    assert children["dynamic-report-datasource"]["menuEnName"]["en-us"] == "Data sources"
    assert children["dynamic-report-dataset"]["menuEnName"]["hu-hu"] == "Adatkészletek"
    alice_menus = client.signed_in("alice").ok(
        "GET", "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho"
    )
    assert find(alice_menus["menus"], "dynamic-report-datasource") is None
    # the report list stays a page of its own for everyone, beside the administrators' designer pages
    assert children["dynamic-report-panels"]["menuUrl"] == "/dynamic-report"
    assert find(alice_menus["menus"], "dynamic-report-panels")["menuUrl"] == "/dynamic-report"
