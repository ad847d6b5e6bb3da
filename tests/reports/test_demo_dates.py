"""The demo is dated relative to the day it is loaded: on any day, every view of every demo panel shows
rows under its panel's default filters (dynamic dates such as "this year" included)."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from atrium.plugins.reports.engine import filters
from atrium.sdk.testing import AtriumClient

DAYS = [date(2027, 1, 1), date(2026, 12, 31), date(2028, 2, 29), date(2026, 6, 15)]
DATE_WIDGETS = ("de-date", "timeDateWidget", "timeDateRangeWidget")


def default_filters(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The filter items the viewer sends on opening: each date widget's dynamic default, for its views."""
    out = []
    for c in components:
        attrs = (c.get("options") or {}).get("attrs") or {}
        default = attrs.get("default") or {}
        if c.get("component") in DATE_WIDGETS and default.get("isDynamic"):
            out.append({"fieldId": attrs["fieldId"], "dynamic": default, "viewIds": attrs.get("filterIds")})
    return out


def view_ids(components: list[dict[str, Any]]) -> list[str]:
    ids = []
    for c in components:
        if c.get("component") == "user-view":
            ids.append(c["propValue"]["viewId"])
        for tab in (c.get("options") or {}).get("tabList") or []:
            content = tab.get("content") or {}
            if content.get("component") == "user-view":
                ids.append(content["propValue"]["viewId"])
    return ids


def row_count(data: dict[str, Any]) -> int:
    """How many rows a view's answer draws, whatever its kind."""
    if data.get("tableRow") is not None:
        return len(data["tableRow"])
    series = data.get("series") or []
    values = [p for s in series for p in (s.get("data") or []) if p is not None]
    return len(values) or len(data.get("x") or [])


@pytest.mark.parametrize("day", DAYS, ids=[d.isoformat() for d in DAYS])
def test_every_demo_view_has_rows_on_any_day(make_atrium_app, monkeypatch, day):
    monkeypatch.setattr(filters, "today", lambda: day)
    http = make_atrium_app()
    admin = AtriumClient(http).signed_in("admin")
    for ds in admin.ok("GET", "/api/dyreport/dataset/list"):
        if ds.get("mode") == "extract":
            admin.ok("POST", f"/api/dyreport/dataset/sync/{ds['id']}")
    panels = admin.ok("GET", "/api/dyreport/panel/list")
    assert len(panels) >= 4
    checked = 0
    for panel in panels:
        found = admin.ok("GET", f"/api/dyreport/panel/findOne/{panel['id']}")
        components = found["panelData"]
        if isinstance(components, str):
            components = json.loads(components)
        defaults = default_filters(components)
        for vid in view_ids(components):
            mine = [
                {k: v for k, v in f.items() if k != "viewIds"}
                for f in defaults
                if not f["viewIds"] or vid in f["viewIds"]
            ]
            answer = admin.ok(
                "POST", f"/api/dyreport/chart/view/getData/{vid}/{panel['id']}", json={"filter": mine}
            )
            assert row_count(answer["data"]) > 0, (day, panel["name"], answer.get("name"), mine)
            checked += 1
    assert checked >= 40
