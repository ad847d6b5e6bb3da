"""The sso plugin's tables: each tenant's provider configurations and the identities linked to users."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from atrium.sdk.db import BigId, TenantScoped, Timestamps, new_metadata


class Base(DeclarativeBase):
    """The sso plugin's own metadata (its own migration history)."""

    metadata = new_metadata()


class SsoConfig(TenantScoped, Timestamps, Base):
    """A provider offered on one tenant's sign-in page, with its validated settings (secrets included)."""

    __tablename__ = "sso_config"
    __table_args__ = (UniqueConstraint("tenant_id", "code"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    code: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(64))
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    sort: Mapped[int] = mapped_column(Integer, default=0)
    #: What happens when an identity is linked to no user: refuse, create (a new SSO user) or verify
    #: (the person proves an existing account's phone or e-mail with a code).
    on_unknown: Mapped[str] = mapped_column(String(16), default="refuse")
    redirect_uri: Mapped[str] = mapped_column(String(512), default="")
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class SsoIdentity(TenantScoped, Timestamps, Base):
    """A person at a provider (provider configuration code, subject) linked to one user of the tenant."""

    __tablename__ = "sso_identity"
    __table_args__ = (UniqueConstraint("tenant_id", "provider", "subject"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    provider: Mapped[str] = mapped_column(String(64))
    subject: Mapped[str] = mapped_column(String(255))
    user_id: Mapped[int] = mapped_column(BigInteger, index=True)
    display_name: Mapped[str] = mapped_column(String(128), default="")
    email: Mapped[str] = mapped_column(String(255), default="")
    last_login_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    #: The user was created by this plugin on first sign-in: an SSO-only account (portalType sso).
    owns_user: Mapped[bool] = mapped_column(Boolean, default=False)
