"""View data for export: pages of rows with their columns (spec 7.2: 100000 rows a sheet, 1000 a page).

`page` serves `POST /api/dyreport/chart/view/exportData`; `ViewExportSource` is what the transfer
plugin's export engine iterates (registered as the export source `chart/view/exportData`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from atrium.plugins.reports.engine import chartdata
from atrium.plugins.reports.engine.chartdata import DataRequest
from atrium.plugins.reports.store.scope import DataUser

SHEET_MAX_ROWS = 100_000
PAGE_ROWS = 1000
SOURCE_URL = "api/dyreport/chart/view/exportData"


def _columns(fields: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"key": f["key"], "name": f["name"], "type": f["type"]} for f in fields]


def page(
    view: dict[str, Any], req: DataRequest, page_index: int, page_rows: int, *, user: DataUser
) -> dict[str, Any]:
    """Rows `page_index` (from 1) of `page_rows` of what the view shows, details for table-info, in the
    data scope of `user`."""
    if view.get("type") == "table-info":
        r = req.model_copy(update={"goPage": page_index, "pageNum": None, "pageSize": page_rows})
        answer = chartdata.view_data(view, r, user=user)
        data = answer["data"]
        cols = _columns(data["fields"])
        rows = [[rec.get(c["key"]) for c in cols] for rec in data["tableRow"]]
        return {
            "columns": cols,
            "rows": rows,
            "total": data["resultTotal"],
            "pageIndex": page_index,
            "pageRows": page_rows,
        }
    answer = chartdata.view_data(view, req, user=user)
    data = answer["data"]
    cols = _columns(data["fields"])
    start = (page_index - 1) * page_rows
    table = data["tableRow"]
    rows = [[rec.get(c["key"]) for c in cols] for rec in table[start : start + page_rows]]
    return {
        "columns": cols,
        "rows": rows,
        "total": len(table),
        "pageIndex": page_index,
        "pageRows": page_rows,
    }


def iterate(
    view: dict[str, Any],
    req: DataRequest,
    page_rows: int = PAGE_ROWS,
    max_rows: int = SHEET_MAX_ROWS,
    *,
    user: DataUser,
) -> Iterator[tuple[list[dict[str, Any]], list[list[Any]]]]:
    """(columns, rows) page after page, at most `max_rows` rows in all."""
    index, sent = 1, 0
    while sent < max_rows:
        p = page(view, req, index, min(page_rows, max_rows - sent), user=user)
        if not p["rows"]:
            if index == 1:
                yield p["columns"], []
            return
        yield p["columns"], p["rows"]
        sent += len(p["rows"])
        if sent >= p["total"]:
            return
        index += 1
