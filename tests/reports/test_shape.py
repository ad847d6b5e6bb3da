"""Chart answers are JSON-ready whatever the database hands back: NaN, decimals, times, integral floats."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from atrium.plugins.reports.engine import shape
from atrium.plugins.reports.engine.fields import FieldInfo
from atrium.plugins.reports.engine.query import Axis


def axis(n: int, kind: str, summary: str = "") -> Axis:
    f = FieldInfo(f"id{n}", f"name{n}", f"col{n}", f"f_{n}", kind, kind, "quota" if summary else "dimension")
    return Axis(f, f"f_{n}", summary)


def test_values_become_plain_json_and_plain_rows_pass_through():
    dims = [axis(0, "text"), axis(1, "time")]
    quotas = [("yaxis", axis(2, "integer", "sum")), ("yaxis", axis(3, "float", "avg"))]
    rows = [
        ("华东", datetime(2026, 1, 2, 3, 4, 5), 3.0, float("nan")),
        (None, date(2026, 1, 2), Decimal("7"), Decimal("1.5")),
    ]
    data = shape.chart(dims, [], quotas, rows, with_derived=True)
    assert data["tableRow"] == [
        {"f_0": "华东", "f_1": "2026-01-02 03:04:05", "f_2": 3, "f_3": None},
        {"f_0": None, "f_1": "2026-01-02", "f_2": 7, "f_3": 1.5},
    ]
    assert data["x"] == ["华东\n2026-01-02 03:04:05", "\n2026-01-02"]
    assert [p["value"] for p in data["series"][0]["data"]] == [3, 7]
    assert isinstance(data["tableRow"][0]["f_2"], int)
    assert [d["name"] for d in data["datas"]] == [data["x"][0], data["x"][0], data["x"][1], data["x"][1]]

    plain = [("a", 1, 2.5), ("b", 2, 3.5)]
    assert shape.plain_rows(plain, [False, False, False]) is plain
    assert shape.plain_rows([("a", 2.0)], [False, True]) == [("a", 2)]
    assert shape.plain_rows([("a", float("nan"))], [False, False]) == [("a", None)]
