"""Bad input: clear translated messages, bound parameters, no 500s."""

from __future__ import annotations

from typing import Any

import pytest

from tests.reports.conftest import data


def get_data(client: Any, v: dict[str, Any], **body: Any) -> dict[str, Any]:
    return client.post(f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}", json=body)


@pytest.fixture
def total(acme):
    return acme.view("销售总览", "总销售额")


@pytest.mark.parametrize(
    "value,message",
    [
        (["1.5"], "must be an integer"),
        ([1.5], "must be an integer"),
        (["abc"], "must be an integer"),
        ([True], "must be an integer"),
        ([-2147483649], "must not be below -2147483648"),
        ([2147483648], "must not be above 2147483647"),
        (["99999999999"], "must not be above 2147483647"),
    ],
)
def test_number_filter_checks(acme, admin_client, total, value, message):
    body = get_data(
        admin_client, total, filter=[{"fieldId": acme.fields["quantity"], "operator": "ge", "value": value}]
    )
    assert body["code"] == 400 and message in body["msg"] and "数量" in body["msg"]


def test_number_bounds_are_inclusive(acme, admin_client, total):
    body = data(
        admin_client,
        total,
        filter=[
            {"fieldId": acme.fields["quantity"], "operator": "between", "value": [-2147483648, 2147483647]}
        ],
    )
    assert body["data"]["series"][0]["data"][0]["value"] > 0


def test_messages_are_translated(acme, client, total):
    zh = client.signed_in("admin")
    zh.headers["language"] = "zh#cn"
    body = get_data(zh, total, filter=[{"fieldId": acme.fields["quantity"], "value": ["x"]}])
    assert body["code"] == 400 and "必须为整数" in body["msg"]


@pytest.mark.parametrize(
    "item,message",
    [
        ({"operator": "contains", "value": ["a"]}, "Unknown filter operator contains"),
        ({"operator": "between", "value": ["2024-01-01"]}, "exactly two values"),
        ({"operator": "between", "value": ["2024-01-01", "2024-01-02", "2024-01-03"]}, "exactly two values"),
        ({"operator": "eq", "value": ["2024-13-45"]}, "invalid date"),
        ({"operator": "ge", "value": ["yesterday-ish"]}, "invalid date"),
        ({"operator": "like", "value": ["2024"]}, "'like' applies to text fields only"),
        ({"operator": "between", "value": ["2024-02-01", "2024-01-01"]}, "must not be after its end"),
        ({"dynamic": {"dkey": "someday"}}, "Unknown dynamic date someday"),
    ],
)
def test_bad_date_filters(acme, admin_client, total, item, message):
    body = get_data(admin_client, total, filter=[{"fieldId": acme.fields["order_date"], **item}])
    assert body["code"] == 400 and message in body["msg"], body


def test_unknown_ids(acme, admin_client, total):
    body = get_data(admin_client, total, filter=[{"fieldId": "nope", "value": ["x"]}])
    assert body["code"] == 400 and "Field nope not found" in body["msg"]
    body = admin_client.post(f"/api/dyreport/chart/view/getData/nope/{total['panelId']}", json={})
    assert body["code"] == 404 and body["msg"] == "View not found"
    body = admin_client.post(f"/api/dyreport/chart/view/getData/{total['id']}/nope", json={})
    assert body["code"] == 404 and body["msg"] == "Panel not found"
    other_panel = acme.panels["ECharts 图表一览"]
    body = admin_client.post(f"/api/dyreport/chart/view/getData/{total['id']}/{other_panel}", json={})
    assert body["code"] == 404 and body["msg"] == "View not found"


def test_bad_view_definitions(acme, admin_client):
    f = acme.fields
    base = {
        "tableId": acme.dataset_id,
        "panelId": acme.overview,
        "type": "bar",
        "render": "echarts",
        "xaxis": [{"id": f["region"]}],
    }
    cases = [
        ({"yaxis": [{"id": f["region"], "summary": "sum"}]}, "sum needs a number field"),
        ({"yaxis": [{"id": f["amount"], "summary": "median"}]}, "Unknown aggregation median"),
        ({"yaxis": [{"id": "zzz", "summary": "sum"}]}, "Field zzz not found"),
        ({"type": "liquid"}, "Chart type liquid is not drawn by echarts"),
        ({"render": "d3"}, "Unknown render d3"),
        ({"xaxis": [{"id": f["region"], "sort": "sideways"}]}, "Unknown sort sideways"),
        ({"xaxis": [{"id": f["order_date"], "dateStyle": "y_fortnight"}]}, "Unknown date style"),
        ({"xaxis": "not json"}, "Invalid JSON"),
        ({"xaxis": [], "yaxis": []}, "The view has no fields"),
    ]
    for change, message in cases:
        body = admin_client.post("/api/dyreport/chart/view/calcData/new", json={"view": {**base, **change}})
        assert body["code"] == 400 and message in body["msg"], (change, body)


INJECTIONS = [
    "' OR '1'='1",
    "华东'; DROP TABLE rpt_panel; --",
    "\\' OR 1=1 --",
    "%",
    "_",
    'a" OR ""="',
    "1) OR (1=1",
    "华东\x00",
]


@pytest.mark.parametrize("payload", INJECTIONS)
def test_sql_injection_through_filters(acme, admin_client, sales, total, payload):
    f = acme.fields
    for op in ("eq", "in", "like", "ge", "le"):
        body = get_data(
            admin_client,
            total,
            cache=False,
            filter=[{"fieldId": f["region"], "operator": op, "value": [payload]}],
        )
        assert body["code"] in (800, 400), body
        if body["code"] == 800 and op in ("eq", "in", "like"):
            assert body["data"]["data"]["series"][0]["data"][0]["value"] in (None, 0), (op, payload)
    for payload_field in ("region", "quantity", "order_date"):
        body = get_data(
            admin_client,
            total,
            filter=[{"fieldId": f[payload_field], "value": [payload]}],
            linkageFilters=[{"fieldId": f[payload_field], "value": [payload]}],
        )
        assert body["code"] in (800, 400)
    # the tables are still there and answer as before
    after = data(admin_client, total, cache=False)
    assert after["data"]["series"][0]["data"][0]["value"] == pytest.approx(sum(r["amount"] for r in sales))


@pytest.mark.parametrize("payload", ["region; DROP TABLE x", "' OR 1=1 --", "../../etc", "*"])
def test_sql_injection_through_field_inputs(acme, admin_client, total, payload):
    body = get_data(admin_client, total, filter=[{"fieldId": payload, "value": ["x"]}])
    assert body["code"] == 400 and "not found" in body["msg"]
    body = get_data(admin_client, total, drill=[{"fieldId": payload, "value": ["x"]}])
    assert body["code"] == 400
    calc = admin_client.post(
        "/api/dyreport/chart/view/calcData/new",
        json={
            "view": {
                "tableId": acme.dataset_id,
                "panelId": acme.overview,
                "type": "bar",
                "render": "echarts",
                "xaxis": [{"id": payload}],
                "yaxis": [{"id": acme.fields["amount"], "summary": payload}],
            }
        },
    )
    assert calc["code"] == 400
    values = admin_client.post("/api/dyreport/dataset/field/multFieldValues", json={"fieldIds": [payload]})
    assert values["code"] == 400


def test_like_wildcards_are_literal(acme, admin_client, total):
    for pattern in ("%", "_", "华%"):
        body = data(
            admin_client,
            total,
            cache=False,
            filter=[{"fieldId": acme.fields["province"], "operator": "like", "value": [pattern]}],
        )
        assert body["data"]["series"][0]["data"][0]["value"] is None


def test_malformed_bodies(acme, admin_client, total):
    bad = [
        {"filter": "region"},
        {"filter": [{"value": [1]}]},
        {"resultCount": 0},
        {"pageSize": 10**9},
        {"drill": [{"fieldId": acme.fields["province"], "value": ["广东"]}]},
    ]
    for body in bad:
        answer = get_data(admin_client, total, **body)
        assert answer["code"] == 400, (body, answer)
    raw = admin_client.http.post(
        f"/api/dyreport/chart/view/getData/{total['id']}/{total['panelId']}",
        content=b"{not json",
        headers={**admin_client.headers, "content-type": "application/json"},
    )
    assert raw.json()["code"] == 400
