"""Chart view definitions (spec 3.3): the kinds, the request shape, and conversion to and from the table."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from atrium.plugins.reports.models import ChartView
from atrium.sdk.errors import BadRequest

ECHARTS_KINDS = (
    "bar",
    "bar-stack",
    "bar-horizontal",
    "bar-contrast",
    "bar-stack-horizontal",
    "line",
    "line-stack",
    "pie",
    "pie-rose",
    "funnel",
    "radar",
    "gauge",
    "gauge-percentage",
    "scatter",
    "treemap",
    "chart-mix",
    "map",
)
ANTV_KINDS = (
    "bar",
    "bar-stack",
    "bar-horizontal",
    "bar-stack-horizontal",
    "line",
    "line-stack",
    "scatter",
    "radar",
    "gauge",
    "pie",
    "pie-rose",
    "funnel",
    "treemap",
    "liquid",
    "waterfall",
    "word-cloud",
)
TABLE_KINDS = ("table-info", "table-normal", "table-pivot")
SINGLE_VALUE_KINDS = ("gauge", "gauge-percentage", "liquid")
RENDERS = ("echarts", "antv")
SORTS = ("asc", "desc", "none")
JSON_LISTS = ("xaxis", "xaxisExt", "yaxis", "yaxisExt", "extBubble", "drillFields", "customFilter")


def is_text_kind(kind: str) -> bool:
    """Text labels: any type containing `text`, or `label` (spec 2.3)."""
    return "text" in kind or kind == "label"


def check_kind(kind: str, render: str) -> None:
    if kind in TABLE_KINDS or is_text_kind(kind):
        return
    if render not in RENDERS:
        raise BadRequest("reports:view.render", render=render[:20])
    if kind not in (ECHARTS_KINDS if render == "echarts" else ANTV_KINDS):
        raise BadRequest("reports:view.type", type=kind[:40], render=render)


def loads(value: Any, default: Any) -> Any:
    if value is None or value == "":
        return default
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError as exc:
            raise BadRequest("reports:view.bad_json") from exc
    return value


def dumps(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class ViewBody(BaseModel):
    """A chart view as the editor sends it (calcData, save). Axis lists may be JSON text or lists."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    id: str | None = Field(default=None, max_length=32)
    panelId: str | None = Field(default=None, max_length=32)
    tableId: str = Field(default="", max_length=32, validation_alias="tableId")
    name: str = Field(default="", max_length=100)
    title: str = Field(default="", max_length=200)
    type: str = Field(default="bar", max_length=32)
    render: str = Field(default="echarts", max_length=16)
    stylePriority: str = Field(default="panel", max_length=16)
    customAttr: Any = None
    customStyle: Any = None
    customFilter: Any = None
    senior: Any = None
    xaxis: Any = None
    xaxisExt: Any = None
    yaxis: Any = None
    yaxisExt: Any = None
    extBubble: Any = None
    drillFields: Any = None
    resultMode: str = Field(default="all", max_length=16)
    resultCount: int = Field(default=1000, ge=1, le=100_000)
    pageSize: int = Field(default=20, ge=1, le=10_000)

    @field_validator("resultMode")
    @classmethod
    def _mode(cls, v: str) -> str:
        if v not in ("all", "custom"):
            raise ValueError("resultMode must be all or custom")
        return v


def axis_items(value: Any) -> list[dict[str, Any]]:
    """Axis entries as dicts with at least an `id` (plain ids are accepted)."""
    items = loads(value, [])
    if not isinstance(items, list):
        raise BadRequest("reports:view.bad_axis")
    out = []
    for item in items:
        if isinstance(item, str):
            item = {"id": item}
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) or not item["id"]:
            raise BadRequest("reports:view.bad_axis")
        if item.get("sort", "none") not in SORTS:
            raise BadRequest("reports:view.sort", sort=str(item.get("sort"))[:20])
        out.append(item)
    return out


def from_body(body: ViewBody) -> dict[str, Any]:
    """The normalised definition dict (parsed lists) the data engine works on."""
    check_kind(body.type, body.render)
    if body.stylePriority not in ("panel", "view"):
        raise BadRequest("reports:view.style_priority")
    d: dict[str, Any] = {
        "id": body.id,
        "panelId": body.panelId,
        "tableId": body.tableId,
        "name": body.name,
        "title": body.title or body.name,
        "type": body.type,
        "render": body.render,
        "stylePriority": body.stylePriority,
        "customAttr": dumps(loads(body.customAttr, {})),
        "customStyle": dumps(loads(body.customStyle, {})),
        "senior": dumps(loads(body.senior, {})),
        "resultMode": body.resultMode,
        "resultCount": body.resultCount,
        "pageSize": body.pageSize,
    }
    for key in ("xaxis", "xaxisExt", "yaxis", "yaxisExt", "extBubble", "drillFields"):
        d[key] = axis_items(getattr(body, key))
    custom_filter = loads(body.customFilter, [])
    if not isinstance(custom_filter, list) or not all(isinstance(c, dict) for c in custom_filter):
        raise BadRequest("reports:view.bad_filter")
    d["customFilter"] = custom_filter
    return d


def from_row(v: ChartView) -> dict[str, Any]:
    return {
        "id": v.id,
        "panelId": v.panel_id,
        "tableId": v.dataset_id,
        "name": v.name,
        "title": v.title,
        "type": v.type,
        "render": v.render,
        "stylePriority": v.style_priority,
        "customAttr": v.custom_attr,
        "customStyle": v.custom_style,
        "senior": v.senior,
        "customFilter": json.loads(v.custom_filter or "[]"),
        "xaxis": json.loads(v.xaxis or "[]"),
        "xaxisExt": json.loads(v.xaxis_ext or "[]"),
        "yaxis": json.loads(v.yaxis or "[]"),
        "yaxisExt": json.loads(v.yaxis_ext or "[]"),
        "extBubble": json.loads(v.ext_bubble or "[]"),
        "drillFields": json.loads(v.drill_fields or "[]"),
        "resultMode": v.result_mode,
        "resultCount": v.result_count,
        "pageSize": v.page_size,
        "version": v.version,
        "updateTime": int(v.updated_at.timestamp() * 1000) if v.updated_at else None,
    }


def apply(v: ChartView, d: dict[str, Any]) -> None:
    v.panel_id, v.dataset_id, v.name, v.title = d["panelId"], d["tableId"], d["name"], d["title"]
    v.type, v.render, v.style_priority = d["type"], d["render"], d["stylePriority"]
    v.custom_attr, v.custom_style, v.senior = d["customAttr"], d["customStyle"], d["senior"]
    v.custom_filter = dumps(d["customFilter"])
    v.xaxis, v.xaxis_ext, v.yaxis = dumps(d["xaxis"]), dumps(d["xaxisExt"]), dumps(d["yaxis"])
    v.yaxis_ext, v.ext_bubble, v.drill_fields = (
        dumps(d["yaxisExt"]),
        dumps(d["extBubble"]),
        dumps(d["drillFields"]),
    )
    v.result_mode, v.result_count, v.page_size = d["resultMode"], d["resultCount"], d["pageSize"]
    v.version = (v.version or 0) + 1
