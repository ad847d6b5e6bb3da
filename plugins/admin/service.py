"""The audit trail, the failed sign-ins and the tenant profiles."""

from __future__ import annotations

import csv
import io
import json
from datetime import date, datetime
from typing import Any

from sqlalchemy import func, or_, select

from atrium.plugins.admin.models import AuditRecord, SigninFailure, TenantProfile
from atrium.sdk.context import current_context
from atrium.sdk.db import session
from atrium.sdk.errors import NotFound
from atrium.sdk.types import Event

AUDIT_EVENT = "admin.audit"
FAILURE_EVENT = "login.failed"
STAMP = "%Y-%m-%d %H:%M:%S"


def _text(value: Any) -> str:
    return "" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def record(
    action: str,
    tenant_id: int | None,
    target: Any,
    before: Any = None,
    after: Any = None,
    user_id: int | None = None,
    account: str = "",
) -> None:
    """Add one record to the audit trail in the running transaction (it stands or falls with the write)."""
    if user_id is None:
        su = current_context().user
        if su is not None:
            user_id, account = su.user_id, su.account
    session().add(
        AuditRecord(
            tenant_id=tenant_id,
            user_id=user_id,
            account=account[:64],
            action=action[:64],
            target=str(target)[:128],
            before=_text(before),
            after=_text(after),
        )
    )
    session().flush()


def on_event(event: Event) -> None:
    """Record the kernel admin API's writes (``admin.audit`` events) and failed sign-ins (``login.failed``);
    a deleted tenant's profile goes with it."""
    if event.name == FAILURE_EVENT:
        record_failure(event)
        return
    if event.name != AUDIT_EVENT:
        return
    data = event.data
    if data.get("action") == "tenant.delete" and event.tenant_id is not None:
        profile = session().get(TenantProfile, event.tenant_id)
        if profile is not None:
            session().delete(profile)
    record(
        data.get("action", ""),
        event.tenant_id,
        data.get("target", ""),
        data.get("before"),
        data.get("after"),
        user_id=event.user_id,
        account=str(data.get("account", "")),
    )


def _when(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value.replace(tzinfo=None)
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value).replace(tzinfo=None)
        except ValueError:
            return None
    return None


def record_failure(event: Event) -> None:
    """Add a failed sign-in, in the sign-in's own transaction.

    The event carries ``tenant_id`` (the tenant of the sign-in page, else the account's default tenant;
    none for an unknown account) and ``user_id`` (none for an unknown account), and in its data ``account``
    (as typed), ``mode`` (account, phone, email, ldap, qrcode), ``reason`` (password, locked, disabled,
    unknown, code), ``lockedUntil`` (when this failure started a lockout) and optionally ``ip`` and
    ``userAgent`` (else the request's)."""
    data = event.data
    ctx = current_context()
    session().add(
        SigninFailure(
            tenant_id=event.tenant_id,
            user_id=event.user_id,
            account=str(data.get("account", ""))[:128],
            mode=str(data.get("mode", "account"))[:16],
            reason=str(data.get("reason", ""))[:32],
            ip=str(data.get("ip") or ctx.client_ip or "")[:64],
            user_agent=str(data.get("userAgent") or ctx.user_agent or "")[:256],
            locked_until=_when(data.get("lockedUntil")),
        )
    )
    session().flush()


def _like(word: str) -> str:
    return "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def failures_page(tenant_id: int | None, keyword: str, page: int, rows: int) -> dict[str, Any]:
    """One page of failed sign-ins (newest first), searched by account, IP, mode or reason."""
    stmt = select(SigninFailure)
    if tenant_id is not None:
        stmt = stmt.where(SigninFailure.tenant_id == tenant_id)
    word = keyword.strip()
    if word:
        like = _like(word)
        stmt = stmt.where(
            or_(*(c.ilike(like, escape="\\") for c in (SigninFailure.account, SigninFailure.ip,
                                                        SigninFailure.mode, SigninFailure.reason)))
        )
    db = session()
    total = db.execute(select(func.count()).select_from(stmt.subquery())).scalar() or 0
    found = db.execute(
        stmt.order_by(SigninFailure.id.desc()).offset((page - 1) * rows).limit(rows)
    ).scalars().all()
    return {
        "total": total, "pageIndex": page, "pageRows": rows,
        "list": [
            {
                "failureId": str(r.id), "at": r.at.strftime(STAMP), "tenantId": r.tenant_id,
                "userId": r.user_id, "account": r.account, "mode": r.mode, "reason": r.reason, "ip": r.ip,
                "userAgent": r.user_agent,
                "lockedUntil": r.locked_until.strftime(STAMP) if r.locked_until else "",
            }
            for r in found
        ],
    }


def _row(r: AuditRecord) -> dict[str, Any]:
    return {
        "auditId": str(r.id),
        "at": r.at.strftime("%Y-%m-%d %H:%M:%S"),
        "tenantId": r.tenant_id,
        "userId": r.user_id,
        "account": r.account,
        "action": r.action,
        "target": r.target,
        "before": r.before,
        "after": r.after,
    }


def _audit_query(tenant_id: int | None, keyword: str, action: str) -> Any:
    stmt = select(AuditRecord)
    if tenant_id is not None:
        stmt = stmt.where(AuditRecord.tenant_id == tenant_id)
    if action:
        stmt = stmt.where(AuditRecord.action == action)
    word = keyword.strip()
    if word:
        like = _like(word)
        stmt = stmt.where(
            or_(
                AuditRecord.account.ilike(like, escape="\\"),
                AuditRecord.action.ilike(like, escape="\\"),
                AuditRecord.target.ilike(like, escape="\\"),
            )
        )
    return stmt


def audit_page(tenant_id: int | None, keyword: str, action: str, page: int, rows: int) -> dict[str, Any]:
    stmt = _audit_query(tenant_id, keyword, action)
    db = session()
    total = db.execute(select(func.count()).select_from(stmt.subquery())).scalar() or 0
    found = (
        db.execute(stmt.order_by(AuditRecord.id.desc()).offset((page - 1) * rows).limit(rows)).scalars().all()
    )
    return {"total": total, "pageIndex": page, "pageRows": rows, "list": [_row(r) for r in found]}


EXPORT_LIMIT = 50_000


def audit_csv(tenant_id: int | None, keyword: str, action: str) -> str:
    """The matching records (newest first, at most 50,000) as CSV text."""
    out = io.StringIO()
    writer = csv.writer(out)
    columns = ["auditId", "at", "tenantId", "userId", "account", "action", "target", "before", "after"]
    writer.writerow(columns)
    stmt = _audit_query(tenant_id, keyword, action).order_by(AuditRecord.id.desc()).limit(EXPORT_LIMIT)
    for r in session().execute(stmt).scalars():
        row = _row(r)
        writer.writerow(["" if row[c] is None else row[c] for c in columns])
    return out.getvalue()


PROFILE_FIELDS = {
    "companyName": "company_name",
    "approvalState": "approval_state",
    "contact": "contact",
    "contactPhone": "contact_phone",
    "contactEmail": "contact_email",
    "tenantType": "tenant_type",
    "enterpriseCode": "enterprise_code",
    "country": "country",
    "state": "state",
    "effectiveDate": "effective_date",
    "expirationDate": "expiration_date",
    "size": "size",
}


def profile_out(p: TenantProfile) -> dict[str, Any]:
    out: dict[str, Any] = {"tenantId": p.tenant_id}
    for key, column in PROFILE_FIELDS.items():
        value = getattr(p, column)
        out[key] = value.isoformat() if isinstance(value, date) else value
    return out


def profiles() -> list[dict[str, Any]]:
    return [profile_out(p) for p in session().execute(select(TenantProfile)).scalars()]


def save_profile(tenant_id: int, values: dict[str, Any]) -> dict[str, Any]:
    """Create or update a tenant's profile (approval state kept on update unless given); audited."""
    db = session()
    row = db.get(TenantProfile, tenant_id)
    before = None if row is None else profile_out(row)
    if row is None:
        row = TenantProfile(tenant_id=tenant_id)
        db.add(row)
    for key, column in PROFILE_FIELDS.items():
        if key in values and values[key] is not None:
            setattr(row, column, values[key])
    if row.approval_state is None:
        row.approval_state = "pending"
    db.flush()
    after = profile_out(row)
    record("tenant.profile", tenant_id, tenant_id, before, after)
    return after


def set_approval(tenant_id: int, state: str) -> dict[str, Any]:
    db = session()
    row = db.get(TenantProfile, tenant_id)
    if row is None:
        raise NotFound("admin:profile_not_found", tenantId=tenant_id)
    before = row.approval_state
    row.approval_state = state
    db.flush()
    record("tenant.approval", tenant_id, tenant_id, {"approvalState": before}, {"approvalState": state})
    return profile_out(row)
