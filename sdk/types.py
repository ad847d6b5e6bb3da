"""Data a plugin hands to the kernel through its hooks."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

PLUGIN_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
SLOTS = ("navbarItem", "drawer", "overlay", "homeCard", "portalPanel", "page")


class WebSlot(BaseModel):
    model_config = ConfigDict(extra="forbid")
    slot: Literal["navbarItem", "drawer", "overlay", "homeCard", "portalPanel", "page"]
    module: str = "./App"
    path: str | None = None


class WebModule(BaseModel):
    """The plugin's federated module, as the host's manifest shows it."""

    model_config = ConfigDict(extra="forbid")
    remote_name: str = Field(default="", description="the container name; always atrium_<id> with _ for -")
    exposes: list[str] = Field(default_factory=lambda: ["./App"])
    slots: list[WebSlot] = Field(default_factory=list)


class PluginInfo(BaseModel):
    """What a plugin is: validated, unknown fields refused."""

    model_config = ConfigDict(extra="forbid")
    name: str
    version: str
    sdk: str = ">=1.0,<2"
    description: str = ""
    depends: list[str] = Field(default_factory=list)
    services: dict[str, str] = Field(default_factory=dict)
    prefixes: list[str] = Field(default_factory=list)
    web: WebModule | None = None
    essential: bool = False
    enabled_by_default: bool = True

    @field_validator("name")
    @classmethod
    def _kebab(cls, v: str) -> str:
        if not PLUGIN_ID.match(v):
            raise ValueError(f"plugin id {v!r} must be kebab-case (a-z, 0-9, single dashes)")
        return v

    @field_validator("services")
    @classmethod
    def _service_paths(cls, v: dict[str, str]) -> dict[str, str]:
        for key, base in v.items():
            if not base.startswith("/api/"):
                raise ValueError(f"service {key!r} base {base!r} must start with /api/")
        return v

    @field_validator("prefixes")
    @classmethod
    def _prefixes(cls, v: list[str]) -> list[str]:
        for p in v:
            if not p.startswith("/"):
                raise ValueError(f"mount prefix {p!r} must start with /")
        return v


@dataclass
class ResourceSpec:
    """A button resource on a menu (`hasButton(code)` in the web)."""

    code: str
    name: str


@dataclass
class MenuSpec:
    """A default menu a plugin contributes; children nest up to three levels."""

    code: str
    name: str
    en_name: str | dict[str, str] = ""
    url: str = ""
    icon: str = ""
    system_code: str = "iotAutho"
    parameter: dict[str, Any] | None = None
    is_cache: bool = True
    subscript_key: str = ""
    user_manual_url: str = ""
    sort: int = 0
    admin_only: bool = False
    children: list[MenuSpec] = field(default_factory=list)
    resources: list[ResourceSpec] = field(default_factory=list)


@dataclass
class JobSpec:
    """A scheduled job: `trigger` and `trigger_args` are APScheduler's (e.g. "interval", {"minutes": 5})."""

    id: str
    func: Callable[[], Any]
    trigger: str = "interval"
    trigger_args: dict[str, Any] = field(default_factory=dict)


@dataclass
class DatabaseSpec:
    """A plugin's tables and the folder of its Alembic versions."""

    metadata: Any
    migrations: str


@dataclass(frozen=True)
class Event:
    """Something that happened: login, logout, tenant_switch, page_visit, message_sent, ..."""

    name: str
    tenant_id: int | None = None
    user_id: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Person:
    """A platform user as the directory shows them to plugins (no credentials)."""

    user_id: int
    account: str
    full_name: str
    staff_no: str = ""
    mobile: str = ""
    email: str = ""
    department: str = ""


@dataclass(frozen=True)
class TenantInfo:
    tenant_id: int
    name: str
    domain: str


@dataclass(frozen=True)
class SystemInfo:
    code: str
    name: str
    en_name: str
