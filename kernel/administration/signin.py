"""A tenant's sign-in: the modes offered, its options, domain servers, registrations, sign-ins, lockouts."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select

from atrium.kernel.administration.common import audit, target_tenant
from atrium.kernel.administration.users import user_page_filters
from atrium.kernel.api.register import CONFIG_FIELDS, config_answer
from atrium.kernel.identity import ldap
from atrium.kernel.identity import register as signup
from atrium.kernel.identity.models import LdapConfig
from atrium.kernel.models import LoginLog, Membership, Tenant, User
from atrium.sdk.accounts import (
    DecideIn,
    IdQuery,
    LdapConfigIn,
    LockoutQuery,
    LoginLogQuery,
    SigninConfigIn,
    TenantQuery,
)
from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, Conflict, NotFound

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

STAMP = "%Y-%m-%d %H:%M:%S"


def _config_out(cfg: LdapConfig) -> dict[str, Any]:
    """A domain server as the console shows it: the bind password only as whether one is set."""
    return {
        "id": str(cfg.id),
        "domain": cfg.domain,
        "serverUrl": cfg.server_url,
        "bindDn": cfg.bind_dn,
        "bindPasswordSet": bool(cfg.bind_password),
        "searchBase": cfg.search_base,
        "userFilter": cfg.user_filter,
        "attributes": ldap.attributes_of(cfg),
        "startTls": cfg.start_tls,
        "timeout": cfg.timeout,
        "enabled": cfg.enabled,
    }


def _own(config_id: int, tenant_id: int) -> LdapConfig:
    """A domain server of the tenant; another tenant's answers not found."""
    with unscoped():
        cfg = session().get(LdapConfig, config_id)
    if cfg is None or cfg.tenant_id != tenant_id:
        raise NotFound("signin.ldap_not_found")
    return cfg


class KernelSignin:
    """The SDK's `Signin`. Every write is audited with its before and after; bind passwords appear there
    only as whether one is set (and whether it changed)."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel

    def modes(self, query: TenantQuery) -> dict[str, Any]:
        """Password, phone and e-mail codes, QR code, the domain accounts of its LDAP servers, and the
        single sign-on of enabled plugins."""
        from atrium.kernel.api.settings import login_types

        tid = target_tenant(query.tenantId)
        with unscoped():
            tenant = session().get(Tenant, tid)
        return {"tenantId": tid, "domain": tenant.domain if tenant else "", "loginTypes": login_types(tid)}

    def config(self, query: TenantQuery) -> dict[str, bool]:
        return config_answer(signup.config_of(target_tenant(query.tenantId)))

    def save_config(self, body: SigninConfigIn) -> dict[str, bool]:
        """One of password, phone code and e-mail code stays on (BadRequest otherwise)."""
        tenant_id = target_tenant(body.tenantId)
        before = config_answer(signup.config_of(tenant_id))
        changes = {
            name: value for name, value in body.model_dump(exclude={"tenantId"}).items() if value is not None
        }
        after = {**before, **changes}
        if not any(after[name] for name in ("passwordEnabled", "phoneCodeEnabled", "emailCodeEnabled")):
            raise BadRequest("signin.one_mode_required")
        saved = config_answer(
            signup.save_config(tenant_id, **{CONFIG_FIELDS[name]: value for name, value in changes.items()})
        )
        audit("signin_config.save", tenant_id, tenant_id, before=before, after=saved)
        return saved

    def ldap_servers(self, query: TenantQuery) -> list[dict[str, Any]]:
        tenant_id = target_tenant(query.tenantId)
        with unscoped():
            rows = session().execute(
                select(LdapConfig).where(LdapConfig.tenant_id == tenant_id).order_by(LdapConfig.domain)
            )
            return [_config_out(c) for c in rows.scalars()]

    def save_ldap(self, body: LdapConfigIn) -> dict[str, Any]:
        """An empty or missing bind password keeps the stored one."""
        db = session()
        tenant_id = target_tenant(body.tenantId)
        with unscoped():
            clash = db.execute(
                select(LdapConfig.id).where(
                    LdapConfig.tenant_id == tenant_id, LdapConfig.domain == body.domain
                )
            ).scalar()
        if clash is not None and clash != body.id:
            raise Conflict("signin.ldap_domain_exists")
        before = None
        if body.id is not None:
            cfg = _own(body.id, tenant_id)
            before = _config_out(cfg)
        else:
            cfg = LdapConfig(tenant_id=tenant_id, bind_password="")
            db.add(cfg)
        cfg.domain = body.domain.strip()
        cfg.server_url = body.serverUrl
        cfg.bind_dn = body.bindDn.strip()
        if body.bindPassword:
            cfg.bind_password = ldap.seal(self.kernel, body.bindPassword)
        cfg.search_base = body.searchBase.strip()
        cfg.user_filter = body.userFilter
        cfg.attributes = dict(body.attributes)
        cfg.start_tls = body.startTls
        cfg.timeout = body.timeout
        cfg.enabled = body.enabled
        with unscoped():
            db.flush()
        after = _config_out(cfg)
        audit(
            "ldap.save",
            tenant_id,
            cfg.id,
            before=before,
            after={**after, "bindPasswordChanged": bool(body.bindPassword)},
        )
        return after

    def delete_ldap(self, query: IdQuery) -> None:
        """The server's users stay, without the link."""
        tenant_id = target_tenant(query.tenantId)
        cfg = _own(query.id, tenant_id)
        before = _config_out(cfg)
        with unscoped():
            session().delete(cfg)
        audit("ldap.delete", tenant_id, query.id, before=before)

    def test_ldap(self, query: IdQuery) -> dict[str, Any]:
        return ldap.test_connection(self.kernel, _own(query.id, target_tenant(query.tenantId)))

    def registrations(self, query: TenantQuery) -> list[dict[str, Any]]:
        return signup.pending_registrations(target_tenant(query.tenantId))

    def decide(self, body: DecideIn) -> None:
        """Approved, the account can sign in; refused, it is removed."""
        tenant_id = target_tenant(body.tenantId)
        signup.decide_registration(tenant_id, body.userId, body.approve)
        audit("registration.decide", tenant_id, body.userId, after={"approve": body.approve})

    def login_log(self, query: LoginLogQuery) -> dict[str, Any]:
        tid = target_tenant(query.tenantId)
        db = session()
        with tenant_scope(tid):
            stmt = select(LoginLog.id, LoginLog.at, LoginLog.ip, LoginLog.user_agent, LoginLog.user_id)
            if query.keyword.strip():
                with unscoped():
                    matching = select(User.id).where(*user_page_filters(tid, query.keyword)[1:])
                    ids = list(db.execute(matching).scalars())
                stmt = stmt.where(LoginLog.user_id.in_(ids or [-1]))
            total = db.execute(select(func.count()).select_from(stmt.subquery())).scalar() or 0
            offset = (query.pageIndex - 1) * query.pageRows
            rows = db.execute(stmt.order_by(LoginLog.id.desc()).offset(offset).limit(query.pageRows)).all()
        with unscoped():
            found = db.execute(select(User).where(User.id.in_({r.user_id for r in rows}))).scalars()
            users = {u.id: u for u in found}
        now = datetime.now(UTC).replace(tzinfo=None)
        out = []
        for r in rows:
            u = users.get(r.user_id)
            out.append(
                {
                    "logId": str(r.id),
                    "at": r.at.strftime(STAMP),
                    "ip": r.ip,
                    "userAgent": r.user_agent,
                    "userId": r.user_id,
                    "account": u.account if u else "",
                    "userFullName": u.full_name if u else "",
                    "failedCount": u.failed_count if u else 0,
                    "locked": bool(u and u.locked_until and u.locked_until > now),
                }
            )
        return {"total": total, "pageIndex": query.pageIndex, "pageRows": query.pageRows, "list": out}

    def lockouts(self, query: LockoutQuery) -> dict[str, Any]:
        """Locked accounts first, then by the latest failure; each with its count, the time of the last
        failure and the end of its lockout."""
        tid = target_tenant(query.tenantId)
        now = datetime.now(UTC).replace(tzinfo=None)
        filters = [*user_page_filters(tid, query.keyword), User.failed_count > 0]
        locked = (User.locked_until.is_not(None)) & (User.locked_until > now)
        db = session()
        with unscoped():
            stmt = (
                select(
                    User.id,
                    User.account,
                    User.full_name,
                    User.failed_count,
                    User.last_failed_at,
                    User.locked_until,
                    func.count().over().label("total"),
                )
                .select_from(Membership)
                .join(User, User.id == Membership.user_id)
                .where(*filters)
                .order_by(locked.desc(), User.last_failed_at.desc(), User.id)
                .offset((query.pageIndex - 1) * query.pageRows)
                .limit(query.pageRows)
            )
            rows = db.execute(stmt).all()
            total = rows[0].total if rows else 0

        def until(r: Any) -> str:
            return r.locked_until.strftime(STAMP) if r.locked_until and r.locked_until > now else ""

        return {
            "total": total,
            "pageIndex": query.pageIndex,
            "pageRows": query.pageRows,
            "list": [
                {
                    "userId": r.id,
                    "account": r.account,
                    "userFullName": r.full_name,
                    "failedCount": r.failed_count,
                    "lastFailedAt": r.last_failed_at.strftime(STAMP) if r.last_failed_at else "",
                    "locked": bool(until(r)),
                    "lockedUntil": until(r),
                }
                for r in rows
            ],
        }
