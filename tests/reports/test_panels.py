"""Panels: CRUD, privileges, export/import, export data, demo content, tenant isolation."""

from __future__ import annotations

import json

import pytest

from atrium.plugins.reports.demo import content
from atrium.plugins.reports.engine import viewdef
from tests.reports import reference as ref
from tests.reports.conftest import Demo, data


def test_demo_content_covers_every_kind(acme, admin_client):
    kinds = {(v["render"], v["type"]) for v in acme.views.values()}
    for kind in viewdef.ECHARTS_KINDS:
        assert ("echarts", kind) in kinds, kind
    for kind in viewdef.ANTV_KINDS:
        assert ("antv", kind) in kinds, kind
    assert {"table-info", "table-normal", "table-pivot", "text", "label"} <= {k for _, k in kinds}
    overview = admin_client.ok("GET", f"/api/dyreport/panel/findOne/{acme.overview}")
    components = json.loads(overview["panelData"])
    types = {c["type"] for c in components}
    assert {"view", "custom", "custom-button", "de-tabs", "picture", "de-show-date", "v-text"} <= types
    views_on_panel = [v for v in acme.views.values() if v["panelId"] == acme.overview]
    assert len(views_on_panel) == 12
    style = json.loads(overview["panelStyle"])
    assert style["panel"]["backgroundType"] in ("image", "color") and "customAttr" in style["chart"]


def test_panel_crud_and_privileges(acme, admin_client, client, user_factory):
    panel = admin_client.ok(
        "POST",
        "/api/dyreport/panel/save",
        json={"name": "Mine", "panelData": [], "panelStyle": {"width": 1200}},
    )
    assert panel["privileges"] == "view,export,manage"
    f = acme.fields
    view = admin_client.ok(
        "POST",
        "/api/dyreport/chart/view/save",
        json={
            "panelId": panel["id"],
            "tableId": acme.dataset_id,
            "name": "By region",
            "type": "bar",
            "render": "antv",
            "xaxis": [{"id": f["region"]}],
            "yaxis": [{"id": f["amount"], "summary": "sum"}],
        },
    )
    comp = [{"id": "c1", "type": "view", "propValue": {"viewId": view["id"]}, "style": {"left": 0, "top": 0}}]
    admin_client.ok(
        "POST",
        "/api/dyreport/panel/save",
        json={"id": panel["id"], "name": "Mine 2", "panelData": comp, "panelStyle": {}},
    )
    bad = admin_client.post(
        "/api/dyreport/panel/save",
        json={
            "id": panel["id"],
            "name": "x",
            "panelData": [{"type": "view", "propValue": {"viewId": "nope"}}],
        },
    )
    assert bad["code"] == 400
    account, password, uid = user_factory(1001)
    user = client.signed_in(account, password)
    assert all(p["id"] != panel["id"] for p in user.ok("GET", "/api/dyreport/panel/list"))
    assert user.post(f"/api/dyreport/chart/view/getData/{view['id']}/{panel['id']}", json={})["code"] == 404
    admin_client.ok(
        "POST",
        f"/api/dyreport/panel/grants/{panel['id']}",
        json={"grants": [{"subjectType": "user", "subjectId": uid, "view": True}]},
    )
    listed = {p["id"]: p for p in user.ok("GET", "/api/dyreport/panel/list")}
    assert listed[panel["id"]]["privileges"] == "view"
    assert data(user, {"id": view["id"], "panelId": panel["id"]})["success"]
    assert user.post(f"/api/dyreport/panel/export/{panel['id']}")["code"] in (403, 404)
    assert user.get(f"/api/dyreport/panel/export/{panel['id']}")["code"] == 403
    export = user.post(
        "/api/dyreport/chart/view/exportData", json={"viewId": view["id"], "panelId": panel["id"]}
    )
    assert export["code"] == 403
    assert user.post("/api/dyreport/panel/save", json={"name": "new"})["code"] == 403
    assert user.post("/api/dyreport/chart/view/save", json={**view, "name": "hijack"})["code"] == 403
    admin_client.ok("POST", f"/api/dyreport/panel/delete/{panel['id']}")
    assert admin_client.get(f"/api/dyreport/panel/findOne/{panel['id']}")["code"] == 404


def test_export_data_pages(acme, admin_client, sales):
    details = acme.view("表格与文本", "明细表")
    f = acme.fields
    req = {"filter": [{"fieldId": f["city"], "value": ["厦门"]}]}
    total = sum(1 for r in sales if r["city"] == "厦门")
    first = admin_client.ok(
        "POST",
        "/api/dyreport/chart/view/exportData",
        json={
            "viewId": details["id"],
            "panelId": details["panelId"],
            "requestList": req,
            "pageIndex": 1,
            "pageRows": 1000,
        },
    )
    assert first["total"] == total and len(first["rows"]) == min(1000, total)
    assert [c["name"] for c in first["columns"]] == ["下单日期", "城市", "产品", "数量", "销售额"]
    assert {r[1] for r in first["rows"]} == {"厦门"}
    summary = acme.view("销售总览", "省份汇总")
    page = admin_client.ok(
        "POST",
        "/api/dyreport/chart/view/exportData",
        json={"viewId": summary["id"], "panelId": summary["panelId"], "pageIndex": 1, "pageRows": 5},
    )
    sums = ref.group(sales, lambda r: r["province"], "amount", "sum")
    assert page["total"] == len(sums) and len(page["rows"]) == 5
    for row in page["rows"]:
        assert row[2] == pytest.approx(sums[row[0]])


def test_export_import_round_trip(acme, admin_client, sales):
    bundle = admin_client.ok("GET", f"/api/dyreport/panel/export/{acme.overview}")
    assert len(bundle["views"]) == 12 and bundle["datasets"] and bundle["linkages"] and bundle["jumps"]
    assert "url" not in json.dumps(bundle["datasets"])
    copy = admin_client.ok("POST", "/api/dyreport/panel/import", json={"bundle": bundle})
    assert copy["id"] != acme.overview
    views = admin_client.ok("GET", f"/api/dyreport/chart/view/listByPanel/{copy['id']}")
    assert len(views) == 12 and not {v["id"] for v in views} & {v["id"] for v in bundle["views"]}
    comps = json.loads(copy["panelData"])
    placed = {c["propValue"]["viewId"] for c in comps if c["type"] == "view"}
    assert placed <= {v["id"] for v in views}
    region = next(v for v in views if v["name"] == "大区销售额（可钻取）")
    answer = data(admin_client, region)
    assert answer["data"]["x"] == sorted({r["region"] for r in sales})
    info = admin_client.ok("GET", f"/api/dyreport/linkage/getPanelAllLinkageInfo/{copy['id']}")
    assert all(k.split("#")[0] in {v["id"] for v in views} for k in info)
    assert admin_client.post("/api/dyreport/panel/import", json={"bundle": {"version": 99}})["code"] == 400


def test_creating_and_importing_panels_needs_the_manage_button(acme, admin_client, client, user_factory):
    """`dyreport:manage` creates and imports panels: a member without it (a fresh user, or alice the viewer)
    is refused, carol's author role holds it; she manages the panels she made, and may import a bundle whose
    datasets exist in the tenant, but not one that would define a new dataset (administrators only)."""
    refused = "You do not have permission for this action"
    bundle = admin_client.ok("GET", f"/api/dyreport/panel/export/{acme.overview}")
    account, password, _ = user_factory(1001)
    for member in (client.signed_in(account, password), client.signed_in("alice")):
        created = member.post("/api/dyreport/panel/save", json={"name": "new"})
        assert created["code"] == 403 and created["msg"] == refused
        imported = member.post("/api/dyreport/panel/import", json={"bundle": bundle})
        assert imported["code"] == 403 and imported["msg"] == refused
    carol = client.signed_in("carol")
    mine = carol.ok("POST", "/api/dyreport/panel/save", json={"name": "Carol's", "panelData": []})
    assert mine["privileges"] == "view,export,manage"
    carol.ok(
        "POST", "/api/dyreport/panel/save", json={"id": mine["id"], "name": "Carol's 2", "panelData": []}
    )
    someone_elses = admin_client.ok("POST", "/api/dyreport/panel/save", json={"name": "Admin's"})
    edit = carol.post("/api/dyreport/panel/save", json={"id": someone_elses["id"], "name": "taken"})
    assert edit["code"] == 404  # the button creates; editing needs the panel's own privileges (none: unseen)
    copy = carol.ok("POST", "/api/dyreport/panel/import", json={"bundle": bundle})
    assert copy["id"] != acme.overview and copy["privileges"] == "view,export,manage"
    foreign = json.loads(json.dumps(bundle))
    foreign["datasets"][0]["tableName"] = "no_such_table_anywhere"
    answer = carol.post("/api/dyreport/panel/import", json={"bundle": foreign})
    assert answer["code"] == 403 and "administrators" in answer["msg"], answer
    for pid in (mine["id"], copy["id"]):
        carol.ok("POST", f"/api/dyreport/panel/delete/{pid}")
    admin_client.ok("POST", f"/api/dyreport/panel/delete/{someone_elses['id']}")


def test_the_demo_panels_open_for_every_member_but_change_only_for_their_makers(acme, client):
    """alice, a plain member, finds the demo panels in her list, opens and exports them, and may not edit."""
    alice = client.signed_in("alice")
    listed = {p["name"]: p for p in alice.ok("GET", "/api/dyreport/panel/list")}
    gallery = listed[content.ECHARTS_GALLERY]  # a panel whose grants no other test replaces
    assert gallery["privileges"] == "view,export"
    assert alice.ok("GET", f"/api/dyreport/panel/findOne/{gallery['id']}")["name"] == content.ECHARTS_GALLERY
    edit = alice.post(
        "/api/dyreport/panel/save", json={"id": gallery["id"], "name": "taken", "panelData": []}
    )
    assert edit["code"] == 403


def test_tenant_isolation(acme, client):
    """Globex sees none of Acme's datasets, views, panels or links; ids answer like missing ones."""
    bob = client.signed_in("bob")
    admin = client.signed_in("admin")
    globex_admin = admin
    switched = globex_admin.ok("POST", "/api/base/base-user/change-tenant?tenantId=1002&systemCode=iotAutho")
    globex_admin.headers["authorization"] = switched["authorization"]
    globex = Demo(globex_admin)
    assert set(globex.panels.values()).isdisjoint(acme.panels.values())
    assert globex.dataset_id != acme.dataset_id
    v = acme.view("销售总览", "总销售额")
    for c in (bob, globex_admin):
        missing = c.post(f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}", json={})
        assert missing["code"] == 404 and missing["msg"] == "Panel not found"
        assert c.get(f"/api/dyreport/panel/findOne/{acme.overview}")["code"] == 404
        assert c.get(f"/api/dyreport/linkage/getPanelAllLinkageInfo/{acme.overview}")["code"] == 404
        body = c.post(
            "/api/dyreport/dataset/field/multFieldValues", json={"fieldIds": [acme.fields["region"]]}
        )
        # an author is told the field is missing; a viewer (bob) that no panel of hers holds it
        assert body["code"] == (400 if c is globex_admin else 404) and "not found" in body["msg"]
    calc = globex_admin.post(
        "/api/dyreport/chart/view/calcData/x",
        json={
            "view": {
                "tableId": acme.dataset_id,
                "panelId": globex.overview,
                "type": "text",
                "render": "echarts",
                "yaxis": [{"id": "count", "summary": "count"}],
            }
        },
    )
    assert calc["code"] == 404 and calc["msg"] == "Dataset not found"
    own = globex_admin.ok("GET", "/api/dyreport/dataset/list")
    assert acme.dataset_id not in {d["id"] for d in own}
    assert globex_admin.get(f"/api/dyreport/dataset/get/{acme.dataset_id}")["code"] == 404
    taken = globex_admin.post(
        "/api/dyreport/dataset/save",
        json={"name": "steal", "kind": "table", "tableName": "rpt_demo_sales_1001"},
    )
    assert taken["code"] == 404
    # a Globex filter on an Acme field is refused like an unknown field
    gv = globex.view("销售总览", "总销售额")
    body = globex_admin.post(
        f"/api/dyreport/chart/view/getData/{gv['id']}/{gv['panelId']}",
        json={"filter": [{"fieldId": acme.fields["region"], "value": ["华东"]}]},
    )
    assert body["code"] == 400 and "not found" in body["msg"]
    # a Globex link's token opens that panel only, never Acme's data
    alink = admin.ok("POST", f"/api/dyreport/api/link/enable/{gv['panelId']}")
    anon = type(client)(client.http)
    token = anon.ok("POST", "/api/dyreport/api/link/validate", json={"link": alink["id"]})["linkToken"]
    body = anon.post(
        f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}", json={}, headers={"linkToken": token}
    )
    assert body["code"] == 404
    ok = anon.ok(
        "POST",
        f"/api/dyreport/chart/view/getData/{gv['id']}/{gv['panelId']}",
        json={},
        headers={"linkToken": token},
    )
    assert ok["data"]["series"][0]["data"][0]["value"] > 0


def test_changes_show_at_once_despite_caches(acme, admin_client, client, user_factory, sales):
    f = acme.fields
    panel = admin_client.ok("POST", "/api/dyreport/panel/save", json={"name": "Live", "panelData": []})
    view = admin_client.ok(
        "POST",
        "/api/dyreport/chart/view/save",
        json={
            "panelId": panel["id"],
            "tableId": acme.dataset_id,
            "name": "v",
            "type": "bar",
            "render": "echarts",
            "xaxis": [{"id": f["region"]}],
            "yaxis": [{"id": f["amount"], "summary": "sum"}],
        },
    )
    account, password, uid = user_factory(1001)
    user = client.signed_in(account, password)
    admin_client.ok(
        "POST",
        f"/api/dyreport/panel/grants/{panel['id']}",
        json={"grants": [{"subjectType": "user", "subjectId": uid}]},
    )
    first = data(user, view)
    assert first["data"]["series"][0]["summary"] == "sum"
    admin_client.ok(
        "POST",
        "/api/dyreport/chart/view/save",
        json={**view, "yaxis": [{"id": f["amount"], "summary": "max"}]},
    )
    changed = data(user, view)
    assert changed["data"]["series"][0]["summary"] == "max"
    assert max(p["value"] for p in changed["data"]["series"][0]["data"]) == max(r["amount"] for r in sales)
    admin_client.ok("POST", f"/api/dyreport/panel/grants/{panel['id']}", json={"grants": []})
    gone = user.post(f"/api/dyreport/chart/view/getData/{view['id']}/{panel['id']}", json={})
    assert gone["code"] == 404
