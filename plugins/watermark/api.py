"""The watermark service's HTTP API (`/api/watermark`): the shell's lookup, file previews stamped with the
watermark, and the admin screen's calls."""

from __future__ import annotations

import urllib.parse
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from atrium.plugins.watermark import preview, service, sources
from atrium.sdk.context import current_user
from atrium.sdk.errors import BadRequest, Forbidden
from atrium.sdk.routing import Router
from atrium.sdk.services import services

router = Router("/api/watermark")

Code = Annotated[str, StringConstraints(strip_whitespace=True, max_length=64, pattern=r"^[A-Za-z0-9_.:-]*$")]
Flag = Annotated[int, Field(ge=0, le=1)]


class WatermarkQuery(BaseModel):
    ffwFunctionCode: Code = ""
    flag: Flag = Field(default=1, description="1: only a watermark in effect and shown; 0: as stored")
    tenantId: int | None = None
    systemCode: Code = ""


class WatermarkOut(BaseModel):
    ffwId: str
    ffwFunctionCode: str
    systemCode: str
    tenantId: str
    content: str = Field(description="the text to draw, placeholders filled in for the signed-in user")
    fwContent: str
    fwType: Literal["dynamic", "static"]
    fwFont: str
    fwFontSize: int
    fwColor: str
    fwRotationAngle: int
    fwTransparent: int
    isTakeEffect: int
    isView: int


@router.get(
    "/iotBaseFuncWaterController/get-system-watermark", query=WatermarkQuery, response=WatermarkOut | None
)
def get_system_watermark(query: WatermarkQuery) -> dict[str, Any] | None:
    """The watermark for a function and system of the signed-in user's tenant; null when none applies."""
    return service.for_user(
        query.ffwFunctionCode, query.systemCode, query.tenantId, active_only=query.flag == 1
    )


class FilePreviewIn(BaseModel):
    fileId: int | None = Field(
        default=None, ge=1, le=2**63 - 1, description="the attachment's id; or give `url`"
    )
    url: str = Field(
        default="",
        max_length=2048,
        description="the attachment's own address here (its filePath, or a signed one)",
    )
    funcCode: Code = Field(default="", description="the function whose watermark is stamped")
    systemCode: Code = ""
    watermark: Annotated[str, StringConstraints(strip_whitespace=True, max_length=200)] = Field(
        default="", description="text stamped instead of the function's watermark (administrators only)"
    )


@router.post("/iotBaseFuncWaterController/preview-file", body=FilePreviewIn)
async def preview_file(body: FilePreviewIn) -> Response:
    """A file of the caller's tenant with the function's watermark stamped into it: an image as an image,
    a PDF or an office document as a PDF (the envelope with an error otherwise). What it needs is read in
    a session of its own, closed before the file is converted and stamped (seconds for an office file)."""
    if body.watermark and not current_user().is_admin:
        raise Forbidden("watermark:preview.override_forbidden")
    if (body.fileId is None) == (not body.url):
        raise BadRequest("watermark:preview.one_file")
    found = await run_in_threadpool(_read_in_session, body)
    shown = found if isinstance(found, preview.Preview) else await run_in_threadpool(preview.render, found)
    quoted = urllib.parse.quote(shown.filename, safe="")
    plain = shown.filename.encode("ascii", "replace").decode().replace('"', "_").replace("?", "_")
    return Response(
        shown.content,
        media_type=shown.media_type,
        headers={
            "content-disposition": f"inline; filename=\"{plain}\"; filename*=UTF-8''{quoted}",
            "x-content-type-options": "nosniff",
            "cache-control": "private, no-store",
            "x-watermark-stamped": "1" if shown.stamped else "0",
            "x-watermark-cache": "hit" if shown.cached else "miss",
        },
    )


def _read_in_session(body: FilePreviewIn) -> preview.Preview | preview.Pending:
    """The file, the stamp and the stored copy, read in a session committed and closed on return."""
    with services().db():
        source = sources.by_id(body.fileId) if body.fileId is not None else sources.by_url(body.url)
        mark = preview.watermark_for(body.funcCode, body.systemCode, body.watermark)
        return preview.read(source, mark)


class WatermarkIn(BaseModel):
    ffwId: int | None = None
    ffwFunctionCode: Code = ""
    systemCode: Code = ""
    fwContent: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
    fwType: Literal["dynamic", "static"] = "dynamic"
    fwFont: Annotated[
        str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64, pattern=r"^[\w\s,'\"-]+$")
    ] = "Microsoft YaHei"
    fwFontSize: int = Field(default=18, ge=10, le=48)
    fwColor: Annotated[
        str,
        StringConstraints(
            strip_whitespace=True,
            pattern=r"^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}|rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}"
            r"\s*(,\s*(0|1|0?\.\d+)\s*)?\))$",
        ),
    ] = "#000000"
    fwRotationAngle: int = Field(default=-20, ge=-90, le=90)
    fwTransparent: int = Field(default=85, ge=0, le=100, description="transparency in percent: 0 opaque")
    isTakeEffect: Flag = 1
    isView: Flag = 1


class WatermarkIdIn(BaseModel):
    ffwId: int


class WatermarkPreviewIn(BaseModel):
    fwType: Literal["dynamic", "static"] = "dynamic"
    fwContent: Annotated[str, StringConstraints(max_length=200)] = ""


@router.get("/admin/settings", permission="admin")
def admin_settings() -> dict[str, Any]:
    """The tenant's watermark settings and the placeholders a dynamic template may use (administrators)."""
    return {"list": service.settings(), "placeholders": list(service.PLACEHOLDERS)}


@router.post("/admin/save", permission="admin", body=WatermarkIn, response=WatermarkOut)
def admin_save(body: WatermarkIn) -> dict[str, Any]:
    """Create or update a setting (administrators); answers it with `content` resolved for the caller."""
    look = service.Look(
        function_code=body.ffwFunctionCode,
        system_code=body.systemCode,
        fw_content=body.fwContent,
        fw_type=body.fwType,
        fw_font=body.fwFont,
        fw_font_size=body.fwFontSize,
        fw_color=body.fwColor,
        fw_rotation_angle=body.fwRotationAngle,
        fw_transparent=body.fwTransparent,
        is_take_effect=body.isTakeEffect,
        is_view=body.isView,
    )
    return service.save(look, body.ffwId)


@router.post("/admin/delete", permission="admin", body=WatermarkIdIn)
def admin_delete(body: WatermarkIdIn) -> None:
    """Delete a setting (administrators)."""
    service.delete(body.ffwId)


@router.post("/admin/preview", permission="admin", body=WatermarkPreviewIn)
def admin_preview(body: WatermarkPreviewIn) -> dict[str, str]:
    """The text a template gives for the signed-in administrator (live preview)."""
    return {"content": service.preview(body.fwType, body.fwContent)}
