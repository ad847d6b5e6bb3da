"""Users: a tenant's members, their accounts, memberships, roles and effective permissions."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import BindParameter, String, Table, bindparam, func, or_, select

from atrium.kernel import accounts
from atrium.kernel.administration.common import audit, grants_changed, member, person, target_tenant
from atrium.kernel.api.permissions import effective_permissions
from atrium.kernel.identity.password_rule import rule_of
from atrium.kernel.identity.passwords import hash_password
from atrium.kernel.identity.sessions import revoke_user, revoke_where
from atrium.kernel.models import AuthToken, Membership, Role, Tenant, User, UserRole
from atrium.sdk.accounts import (
    MembershipIn,
    MembershipRemoveIn,
    PasswordResetIn,
    PermissionQuery,
    TenantQuery,
    UserIdQuery,
    UserIn,
    UserPageQuery,
    UserRoleIn,
    UserStateIn,
    UserUpdateIn,
)
from atrium.sdk.context import current_context, tenant_scope, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import Conflict, Forbidden, NotFound

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

USER_COLUMNS = (
    User.id,
    User.account,
    User.full_name,
    User.mobile,
    User.email,
    User.enabled,
    User.locked_until,
    User.failed_count,
    User.is_super_admin,
    Membership.tenant_id,
    Membership.enabled.label("member_enabled"),
    Membership.is_supervisor,
)


def user_row(u: Any, m: Membership | None = None, now: datetime | None = None) -> dict[str, Any]:
    """A user as the console lists them: from a `User` and its `Membership`, or from a row of USER_COLUMNS."""
    if m is not None:
        tenant_id, member_enabled, supervisor = m.tenant_id, m.enabled, m.is_supervisor
    else:
        tenant_id, member_enabled, supervisor = u.tenant_id, u.member_enabled, u.is_supervisor
    return {
        "userId": u.id,
        "account": u.account,
        "userFullName": u.full_name,
        "mobile": u.mobile,
        "email": u.email,
        "tenantId": tenant_id,
        "enabled": u.enabled and member_enabled,
        "locked": bool(u.locked_until and u.locked_until > (now or datetime.now(UTC).replace(tzinfo=None))),
        "failedCount": u.failed_count,
        "isAdmin": 2 if supervisor else 0,
        "isSuperAdmin": 1 if u.is_super_admin else 0,
    }


def user_page_filters(tenant_id: int, keyword: str) -> list[Any]:
    """The user list's conditions: members of a tenant whose account or name contains the keyword."""
    filters: list[Any] = [Membership.tenant_id == tenant_id]
    word = keyword.strip()
    if word:
        escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        like = "%" + escaped + "%"
        filters.append(or_(User.account.ilike(like, escape="\\"), User.full_name.ilike(like, escape="\\")))
    return filters


def _page_statements(search: bool) -> tuple[Any, Any]:
    """The user list's page (with the window total) and its count, built once as core statements with
    bound parameters: members found through the membership's tenant index, the users by primary key."""
    m, u = Membership.__table__.c, User.__table__.c
    where = [m.tenant_id == bindparam("tid")]
    if search:
        like: BindParameter[str] = bindparam("kw", type_=String())
        where.append(or_(u.account.ilike(like, escape="\\"), u.full_name.ilike(like, escape="\\")))
    joined = Membership.__table__.join(User.__table__, u.id == m.user_id)
    page = (
        select(
            u.id,
            u.account,
            u.full_name,
            u.mobile,
            u.email,
            u.enabled,
            u.locked_until,
            u.failed_count,
            u.is_super_admin,
            m.tenant_id,
            m.enabled.label("member_enabled"),
            m.is_supervisor,
            func.count().over().label("total"),
        )
        .select_from(joined)
        .where(*where)
        .order_by(m.user_id)
        .offset(bindparam("offset"))
        .limit(bindparam("rows"))
    )
    return page, select(func.count()).select_from(joined).where(*where)


PAGE_STATEMENTS = {search: _page_statements(search) for search in (False, True)}


def user_page(tenant_id: int, keyword: str, page: int, rows: int) -> dict[str, Any]:
    """One page of a tenant's members and the total in one statement (the window count rides along with
    the page; a page past the end asks for the total on its own)."""
    word = keyword.strip()
    args: dict[str, Any] = {"tid": tenant_id, "offset": (page - 1) * rows, "rows": rows}
    if word:
        args["kw"] = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    page_stmt, count_stmt = PAGE_STATEMENTS[bool(word)]
    conn = session().connection()
    found = conn.execute(page_stmt, args).all()
    total = found[0].total if found else 0
    if not found and page > 1:
        total = conn.execute(count_stmt, args).scalar() or 0
    now = datetime.now(UTC).replace(tzinfo=None)
    people = [user_row(r, now=now) for r in found]
    return {"total": total, "pageIndex": page, "pageRows": rows, "list": people}


def role_name(tenant_id: int, role_id: int) -> str:
    """How the audit trail names a role: its name, or its id when it is gone."""
    with tenant_scope(tenant_id):
        role = session().get(Role, role_id)
    return role.name if role is not None else str(role_id)


class KernelUsers:
    """The SDK's `Users`."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel

    def all(self, query: TenantQuery) -> list[dict[str, Any]]:
        tid = target_tenant(query.tenantId)
        with unscoped():
            rows = (
                session()
                .execute(
                    select(User, Membership)
                    .join(Membership, Membership.user_id == User.id)
                    .where(Membership.tenant_id == tid)
                    .order_by(User.id)
                )
                .all()
            )
        return [
            {
                "userId": u.id,
                "account": u.account,
                "userFullName": u.full_name,
                "enabled": u.enabled and m.enabled,
                "isAdmin": 2 if m.is_supervisor else 0,
                "isSuperAdmin": 1 if u.is_super_admin else 0,
            }
            for u, m in rows
        ]

    def page(self, query: UserPageQuery) -> dict[str, Any]:
        return user_page(target_tenant(query.tenantId), query.keyword, query.pageIndex, query.pageRows)

    def detail(self, query: UserIdQuery) -> dict[str, Any]:
        """Every tenant's memberships for a super administrator, else this tenant's."""
        tid = target_tenant(query.tenantId)
        membership = member(query.userId, tid)
        su = current_context().require_user()
        db = session()
        with unscoped():
            user = db.get(User, query.userId)
            assert user is not None
            members = db.execute(
                select(Membership, Tenant.name)
                .join(Tenant, Tenant.id == Membership.tenant_id)
                .where(Membership.user_id == query.userId)
                .order_by(Membership.tenant_id)
            ).all()
            roles = db.execute(
                select(UserRole.tenant_id, Role.id, Role.name)
                .join(Role, Role.id == UserRole.role_id)
                .where(UserRole.user_id == query.userId)
            ).all()
        shown = [(m, name) for m, name in members if su.is_super_admin or m.tenant_id == tid]
        return {
            **user_row(user, membership),
            "memberships": [
                {
                    "tenantId": m.tenant_id,
                    "tenantName": name,
                    "supervisor": m.is_supervisor,
                    "enabled": m.enabled,
                    "roles": [
                        {"roleId": rid, "roleName": rname} for t, rid, rname in roles if t == m.tenant_id
                    ],
                }
                for m, name in shown
            ],
        }

    def create(self, body: UserIn) -> dict[str, Any]:
        tid = target_tenant(body.tenantId)
        rule_of(tid).check(body.password)
        u = accounts.create_user(
            body.account,
            body.password,
            body.userFullName,
            tid,
            supervisor=body.supervisor,
            mobile=body.mobile,
            email=body.email,
            must_change_pwd=body.mustChangePassword,
        )
        audit("user.create", tid, u.id, after=body.model_dump(exclude={"password"}), target_name=person(u))
        return {"userId": u.id}

    def set_state(self, body: UserStateIn) -> None:
        """Disabling revokes the user's sessions. A super administrator switches the account (every
        tenant); a supervisor switches the user's membership of their own tenant."""
        tid = target_tenant(body.tenantId)
        with unscoped():
            membership = (
                session()
                .execute(
                    select(Membership).where(Membership.user_id == body.userId, Membership.tenant_id == tid)
                )
                .scalar()
            )
        if membership is None:
            raise NotFound("user.not_found")
        with unscoped():
            target = session().get(User, body.userId)
        audit(
            "user.state",
            tid,
            body.userId,
            before={"enabled": membership.enabled},
            after={"enabled": body.enabled},
            target_name=person(target),
        )
        if current_context().require_user().is_super_admin:
            accounts.set_user_enabled(self.kernel, body.userId, body.enabled)  # the account, in every tenant
            return
        if target is not None and target.is_super_admin:
            raise Forbidden()  # a tenant's supervisor must not lock out the platform's administrator
        accounts.set_member_enabled(self.kernel, body.userId, tid, body.enabled)  # this tenant only

    def update(self, body: UserUpdateIn) -> dict[str, Any]:
        tid = target_tenant(body.tenantId)
        membership = member(body.userId, tid)
        with unscoped():
            user = session().get(User, body.userId)
        assert user is not None
        su = current_context().require_user()
        if user.is_super_admin and not su.is_super_admin:
            raise Forbidden()
        before = user_row(user, membership)
        user.full_name, user.mobile, user.email = body.userFullName.strip(), body.mobile, body.email
        if body.supervisor is not None:
            membership.is_supervisor = body.supervisor
        session().flush()
        grants_changed(self.kernel)
        self.kernel.local.invalidate("profile")
        after = user_row(user, membership)
        audit("user.update", tid, body.userId, before=before, after=after, target_name=person(user))
        return after

    def reset_password(self, body: PasswordResetIn) -> None:
        tid = target_tenant(body.tenantId)
        member(body.userId, tid)
        rule_of(tid).check(body.password)
        with unscoped():
            user = session().get(User, body.userId)
        assert user is not None
        if user.is_super_admin and not current_context().require_user().is_super_admin:
            raise Forbidden()
        user.password_hash = hash_password(body.password)
        user.must_change_pwd = True
        user.failed_count, user.lock_level, user.locked_until = 0, 0, None
        revoke_user(session(), self.kernel, body.userId, "password reset")
        audit(
            "user.password.reset",
            tid,
            body.userId,
            after={"password": "reset", "mustChangePassword": True},
            target_name=person(user),
        )

    def unlock(self, body: UserIdQuery) -> None:
        tid = target_tenant(body.tenantId)
        member(body.userId, tid)
        with unscoped():
            user = session().get(User, body.userId)
        assert user is not None
        before = {"failedCount": user.failed_count, "lockedUntil": str(user.locked_until or "")}
        user.failed_count, user.lock_level, user.locked_until = 0, 0, None
        audit(
            "user.unlock",
            tid,
            body.userId,
            before=before,
            after={"failedCount": 0, "lockedUntil": ""},
            target_name=person(user),
        )

    def add_membership(self, body: MembershipIn) -> None:
        tid = target_tenant(body.tenantId)
        with unscoped():
            if session().get(User, body.userId) is None:
                raise NotFound("user.not_found")
        accounts.add_membership(body.userId, tid, body.supervisor)
        grants_changed(self.kernel)
        audit("user.membership", tid, body.userId, after={"supervisor": body.supervisor})

    def remove_membership(self, body: MembershipRemoveIn) -> None:
        """The user's roles there and their sessions in it go too. A user keeps at least one tenant, and
        their default tenant moves to one they still belong to."""
        tid = target_tenant(body.tenantId)
        membership = member(body.userId, tid)
        db = session()
        with unscoped():
            user = db.get(User, body.userId)
            assert user is not None
            others = (
                db.execute(
                    select(Membership.tenant_id)
                    .where(Membership.user_id == body.userId, Membership.tenant_id != tid)
                    .order_by(Membership.tenant_id)
                )
                .scalars()
                .first()
            )
            if others is None:
                raise Conflict("user.last_membership")
            before = {"supervisor": membership.is_supervisor, "enabled": membership.enabled}
            db.execute(
                cast(Table, UserRole.__table__)
                .delete()
                .where(UserRole.user_id == body.userId, UserRole.tenant_id == tid)
            )
            db.delete(membership)
            if user.default_tenant_id == tid:
                user.default_tenant_id = others
            revoke_where(db, self.kernel, AuthToken.user_id == body.userId, AuthToken.tenant_id == tid)
            db.flush()
        self.kernel.local.invalidate("session")
        grants_changed(self.kernel)
        audit("user.membership.remove", tid, body.userId, before=before)

    def assign_role(self, body: UserRoleIn) -> None:
        tid = target_tenant(body.tenantId)
        with unscoped():
            found = (
                session()
                .execute(
                    select(Membership.id).where(
                        Membership.user_id == body.userId, Membership.tenant_id == tid
                    )
                )
                .first()
            )
        if found is None:
            raise NotFound("user.not_found")
        with tenant_scope(tid):
            accounts.assign_role(self.kernel, body.userId, body.roleId)
            grants_changed(self.kernel)
        audit("user.role.add", tid, body.userId, after={"role": role_name(tid, body.roleId)})

    def remove_role(self, body: UserRoleIn) -> None:
        tid = target_tenant(body.tenantId)
        member(body.userId, tid)
        with tenant_scope(tid):
            db = session()
            row = db.execute(
                select(UserRole).where(UserRole.user_id == body.userId, UserRole.role_id == body.roleId)
            ).scalar()
            if row is None:
                raise NotFound("role.not_found")
            db.delete(row)
            db.flush()
        self.kernel.local.invalidate("session")
        grants_changed(self.kernel)
        audit("user.role.remove", tid, body.userId, before={"role": role_name(tid, body.roleId)})

    def permissions(self, query: PermissionQuery) -> dict[str, Any]:
        tid = target_tenant(query.tenantId)
        member(query.userId, tid)
        return effective_permissions(query.userId, tid, query.systemCode)
