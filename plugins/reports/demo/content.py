"""Demo content: a 20,000-row sales dataset per demo tenant and panels that use every chart kind, linkage,
jumps, drill, filter widgets, tabs, a picture and a clock."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select

from atrium.plugins.reports.demo import sales
from atrium.plugins.reports.engine import filters, viewdef
from atrium.plugins.reports.engine.fields import dataease_name, default_role
from atrium.plugins.reports.models import (
    ChartView,
    Dataset,
    DatasetField,
    Linkage,
    LinkJump,
    Panel,
    PanelGrant,
    PanelLink,
    new_id,
)
from atrium.plugins.reports.store import datasets, links
from atrium.sdk.context import tenant_scope
from atrium.sdk.db import session, utcnow
from atrium.sdk.services import services

FIELD_NAMES = {
    "order_date": "下单日期",
    "region": "大区",
    "province": "省份",
    "city": "城市",
    "category": "品类",
    "product": "产品",
    "channel": "渠道",
    "quantity": "数量",
    "amount": "销售额",
    "profit": "利润",
    "lat": "纬度",
    "lng": "经度",
}
OVERVIEW = "销售总览"
ECHARTS_GALLERY = "ECharts 图表一览"
ANTV_GALLERY = "AntV 图表一览"
TABLES = "表格与文本"
PROVINCE_DETAIL = "省份明细"
PICTURE = (
    "data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='200' height='80'>"
    "<rect width='200' height='80' rx='8' fill='%23204BE3'/><text x='100' y='50' font-size='28' fill='white' "
    "text-anchor='middle'>Atrium</text></svg>"
)


def table_name(tenant_id: int) -> str:
    return f"rpt_demo_sales_{abs(tenant_id)}"


def load(tenants: dict[str, int]) -> None:
    for key, rows, seed in (("acme", 20_000, 20240101), ("globex", 2_000, 7)):
        tid = tenants.get(key)
        if tid is None:
            continue
        with tenant_scope(tid):
            load_tenant(tid, rows, seed)


def load_tenant(tenant_id: int, n: int, seed: int) -> dict[str, Any]:
    """Create the demo table, datasets and panels for one tenant; answers their ids."""
    db = session()
    name = table_name(tenant_id)
    table = sales.sales_table(name)
    conn = db.connection()
    table.create(bind=conn, checkfirst=True)
    rows = sales.sales_rows(n, seed, end=filters.today())
    for i in range(0, len(rows), 5000):
        conn.execute(table.insert(), rows[i : i + 5000])
    datasets.own_table(name)
    ds = _dataset("销售明细", name, "direct")
    ds_extract = _dataset("销售明细（抽取）", name, "extract", sync_interval=60)
    f = {row.origin_name: row.id for row in datasets.field_rows(ds.id)}
    fx = {row.origin_name: row.id for row in datasets.field_rows(ds_extract.id)}
    detail = _province_detail(ds.id, f)
    overview = _overview(ds.id, f, detail)
    echarts = _gallery(ECHARTS_GALLERY, ds.id, f, "echarts", viewdef.ECHARTS_KINDS)
    antv = _gallery(ANTV_GALLERY, ds.id, f, "antv", viewdef.ANTV_KINDS)
    tables = _tables(ds.id, f, ds_extract.id, fx)
    _share_with_roles(tenant_id, [detail, overview, echarts, antv, tables])
    db.flush()
    return {
        "dataset": ds.id,
        "extractDataset": ds_extract.id,
        "overview": overview,
        "detail": detail,
        "echarts": echarts,
        "antv": antv,
        "tables": tables,
        "table": name,
    }


def _dataset(name: str, table: str, mode: str, sync_interval: int = 0) -> Dataset:
    db = session()
    ds = Dataset(
        id=new_id(), name=name, kind="table", table_name=table, mode=mode, sync_interval=sync_interval
    )
    db.add(ds)
    for i, col in enumerate(sales.COLUMNS):
        t = sales.COLUMN_TYPES[col]
        role = "dimension" if col in ("lat", "lng") else default_role(t, col)
        db.add(
            DatasetField(
                id=new_id(),
                dataset_id=ds.id,
                name=FIELD_NAMES[col],
                origin_name=col,
                dataease_name=dataease_name(col),
                type=t,
                source_type=t,
                role=role,
                sort=i,
            )
        )
    db.flush()
    return ds


def ax(fid: str, summary: str = "", **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": fid}
    if summary:
        out["summary"] = summary
    out.update(extra)
    return out


def _view(
    panel_id: str,
    dataset_id: str,
    name: str,
    kind: str,
    render: str = "echarts",
    *,
    x: list[dict[str, Any]] | None = None,
    x_ext: list[dict[str, Any]] | None = None,
    y: list[dict[str, Any]] | None = None,
    y_ext: list[dict[str, Any]] | None = None,
    bubble: list[dict[str, Any]] | None = None,
    drill: list[dict[str, Any]] | None = None,
    custom_attr: dict[str, Any] | None = None,
    result_count: int | None = None,
    page_size: int = 20,
) -> str:
    v = ChartView(
        id=new_id(),
        panel_id=panel_id,
        dataset_id=dataset_id,
        name=name,
        title=name,
        type=kind,
        render=render,
        custom_attr=json.dumps(custom_attr or {"color": {"alpha": 100}}, ensure_ascii=False),
        custom_style=json.dumps({"text": {"show": True, "fontSize": 16}}),
        xaxis=json.dumps(x or []),
        xaxis_ext=json.dumps(x_ext or []),
        yaxis=json.dumps(y or []),
        yaxis_ext=json.dumps(y_ext or []),
        ext_bubble=json.dumps(bubble or []),
        drill_fields=json.dumps(drill or []),
        result_mode="custom" if result_count else "all",
        result_count=result_count or 1000,
        page_size=page_size,
        updated_at=utcnow(),
    )
    session().add(v)
    return v.id


def _component(
    i: int, ctype: str, *, left: int, top: int, width: int, height: int, **extra: Any
) -> dict[str, Any]:
    comp: dict[str, Any] = {
        "id": f"c{i}-{new_id()[:8]}",
        "type": ctype,
        "component": extra.pop("component", ctype),
        "style": {
            "left": left,
            "top": top,
            "width": width,
            "height": height,
            "borderWidth": 0,
            "letterSpacing": 0,
            "rotate": 0,
            "verticalAlign": "middle",
        },
        "propValue": extra.pop("propValue", ""),
        "options": extra.pop("options", {}),
        "filters": [],
        "linkageFilters": [],
        "hyperlinks": {"enable": False, "content": "", "openMode": "_blank"},
        "commonBackground": {
            "enable": False,
            "backgroundType": "color",
            "color": "#FFFFFF",
            "alpha": 100,
            "innerPadding": 0,
            "borderRadius": 4,
            "innerImage": "",
            "outerImage": "",
            "backgroundColorSelect": True,
        },
    }
    comp.update(extra)
    return comp


def _grid(
    view_ids: list[str], columns: int = 3, top: int = 0, width: int = 1600, height: int = 300
) -> list[dict[str, Any]]:
    w = width // columns
    return [
        _component(
            i,
            "view",
            component="user-view",
            left=(i % columns) * w,
            top=top + (i // columns) * height,
            width=w - 10,
            height=height - 10,
            propValue={"viewId": vid},
        )
        for i, vid in enumerate(view_ids)
    ]


def _share_with_roles(tenant_id: int, panel_ids: list[str]) -> None:
    """Every role of the tenant may view and export the demo panels, so a plain member opens them too."""
    roles = services().directory.roles(tenant_id)
    for panel_id in panel_ids:
        for role_id in roles:
            session().add(
                PanelGrant(
                    panel_id=panel_id, subject_type="role", subject_id=role_id, can_view=True, can_export=True
                )
            )


def _panel(name: str, components: list[dict[str, Any]], panel_id: str | None = None) -> str:
    style = {
        "width": 1600,
        "openCommonStyle": True,
        "panel": {"backgroundType": "color", "imageUrl": "", "color": "#F5F6F7"},
        "chart": {
            "customAttr": {
                "color": {
                    "value": "default",
                    "colors": [
                        "#5470c6",
                        "#91cc75",
                        "#fac858",
                        "#ee6666",
                        "#73c0de",
                        "#3ba272",
                        "#fc8452",
                        "#9a60b4",
                        "#ea7ccc",
                    ],
                    "alpha": 100,
                },
                "tableColor": {"tableHeaderBgColor": "#4E81BB", "tableItemBgColor": "#FFFFFF"},
            }
        },
    }
    p = Panel(
        id=panel_id or new_id(),
        name=name,
        panel_data=json.dumps(components, ensure_ascii=False),
        panel_style=json.dumps(style),
    )
    session().add(p)
    return p.id


def _province_detail(ds: str, f: dict[str, str]) -> str:
    pid = new_id()
    views = [
        _view(pid, ds, "城市销售额", "bar", x=[ax(f["city"])], y=[ax(f["amount"], "sum", sort="desc")]),
        _view(pid, ds, "品类占比", "pie", x=[ax(f["category"])], y=[ax(f["amount"], "sum")]),
        _view(
            pid, ds, "月度趋势", "line", x=[ax(f["order_date"], dateStyle="y_M")], y=[ax(f["amount"], "sum")]
        ),
    ]
    _panel(PROVINCE_DETAIL, _grid(views), pid)
    session().add(PanelLink(id=links.new_link_id(), panel_id=pid, user_id=0, valid=True, owner_admin=True))
    return pid


def _overview(ds: str, f: dict[str, str], detail_panel: str) -> str:
    pid = new_id()
    region_bar = _view(
        pid,
        ds,
        "大区销售额（可钻取）",
        "bar",
        x=[ax(f["region"])],
        y=[ax(f["amount"], "sum", valueFormat={"formatType": "number", "decimalNumber": 2})],
        drill=[ax(f["region"]), ax(f["province"]), ax(f["city"])],
    )
    trend = _view(
        pid,
        ds,
        "月度销售额",
        "line",
        x=[ax(f["order_date"], dateStyle="y_M", sort="asc")],
        y=[ax(f["amount"], "sum")],
    )
    by_category = _view(pid, ds, "品类销售额", "pie", x=[ax(f["category"])], y=[ax(f["amount"], "sum")])
    by_channel = _view(
        pid,
        ds,
        "渠道月度堆叠",
        "bar-stack",
        x=[ax(f["order_date"], dateStyle="y_Q")],
        x_ext=[ax(f["channel"])],
        y=[ax(f["amount"], "sum")],
    )
    province_map = _view(pid, ds, "省份销售地图", "map", x=[ax(f["province"])], y=[ax(f["amount"], "sum")])
    province_table = _view(
        pid,
        ds,
        "省份汇总",
        "table-normal",
        "antv",
        x=[ax(f["province"])],
        y=[ax(f["quantity"], "sum"), ax(f["amount"], "sum", sort="desc"), ax(f["profit"], "sum")],
    )
    profit_gauge = _view(
        pid, ds, "利润", "gauge", y=[ax(f["profit"], "sum")], custom_attr={"size": {"gaugeMax": 20_000_000}}
    )
    total_text = _view(pid, ds, "总销售额", "text", y=[ax(f["amount"], "sum")])
    channel_funnel = _view(pid, ds, "渠道订单数", "funnel", x=[ax(f["channel"])], y=[ax("count", "count")])
    product_scatter = _view(
        pid,
        ds,
        "产品均价与利润",
        "scatter",
        x=[ax(f["product"])],
        y=[ax(f["amount"], "avg"), ax(f["profit"], "avg")],
        bubble=[ax(f["quantity"], "sum")],
    )
    word_cloud = _view(
        pid, ds, "热销产品", "word-cloud", "antv", x=[ax(f["product"])], y=[ax(f["quantity"], "sum")]
    )
    details = _view(
        pid,
        ds,
        "订单明细",
        "table-info",
        "antv",
        x=[
            ax(f[c])
            for c in (
                "order_date",
                "region",
                "province",
                "city",
                "product",
                "channel",
                "quantity",
                "amount",
                "profit",
            )
        ],
        page_size=20,
    )
    views = [
        region_bar,
        trend,
        by_category,
        by_channel,
        province_map,
        province_table,
        profit_gauge,
        total_text,
        channel_funnel,
        product_scatter,
        word_cloud,
        details,
    ]
    comps = _grid(views[:9], columns=3, top=120)
    tab_views = views[9:]
    comps.append(
        _component(
            20,
            "de-tabs",
            left=0,
            top=1040,
            width=1590,
            height=420,
            options={
                "tabList": [
                    {
                        "name": f"tab{i}",
                        "title": title,
                        "layout": "grid",
                        "content": {
                            "type": "view",
                            "component": "user-view",
                            "propValue": {"viewId": vid},
                            "style": {"left": 0, "top": 0, "width": 1580, "height": 380},
                        },
                    }
                    for i, (title, vid) in enumerate(zip(("散点", "词云", "明细"), tab_views, strict=True))
                ]
            },
        )
    )
    widgets = [
        _component(
            30,
            "custom",
            component="de-select",
            left=0,
            top=0,
            width=300,
            height=60,
            options={
                "attrs": {
                    "title": "大区",
                    "type": "select",
                    "multiple": True,
                    "fieldId": f["region"],
                    "filterIds": views,
                    "key": "id",
                    "label": "text",
                    "value": "id",
                },
                "value": [],
            },
        ),
        _component(
            31,
            "custom",
            component="de-date",
            left=310,
            top=0,
            width=380,
            height=60,
            options={
                "attrs": {
                    "title": "下单日期",
                    "type": "daterange",
                    "fieldId": f["order_date"],
                    "filterIds": views,
                    "default": {
                        "isDynamic": True,
                        "dkey": "thisYear",
                        "dynamicPrefix": 1,
                        "dynamicInfill": "day",
                        "dynamicSuffix": "before",
                    },
                },
                "value": [],
            },
        ),
        _component(
            32,
            "custom",
            component="de-number-range",
            left=700,
            top=0,
            width=300,
            height=60,
            options={"attrs": {"title": "数量", "fieldId": f["quantity"], "filterIds": views}, "value": []},
        ),
        _component(
            33,
            "custom-button",
            component="de-button",
            left=1010,
            top=0,
            width=90,
            height=40,
            serviceName="buttonSureWidget",
            propValue="查询",
            options={"attrs": {"customRange": False, "filterIds": views}},
        ),
        _component(
            34,
            "custom-button",
            component="de-button",
            left=1110,
            top=0,
            width=90,
            height=40,
            serviceName="buttonResetWidget",
            propValue="重置",
            options={"attrs": {"filterIds": views}},
        ),
        _component(
            35,
            "custom-button",
            component="de-button",
            left=1210,
            top=0,
            width=90,
            height=40,
            serviceName="buttonExportWidget",
            propValue="导出",
            options={"attrs": {"filterIds": views}},
        ),
        _component(
            36, "picture", component="Picture", left=1310, top=0, width=140, height=56, propValue=PICTURE
        ),
        _component(
            37,
            "de-show-date",
            component="de-show-date",
            left=1460,
            top=0,
            width=130,
            height=56,
            formatInfo={
                "timeFormat": "hh:mm:ss",
                "showWeek": True,
                "showDate": True,
                "dateFormat": "yyyy-MM-dd",
                "openMode": "0",
            },
        ),
        _component(
            38,
            "v-text",
            component="v-text",
            left=0,
            top=70,
            width=800,
            height=40,
            propValue="<p><b>销售总览</b>：点击大区钻取到省份和城市，点击地图省份跳转到省份明细。</p>",
        ),
        _component(39, "rect-shape", component="rect-shape", left=820, top=70, width=770, height=40),
    ]
    _panel(OVERVIEW, widgets + comps, pid)
    db = session()
    for target, field in (
        (trend, "region"),
        (by_category, "region"),
        (by_channel, "region"),
        (province_table, "region"),
        (total_text, "region"),
    ):
        db.add(
            Linkage(
                panel_id=pid,
                source_view_id=region_bar,
                target_view_id=target,
                fields=json.dumps([{"sourceField": f["region"], "targetField": f[field]}]),
            )
        )
    detail_views = list(db.execute(select(ChartView.id).where(ChartView.panel_id == detail_panel)).scalars())
    db.add(
        LinkJump(
            panel_id=pid,
            source_view_id=province_map,
            source_field_id=f["province"],
            link_type="inner",
            jump_type="_blank",
            target_panel_id=detail_panel,
            target_view_info=json.dumps(
                [{"targetViewId": v, "targetFieldId": f["province"]} for v in detail_views]
            ),
        )
    )
    db.add(
        LinkJump(
            panel_id=pid,
            source_view_id=by_category,
            source_field_id=f["category"],
            link_type="outer",
            jump_type="_blank",
            content="https://example.com/category",
            attach_params=True,
        )
    )
    return pid


def _gallery(name: str, ds: str, f: dict[str, str], render: str, kinds: tuple[str, ...]) -> str:
    pid = new_id()
    views = []
    for kind in kinds:
        kw: dict[str, Any] = {"x": [ax(f["category"])], "y": [ax(f["amount"], "sum")]}
        if kind in ("bar-stack", "bar-stack-horizontal", "line-stack"):
            kw = {
                "x": [ax(f["order_date"], dateStyle="y")],
                "x_ext": [ax(f["category"])],
                "y": [ax(f["amount"], "sum")],
            }
        elif kind == "bar-contrast":
            kw = {"x": [ax(f["region"])], "y": [ax(f["amount"], "sum")], "y_ext": [ax(f["profit"], "sum")]}
        elif kind == "chart-mix":
            kw = {
                "x": [ax(f["order_date"], dateStyle="y_M")],
                "y": [ax(f["amount"], "sum", chartType="bar")],
                "y_ext": [ax(f["profit"], "sum", chartType="line")],
            }
        elif kind == "radar":
            kw = {"x": [ax(f["region"])], "y": [ax(f["amount"], "sum"), ax(f["profit"], "sum")]}
        elif kind in ("gauge", "gauge-percentage", "liquid"):
            # measured against a profit target of 20 million (the maximum of gauges and liquid)
            kw = {
                "y": [ax(f["profit"], "sum", valueFormat={"formatType": "number", "decimalNumber": 2})],
                "custom_attr": {
                    "color": {"alpha": 100},
                    "size": {"gaugeMax": 20_000_000, "liquidMax": 20_000_000},
                },
            }
        elif kind == "scatter":
            kw = {
                "x": [ax(f["product"])],
                "y": [ax(f["amount"], "avg")],
                "bubble": [ax(f["quantity"], "sum")],
            }
        elif kind == "treemap":
            kw = {"x": [ax(f["product"])], "y": [ax(f["amount"], "sum")]}
        elif kind == "map":
            kw = {"x": [ax(f["province"])], "y": [ax(f["amount"], "sum")]}
        elif kind == "waterfall":
            kw = {"x": [ax(f["order_date"], dateStyle="y_Q")], "y": [ax(f["profit"], "sum")]}
        elif kind == "word-cloud":
            kw = {"x": [ax(f["city"])], "y": [ax(f["quantity"], "sum")]}
        elif kind == "line":
            kw = {"x": [ax(f["order_date"], dateStyle="y_M")], "y": [ax(f["amount"], "sum")]}
        views.append(_view(pid, ds, f"{kind}", kind, render, **kw))
    return _panel(name, _grid(views, columns=4, height=280), pid)


def _tables(ds: str, f: dict[str, str], ds_x: str, fx: dict[str, str]) -> str:
    pid = new_id()
    views = [
        _view(
            pid,
            ds,
            "明细表",
            "table-info",
            "antv",
            x=[ax(f[c]) for c in ("order_date", "city", "product", "quantity", "amount")],
            page_size=20,
        ),
        _view(
            pid,
            ds,
            "汇总表",
            "table-normal",
            "antv",
            x=[ax(f["region"]), ax(f["category"])],
            y=[ax(f["amount"], "sum"), ax(f["amount"], "avg"), ax("count", "count")],
        ),
        _view(
            pid,
            ds,
            "透视表",
            "table-pivot",
            "antv",
            x=[ax(f["region"])],
            x_ext=[ax(f["channel"])],
            y=[ax(f["amount"], "sum"), ax(f["quantity"], "avg")],
        ),
        _view(pid, ds, "订单总数", "text", y=[ax("count", "count")]),
        _view(pid, ds, "利润标签", "label", x=[ax(f["category"])], y=[ax(f["profit"], "sum")]),
        _view(pid, ds_x, "抽取模式：大区销售额", "bar", x=[ax(fx["region"])], y=[ax(fx["amount"], "sum")]),
    ]
    return _panel(TABLES, _grid(views), pid)
