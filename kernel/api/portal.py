"""Portal service: favourites and feedback."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field, field_validator
from sqlalchemy import select

from atrium.kernel import menus
from atrium.kernel.api.deps import kernel
from atrium.kernel.models import DEFAULT_SYSTEM, DictItem, Favourite, Feedback
from atrium.sdk.context import current_context, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, NotFound
from atrium.sdk.routing import Router

router = Router("/api/portal")


@router.post("/portal-favourite/find-list-user")
def find_favourites() -> list[dict[str, Any]]:
    """The user's favourites in the current tenant."""
    su = current_context().require_user()
    rows = (
        session()
        .execute(select(Favourite).where(Favourite.user_id == su.user_id).order_by(Favourite.id.desc()))
        .scalars()
        .all()
    )
    visible = {m.id: m for m in menus.visible_menus(kernel(), su, su.system_code or DEFAULT_SYSTEM)}
    return [
        {
            "favouriteId": str(f.id),
            "menuId": str(f.menu_id),
            "functionUrl": f.function_url,
            "params": f.params,
            "menuName": visible[f.menu_id].name if f.menu_id in visible else "",
            "menuEnName": menus.menu_item(visible[f.menu_id])["menuEnName"] if f.menu_id in visible else "",
        }
        for f in rows
    ]


class FavouriteIn(BaseModel):
    menuId: int | None = None
    functionUrl: str = Field(default="", max_length=512)
    params: str | dict[str, Any] = ""

    @field_validator("params")
    @classmethod
    def _params(cls, v: str | dict[str, Any]) -> str:
        text = json.dumps(v, ensure_ascii=False) if isinstance(v, dict) else v
        if len(text) > 2000:
            raise ValueError("too long")
        return text


@router.post("/portal-favourite/save-one-click", body=FavouriteIn)
def save_favourite(body: FavouriteIn) -> dict[str, str]:
    """Collect a page; only pages opened from a menu the user can see may be favourited."""
    su = current_context().require_user()
    url = body.functionUrl.strip().lstrip("/")
    visible = {m.id for m in menus.visible_menus(kernel(), su, su.system_code or DEFAULT_SYSTEM)}
    if body.menuId is None or body.menuId not in visible or not url or url in ("home", "login"):
        raise BadRequest("favourite.not_allowed")
    db = session()
    existing = db.execute(
        select(Favourite).where(
            Favourite.user_id == su.user_id, Favourite.menu_id == body.menuId, Favourite.function_url == url
        )
    ).scalar()
    if existing is None:
        existing = Favourite(
            user_id=su.user_id, menu_id=body.menuId, function_url=url, params=str(body.params)
        )
        db.add(existing)
        db.flush()
    return {"favouriteId": str(existing.id)}


class IdQuery(BaseModel):
    id: int


@router.get("/portal-favourite/delete-id", query=IdQuery)
def delete_favourite(query: IdQuery) -> None:
    """Remove a favourite of the user."""
    su = current_context().require_user()
    db = session()
    row = db.execute(
        select(Favourite).where(Favourite.id == query.id, Favourite.user_id == su.user_id)
    ).scalar()
    if row is None:
        raise NotFound("favourite.not_found")
    db.delete(row)


class FeedbackIn(BaseModel):
    ibeOutside: str = Field(default="", max_length=64)
    ibeFunctionName: str = Field(default="", max_length=128)
    ibeServiceUrl: str = Field(default="", max_length=1024)
    ibeDeviceType: str = Field(default="PC", max_length=16)
    ibeExceptionDesc: str = Field(default="", max_length=200)
    fileIds: list[str] = Field(default_factory=list, max_length=9)


@router.post("/base-exception/save", body=FeedbackIn)
def save_feedback(body: FeedbackIn) -> dict[str, str]:
    """Submit feedback: a reason from FEEDBACK_DIC, an optional description of at most 200 characters."""
    su = current_context().require_user()
    if not body.ibeOutside.strip():
        raise BadRequest("feedback.reason_required")
    with unscoped():
        reason = (
            session()
            .execute(
                select(DictItem).where(
                    DictItem.dic_type == "FEEDBACK_DIC", DictItem.dic_code == body.ibeOutside
                )
            )
            .scalar()
        )
    if reason is None:
        raise BadRequest("feedback.reason_unknown")
    if any(len(f) > 64 for f in body.fileIds):
        raise BadRequest("feedback.file_invalid")
    row = Feedback(
        user_id=su.user_id,
        outside=body.ibeOutside,
        function_name=body.ibeFunctionName.strip(),
        service_url=body.ibeServiceUrl.strip(),
        device_type="PC",
        description=body.ibeExceptionDesc.strip(),
        file_ids=body.fileIds,
    )
    session().add(row)
    session().flush()
    return {"id": str(row.id)}
