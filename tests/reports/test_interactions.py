"""Drill, linkage and jumps of the demo overview, checked against the generated rows."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from tests.reports import reference as ref
from tests.reports.conftest import data


def values(answer):
    d = answer["data"]
    return {x: p["value"] for x, p in zip(d["x"], d["series"][0]["data"], strict=True)}


def test_drill_steps(acme, admin_client, sales):
    v = acme.view("销售总览", "大区销售额（可钻取）")
    f = acme.fields
    level0 = data(admin_client, v)
    assert values(level0) == pytest.approx(ref.group(sales, lambda r: r["region"], "amount", "sum"))
    assert level0["drill"] is False
    point = level0["data"]["series"][0]["data"][0]
    region = point["dimensionList"][0]["value"]
    assert point["dimensionList"][0]["id"] == f["region"]
    level1 = data(admin_client, v, drill=[{"fieldId": f["region"], "value": [region]}])
    assert level1["drill"] is True and level1["drillFilters"][0]["value"] == [region]
    assert level1["data"]["fields"][0]["id"] == f["province"]
    expected1 = ref.group(sales, lambda r: r["province"], "amount", "sum", lambda r: r["region"] == region)
    assert values(level1) == pytest.approx(expected1)
    province = level1["data"]["x"][0]
    level2 = data(
        admin_client,
        v,
        drill=[
            {"fieldId": f["region"], "value": [region]},
            {"datasetTableField": {"id": f["province"]}, "value": [province]},
        ],
    )
    expected2 = ref.group(
        sales,
        lambda r: r["city"],
        "amount",
        "sum",
        lambda r: r["region"] == region and r["province"] == province,
    )
    assert values(level2) == pytest.approx(expected2)
    too_deep = admin_client.post(
        f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}",
        json={
            "drill": [
                {"fieldId": f["region"], "value": [region]},
                {"fieldId": f["province"], "value": [province]},
                {"fieldId": f["city"], "value": ["x"]},
            ]
        },
    )
    assert too_deep["code"] == 400 and "deeper than 3" in too_deep["msg"]
    wrong = admin_client.post(
        f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}",
        json={"drill": [{"fieldId": f["city"], "value": [region]}]},
    )
    assert wrong["code"] == 400


def test_linkage(acme, admin_client, sales):
    f = acme.fields
    source = acme.view("销售总览", "大区销售额（可钻取）")
    info = admin_client.ok("GET", f"/api/dyreport/linkage/getPanelAllLinkageInfo/{acme.overview}")
    targets = info[f"{source['id']}#{f['region']}"]
    trend = acme.view("销售总览", "月度销售额")
    assert f"{trend['id']}#{f['region']}" in targets and len(targets) == 5
    clicked = data(admin_client, source)["data"]["series"][0]["data"][2]
    region = clicked["dimensionList"][0]["value"]
    track = admin_client.ok(
        "POST",
        "/api/dyreport/track/action",
        json={
            "option": "linkage",
            "panelId": acme.overview,
            "viewId": source["id"],
            "dimensionList": clicked["dimensionList"],
            "quotaList": clicked["quotaList"],
        },
    )
    filters = track["filters"]
    assert set(filters) == {t.split("#")[0] for t in targets}
    answer = data(admin_client, trend, linkageFilters=filters[trend["id"]])
    expected = ref.group(sales, ref.month, "amount", "sum", lambda r: r["region"] == region)
    assert values(answer) == pytest.approx(expected)
    # a linkage filter for another view leaves this one alone
    other = data(admin_client, trend, linkageFilters=[{**filters[trend["id"]][0], "viewIds": ["x"]}])
    assert values(other) == pytest.approx(ref.group(sales, ref.month, "amount", "sum"))


def test_inner_jump(acme, admin_client, sales, client):
    f = acme.fields
    source = acme.view("销售总览", "省份销售地图")
    info = admin_client.ok("GET", f"/api/dyreport/linkJump/queryPanelJumpInfo/{acme.overview}")
    jump = info["baseJumpInfoMap"][f"{source['id']}#{f['province']}"]
    detail_panel = acme.panels["省份明细"]
    assert jump["linkType"] == "inner" and jump["targetPanelId"] == detail_panel and jump["publicJumpId"]
    point = data(admin_client, source)["data"]["series"][0]["data"][0]
    province = point["dimensionList"][0]["value"]
    action = admin_client.ok(
        "POST",
        "/api/dyreport/track/action",
        json={
            "option": "jump",
            "sourcePanelId": acme.overview,
            "sourceViewId": source["id"],
            "dimensionList": point["dimensionList"],
        },
    )
    assert action["url"] == f"/dynamic-report/link/{jump['publicJumpId']}" and action["jumpType"] == "_blank"
    # the target page opens through its public link and asks how to filter
    anon = type(admin_client)(client.http)
    state = anon.ok("POST", "/api/dyreport/api/link/validate", json={"link": jump["publicJumpId"]})
    anon.headers["linkToken"] = state["linkToken"]
    visual = anon.ok(
        "POST",
        "/api/dyreport/linkJump/queryTargetPanelJumpInfo",
        json={
            "sourcePanelId": acme.overview,
            "sourceViewId": source["id"],
            "sourceFieldId": f["province"],
            "targetPanelId": detail_panel,
        },
    )["baseJumpInfoVisualMap"]
    targets = visual[f"{source['id']}#{f['province']}"]
    assert len(targets) == 3
    city_view = acme.view("省份明细", "城市销售额")
    assert f"{city_view['id']}#{f['province']}" in targets
    answer = data(anon, city_view, filter=action["trackFilters"][city_view["id"]])
    expected = ref.group(sales, lambda r: r["city"], "amount", "sum", lambda r: r["province"] == province)
    assert values(answer) == pytest.approx(expected)
    assert answer["data"]["x"] == sorted(expected, key=lambda k: -expected[k])


def test_outer_jump_carries_clicked_values(acme, admin_client):
    f = acme.fields
    pie = acme.view("销售总览", "品类销售额")
    point = data(admin_client, pie)["data"]["series"][0]["data"][1]
    action = admin_client.ok(
        "POST",
        "/api/dyreport/track/action",
        json={
            "option": "jump",
            "panelId": acme.overview,
            "viewId": pie["id"],
            "dimensionList": point["dimensionList"],
        },
    )
    parts = urlsplit(action["url"])
    assert action["linkType"] == "other" and parts.netloc == "example.com"
    assert parse_qs(parts.query) == {"品类": [point["dimensionList"][0]["value"]]}
    none = admin_client.post(
        "/api/dyreport/track/action",
        json={
            "option": "jump",
            "panelId": acme.overview,
            "viewId": pie["id"],
            "dimensionList": [{"id": f["amount"], "value": 1}],
        },
    )
    assert none["code"] == 400 and none["msg"] == "No jump information"
    no_fields = admin_client.post(
        "/api/dyreport/track/action",
        json={"option": "jump", "panelId": acme.overview, "viewId": pie["id"], "dimensionList": []},
    )
    assert no_fields["code"] == 400 and no_fields["msg"] == "No fields set"


def test_editing_linkage_and_jumps(acme, admin_client):
    f = acme.fields
    bundle = admin_client.ok("GET", f"/api/dyreport/panel/export/{acme.overview}")
    panel = admin_client.ok("POST", "/api/dyreport/panel/import", json={"bundle": bundle})
    views = {
        v["name"]: v for v in admin_client.ok("GET", f"/api/dyreport/chart/view/listByPanel/{panel['id']}")
    }
    pie, funnel = views["品类销售额"], views["渠道订单数"]
    info = admin_client.ok(
        "POST",
        "/api/dyreport/linkage/saveLinkage",
        json={
            "panelId": panel["id"],
            "sourceViewId": pie["id"],
            "linkageInfo": [
                {
                    "targetViewId": funnel["id"],
                    "linkageFields": [{"sourceField": f["category"], "targetField": f["category"]}],
                }
            ],
        },
    )
    assert info[f"{pie['id']}#{f['category']}"] == [f"{funnel['id']}#{f['category']}"]
    bad = admin_client.post(
        "/api/dyreport/linkage/saveLinkage",
        json={
            "panelId": panel["id"],
            "sourceViewId": pie["id"],
            "linkageInfo": [{"targetViewId": pie["id"], "linkageFields": []}],
        },
    )
    assert bad["code"] == 400
    jumps = admin_client.ok(
        "POST",
        "/api/dyreport/linkJump/updateJumpSet",
        json={
            "panelId": panel["id"],
            "sourceViewId": funnel["id"],
            "linkJumpInfoArray": [
                {
                    "sourceFieldId": f["channel"],
                    "linkType": "other",
                    "content": "https://example.org/c",
                    "attachParams": False,
                }
            ],
        },
    )
    assert jumps["baseJumpInfoMap"][f"{funnel['id']}#{f['channel']}"]["content"] == "https://example.org/c"
    bad_url = admin_client.post(
        "/api/dyreport/linkJump/updateJumpSet",
        json={
            "panelId": panel["id"],
            "sourceViewId": funnel["id"],
            "linkJumpInfoArray": [
                {"sourceFieldId": f["channel"], "linkType": "other", "content": "javascript:alert(1)"}
            ],
        },
    )
    assert bad_url["code"] == 400


def test_outer_jump_fills_placeholders_with_the_clicked_values(acme, admin_client):
    f = acme.fields
    bundle = admin_client.ok("GET", f"/api/dyreport/panel/export/{acme.overview}")
    panel = admin_client.ok("POST", "/api/dyreport/panel/import", json={"bundle": bundle})
    views = {
        v["name"]: v for v in admin_client.ok("GET", f"/api/dyreport/chart/view/listByPanel/{panel['id']}")
    }
    funnel = views["渠道订单数"]
    channel = admin_client.ok("GET", f"/api/dyreport/dataset/get/{acme.dataset_id}")["fields"]
    channel_field = next(x for x in channel if x["id"] == f["channel"])

    def set_jump(content: str) -> dict[str, Any]:
        return admin_client.post(
            "/api/dyreport/linkJump/updateJumpSet",
            json={
                "panelId": panel["id"],
                "sourceViewId": funnel["id"],
                "linkJumpInfoArray": [
                    {"sourceFieldId": f["channel"], "linkType": "other", "content": content}
                ],
            },
        )

    name, column = channel_field["name"], channel_field["originName"]
    template = f"https://example.org/channels/{{{name}}}?by={{{column}}}&x={{nope}}"
    assert set_jump(template)["code"] == 800
    action = admin_client.ok(
        "POST",
        "/api/dyreport/track/action",
        json={
            "option": "jump",
            "panelId": panel["id"],
            "viewId": funnel["id"],
            "dimensionList": [{"id": f["channel"], "value": "线上 / A&B"}],
        },
    )
    parts = urlsplit(action["url"])
    assert parts.netloc == "example.org"
    assert parts.path == "/channels/" + quote("线上 / A&B", safe="")
    assert parse_qs(parts.query) == {"by": ["线上 / A&B"], "x": ["{nope}"]}
    # a placeholder may not choose the site
    assert set_jump(f"https://{{{name}}}.example.org/")["code"] == 400
