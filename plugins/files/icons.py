"""Custom icons: a tenant's own icons plus the platform's shared ones, with the spec's permission rule.

Saving, changing and deleting icons needs the `icon:manage` button (administrators hold every button).
Edit and delete are allowed when the user is an administrator signed into the platform tenant (-999), or an
administrator of the icon's tenant; a holder of the button who is not an administrator may change only
icons they created.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from atrium.sdk.context import SessionUser, current_context, tenant_scope
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, Forbidden, NotFound
from atrium.sdk.grants import holds_grant

from .models import Attachment, CustomIcon
from .service import by_url, file_path, get_attachment, remove_attachment, signed_url

PLATFORM_TENANT_ID = -999
ICON_POLICIES = ("icon", "image")
MANAGE = "icon:manage"


def can_edit(icon: CustomIcon, user: SessionUser, manager: bool = True) -> bool:
    """Whether `user` may change `icon`; `manager`: whether they hold the `icon:manage` button."""
    if user.is_admin:
        return user.tenant_id == PLATFORM_TENANT_ID or user.tenant_id == icon.tenant_id
    return manager and icon.tenant_id == user.tenant_id and icon.created_by == user.user_id


def _attachment_of(icon: CustomIcon) -> Attachment | None:
    with tenant_scope(icon.tenant_id):
        att: Attachment | None = session().get(Attachment, icon.file_id)
        return att


def describe(icon: CustomIcon, user: SessionUser, manager: bool = True) -> dict[str, Any]:
    att = _attachment_of(icon)
    return {
        "ciId": icon.id,
        "iconName": icon.icon_name,
        "iconFormat": icon.icon_format,
        "iconUrl": file_path(att) if att else "",
        "iconSrc": signed_url(att) if att else "",
        "tenantId": icon.tenant_id,
        "createdBy": icon.created_by,
        "fileId": icon.file_id,
        "canEdit": can_edit(icon, user, manager),
    }


def list_icons() -> list[dict[str, Any]]:
    user = current_context().require_user()
    db = session()
    icons = list(db.execute(select(CustomIcon).order_by(CustomIcon.sort, CustomIcon.id)).scalars())
    if user.tenant_id != PLATFORM_TENANT_ID:
        with tenant_scope(PLATFORM_TENANT_ID):
            icons += list(db.execute(select(CustomIcon).order_by(CustomIcon.sort, CustomIcon.id)).scalars())
    manager = holds_grant(MANAGE)
    return [describe(i, user, manager) for i in icons]


def _find(ci_id: int) -> CustomIcon:
    """The icon the user may see: their tenant's, else a platform icon; another tenant's is not found."""
    user = current_context().require_user()
    db = session()
    icon = db.get(CustomIcon, ci_id)
    if icon is None and user.tenant_id != PLATFORM_TENANT_ID:
        with tenant_scope(PLATFORM_TENANT_ID):
            icon = db.get(CustomIcon, ci_id)
    if icon is None:
        raise NotFound("files:icon.not_found")
    if not can_edit(icon, user):
        raise Forbidden("files:icon.forbidden")
    return icon


def _icon_file(file_id: int | None, icon_url: str) -> Attachment:
    try:
        att = get_attachment(file_id) if file_id else by_url(icon_url) if icon_url else None
    except NotFound:
        att = None
    if att is None or att.policy not in ICON_POLICIES or not att.content_type.startswith("image/"):
        raise BadRequest("files:icon.file_required")
    return att


def save_icon(icon_name: str, file_id: int | None, icon_url: str) -> dict[str, Any]:
    user = current_context().require_user()
    att = _icon_file(file_id, icon_url)
    db = session()
    icon = CustomIcon(
        icon_name=icon_name, icon_format=att.content_type, file_id=att.id, created_by=user.user_id
    )
    db.add(icon)
    db.flush()
    return describe(icon, user)


def update_icon(ci_id: int, icon_name: str, file_id: int | None, icon_url: str) -> dict[str, Any]:
    user = current_context().require_user()
    icon = _find(ci_id)
    with tenant_scope(icon.tenant_id):
        if (file_id and file_id != icon.file_id) or (icon_url and not file_id):
            att = _icon_file(file_id, icon_url)
            if att.id != icon.file_id:
                old = icon.file_id
                icon.file_id, icon.icon_format = att.id, att.content_type
                session().flush()
                _drop_file_if_unused(old)
        icon.icon_name = icon_name
        session().flush()
    return describe(icon, user)


def delete_icon(ci_id: int) -> None:
    icon = _find(ci_id)
    with tenant_scope(icon.tenant_id):
        file_id = icon.file_id
        session().delete(icon)
        session().flush()
        _drop_file_if_unused(file_id)


def _drop_file_if_unused(file_id: int) -> None:
    db = session()
    used = db.execute(
        select(func.count()).select_from(CustomIcon).where(CustomIcon.file_id == file_id)
    ).scalar_one()
    att = db.get(Attachment, file_id)
    if not used and att is not None:
        remove_attachment(att)
