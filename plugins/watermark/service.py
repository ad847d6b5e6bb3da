"""Watermark settings without HTTP: validation, the lookup for a function and system, placeholders."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from atrium.plugins.watermark import userinfo
from atrium.plugins.watermark.models import WatermarkSetting
from atrium.sdk.context import current_context, current_tenant, current_user
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, NotFound

PLACEHOLDER = re.compile(r"\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}")
USER_FIELDS = (
    "userFullName",
    "account",
    "staffNo",
    "mobile",
    "email",
    "department",
    "tenantName",
    "userId",
    "tenantId",
)
CLOCK_FIELDS = ("date", "time")
PLACEHOLDERS = USER_FIELDS + CLOCK_FIELDS
TYPES = ("dynamic", "static")


@dataclass(frozen=True)
class Look:
    """The settings a save carries (validated by the API's model)."""

    function_code: str
    system_code: str
    fw_content: str
    fw_type: str
    fw_font: str
    fw_font_size: int
    fw_color: str
    fw_rotation_angle: int
    fw_transparent: int
    is_take_effect: int
    is_view: int


def check_template(fw_type: str, fw_content: str) -> None:
    """A dynamic template may use only the known placeholders."""
    if fw_type != "dynamic":
        return
    for name in PLACEHOLDER.findall(fw_content):
        if name not in PLACEHOLDERS:
            raise BadRequest(
                "watermark:placeholder_unknown",
                name=f"{{{name}}}",
                known=" ".join(f"{{{p}}}" for p in PLACEHOLDERS),
            )


def resolve(fw_type: str, fw_content: str, user_id: int, tenant_id: int, now: datetime | None = None) -> str:
    """The text to draw: static text as is; a dynamic template with the user's fields filled in."""
    if fw_type != "dynamic":
        return fw_content
    fields = userinfo.user_fields(user_id, tenant_id)
    moment = now or datetime.now()
    fields["date"] = moment.strftime("%Y-%m-%d")
    fields["time"] = moment.strftime("%H:%M")
    return " ".join(PLACEHOLDER.sub(lambda m: fields.get(m.group(1), m.group(0)), fw_content).split())


def out(row: WatermarkSetting, content: str | None = None) -> dict[str, Any]:
    return {
        "ffwId": str(row.id),
        "ffwFunctionCode": row.function_code,
        "systemCode": row.system_code,
        "tenantId": str(row.tenant_id),
        "content": content if content is not None else row.fw_content,
        "fwContent": row.fw_content,
        "fwType": row.fw_type,
        "fwFont": row.fw_font,
        "fwFontSize": row.fw_font_size,
        "fwColor": row.fw_color,
        "fwRotationAngle": row.fw_rotation_angle,
        "fwTransparent": row.fw_transparent,
        "isTakeEffect": row.is_take_effect,
        "isView": row.is_view,
    }


def find(function_code: str, system_code: str) -> WatermarkSetting | None:
    """The most specific setting of the current tenant: function and system, then function, then system,
    then the tenant-wide one."""
    rows = (
        session()
        .execute(
            select(WatermarkSetting).where(
                WatermarkSetting.function_code.in_({function_code, ""}),
                WatermarkSetting.system_code.in_({system_code, ""}),
            )
        )
        .scalars()
        .all()
    )
    ranked = sorted(rows, key=lambda r: (r.function_code != function_code, r.system_code != system_code))
    return ranked[0] if ranked else None


def for_user(
    function_code: str, system_code: str, tenant_id: int | None, active_only: bool
) -> dict[str, Any] | None:
    """The watermark the signed-in user should see (None: nothing to draw); another tenant's answers None."""
    su = current_user()
    if tenant_id is not None and tenant_id != su.tenant_id:
        return None
    row = find(function_code, system_code or current_context().system_code or su.system_code)
    if row is None or (active_only and not (row.is_take_effect and row.is_view)):
        return None
    return out(row, resolve(row.fw_type, row.fw_content, su.user_id, su.tenant_id))


def settings() -> list[dict[str, Any]]:
    rows = (
        session()
        .execute(
            select(WatermarkSetting).order_by(WatermarkSetting.function_code, WatermarkSetting.system_code)
        )
        .scalars()
        .all()
    )
    return [out(r) for r in rows]


def _check_system(system_code: str) -> None:
    tid = current_tenant()
    if system_code and not userinfo.system_offered(tid, system_code):
        raise NotFound("watermark:system_not_found", systemCode=system_code)


def _by_id(setting_id: int) -> WatermarkSetting:
    """A setting of the current tenant (the scope filters out other tenants' ids, as if unknown)."""
    row = session().execute(select(WatermarkSetting).where(WatermarkSetting.id == setting_id)).scalar()
    if row is None:
        raise NotFound("watermark:not_found", id=setting_id)
    return row


def save(look: Look, setting_id: int | None) -> dict[str, Any]:
    """Create or update a setting (by id, else by function and system); answers it with a preview."""
    su = current_user()
    check_template(look.fw_type, look.fw_content)
    _check_system(look.system_code)
    db = session()
    same_place = db.execute(
        select(WatermarkSetting).where(
            WatermarkSetting.function_code == look.function_code,
            WatermarkSetting.system_code == look.system_code,
        )
    ).scalar()
    if setting_id is not None:
        row = _by_id(setting_id)
        if same_place is not None and same_place.id != row.id:
            raise BadRequest(
                "watermark:duplicate",
                functionCode=look.function_code or "*",
                systemCode=look.system_code or "*",
            )
    else:
        row = same_place or WatermarkSetting()
        if same_place is None:
            db.add(row)
    row.function_code, row.system_code = look.function_code, look.system_code
    row.fw_content, row.fw_type, row.fw_font = look.fw_content, look.fw_type, look.fw_font
    row.fw_font_size, row.fw_color = look.fw_font_size, look.fw_color
    row.fw_rotation_angle, row.fw_transparent = look.fw_rotation_angle, look.fw_transparent
    row.is_take_effect, row.is_view = look.is_take_effect, look.is_view
    row.updated_by = su.user_id
    db.flush()
    return out(row, resolve(row.fw_type, row.fw_content, su.user_id, su.tenant_id))


def delete(setting_id: int) -> None:
    session().delete(_by_id(setting_id))


def preview(fw_type: str, fw_content: str) -> str:
    """The text a template gives for the signed-in user (the editor's live preview)."""
    su = current_user()
    check_template(fw_type, fw_content)
    return resolve(fw_type, fw_content, su.user_id, su.tenant_id)
