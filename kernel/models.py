"""The kernel's tables: identity, tenants, systems, menus, portal data and plugin enablement."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from atrium.sdk.db import BigId, TenantScoped, Timestamps, new_metadata, utcnow


class Base(DeclarativeBase):
    metadata = new_metadata()


PLATFORM_TENANT_ID = -999
DEFAULT_SYSTEM = "iotAutho"


class Tenant(Timestamps, Base):
    """A tenant; -999 is the platform tenant. Global: tenants are what scoping is keyed by."""

    __tablename__ = "tenant"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(64))
    domain: Mapped[str] = mapped_column(String(128), default="", index=True)
    parent_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    use_limit_code: Mapped[str] = mapped_column(String(32), default="")
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)


class User(Timestamps, Base):
    __tablename__ = "user_account"
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    account: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255), default="")
    full_name: Mapped[str] = mapped_column(String(64), default="")
    first_name: Mapped[str] = mapped_column(String(64), default="")
    last_name: Mapped[str] = mapped_column(String(64), default="")
    staff_no: Mapped[str] = mapped_column(String(32), default="")
    mobile: Mapped[str] = mapped_column(String(32), default="", index=True)
    email: Mapped[str] = mapped_column(String(128), default="", index=True)
    department: Mapped[str] = mapped_column(String(64), default="")
    avatar_url: Mapped[str] = mapped_column(String(512), default="")
    lang: Mapped[str] = mapped_column(String(8), default="zh-cn")
    is_super_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    portal_type: Mapped[str] = mapped_column(String(16), default="")
    sso_type: Mapped[str] = mapped_column(String(32), default="")
    url_logout: Mapped[str] = mapped_column(String(512), default="")
    default_tenant_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    default_system_code: Mapped[str] = mapped_column(String(64), default="")
    pwd_changed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    must_change_pwd: Mapped[bool] = mapped_column(Boolean, default=False)
    failed_count: Mapped[int] = mapped_column(Integer, default=0)
    lock_level: Mapped[int] = mapped_column(Integer, default=0)
    locked_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    last_failed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class Membership(Base):
    """A user's place in a tenant. Global: the sign-in and tenant switch look across tenants."""

    __tablename__ = "membership"
    __table_args__ = (UniqueConstraint("user_id", "tenant_id"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user_account.id", ondelete="CASCADE"), index=True)
    tenant_id: Mapped[int] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"), index=True)
    is_supervisor: Mapped[bool] = mapped_column(Boolean, default=False)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)


class AuthToken(Base):
    """Opaque access and refresh tokens, stored as SHA-256 hashes."""

    __tablename__ = "auth_token"
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    kind: Mapped[str] = mapped_column(String(8))
    family: Mapped[str] = mapped_column(String(32), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user_account.id", ondelete="CASCADE"), index=True)
    tenant_id: Mapped[int] = mapped_column(BigInteger)
    system_code: Mapped[str] = mapped_column(String(64), default=DEFAULT_SYSTEM)
    expires_at: Mapped[datetime] = mapped_column(DateTime)
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class System(Base):
    """A system (application area) users enter; global, offered to tenants through TenantSystem."""

    __tablename__ = "system"
    code: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    en_name: Mapped[str] = mapped_column(String(255), default="")
    icon_url: Mapped[str] = mapped_column(String(512), default="")
    request_url: Mapped[str] = mapped_column(String(512), default="")
    use_state: Mapped[int] = mapped_column(Integer, default=1)
    sort: Mapped[int] = mapped_column(Integer, default=0)


class TenantSystem(TenantScoped, Base):
    """A system offered to a tenant, with the tenant's branding for it."""

    __tablename__ = "tenant_system"
    __table_args__ = (UniqueConstraint("tenant_id", "system_code"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    system_code: Mapped[str] = mapped_column(ForeignKey("system.code", ondelete="CASCADE"))
    system_logo: Mapped[str] = mapped_column(String(512), default="")
    icon_url: Mapped[str] = mapped_column(String(512), default="")
    system_title: Mapped[str] = mapped_column(String(128), default="")
    theme_color: Mapped[str] = mapped_column(String(16), default="")


class Role(TenantScoped, Base):
    __tablename__ = "role"
    __table_args__ = (UniqueConstraint("tenant_id", "code"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    code: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(64))


class UserRole(TenantScoped, Base):
    __tablename__ = "user_role"
    __table_args__ = (UniqueConstraint("tenant_id", "user_id", "role_id"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user_account.id", ondelete="CASCADE"), index=True)
    role_id: Mapped[int] = mapped_column(ForeignKey("role.id", ondelete="CASCADE"), index=True)


class Menu(Base):
    """A menu of a system; global definitions, granted to tenants' roles through RoleMenu."""

    __tablename__ = "menu"
    __table_args__ = (UniqueConstraint("system_code", "code"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    system_code: Mapped[str] = mapped_column(String(64), index=True)
    parent_id: Mapped[int | None] = mapped_column(ForeignKey("menu.id", ondelete="CASCADE"), nullable=True)
    code: Mapped[str] = mapped_column(String(128))
    url: Mapped[str] = mapped_column(String(512), default="")
    name: Mapped[str] = mapped_column(String(128))
    en_name: Mapped[str] = mapped_column(Text, default="")
    icon: Mapped[str] = mapped_column(String(255), default="")
    parameter: Mapped[str] = mapped_column(Text, default="")
    is_cache: Mapped[bool] = mapped_column(Boolean, default=True)
    is_fetch: Mapped[bool] = mapped_column(Boolean, default=False)
    fetch_path: Mapped[str] = mapped_column(String(512), default="")
    subscript_key: Mapped[str] = mapped_column(String(64), default="")
    subscript_status: Mapped[int] = mapped_column(Integer, default=0)
    user_manual_url: Mapped[str] = mapped_column(String(512), default="")
    original_addr: Mapped[str] = mapped_column(String(512), default="")
    plugin: Mapped[str] = mapped_column(String(64), default="")
    admin_only: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    sort: Mapped[int] = mapped_column(Integer, default=0)


class MenuResource(Base):
    """A button resource of a menu."""

    __tablename__ = "menu_resource"
    __table_args__ = (UniqueConstraint("menu_id", "code"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    menu_id: Mapped[int] = mapped_column(ForeignKey("menu.id", ondelete="CASCADE"), index=True)
    code: Mapped[str] = mapped_column(String(128))
    name: Mapped[str] = mapped_column(String(128))


class MenuFetch(Base):
    __tablename__ = "menu_fetch"
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    menu_id: Mapped[int] = mapped_column(ForeignKey("menu.id", ondelete="CASCADE"), index=True)
    item_name: Mapped[str] = mapped_column(String(128))
    expand: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class RoleMenu(TenantScoped, Base):
    __tablename__ = "role_menu"
    __table_args__ = (UniqueConstraint("tenant_id", "role_id", "menu_id"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    role_id: Mapped[int] = mapped_column(ForeignKey("role.id", ondelete="CASCADE"), index=True)
    menu_id: Mapped[int] = mapped_column(ForeignKey("menu.id", ondelete="CASCADE"), index=True)


class RoleResource(TenantScoped, Base):
    __tablename__ = "role_resource"
    __table_args__ = (UniqueConstraint("tenant_id", "role_id", "resource_id"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    role_id: Mapped[int] = mapped_column(ForeignKey("role.id", ondelete="CASCADE"), index=True)
    resource_id: Mapped[int] = mapped_column(ForeignKey("menu_resource.id", ondelete="CASCADE"), index=True)


class DefaultMenu(TenantScoped, Base):
    __tablename__ = "default_menu"
    __table_args__ = (UniqueConstraint("tenant_id", "user_id", "system_code"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(BigInteger, index=True)
    system_code: Mapped[str] = mapped_column(String(64))
    menu_id: Mapped[int] = mapped_column(BigInteger)
    route_path: Mapped[str] = mapped_column(String(512))


class Favourite(TenantScoped, Base):
    __tablename__ = "favourite"
    __table_args__ = (UniqueConstraint("tenant_id", "user_id", "menu_id", "function_url"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(BigInteger, index=True)
    menu_id: Mapped[int] = mapped_column(BigInteger)
    function_url: Mapped[str] = mapped_column(String(512))
    params: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Feedback(TenantScoped, Base):
    __tablename__ = "feedback"
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(BigInteger, index=True)
    outside: Mapped[str] = mapped_column(String(64))
    function_name: Mapped[str] = mapped_column(String(128), default="")
    service_url: Mapped[str] = mapped_column(String(1024), default="")
    device_type: Mapped[str] = mapped_column(String(16), default="PC")
    description: Mapped[str] = mapped_column(String(200), default="")
    file_ids: Mapped[list[str]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class DictItem(Base):
    """Dictionary items (SYSTEM_LANGUAGE_TYPES, FEEDBACK_DIC, ...); names per locale."""

    __tablename__ = "dict_item"
    __table_args__ = (UniqueConstraint("dic_type", "dic_code"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    dic_type: Mapped[str] = mapped_column(String(64), index=True)
    dic_code: Mapped[str] = mapped_column(String(64))
    names: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    sort: Mapped[int] = mapped_column(Integer, default=0)
    public: Mapped[bool] = mapped_column(Boolean, default=True)


class ServerConfig(Base):
    __tablename__ = "server_config"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text, default="")


class PluginState(Base):
    """Per-tenant enablement and settings of a plugin (absent row: the plugin's default)."""

    __tablename__ = "plugin_state"
    __table_args__ = (UniqueConstraint("tenant_id", "plugin"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    tenant_id: Mapped[int] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"), index=True)
    plugin: Mapped[str] = mapped_column(String(64))
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class LoginLog(TenantScoped, Base):
    __tablename__ = "login_log"
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(BigInteger, index=True)
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
    ip: Mapped[str] = mapped_column(String(64), default="")
    user_agent: Mapped[str] = mapped_column(String(256), default="")


class BehaviorLog(TenantScoped, Base):
    """Page visits and clicks, for the dashboard's click totals and top menus."""

    __tablename__ = "behavior_log"
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(BigInteger, index=True)
    menu_id: Mapped[str] = mapped_column(String(64), default="")
    page_name: Mapped[str] = mapped_column(String(256), default="")
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)


class AuditConfig(TenantScoped, Base):
    __tablename__ = "audit_config"
    __table_args__ = (UniqueConstraint("tenant_id", "server_name", "table_name"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    server_name: Mapped[str] = mapped_column(String(64))
    table_name: Mapped[str] = mapped_column(String(128))
    table_alias: Mapped[str] = mapped_column(String(128), default="")
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)


class GreyRule(TenantScoped, Base):
    __tablename__ = "grey_rule"
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    header: Mapped[str] = mapped_column(String(64))
    value: Mapped[str] = mapped_column(String(255))


class PasswordStrategy(TenantScoped, Base):
    __tablename__ = "password_strategy"
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    min_length: Mapped[int] = mapped_column(Integer, default=6)
    max_length: Mapped[int] = mapped_column(Integer, default=12)
    expire_days: Mapped[int] = mapped_column(Integer, default=90)
    warn_days: Mapped[int] = mapped_column(Integer, default=7)
    allow_symbols: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ScheduledJobRun(Base):
    """One period (slot) of a scheduled job: the process that inserts the row first runs it.

    Global. `outcome` is running, ok, failed or lost (a run whose process died before it ended).
    """

    __tablename__ = "scheduled_job_run"
    __table_args__ = (UniqueConstraint("job_id", "slot"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    job_id: Mapped[str] = mapped_column(String(160))
    slot: Mapped[datetime] = mapped_column(DateTime)
    node: Mapped[str] = mapped_column(String(255))
    started_at: Mapped[datetime] = mapped_column(DateTime, index=True)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    outcome: Mapped[str] = mapped_column(String(16), default="running")
    error: Mapped[str] = mapped_column(Text, default="")
    duration_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)


class ScheduledJobState(Base):
    """An operator's pause of a scheduled job, shared by every node: a paused job's periods are skipped.

    Global. No row: the job runs as scheduled.
    """

    __tablename__ = "scheduled_job_state"
    job_id: Mapped[str] = mapped_column(String(160), primary_key=True)
    paused: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    changed_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    changed_by: Mapped[str] = mapped_column(String(64), default="")


class NodeHeartbeat(Base):
    """A server process's latest heartbeat (every few seconds) when no Redis holds them. Global."""

    __tablename__ = "node_heartbeat"
    node: Mapped[str] = mapped_column(String(255), primary_key=True)
    hostname: Mapped[str] = mapped_column(String(255), default="")
    pid: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[str] = mapped_column(String(64), default="")
    started_at: Mapped[datetime] = mapped_column(DateTime)
    last_seen: Mapped[datetime] = mapped_column(DateTime, index=True)
    info: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
