"""The audit trail, the failed sign-ins and the tenant profiles."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import func, or_, select

from atrium.plugins.admin import audit_words
from atrium.plugins.admin.models import AuditRecord, SigninFailure, TenantProfile
from atrium.sdk.audit import redact_pair
from atrium.sdk.context import current_context
from atrium.sdk.db import session
from atrium.sdk.errors import NotFound
from atrium.sdk.services import services
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
    target_type: str = "",
    target_name: str = "",
) -> None:
    """Add one record to the audit trail in the running transaction (it stands or falls with the write).
    Secrets in before and after are replaced by markers here too, whoever reported the write."""
    if user_id is None:
        su = current_context().user
        if su is not None:
            user_id, account = su.user_id, su.account
    safe_before, safe_after = redact_pair(before, after)
    session().add(
        AuditRecord(
            tenant_id=tenant_id,
            user_id=user_id,
            account=account[:64],
            action=action[:64],
            target=str(target)[:128],
            target_type=(target_type or action.split(".", 1)[0])[:32],
            target_name=str(target_name or "")[:200],
            before=_text(safe_before),
            after=_text(safe_after),
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
        target_type=str(data.get("target_type") or ""),
        target_name=str(data.get("target_name") or ""),
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
            or_(
                *(
                    c.ilike(like, escape="\\")
                    for c in (
                        SigninFailure.account,
                        SigninFailure.ip,
                        SigninFailure.mode,
                        SigninFailure.reason,
                    )
                )
            )
        )
    db = session()
    total = db.execute(select(func.count()).select_from(stmt.subquery())).scalar() or 0
    found = (
        db.execute(stmt.order_by(SigninFailure.id.desc()).offset((page - 1) * rows).limit(rows))
        .scalars()
        .all()
    )
    return {
        "total": total,
        "pageIndex": page,
        "pageRows": rows,
        "list": [
            {
                "failureId": str(r.id),
                "at": r.at.strftime(STAMP),
                "tenantId": r.tenant_id,
                "userId": r.user_id,
                "account": r.account,
                "mode": r.mode,
                "reason": r.reason,
                "ip": r.ip,
                "userAgent": r.user_agent,
                "lockedUntil": r.locked_until.strftime(STAMP) if r.locked_until else "",
            }
            for r in found
        ],
    }


def _row(r: AuditRecord) -> dict[str, Any]:
    return {
        "auditId": str(r.id),
        "at": r.at.strftime(STAMP),
        "atUtc": r.at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "tenantId": r.tenant_id,
        "userId": r.user_id,
        "account": r.account,
        "action": r.action,
        "target": r.target,
        "targetType": r.target_type,
        "targetName": r.target_name,
        "before": r.before,
        "after": r.after,
    }


@dataclass(frozen=True)
class AuditFilter:
    """Which records: a tenant (None: every tenant), a search word (account, action, object id or name), an
    action code, a person, and a date range in the reader's local dates (``tz_offset``: minutes to add to a
    local time for UTC, as a browser's ``getTimezoneOffset``)."""

    tenant_id: int | None = None
    keyword: str = ""
    action: str = ""
    user_id: int | None = None
    date_from: date | None = None
    date_to: date | None = None
    tz_offset: int = 0


def _audit_query(f: AuditFilter) -> Any:
    stmt = select(AuditRecord)
    if f.tenant_id is not None:
        stmt = stmt.where(AuditRecord.tenant_id == f.tenant_id)
    if f.action:
        stmt = stmt.where(AuditRecord.action == f.action)
    if f.user_id is not None:
        stmt = stmt.where(AuditRecord.user_id == f.user_id)
    shift = timedelta(minutes=f.tz_offset)
    if f.date_from is not None:
        stmt = stmt.where(AuditRecord.at >= datetime.combine(f.date_from, time.min) + shift)
    if f.date_to is not None:
        stmt = stmt.where(AuditRecord.at < datetime.combine(f.date_to + timedelta(days=1), time.min) + shift)
    word = f.keyword.strip()
    if word:
        like = _like(word)
        stmt = stmt.where(
            or_(
                AuditRecord.account.ilike(like, escape="\\"),
                AuditRecord.action.ilike(like, escape="\\"),
                AuditRecord.target.ilike(like, escape="\\"),
                AuditRecord.target_name.ilike(like, escape="\\"),
            )
        )
    return stmt


class _Names:
    """The people and objects a page of records names, looked up once per page."""

    def __init__(self, rows: list[AuditRecord]) -> None:
        directory = services().directory
        ids = {r.user_id for r in rows if r.user_id is not None}
        ids |= {
            int(r.target) for r in rows if r.target_type == "user" and not r.target_name and _int(r.target)
        }
        self.people = directory.users(ids) if ids else {}
        self.tenants: dict[int, str] = {}
        for r in rows:
            tid = _int(r.target) if r.target_type == "tenant" and not r.target_name else None
            for key in (tid, r.tenant_id):
                if key is not None and key not in self.tenants:
                    info = directory.tenant(key)
                    self.tenants[key] = info.name if info is not None else ""

    def tenant(self, r: AuditRecord) -> str:
        """The name of the tenant the record belongs to (its id when the tenant is gone)."""
        if r.tenant_id is None:
            return ""
        return self.tenants.get(r.tenant_id) or str(r.tenant_id)

    def who(self, r: AuditRecord) -> tuple[str, str]:
        """(full name, full name and account)."""
        found = self.people.get(r.user_id) if r.user_id is not None else None
        full = found.full_name if found is not None else ""
        return full, audit_words.person(full, r.account or (found.account if found else ""))

    def target_name(self, r: AuditRecord) -> str:
        if r.target_name:
            return r.target_name
        tid = _int(r.target)
        if r.target_type == "user" and tid is not None and tid in self.people:
            p = self.people[tid]
            return audit_words.person(p.full_name, p.account)
        if r.target_type == "tenant" and tid is not None:
            return self.tenants.get(tid, "")
        return ""


def _int(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) < 19 else None


def _words(r: AuditRecord, names: _Names, locale: str) -> dict[str, Any]:
    """A record in words: who, what, which object, what changed."""
    full, who = names.who(r)
    if not who:
        who = audit_words.word(locale, "value", "system") or "system"
    action = audit_words.action_text(locale, r.action)
    type_text = audit_words.type_text(locale, r.target_type)
    name = names.target_name(r)
    shown = name or r.target
    target = audit_words.template(locale, "target", "{{type}} “{{name}}”", type=type_text, name=shown)
    if not type_text:
        target = f"“{shown}”"
    items = audit_words.changes(locale, r.before, r.after)
    return {
        "userFullName": full,
        "tenantName": names.tenant(r),
        "who": who,
        "actionText": action,
        "targetTypeText": type_text,
        "targetLabel": name or r.target,
        "summary": audit_words.template(
            locale, "sentence", "{{who}} {{action}} {{target}}", who=who, action=action, target=target
        ),
        "changes": items,
        "changesText": audit_words.changes_text(items),
    }


def audit_page(f: AuditFilter, page: int, rows: int) -> dict[str, Any]:
    """One page of the trail (newest first), each record with its words in the request's language."""
    stmt = _audit_query(f)
    db = session()
    total = db.execute(select(func.count()).select_from(stmt.subquery())).scalar() or 0
    found = list(
        db.execute(stmt.order_by(AuditRecord.id.desc()).offset((page - 1) * rows).limit(rows)).scalars().all()
    )
    names = _Names(found)
    locale = current_context().locale
    return {
        "total": total,
        "pageIndex": page,
        "pageRows": rows,
        "list": [{**_row(r), **_words(r, names, locale)} for r in found],
    }


def audit_actions(tenant_id: int | None) -> list[dict[str, str]]:
    """Every action code (those with words, and any recorded), with its words, for the action filter."""
    locale = current_context().locale
    known = audit_words.known_actions(locale)
    stmt = select(AuditRecord.action).distinct()
    if tenant_id is not None:
        stmt = stmt.where(AuditRecord.tenant_id == tenant_id)
    for code in session().execute(stmt).scalars():
        known.setdefault(code, audit_words.action_text(locale, code))
    return [{"action": code, "text": text} for code, text in sorted(known.items(), key=lambda kv: kv[1])]


def audit_people(tenant_id: int | None) -> list[dict[str, Any]]:
    """The people the trail names (at most 1,000), for the person filter."""
    stmt = select(AuditRecord.user_id, func.max(AuditRecord.account)).where(AuditRecord.user_id.is_not(None))
    if tenant_id is not None:
        stmt = stmt.where(AuditRecord.tenant_id == tenant_id)
    rows = [
        (int(uid), str(account or ""))
        for uid, account in session().execute(stmt.group_by(AuditRecord.user_id).limit(1000)).all()
        if uid is not None
    ]
    people = services().directory.users(uid for uid, _ in rows)
    out: list[dict[str, Any]] = []
    for uid, account in rows:
        p = people.get(uid)
        full = p.full_name if p is not None else ""
        out.append(
            {
                "userId": uid,
                "account": account,
                "userFullName": full,
                "label": audit_words.person(full, account),
            }
        )
    return sorted(out, key=lambda x: str(x["label"]).lower())


EXPORT_LIMIT = 50_000
EXPORT_COLUMNS = [
    "auditId",
    "at",
    "tenantId",
    "tenantName",
    "userId",
    "account",
    "userFullName",
    "action",
    "actionText",
    "targetType",
    "targetTypeText",
    "target",
    "targetName",
    "summary",
    "changes",
]


def audit_csv(f: AuditFilter) -> str:
    """The matching records (newest first, at most 50,000) as CSV text, in words in the request's language:
    the time in the reader's local time, the person, the action and the object named, the changes as
    ``field: old → new``."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(EXPORT_COLUMNS)
    stmt = _audit_query(f).order_by(AuditRecord.id.desc()).limit(EXPORT_LIMIT)
    locale = current_context().locale
    db = session()
    shift = timedelta(minutes=f.tz_offset)
    batch: list[AuditRecord] = []

    def flush() -> None:
        names = _Names(batch)
        for r in batch:
            w = _words(r, names, locale)
            writer.writerow(
                [
                    str(r.id),
                    audit_words.stamp(r.at - shift),
                    "" if r.tenant_id is None else r.tenant_id,
                    w["tenantName"],
                    "" if r.user_id is None else r.user_id,
                    r.account,
                    w["userFullName"],
                    r.action,
                    w["actionText"],
                    r.target_type,
                    w["targetTypeText"],
                    r.target,
                    w["targetLabel"],
                    w["summary"],
                    w["changesText"],
                ]
            )
        batch.clear()

    for r in db.execute(stmt).scalars():
        batch.append(r)
        if len(batch) >= 500:
            flush()
    flush()
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
    record(
        "tenant.profile",
        tenant_id,
        tenant_id,
        before,
        after,
        target_type="tenant",
        target_name=row.company_name,
    )
    return after


def set_approval(tenant_id: int, state: str) -> dict[str, Any]:
    db = session()
    row = db.get(TenantProfile, tenant_id)
    if row is None:
        raise NotFound("admin:profile_not_found", tenantId=tenant_id)
    before = row.approval_state
    row.approval_state = state
    db.flush()
    record(
        "tenant.approval",
        tenant_id,
        tenant_id,
        {"approvalState": before},
        {"approvalState": state},
        target_type="tenant",
        target_name=row.company_name,
    )
    return profile_out(row)
