"""Excel exports for a shared link's clients (spec 1, 4, 7.2): the same flow as a signed-in export (a task,
polled once a second until its status is 2, then the file), within the link's limits.

The transfer plugin's export tasks belong to signed-in users; a link's client has no session, so its
exports run here, over the same rows (`exporting`), and are proven exactly like the link's data calls: the
header `linkToken`. Starting needs a valid, unexpired, unlocked link whose password (if any) the client
passed, the export privilege of the link (its owner's), and a view of the link's own panel. A task is its
client's: polling and downloading need a token of the same link and the same client (`Viewer.link_client`),
so nobody else fetches the file by its id, and the link is checked again at each call (turned off,
expired, locked or password changed: refused).

Tasks live in the cache (`rpt:lexp:<id>`, ids are random), files in the platform's storage under
`link-exports/<unix time>-<id>.xlsx`; both go after `RETENTION_SECONDS` (the scheduled sweep removes the
files).
"""

from __future__ import annotations

import secrets
import tempfile
import time
from collections.abc import Iterator, Sequence
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import structlog
import xlsxwriter
from sqlalchemy import select

from atrium.plugins.reports.engine import viewdef
from atrium.plugins.reports.engine.chartdata import DataRequest
from atrium.plugins.reports.exchange import exporting
from atrium.plugins.reports.models import PanelLink
from atrium.plugins.reports.store import links, scope
from atrium.plugins.reports.store.access import Viewer, get_panel
from atrium.sdk.context import RequestContext, current_context, reset_context, set_context, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import AtriumError, BadRequest, NotFound, TooManyRequests
from atrium.sdk.services import TaskInterrupted, services
from atrium.sdk.transfer import normalise_url

log = structlog.get_logger("atrium.reports.link_export")

WAITING, RUNNING, DONE, FAILED = 0, 1, 2, 3
RETENTION_SECONDS = 2 * 3600
#: starts a link client may make in a minute
STARTS_PER_MINUTE = 10
MAX_ROWS = exporting.SHEET_MAX_ROWS
PREFIX = "link-exports/"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
DANGER = frozenset("=+-@\t\r")
PROGRESS_EVERY = 2000


def _key(export_id: str) -> str:
    return f"rpt:lexp:{export_id}"


def _load(export_id: str) -> dict[str, Any] | None:
    if not isinstance(export_id, str) or not 10 <= len(export_id) <= 64:
        return None
    found = services().cache.get(_key(export_id))
    return dict(found) if isinstance(found, dict) else None


def _save(task: dict[str, Any]) -> None:
    services().cache.set(_key(task["id"]), task, ttl=RETENTION_SECONDS)


def _update(export_id: str, **values: Any) -> None:
    task = _load(export_id)
    if task is not None:
        task.update(values)
        _save(task)


# ---------------------------------------------------------------------------
# what the routes call (inside the link client's `viewer_scope`)
# ---------------------------------------------------------------------------


def _view_and_request(params: Any) -> tuple[str, str, dict[str, Any]]:
    """viewId, panelId and requestList from the task's params (`{viewId, panelId, requestList}`, or
    `{view: {id, panelId}, requestList}`, as the signed-in export takes them)."""
    inner = (
        params.get("params")
        if isinstance(params, dict) and isinstance(params.get("params"), dict)
        else params
    )
    if not isinstance(inner, dict):
        raise BadRequest("reports:export.bad_params")
    named = inner.get("view")
    view: dict[str, Any] = named if isinstance(named, dict) else {}
    view_id = str(inner.get("viewId") or view.get("id") or "")[:32]
    panel_id = str(inner.get("panelId") or view.get("panelId") or "")[:32]
    request = inner.get("requestList")
    if not view_id:
        raise BadRequest("reports:export.bad_params")
    return view_id, panel_id, request if isinstance(request, dict) else {}


def start(
    viewer: Viewer,
    *,
    url: str,
    file_name: str,
    columns: Sequence[Any],
    params: Any,
    sheet_max: int,
) -> dict[str, Any]:
    """Check the request against the link and queue the export: `{exportId, status}`."""
    if viewer.link_id is None or viewer.link_client is None:
        raise links.LinkDenied("reports:link.token")
    if normalise_url(url) != normalise_url(exporting.SOURCE_URL):
        raise BadRequest("reports:export.source")
    view_id, panel_id, request = _view_and_request(params)
    from atrium.plugins.reports.api.chart import view_on_panel

    panel, _ = get_panel(panel_id or viewer.link_panel_id or "", viewer, "export")
    view = view_on_panel(view_id, panel)
    req = DataRequest.model_validate(request)
    scope.acting_user(viewer, panel.proxy_user_id, req.user)  # an arbitrary user id is refused now
    cache = services().cache
    if cache.incr(f"rpt:lexp-rate:{viewer.link_id}:{viewer.link_client}", ttl=60) > STARTS_PER_MINUTE:
        raise TooManyRequests("reports:export.too_many")
    name = clean_name(file_name or view.title or view.name or "")
    task: dict[str, Any] = {
        "id": secrets.token_urlsafe(18),
        "tenantId": viewer.tenant_id,
        "linkId": viewer.link_id,
        "client": viewer.link_client,
        "panelId": panel.id,
        "viewId": view.id,
        "request": req.model_dump(mode="json", exclude_defaults=True),
        "columns": _clean_columns(columns),
        "sheetMax": max(1, min(int(sheet_max or MAX_ROWS), MAX_ROWS)),
        "fileName": name,
        "locale": current_locale(),
        "status": WAITING,
        "progress": 0,
        "rowCount": 0,
        "errorMsg": "",
        "storageKey": "",
        "createdAt": int(time.time()),
    }
    _save(task)
    services().tasks.submit(run, task["id"])
    return {"exportId": task["id"], "status": WAITING}


def clean_name(raw: str) -> str:
    """A file name without its extension, path parts, control or quote characters ("export" when none)."""
    name = raw.replace("\\", "/").rsplit("/", 1)[-1].strip()
    name = name.rsplit(".", 1)[0] if name.lower().endswith((".xlsx", ".xls", ".csv")) else name
    name = "".join(ch for ch in name if ch.isprintable() and ch not in '"<>:|?*').strip(" .")
    return name[:120] or "export"


def current_locale() -> str:
    return current_context().locale


def _clean_columns(raw: Sequence[Any]) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for item in list(raw)[:500]:
        if isinstance(item, dict) and item.get("key") not in (None, ""):
            key = str(item["key"])[:128]
            out.append({"key": key, "title": str(item.get("title") or item.get("name") or key)[:255]})
    return out


def own_task(viewer: Viewer, export_id: str) -> dict[str, Any]:
    """The task if it is this link client's; anyone else's (or none) is not found."""
    task = _load(export_id)
    if (
        task is None
        or viewer.link_id is None
        or task.get("linkId") != viewer.link_id
        or task.get("client") != viewer.link_client
        or task.get("tenantId") != viewer.tenant_id
    ):
        raise NotFound("reports:export.not_found")
    return task


def describe(task: dict[str, Any]) -> dict[str, Any]:
    """The task as the SDK's export flow polls it (`get-export-result`'s shape)."""
    done = task["status"] == DONE
    return {
        "exportId": task["id"],
        "status": task["status"],
        "progress": task["progress"],
        "fileName": f"{task['fileName']}.xlsx",
        "url": "",
        "downloadUrl": f"dyreport/api/link/export/download?exportId={task['id']}" if done else "",
        "errorMsg": task["errorMsg"],
        "rowCount": task["rowCount"],
    }


def open_file(task: dict[str, Any]) -> Iterator[bytes]:
    """The finished file's bytes, in parts."""
    if task["status"] != DONE or not task.get("storageKey"):
        raise BadRequest("reports:export.not_ready")
    stream = services().storage.get(int(task["tenantId"]), str(task["storageKey"]))

    def chunks() -> Iterator[bytes]:
        try:
            while part := stream.read(256 * 1024):
                yield part
        finally:
            stream.close()

    return chunks()


# ---------------------------------------------------------------------------
# the background run
# ---------------------------------------------------------------------------


def run(export_id: str) -> None:
    """Background task: write one link export (claimed first, so it runs once)."""
    task = _load(export_id)
    if task is None:
        return
    if services().cache.incr(f"rpt:lexp-claim:{export_id}", ttl=RETENTION_SECONDS) != 1:
        return
    token = set_context(RequestContext(locale=task["locale"], tenant_id=int(task["tenantId"])))
    try:
        _update(export_id, status=RUNNING)
        with services().db():
            _write(task)
    except TaskInterrupted:
        services().cache.delete(f"rpt:lexp-claim:{export_id}")
        _update(export_id, status=WAITING, progress=0)
        raise
    except AtriumError as exc:
        _update(export_id, status=FAILED, errorMsg=services().t(exc.key, **exc.params))
    except Exception:
        log.exception("link export failed", export=export_id)
        _update(export_id, status=FAILED, errorMsg=services().t("reports:export.failed"))
    finally:
        reset_context(token)


def _link_viewer(task: dict[str, Any]) -> Viewer:
    """The link as it is now: refused when it was turned off, expired or locked since the task started."""
    state = links.load_state(str(task["linkId"]))
    if state is None or state["tenantId"] != task["tenantId"]:
        raise links.LinkDenied("reports:link.invalid")
    links.admit(state)
    return links.viewer_of(state, str(task["client"]))


def _write(task: dict[str, Any]) -> None:
    from atrium.plugins.reports.api.chart import view_on_panel

    viewer = _link_viewer(task)
    panel, _ = get_panel(str(task["panelId"]), viewer, "export")
    view = viewdef.from_row(view_on_panel(str(task["viewId"]), panel))
    req = DataRequest.model_validate(task["request"])
    user = scope.acting_user(viewer, panel.proxy_user_id, req.user)
    first = exporting.page(view, req, 1, 1, user=user)
    total = int(first["total"])
    if total > MAX_ROWS:
        raise BadRequest("reports:export.too_many_rows", limit=MAX_ROWS)
    source_cols: list[dict[str, Any]] = first["columns"]
    known = {c["key"] for c in source_cols}
    wanted: list[dict[str, str]] = task["columns"]
    if not wanted or any(c["key"] not in known for c in wanted):
        wanted = [{"key": c["key"], "title": str(c["name"])} for c in source_cols]
    with tempfile.TemporaryDirectory(prefix="rpt-link-export-") as tmp:
        path = Path(tmp) / "export.xlsx"
        count = _write_workbook(path, view, req, user, source_cols, wanted, task, total, tmp)
        storage_key = f"{PREFIX}{int(time.time())}-{task['id']}.xlsx"
        with path.open("rb") as fh:
            services().storage.put(int(task["tenantId"]), storage_key, fh, XLSX)
    _update(task["id"], status=DONE, progress=100, rowCount=count, storageKey=storage_key)


def _write_workbook(
    path: Path,
    view: dict[str, Any],
    req: DataRequest,
    user: scope.DataUser,
    source_cols: list[dict[str, Any]],
    wanted: list[dict[str, str]],
    task: dict[str, Any],
    total: int,
    tmp: str,
) -> int:
    """The rows into an .xlsx (constant memory; text a spreadsheet would run as a formula kept as text)."""
    wb = xlsxwriter.Workbook(
        str(path),
        {
            "constant_memory": True,
            "strings_to_formulas": False,
            "strings_to_numbers": False,
            "strings_to_urls": False,
            "nan_inf_to_errors": True,
            "remove_timezone": True,
            "default_date_format": "yyyy-mm-dd hh:mm:ss",
            "tmpdir": tmp,
        },
    )
    try:
        head = wb.add_format({"bold": True, "bg_color": "#F2F4F8", "border": 1})
        quoted = wb.add_format({"quote_prefix": True})
        positions = {c["key"]: i for i, c in enumerate(source_cols)}
        picks = [positions[c["key"]] for c in wanted]
        sheet_max = int(task["sheetMax"])
        title = _sheet_title(str(task["fileName"]))
        sheet, row_no, sheets, count = None, 0, 0, 0
        for _, rows in exporting.iterate(view, req, exporting.PAGE_ROWS, MAX_ROWS, user=user):
            for r in rows:
                if sheet is None or row_no > sheet_max:
                    sheets += 1
                    sheet = wb.add_worksheet(title if sheets == 1 else f"{title[:26]} ({sheets})")
                    sheet.write_row(0, 0, [c["title"] for c in wanted], head)
                    row_no = 1
                for col, pos in enumerate(picks):
                    _cell(sheet, row_no, col, r[pos] if pos < len(r) else None, quoted)
                row_no += 1
                count += 1
                if count % PROGRESS_EVERY == 0:
                    _update(task["id"], progress=min(99, count * 100 // max(total, 1)), rowCount=count)
        if sheet is None:
            sheet = wb.add_worksheet(title)
            sheet.write_row(0, 0, [c["title"] for c in wanted], head)
    finally:
        wb.close()
    return count


def _sheet_title(name: str) -> str:
    cleaned = "".join("_" if ch in "[]:*?/\\" else ch for ch in name).strip("'")
    return (cleaned or "Sheet1")[:31]


def _cell(sheet: Any, row: int, col: int, value: Any, quoted: Any) -> None:
    if value is None:
        return
    if isinstance(value, bool):
        sheet.write_boolean(row, col, value)
    elif isinstance(value, int | float | Decimal):
        sheet.write_number(row, col, float(value))
    elif isinstance(value, datetime | date):
        sheet.write_datetime(row, col, value)
    else:
        text = str(value)
        if text and text[0] in DANGER:
            sheet.write_string(row, col, text, quoted)
        else:
            sheet.write_string(row, col, text)


# ---------------------------------------------------------------------------
# the sweep (scheduled)
# ---------------------------------------------------------------------------


def sweep() -> None:
    """Remove stored link exports older than the retention, in every tenant that has links."""
    cutoff = time.time() - RETENTION_SECONDS
    with unscoped():  # the scheduler runs the job inside a session
        tenants = sorted(set(session().execute(select(PanelLink.tenant_id).distinct()).scalars()))
    storage = services().storage
    for tenant_id in tenants:
        try:
            for obj in storage.list(tenant_id, PREFIX):
                stamp = obj.key[len(PREFIX) :].split("-", 1)[0]
                if stamp.isdigit() and int(stamp) < cutoff:
                    storage.delete(tenant_id, obj.key)
        except AtriumError:  # the store is unreachable now: the next sweep tries again
            log.warning("link export sweep skipped", tenant=tenant_id)
