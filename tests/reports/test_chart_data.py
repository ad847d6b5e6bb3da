"""Chart data against answers computed independently from the generated rows."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.reports import reference as ref
from tests.reports.conftest import LAST_YEAR as Y
from tests.reports.conftest import calc, data


def view(acme: Any, kind: str = "bar", render: str = "echarts", **axes: Any) -> dict[str, Any]:
    return {
        "tableId": acme.dataset_id,
        "panelId": acme.overview,
        "type": kind,
        "render": render,
        "name": "t",
        **axes,
    }


def series_values(answer: dict[str, Any], index: int = 0) -> dict[str, Any]:
    d = answer["data"]
    return {x: (p["value"] if p else None) for x, p in zip(d["x"], d["series"][index]["data"], strict=True)}


@pytest.mark.parametrize("summary", ["sum", "avg", "count", "count_distinct", "max", "min"])
def test_every_aggregation(acme, admin_client, sales, summary):
    f = acme.fields
    field = "quantity" if summary != "count_distinct" else "product"
    answer = calc(
        admin_client, view(acme, xaxis=[{"id": f["region"]}], yaxis=[{"id": f[field], "summary": summary}])
    )
    expected = ref.group(sales, lambda r: r["region"], field, summary)
    got = series_values(answer)
    assert set(got) == set(expected)
    for k, v in expected.items():
        assert got[k] == pytest.approx(v), k
    assert answer["data"]["series"][0]["summary"] == summary


def test_two_dimensions_two_quotas_with_filter_and_sort(acme, admin_client, sales):
    f = acme.fields
    answer = calc(
        admin_client,
        view(
            acme,
            "table-normal",
            "antv",
            xaxis=[{"id": f["region"]}, {"id": f["category"]}],
            yaxis=[
                {"id": f["amount"], "summary": "sum", "sort": "desc"},
                {"id": f["profit"], "summary": "avg"},
            ],
        ),
        filter=[{"fieldId": f["channel"], "operator": "eq", "value": ["线上"]}],
    )
    rows = answer["data"]["tableRow"]
    keys = {
        fl["id"] if fl["role"] == "dimension" else fl["id"] + fl.get("summary", ""): fl["key"]
        for fl in answer["data"]["fields"]
    }
    on = [r for r in sales if r["channel"] == "线上"]
    sums = ref.group(on, lambda r: (r["region"], r["category"]), "amount", "sum")
    avgs = ref.group(on, lambda r: (r["region"], r["category"]), "profit", "avg")
    assert len(rows) == len(sums)
    amounts = [r[keys[f["amount"] + "sum"]] for r in rows]
    assert amounts == sorted(amounts, reverse=True)
    for r in rows:
        k = (r[keys[f["region"]]], r[keys[f["category"]]])
        assert r[keys[f["amount"] + "sum"]] == pytest.approx(sums[k])
        assert r[keys[f["profit"] + "avg"]] == pytest.approx(avgs[k])


def test_record_count_and_month_grouping(acme, admin_client, sales):
    f = acme.fields
    answer = calc(
        admin_client,
        view(
            acme,
            "line",
            xaxis=[{"id": f["order_date"], "dateStyle": "y_M"}],
            yaxis=[{"id": "count", "summary": "count"}],
        ),
    )
    expected = ref.group(sales, ref.month, "*", "count")
    assert series_values(answer) == expected
    assert answer["data"]["x"] == sorted(expected)


def test_quarter_and_stack(acme, admin_client, sales):
    f = acme.fields
    answer = calc(
        admin_client,
        view(
            acme,
            "bar-stack",
            xaxis=[{"id": f["order_date"], "dateStyle": "y_Q"}],
            xaxisExt=[{"id": f["channel"]}],
            yaxis=[{"id": f["amount"], "summary": "sum"}],
        ),
    )
    d = answer["data"]
    expected = ref.group(sales, lambda r: (ref.quarter(r), r["channel"]), "amount", "sum")
    assert d["x"] == sorted({k[0] for k in expected})
    assert {s["name"] for s in d["series"]} == {"线上", "门店", "分销"}
    for s in d["series"]:
        for x, p in zip(d["x"], s["data"], strict=True):
            assert p["value"] == pytest.approx(expected[(x, s["name"])])
            assert {dim["value"] for dim in p["dimensionList"]} == {x, s["name"]}
    assert len(d["datas"]) == len(expected)


def test_date_split_pattern(acme, admin_client, sales):
    f = acme.fields
    answer = calc(
        admin_client,
        view(
            acme,
            xaxis=[{"id": f["order_date"], "dateStyle": "y_M_d", "datePattern": "date_split"}],
            yaxis=[{"id": "count", "summary": "count"}],
            resultMode="custom",
            resultCount=3,
        ),
    )
    first = min(r["order_date"] for r in sales).date()
    assert answer["data"]["x"] == [(first + timedelta(days=i)).strftime("%Y/%m/%d") for i in range(3)]


def test_result_count_limits_groups(acme, admin_client, sales):
    f = acme.fields
    answer = calc(
        admin_client,
        view(acme, xaxis=[{"id": f["city"]}], yaxis=[{"id": f["amount"], "summary": "sum", "sort": "desc"}]),
        resultMode="custom",
        resultCount=3,
    )
    expected = ref.group(sales, lambda r: r["city"], "amount", "sum")
    top = sorted(expected, key=lambda k: -expected[k])[:3]
    assert answer["data"]["x"] == top


def _filtered(acme, client, filters):
    f = acme.fields
    answer = calc(
        client,
        view(
            acme, "text", yaxis=[{"id": "count", "summary": "count"}, {"id": f["amount"], "summary": "sum"}]
        ),
        filter=filters,
    )
    s = answer["data"]["series"]
    return s[0]["data"][0]["value"], s[1]["data"][0]["value"]


@pytest.mark.parametrize(
    "op,field,value,pred",
    [
        ("eq", "region", ["华东"], lambda r: r["region"] == "华东"),
        ("in", "province", ["广东", "四川"], lambda r: r["province"] in ("广东", "四川")),
        ("like", "product", ["电脑"], lambda r: "电脑" in r["product"]),
        ("ge", "quantity", [15], lambda r: r["quantity"] >= 15),
        ("le", "amount", [100], lambda r: r["amount"] <= 100),
        ("between", "quantity", [3, 5], lambda r: 3 <= r["quantity"] <= 5),
        (None, "channel", ["门店"], lambda r: r["channel"] == "门店"),
        (
            "between",
            "order_date",
            [f"{Y}-03-01", f"{Y}-03-31"],
            lambda r: datetime(Y, 3, 1) <= r["order_date"] < datetime(Y, 4, 1),
        ),
        ("eq", "order_date", [f"{Y}-07-04"], lambda r: r["order_date"].date().isoformat() == f"{Y}-07-04"),
        ("ge", "order_date", [f"{Y}-12-01 12:00:00"], lambda r: r["order_date"] >= datetime(Y, 12, 1, 12)),
        ("le", "order_date", [f"{Y}-01-15"], lambda r: r["order_date"] < datetime(Y, 1, 16)),
    ],
)
def test_filter_operators(acme, admin_client, sales, op, field, value, pred):
    item = {"fieldId": acme.fields[field], "value": value}
    if op:
        item["operator"] = op
    count, amount = _filtered(acme, admin_client, [item])
    on = [r for r in sales if pred(r)]
    assert on and count == len(on)
    assert amount == pytest.approx(sum(r["amount"] for r in on))


def test_epoch_millisecond_dates(acme, admin_client, sales):
    start = int(datetime(Y, 5, 1).timestamp() * 1000)
    end = int(datetime(Y, 5, 31).timestamp() * 1000)
    count, _ = _filtered(
        acme,
        admin_client,
        [{"fieldId": acme.fields["order_date"], "operator": "between", "value": [start, end]}],
    )
    assert count == sum(1 for r in sales if datetime(Y, 5, 1) <= r["order_date"] < datetime(Y, 6, 1))


def test_filters_combine_and_apply_only_to_their_views(acme, admin_client, sales):
    f = acme.fields
    v = acme.view("销售总览", "总销售额")
    both = data(
        admin_client,
        v,
        cache=False,
        filter=[
            {"fieldId": f["region"], "operator": "in", "value": ["华北", "华南"], "viewIds": [v["id"]]},
            {"fieldId": f["quantity"], "operator": "ge", "value": [10], "viewIds": [v["id"]]},
            {"fieldId": f["channel"], "value": ["线上"], "viewIds": ["some-other-view"]},
        ],
    )
    expected = sum(r["amount"] for r in sales if r["region"] in ("华北", "华南") and r["quantity"] >= 10)
    assert both["data"]["series"][0]["data"][0]["value"] == pytest.approx(expected)


def test_table_info_paging(acme, admin_client, sales):
    v = acme.view("表格与文本", "明细表")
    f = acme.fields
    filt = [{"fieldId": f["city"], "value": ["成都"]}]
    first = data(admin_client, v, filter=filt, goPage=1, pageSize=50)
    second = data(admin_client, v, filter=filt, goPage=2, pageSize=50)
    total = sum(1 for r in sales if r["city"] == "成都")
    assert first["resultTotal"] == total and first["pageNum"] == 1 and first["pageSize"] == 50
    assert first["data"]["resultTotal"] == total
    assert len(first["data"]["tableRow"]) == 50 and len(second["data"]["tableRow"]) == 50
    key = next(fl["key"] for fl in first["data"]["fields"] if fl["id"] == f["city"])
    assert {r[key] for r in first["data"]["tableRow"] + second["data"]["tableRow"]} == {"成都"}
    assert first["data"]["tableRow"] != second["data"]["tableRow"]


def test_pivot_table_with_exact_totals(acme, admin_client, sales):
    v = acme.view("表格与文本", "透视表")
    answer = data(admin_client, v)
    pivot = answer["data"]["pivot"]
    amount_key, qty_key = pivot["quotaFields"]
    sums = ref.group(sales, lambda r: (r["region"], r["channel"]), "amount", "sum")
    avgs = ref.group(sales, lambda r: (r["region"], r["channel"]), "quantity", "avg")
    row_avg = ref.group(sales, lambda r: r["region"], "quantity", "avg")
    col_sum = ref.group(sales, lambda r: r["channel"], "amount", "sum")
    assert len(pivot["rows"]) == 5
    for row in pivot["rows"]:
        region = row["rowKeys"][0]
        for channel in ("线上", "门店", "分销"):
            assert row["values"][f"{channel}|{amount_key}"] == pytest.approx(sums[(region, channel)])
            assert row["values"][f"{channel}|{qty_key}"] == pytest.approx(avgs[(region, channel)])
        assert row["total"][qty_key] == pytest.approx(row_avg[region])
    for channel, total in col_sum.items():
        assert pivot["columnTotals"][f"{channel}|{amount_key}"] == pytest.approx(total)
    assert pivot["grandTotal"][qty_key] == pytest.approx(sum(r["quantity"] for r in sales) / len(sales))


def test_derived_share_and_running_total(acme, admin_client, sales):
    f = acme.fields
    answer = calc(
        admin_client,
        view(
            acme,
            "pie",
            xaxis=[{"id": f["category"]}],
            yaxis=[
                {"id": f["amount"], "summary": "sum", "compareCalc": {"type": "percent"}},
                {"id": f["quantity"], "summary": "sum", "compareCalc": {"type": "accumulate"}},
            ],
        ),
    )
    sums = ref.group(sales, lambda r: r["category"], "amount", "sum")
    total = sum(sums.values())
    share = series_values(answer, 0)
    assert sum(share.values()) == pytest.approx(1.0)
    for k, v in sums.items():
        assert share[k] == pytest.approx(v / total)
    running = list(series_values(answer, 1).values())
    assert running[-1] == sum(r["quantity"] for r in sales)


def test_single_value_and_scatter_bubble(acme, admin_client, sales):
    gauge = data(admin_client, acme.view("销售总览", "利润"))
    assert gauge["data"]["x"] == []
    assert gauge["data"]["series"][0]["data"][0]["value"] == pytest.approx(sum(r["profit"] for r in sales))
    scatter = data(admin_client, acme.view("销售总览", "产品均价与利润"))
    qty = ref.group(sales, lambda r: r["product"], "quantity", "sum")
    for item in scatter["data"]["datas"]:
        assert item["popSize"] == qty[item["field"]]


def test_every_demo_view_answers(acme, admin_client):
    for v in acme.views.values():
        if v["tableId"] == acme.extract_id:
            continue
        answer = data(admin_client, v)
        assert answer["data"]["fields"], v["name"]


def test_cache_is_bypassed_on_request(acme, admin_client):
    v = acme.view("销售总览", "总销售额")
    first = data(admin_client, v)
    cached = data(admin_client, v)
    fresh = data(admin_client, v, cache=False)
    assert first["data"] == cached["data"] == fresh["data"]


def test_a_field_renamed_on_an_axis_shows_its_new_name(acme, admin_client):
    f = acme.fields
    answer = calc(
        admin_client,
        view(
            acme,
            "table-normal",
            xaxis=[{"id": f["region"], "name": "Sales region"}],
            yaxis=[
                {"id": f["amount"], "summary": "sum", "name": " Revenue "},
                {"id": f["profit"], "name": ""},
            ],
        ),
    )
    by_axis = {(e["axis"], e["id"]): e["name"] for e in answer["data"]["fields"]}
    assert by_axis[("xaxis", f["region"])] == "Sales region"
    assert by_axis[("yaxis", f["amount"])] == "Revenue"
    profit_name = by_axis[("yaxis", f["profit"])]
    assert profit_name and profit_name != "Revenue"
    assert [s["name"] for s in answer["data"]["series"]] == ["Revenue", profit_name]


@pytest.mark.parametrize("kind", ["bar", "table-info", "table-pivot"])
def test_the_answer_lists_every_field_of_the_dataset_as_source_fields(acme, admin_client, kind):
    """`data.sourceFields` (spec 5): all of the dataset's fields, not only the ones on the axes, so that a
    drill or jump setting can offer them."""
    f = acme.fields
    axes: dict[str, Any] = {"xaxis": [{"id": f["region"]}]}
    if kind != "table-info":
        axes["yaxis"] = [{"id": f["amount"], "summary": "sum"}]
    answer = calc(admin_client, view(acme, kind, "antv" if kind.startswith("table") else "echarts", **axes))
    source = answer["data"]["sourceFields"]
    assert {s["id"] for s in source} == set(f.values())
    assert {"id", "name", "dataeaseName", "type"} <= set(source[0])
