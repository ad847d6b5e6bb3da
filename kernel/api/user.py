"""The signed-in user: profile, account, password, personal centre, default system."""

from __future__ import annotations

import io
from functools import partial
from typing import Any

from PIL import Image, UnidentifiedImageError
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response

from atrium.kernel import profiles
from atrium.kernel.api.deps import kernel
from atrium.kernel.identity.password_rule import rule_of
from atrium.kernel.identity.passwords import hash_password, verify_password
from atrium.kernel.identity.service import EMAIL, PHONE, decode_magic, normalise_phone
from atrium.kernel.identity.sessions import revoke_user
from atrium.kernel.models import DEFAULT_SYSTEM, User
from atrium.kernel.systems import check_system_usable
from atrium.sdk.audit import record as audit_record
from atrium.sdk.context import SessionUser, current_context, unscoped
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import BadRequest, NotFound, NotLoggedIn
from atrium.sdk.routing import Router

router = Router("/api/base")
account_router = Router()
AVATAR_MAX = 2 * 1024 * 1024


def _me() -> User:
    su = current_context().require_user()
    with unscoped():
        user = session().get(User, su.user_id)
    if user is None:
        raise NotLoggedIn()
    return user


@router.get("/base-user/get-login-user")
async def get_login_user() -> dict[str, Any]:
    """The current user's profile (cached in process; dropped on every change)."""
    ctx = current_context()
    su = ctx.require_user()
    k = kernel()
    key = (su.user_id, su.tenant_id, su.system_code, su.is_supervisor)
    profile = k.local.get(profiles.PROFILES, key)
    if profile is None:
        build = partial(k.run_in_session, profiles.build_profile, {"su": su})
        profile = await k.local.fill(profiles.PROFILES, key, build)
    return profile  # type: ignore[no-any-return]


@account_router.get("/api/account")
def account() -> dict[str, Any]:
    """Account info; a user without an authority is refused with the spec's message."""
    su = current_context().require_user()
    user = _me()
    authority = (
        "SYS_ADMIN" if user.is_super_admin else ("TENANT_ADMIN" if su.is_supervisor else "CUSTOMER_USER")
    )
    if not authority:
        raise BadRequest("account.no_authority")
    return {
        "id": str(user.id),
        "firstName": user.first_name,
        "lastName": user.last_name,
        "phone": user.mobile,
        "email": user.email,
        "avatar": user.avatar_url,
        "authority": authority,
        "customerId": str(su.tenant_id),
        "additionalInfo": {"lang": user.lang, "department": user.department},
    }


@router.get("/base-user/check-pwd-login")
def check_pwd_login() -> dict[str, Any]:
    """Whether the password dialog should pop, and whether it may be closed (optType 2)."""
    return profiles.password_info(current_context().require_user(), kernel())


@router.get("/tenant-pwd-strategy/find-pwd-msg")
def find_pwd_msg() -> dict[str, Any]:
    """The tenant's password rules as a tip."""
    su = current_context().require_user()
    return rule_of(su.tenant_id).answer(kernel().t)


class UpdatePwdIn(BaseModel):
    oldMagic: str = Field(default="", max_length=256)
    magic: str = Field(default="", max_length=256)
    confirmMagic: str = Field(default="", max_length=256)


def check_new_password(new: str, tenant_id: int) -> None:
    rule = rule_of(tenant_id)
    if not new:
        raise BadRequest("password.new_required")
    if len(new) < rule.min_length:
        raise BadRequest("password.too_short", min=rule.min_length)
    rule.check(new)


@router.post("/base-user/update-pwd", body=UpdatePwdIn)
def update_pwd(body: UpdatePwdIn) -> Response | None:
    """Change the password; every session of the user is revoked and they sign in again."""
    su = current_context().require_user()
    old = decode_magic(body.oldMagic).strip() if body.oldMagic else ""
    new = decode_magic(body.magic).strip() if body.magic else ""
    confirm = decode_magic(body.confirmMagic).strip() if body.confirmMagic else ""
    if not old:
        raise BadRequest("password.old_required")
    check_new_password(new, su.tenant_id)
    if not confirm:
        raise BadRequest("password.confirm_required")
    if confirm != new:
        raise BadRequest("password.not_match")
    user = _me()
    if not verify_password(user.password_hash, old):
        raise BadRequest("password.old_wrong")
    if old == new:
        raise BadRequest("password.same")
    user.password_hash = hash_password(new)
    user.pwd_changed_at = utcnow()
    user.must_change_pwd = False
    revoke_user(session(), kernel(), user.id, "password changed")
    audit_record(
        "user.password.change",
        target_type="user",
        target_id=user.id,
        target_name=f"{user.full_name} ({user.account})" if user.full_name else user.account,
        before={"password": old},
        after={"password": new},
        tenant_id=su.tenant_id,
    )
    profiles.invalidate_user(kernel(), user.id)
    return None


class UpdateInfoIn(BaseModel):
    model_config = ConfigDict(str_strip_whitespace=True)  # a blank name is an empty one

    userFullName: str | None = Field(default=None, min_length=1, max_length=64)
    mobile: str | None = Field(default=None, max_length=32)
    email: str | None = Field(default=None, max_length=128)
    department: str | None = Field(default=None, max_length=64)
    avatarUrl: str | None = Field(default=None, max_length=512)
    lang: str | None = Field(default=None, max_length=8)


@router.post("/base-user/update-info", body=UpdateInfoIn)
def update_info(body: UpdateInfoIn) -> dict[str, Any]:
    """Personal centre: change name, mobile, e-mail, department, avatar or language."""
    user = _me()
    changes = {k: v.strip() for k, v in body.model_dump(exclude_none=True).items()}
    if "mobile" in changes and changes["mobile"] and not PHONE.match(changes["mobile"]):
        raise BadRequest("login.phone_invalid")
    if changes.get("mobile"):
        changes["mobile"] = normalise_phone(changes["mobile"])  # stored as the code sign-in looks it up
    if "email" in changes and changes["email"] and not EMAIL.match(changes["email"]):
        raise BadRequest("login.email_invalid")
    if "avatarUrl" in changes and changes["avatarUrl"] and not changes["avatarUrl"].startswith("/api/base/"):
        raise BadRequest("person.avatar_invalid")
    if "lang" in changes:
        from atrium.kernel.i18n import normalise_locale

        changes["lang"] = normalise_locale(changes["lang"])
    fields = {
        "userFullName": "full_name",
        "mobile": "mobile",
        "email": "email",
        "department": "department",
        "avatarUrl": "avatar_url",
        "lang": "lang",
    }
    changed = {f: v for f, v in changes.items() if getattr(user, fields[f]) != v}
    if not changed:
        raise BadRequest("person.no_changes")
    for f, v in changed.items():
        setattr(user, fields[f], v)
    profiles.invalidate_user(kernel(), user.id)
    return {"changed": sorted(changed)}


@router.post("/base-user/upload-avatar", raw=True, multipart=True)
async def upload_avatar(request: Request) -> dict[str, str]:
    """Upload an avatar (PNG or JPEG, at most 2 MB): it becomes the user's avatar; answers its URL."""
    su = current_context().require_user()
    form = await request.form(max_files=1, max_fields=5)
    upload = form.get("file")
    if not isinstance(upload, UploadFile):
        raise BadRequest("person.avatar_required")
    data = await upload.read(AVATAR_MAX + 1)
    if len(data) > AVATAR_MAX:
        raise BadRequest("upload.too_big", limit="2MB")
    try:
        img = Image.open(io.BytesIO(data))
        fmt = img.format
        img.verify()
    except (UnidentifiedImageError, OSError, SyntaxError) as exc:
        raise BadRequest("upload.image_type") from exc
    if fmt not in ("PNG", "JPEG"):
        raise BadRequest("upload.image_type")
    k = kernel()
    url = await run_in_threadpool(
        k.run_in_session, _save_avatar, {"su": su, "data": data, "suffix": "png" if fmt == "PNG" else "jpg"}
    )
    return {"url": url}


def _save_avatar(su: SessionUser, data: bytes, suffix: str) -> str:
    """Store the picture and make it the user's avatar at once (the personal centre shows it next)."""
    k = kernel()
    name = k.storage.save(su.tenant_id, io.BytesIO(data), suffix)
    url = f"/api/base/base-user/avatar/{su.tenant_id}/{name}"
    with unscoped():
        user = session().get(User, su.user_id)
    if user is None:
        raise NotLoggedIn()
    user.avatar_url = url
    profiles.invalidate_user(k, su.user_id)
    return url


@router.get("/base-user/avatar/{tenant}/{name}", raw=True)
def avatar(request: Request, tenant: str, name: str) -> Response:
    """An uploaded avatar; only for users of the same tenant."""
    del request  # raw routes are handed the request; this one reads only its path
    su = current_context().require_user()
    if str(su.tenant_id) != tenant:
        raise NotFound()
    with kernel().storage.open(su.tenant_id, name) as f:
        data = f.read()
    media = "image/png" if name.endswith(".png") else "image/jpeg"
    return Response(
        data,
        media_type=media,
        headers={"x-content-type-options": "nosniff", "cache-control": "private, max-age=86400"},
    )


class DefaultSystemQuery(BaseModel):
    systemCode: str = Field(default="", max_length=64)


@router.get("/base-system/default-system", query=DefaultSystemQuery)
def default_system(query: DefaultSystemQuery) -> dict[str, str]:
    """Set the user's default system (with systemCode) or read it."""
    su = current_context().require_user()
    user = _me()
    if query.systemCode:
        check_system_usable(su.tenant_id, query.systemCode)
        user.default_system_code = query.systemCode
        profiles.invalidate_user(kernel(), user.id)
    return {"systemCode": user.default_system_code or DEFAULT_SYSTEM}
