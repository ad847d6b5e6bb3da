"""Tables of the sign-in modes beyond account and codes: the tenant's sign-in options, domain (LDAP)
servers and the links between directory entries and users."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Integer, String, UniqueConstraint, true
from sqlalchemy.orm import Mapped, mapped_column

from atrium.kernel.models import Base
from atrium.sdk.db import BigId, TenantScoped, Timestamps


class SigninConfig(Timestamps, Base):
    """A tenant's sign-in options (absent row: no self-registration, every sign-in mode offered)."""

    __tablename__ = "signin_config"
    tenant_id: Mapped[int] = mapped_column(
        ForeignKey("tenant.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    allow_register: Mapped[bool] = mapped_column(Boolean, default=False)
    register_approval: Mapped[bool] = mapped_column(Boolean, default=False)
    qrcode_enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    password_enabled: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    phone_code_enabled: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    email_code_enabled: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())


class LdapConfig(Timestamps, TenantScoped, Base):
    """A domain (LDAP or Active Directory) server of a tenant; the bind password is stored encrypted."""

    __tablename__ = "ldap_config"
    __table_args__ = (UniqueConstraint("tenant_id", "domain"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    domain: Mapped[str] = mapped_column(String(64))
    server_url: Mapped[str] = mapped_column(String(512))
    bind_dn: Mapped[str] = mapped_column(String(512), default="")
    bind_password: Mapped[str] = mapped_column(String(1024), default="")
    search_base: Mapped[str] = mapped_column(String(512))
    user_filter: Mapped[str] = mapped_column(String(512), default="(uid={account})")
    attributes: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    start_tls: Mapped[bool] = mapped_column(Boolean, default=False)
    timeout: Mapped[int] = mapped_column(Integer, default=5)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)


class LdapLink(TenantScoped, Base):
    """A directory entry signed in before, and the user it was created or linked as."""

    __tablename__ = "ldap_link"
    __table_args__ = (UniqueConstraint("config_id", "entry_key"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    config_id: Mapped[int] = mapped_column(ForeignKey("ldap_config.id", ondelete="CASCADE"), index=True)
    entry_key: Mapped[str] = mapped_column(String(255))
    user_id: Mapped[int] = mapped_column(ForeignKey("user_account.id", ondelete="CASCADE"), index=True)
