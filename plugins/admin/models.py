"""The console's own tables: the append-only audit trail and the tenant profiles (company and contact)."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import JSON, BigInteger, Date, DateTime, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from atrium.sdk.db import BigId, new_metadata, utcnow


class Base(DeclarativeBase):
    """The admin plugin's own metadata (its own migration history)."""

    metadata = new_metadata()


class AuditRecord(Base):
    """One security-relevant write: who, in which tenant (none for platform-wide definitions), when, what (an
    action code), to which object (type, id, name), before, after (secrets only as markers).

    Rows are only ever added: nothing in the platform updates or deletes them.
    """

    __tablename__ = "admin_audit"
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
    tenant_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    account: Mapped[str] = mapped_column(String(64), default="")
    action: Mapped[str] = mapped_column(String(64), index=True)
    target: Mapped[str] = mapped_column(String(128), default="")
    #: the kind of object (``panel``, ``user``...; ``audit.type.<type>`` on the screen) and its name then
    target_type: Mapped[str] = mapped_column(String(32), default="", server_default="")
    target_name: Mapped[str] = mapped_column(String(200), default="", server_default="")
    before: Mapped[str] = mapped_column(Text, default="")
    after: Mapped[str] = mapped_column(Text, default="")


class TenantProfile(Base):
    """A tenant's company and contact details, approval and validity (the kernel keeps name and domain)."""

    __tablename__ = "admin_tenant_profile"
    tenant_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    company_name: Mapped[str] = mapped_column(String(16))
    approval_state: Mapped[str] = mapped_column(String(16), default="pending")
    contact: Mapped[str] = mapped_column(String(64), default="")
    contact_phone: Mapped[str] = mapped_column(String(32), default="")
    contact_email: Mapped[str] = mapped_column(String(128), default="")
    tenant_type: Mapped[str] = mapped_column(String(32), default="")
    enterprise_code: Mapped[str] = mapped_column(String(64), default="")
    country: Mapped[str] = mapped_column(String(8), default="")
    state: Mapped[str] = mapped_column(String(64), default="")
    effective_date: Mapped[date] = mapped_column(Date)
    expiration_date: Mapped[date] = mapped_column(Date)
    size: Mapped[int] = mapped_column(Integer, default=0)
    extra: Mapped[dict[str, object]] = mapped_column(JSON, default=dict)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)


class SigninFailure(Base):
    """One failed sign-in, as the kernel reports it (`login.failed`): the account typed, the mode, why it
    failed, where from, and the lockout it started if any. Rows are only ever added."""

    __tablename__ = "admin_signin_failure"
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
    tenant_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)
    account: Mapped[str] = mapped_column(String(128), default="")
    mode: Mapped[str] = mapped_column(String(16), default="")
    reason: Mapped[str] = mapped_column(String(32), default="")
    ip: Mapped[str] = mapped_column(String(64), default="")
    user_agent: Mapped[str] = mapped_column(String(256), default="")
    locked_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
