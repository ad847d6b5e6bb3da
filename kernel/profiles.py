"""The signed-in user's profile, cached in process for the hot path and dropped on every change."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from atrium.kernel import systems
from atrium.kernel.identity.password_rule import rule_from
from atrium.kernel.models import PasswordStrategy, Tenant, User
from atrium.sdk.context import SessionUser, tenant_scope, unscoped
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import NotLoggedIn

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

PROFILES = "profile"
DEFAULT_AVATAR = "defaultImgUrl"


def build_profile(su: SessionUser) -> dict[str, Any]:
    db = session()
    with unscoped():
        user = db.get(User, su.user_id)
        tenant = db.get(Tenant, su.tenant_id)
    if user is None or tenant is None:
        raise NotLoggedIn()
    return {
        "userId": user.id,
        "account": user.account,
        "userFullName": user.full_name,
        "userHeadImgUrl": user.avatar_url or DEFAULT_AVATAR,
        "portalType": user.portal_type,
        "urlLogout": user.url_logout,
        "ssoType": user.sso_type,
        "tenantId": tenant.id,
        "tenantName": tenant.name,
        "parentTenantId": tenant.parent_id,
        "isSuperAdmin": 1 if user.is_super_admin else 0,
        "isAdmin": 2 if su.is_supervisor else 0,
        "lang": user.lang,
        "staffNo": user.staff_no,
        "mobile": user.mobile,
        "email": user.email,
        "department": user.department,
        "defaultSystemCode": user.default_system_code,
        "systemCode": su.system_code,
        "systems": [
            {"systemName": s.name, "systemCode": s.code, "systemEnName": s.en_name}
            for s, _ in systems.tenant_systems(tenant.id)
        ],
    }


def invalidate_user(kernel: Kernel, user_id: int) -> None:
    kernel.local.invalidate(PROFILES)
    del user_id


def strategy(tenant_id: int) -> PasswordStrategy:
    with tenant_scope(tenant_id):
        row = session().execute(select(PasswordStrategy)).scalar()
    return row or PasswordStrategy(min_length=6, max_length=12, expire_days=90, warn_days=7)


def password_info(su: SessionUser, kernel: Kernel) -> dict[str, Any]:
    """Whether the password dialog pops: forced (must change, optType 1) or expiring soon (optType 2)."""
    with unscoped():
        user = session().get(User, su.user_id)
    if user is None:
        raise NotLoggedIn()
    st = strategy(su.tenant_id)
    tips = rule_from(st).tips(kernel.t)
    if user.portal_type == "sso":
        return {"pop": False, "optType": 2, "reason": "", "pwdTips": tips}
    if user.must_change_pwd:
        return {"pop": True, "optType": 1, "reason": kernel.t("password.must_change"), "pwdTips": tips}
    if st.expire_days and user.pwd_changed_at:
        expires = user.pwd_changed_at + timedelta(days=st.expire_days)
        left = (expires - utcnow()).days
        if left < 0:
            return {"pop": True, "optType": 1, "reason": kernel.t("password.expired"), "pwdTips": tips}
        if left <= st.warn_days:
            return {
                "pop": True,
                "optType": 2,
                "reason": kernel.t("password.expiring", days=left),
                "pwdTips": tips,
            }
    return {"pop": False, "optType": 2, "reason": "", "pwdTips": tips}
