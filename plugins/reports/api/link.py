"""Routes of shared links (public: the tenant comes from the link) and their management."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field
from starlette.responses import Response, StreamingResponse

from atrium.plugins.reports.exchange import link_export as link_export_tasks
from atrium.plugins.reports.models import Panel, PanelLink
from atrium.plugins.reports.settings import (
    REQUIRE_LINK_PASSWORD,
    links_need_password,
    save_tenant_settings,
    tenant_settings,
)
from atrium.plugins.reports.store import links, panels
from atrium.plugins.reports.store.access import LINK_HEADER, Viewer, get_panel, session_viewer, viewer_scope
from atrium.sdk import audit
from atrium.sdk.context import current_context
from atrium.sdk.errors import BadRequest, NotFound
from atrium.sdk.routing import Router

router = Router("/api/dyreport")


class ValidateBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    link: str = Field(max_length=128)
    systemCode: str | None = Field(default=None, max_length=64)
    user: int | str | None = None


class PasswordBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    password: Any = None
    resourceId: str | None = Field(default=None, max_length=64)
    link: str | None = Field(default=None, max_length=128)
    user: int | None = None


class LinkUpdate(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str = Field(max_length=64)
    valid: bool | None = None
    enablePwd: bool | None = None
    pwd: str | None = Field(default=None, max_length=8)
    overTime: int | None = Field(default=None, ge=0)
    clearOverTime: bool = False
    unlock: bool = False
    allowEmbed: bool | None = None
    #: sites (https://host[:port]) that may frame the link page while allowEmbed is on
    embedOrigins: list[Any] | None = Field(default=None, max_length=100)


@router.get("/link/{id}", public=True)
def resolve(id: str) -> dict[str, Any]:  # noqa: A002
    """The link id as the link page needs it: link, user, systemCode."""
    state = links.load_state(id)
    if state is None:
        raise NotFound("reports:link.invalid")
    return {"link": state["id"], "user": state["userId"], "systemCode": current_context().system_code or None}


@router.post("/api/link/validate", public=True, body=ValidateBody)
def validate(body: ValidateBody) -> dict[str, Any]:
    """hasPermission, resourceId, valid, enablePwd, passPwd, expire, locked, and a `linkToken` when the
    client may open the panel now."""
    return links.validate(body.link, current_context().headers.get(LINK_HEADER, "").strip())


@router.post("/api/link/validatePwd", public=True, body=PasswordBody)
def validate_pwd(body: PasswordBody) -> Any:
    """Falsy data for a wrong password; `{linkToken}` for the right one."""
    if not isinstance(body.password, str) or not body.password:
        raise BadRequest("reports:link.password_required")
    return links.validate_password(body.link, body.resourceId, body.password, body.user)


@router.get("/api/link/resourceDetail/{id}", public=True)
def resource_detail(id: str) -> dict[str, Any]:  # noqa: A002
    """The link's panel: id, name, privileges, panelData, panelStyle (needs the link's token)."""
    with viewer_scope() as viewer:
        if viewer.link_id is not None and id != viewer.link_panel_id:
            raise NotFound("reports:panel.not_found")
        panel, privs = get_panel(id, viewer)
        return panels.panel_public(panel, privs)


class LinkExportBody(BaseModel):
    """The export task the SDK's export flow creates (spec 7.2), for the link's panel."""

    model_config = ConfigDict(extra="ignore")
    url: str = Field(min_length=1, max_length=512)
    fileName: str = Field(default="", max_length=128)
    excelType: str = Field(default="xlsx", pattern=r"^xlsx$")
    singleSheetMaxRows: int = Field(default=100_000, ge=1, le=1_000_000)
    columnList: list[Any] = Field(default_factory=list, max_length=500)
    params: Any = None


class LinkExportQuery(BaseModel):
    exportId: str = Field(min_length=10, max_length=64)


def _link_client() -> str:
    """The link token of the call (a link's export is proven by it alone, never by a session)."""
    token = current_context().headers.get(LINK_HEADER, "").strip()
    if not token:
        raise links.LinkDenied("reports:link.token")
    return token


@router.post("/api/link/export", public=True, body=LinkExportBody)
def link_export(body: LinkExportBody) -> dict[str, Any]:
    """Start an Excel export of a view of the link's panel (header `linkToken`): `{exportId, status: 0}`;
    poll `api/link/export/result` once a second until `status` is 2."""
    _link_client()
    with viewer_scope() as viewer:
        return link_export_tasks.start(
            viewer,
            url=body.url,
            file_name=body.fileName,
            columns=body.columnList,
            params=body.params,
            sheet_max=body.singleSheetMaxRows,
        )


@router.post("/api/link/export/result", public=True, query=LinkExportQuery)
def link_export_result(query: LinkExportQuery) -> dict[str, Any]:
    """The state of the caller's own link export: status (2 done, 3 failed), progress, `downloadUrl`,
    `errorMsg`. Another client's export is not found."""
    _link_client()
    with viewer_scope() as viewer:
        return link_export_tasks.describe(link_export_tasks.own_task(viewer, query.exportId))


@router.get("/api/link/export/download", public=True, query=LinkExportQuery)
def link_export_download(query: LinkExportQuery) -> Response:
    """The finished file of the caller's own link export (header `linkToken` of the client that started
    it)."""
    _link_client()
    with viewer_scope() as viewer:
        task = link_export_tasks.own_task(viewer, query.exportId)
        chunks = link_export_tasks.open_file(task)
    name = f"{task['fileName']}.xlsx"
    return StreamingResponse(
        chunks,
        media_type=link_export_tasks.XLSX,
        headers={
            "content-disposition": f"attachment; filename=\"export.xlsx\"; filename*=UTF-8''{quote(name)}",
            "x-content-type-options": "nosniff",
            "cache-control": "no-store",
        },
    )


def _answer(link: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """A link as the share dialog reads it, with whether the tenant requires a password on every link and
    whether the caller may change that rule (tenant administrators)."""
    return {**link, "pwdRequired": links_need_password(viewer.tenant_id), "canRequirePwd": viewer.is_admin}


@router.post("/api/link/currentGenerator/{panelId}")
def current_generator(panelId: str) -> dict[str, Any]:  # noqa: N803
    """The caller's link to a panel they manage; before it is enabled, an unshared state with no id (opening
    the share dialog writes nothing and makes nothing public)."""
    viewer = session_viewer()
    panel = links.require_manage(panelId, viewer)
    found = links.find_link(panel, viewer)
    shown = links.link_public(found) if found is not None else links.unshared_public(panel, viewer)
    return _answer(shown, viewer)


class EnableBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    #: the link's four-digit password, set as it is turned on (needed when the tenant requires one)
    pwd: str | None = Field(default=None, max_length=8)


@router.post("/api/link/enable/{panelId}", body=EnableBody)
def enable(panelId: str, body: EnableBody) -> dict[str, Any]:  # noqa: N803
    """Turn the caller's link to a panel they manage on (made on first use), answering it with its address;
    with `pwd`, behind that password. A tenant that requires passwords refuses a link without one."""
    viewer = session_viewer()
    panel = links.require_manage(panelId, viewer)
    found = links.find_link(panel, viewer)
    was_on = found is not None and found.valid
    if body.pwd is not None and not links.PASSWORD.match(body.pwd):
        raise BadRequest("reports:link.password_format")
    protected = found is not None and found.enable_pwd
    if not body.pwd and not protected and links_need_password(viewer.tenant_id):
        raise BadRequest("reports:link.password_required_by_tenant")
    link = links.enable_link(panel, viewer)
    audit.record(
        "reports.link.enable",
        target_type="panel",
        target_id=panel.id,
        target_name=panel.name,
        before={"valid": was_on},
        after={"valid": True},
    )
    if body.pwd:
        old = _audited(link)
        links.update(link, enable_pwd=True, password=body.pwd)
        _audit_update(panel, old, _audited(link))
    return _answer(links.link_public(link), viewer)


class LinkRef(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str = Field(max_length=64)


@router.post("/api/link/rotate", body=LinkRef)
def rotate(body: LinkRef) -> dict[str, Any]:
    """A new address for the caller's link; the old one answers as an invalid link from now on."""
    viewer = session_viewer()
    link = links.get_link(body.id)
    panel = links.require_manage(link.panel_id, viewer)
    fresh = links.rotate(link)
    # the addresses themselves open the panel: they are not recorded
    audit.record("reports.link.rotate", target_type="panel", target_id=panel.id, target_name=panel.name)
    return _answer(links.link_public(fresh), viewer)


@router.post("/api/link/update", body=LinkUpdate)
def update(body: LinkUpdate) -> dict[str, Any]:
    """Enable or disable a link, switch or reset its password (also unlocks), set or clear its expiry,
    allow or forbid other sites to embed it (and which)."""
    viewer = session_viewer()
    link = links.get_link(body.id)
    panel = links.require_manage(link.panel_id, viewer)
    if links_need_password(viewer.tenant_id):
        protected = link.enable_pwd if body.enablePwd is None else body.enablePwd
        if body.enablePwd is False or (body.valid and not protected):
            raise BadRequest("reports:link.password_required_by_tenant")
    old = _audited(link)
    over: Any = False
    if body.clearOverTime:
        over = None
    elif body.overTime is not None:
        over = datetime.fromtimestamp(body.overTime / 1000, UTC).replace(tzinfo=None)
    links.update(
        link,
        valid=body.valid,
        enable_pwd=body.enablePwd,
        password=body.pwd,
        over_time=over,
        unlock=body.unlock,
        allow_embed=body.allowEmbed,
        embed_origins=body.embedOrigins,
    )
    _audit_update(panel, old, _audited(link))
    return _answer(links.link_public(link), viewer)


class ReportSettingsBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    requireLinkPassword: bool


@router.get("/settings", permission="admin")
def get_settings() -> dict[str, Any]:
    """The tenant's reports settings: `requireLinkPassword` (tenant administrators)."""
    return tenant_settings(session_viewer().tenant_id)


@router.post("/settings", permission="admin", body=ReportSettingsBody)
def set_settings(body: ReportSettingsBody) -> dict[str, Any]:
    """Require (or stop requiring) a password on every shared link of the tenant (tenant administrators).
    Links already on without a password stay as they are until they are turned on again."""
    tenant_id = session_viewer().tenant_id
    before = tenant_settings(tenant_id)
    after = save_tenant_settings(tenant_id, body.requireLinkPassword)
    if before != after:
        audit.record(
            "reports.settings.save",
            target_type="plugin",
            target_id="reports",
            target_name="reports",
            before={REQUIRE_LINK_PASSWORD: before[REQUIRE_LINK_PASSWORD]},
            after={REQUIRE_LINK_PASSWORD: after[REQUIRE_LINK_PASSWORD]},
        )
    return after


def _audited(link: PanelLink) -> dict[str, Any]:
    """A link's settings as the audit trail compares them (the password only to tell set from changed: the
    trail records a marker, never the value)."""
    out = links.link_public(link)
    over = out["overTime"]
    return {
        "valid": out["valid"],
        "enablePwd": out["enablePwd"],
        "pwd": out["pwd"],
        "locked": out["locked"],
        "overTime": datetime.fromtimestamp(over / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC") if over else None,
        "allowEmbed": out["allowEmbed"],
        "embedOrigins": out["embedOrigins"],
    }


def _audit_update(panel: Panel, old: dict[str, Any], new: dict[str, Any]) -> None:
    """One record per kind of change: turned on or off, password set, changed or removed, expiry, embedding,
    unlocked."""
    target: dict[str, Any] = {"target_type": "panel", "target_id": panel.id, "target_name": panel.name}

    def part(*keys: str) -> tuple[dict[str, Any], dict[str, Any]]:
        return {k: old[k] for k in keys}, {k: new[k] for k in keys}

    if old["valid"] != new["valid"]:
        before, after = part("valid")
        if new["valid"]:
            audit.record("reports.link.enable", before=before, after=after, **target)
        else:
            audit.record("reports.link.disable", before=before, after=after, **target)
    if old["enablePwd"] != new["enablePwd"] or old["pwd"] != new["pwd"]:
        before, after = part("enablePwd", "pwd")
        if not new["enablePwd"]:
            audit.record("reports.link.password.remove", before=before, after=after, **target)
        elif not old["enablePwd"]:
            audit.record("reports.link.password.set", before=before, after=after, **target)
        else:
            audit.record("reports.link.password.change", before=before, after=after, **target)
    if old["overTime"] != new["overTime"]:
        before, after = part("overTime")
        audit.record("reports.link.expiry", before=before, after=after, **target)
    if old["allowEmbed"] != new["allowEmbed"] or old["embedOrigins"] != new["embedOrigins"]:
        before, after = part("allowEmbed", "embedOrigins")
        audit.record("reports.link.embed", before=before, after=after, **target)
    if old["locked"] and not new["locked"] and old["pwd"] == new["pwd"]:
        before, after = part("locked")
        audit.record("reports.link.unlock", before=before, after=after, **target)
