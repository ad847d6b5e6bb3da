"""The thin coupling to the transfer plugin: the export source `chart/view/exportData` and the import
target `dyreport-sales` (rows appended to the tenant's demo sales table).

Offered through the SDK's transfer hooks (`atrium_export_sources`, `atrium_import_targets`); when the
transfer plugin is not installed nobody asks and the reports plugin works on its own
(`POST /api/dyreport/chart/view/exportData` and `POST /api/dyreport/dataset/importExcel` stay available).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from atrium.plugins.reports.engine import viewdef
from atrium.plugins.reports.engine.chartdata import DataRequest
from atrium.plugins.reports.exchange import exporting
from atrium.plugins.reports.store.scope import DataUser, acting_user
from atrium.sdk.transfer import ExportColumn, ExportRequest, ExportSource, ImportField, ImportTarget


def _view_and_request(params: dict[str, Any]) -> tuple[dict[str, Any], DataRequest, DataUser]:
    """The saved view named by the task's params (`viewId`/`view.id`, `panelId`), checked for export, with
    the data scope the rows come from (the exporting user's, or the panel's proxy's when named)."""
    from atrium.plugins.reports.api.chart import view_on_panel
    from atrium.plugins.reports.store.access import get_panel, session_viewer

    nested = params.get("params")
    inner: dict[str, Any] = nested if isinstance(nested, dict) else params
    named = inner.get("view")
    view: dict[str, Any] = named if isinstance(named, dict) else {}
    view_id = str(inner.get("viewId") or view.get("id") or "")
    panel_id = str(inner.get("panelId") or view.get("panelId") or view.get("sceneId") or "")
    viewer = session_viewer()
    panel, _ = get_panel(panel_id, viewer, "export")
    row = view_on_panel(view_id, panel)
    request = inner.get("requestList") or {}
    req = DataRequest.model_validate(request if isinstance(request, dict) else {})
    return viewdef.from_row(row), req, acting_user(viewer, panel.proxy_user_id, req.user)


def columns(req: ExportRequest) -> list[ExportColumn]:
    view, request, user = _view_and_request(req.params)
    page = exporting.page(view, request, 1, 1, user=user)
    return [ExportColumn(key=c["key"], title=c["name"]) for c in page["columns"]]


def rows(req: ExportRequest) -> Iterator[dict[str, Any]]:
    view, request, user = _view_and_request(req.params)
    page_rows = req.page_rows or exporting.PAGE_ROWS
    for cols, batch in exporting.iterate(view, request, page_rows, user=user):
        keys = [c["key"] for c in cols]
        for r in batch:
            yield dict(zip(keys, r, strict=True))


def count(req: ExportRequest) -> int:
    view, request, user = _view_and_request(req.params)
    return int(exporting.page(view, request, 1, 1, user=user)["total"])


@cache
def export_sources() -> list[ExportSource]:
    return [
        ExportSource(
            url=exporting.SOURCE_URL,
            name={"zh-cn": "报表数据", "en-us": "Report data"},
            rows=rows,
            count=count,
            columns=columns,
        )
    ]


@cache
def import_targets() -> list[ImportTarget]:
    from atrium.plugins.reports.exchange import excel

    return [
        ImportTarget(
            code="dyreport-sales",
            name={"zh-cn": "报表销售数据", "en-us": "Report sales rows"},
            fields=[
                ImportField(key, label, type=ftype, required=key in ("order_date", "amount"))  # type: ignore[arg-type]
                for key, label, ftype in excel.SALES_IMPORT_FIELDS
            ],
            write=excel.append_sales_rows,
            permission="admin",
        )
    ]
