"""The administration service's contract: its request models and the `services().administration` protocol."""

from __future__ import annotations

from typing import Annotated, Any, Protocol

from pydantic import BaseModel, Field, StringConstraints, field_validator

from atrium.sdk.errors import BadRequest

#: the languages a dictionary item names itself in (``zh-cn`` required)
LOCALE_NAMES = ("zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu")
#: the directory attributes a domain server's mapping may name (the kernel's LDAP defaults)
LDAP_ATTRIBUTES = frozenset({"account", "name", "email", "phone"})


# -- tenants ----------------------------------------------------------------------------------------------


class TenantQuery(BaseModel):
    tenantId: int | None = None


class TenantIdQuery(BaseModel):
    tenantId: int


class SystemOffer(BaseModel):
    systemCode: str = Field(min_length=1, max_length=64)
    systemTitle: str | None = Field(default=None, max_length=128)
    themeColor: str | None = Field(default=None, pattern=r"^(#[0-9A-Fa-f]{6})?$")
    systemLogo: str | None = Field(default=None, max_length=512)
    iconUrl: str | None = Field(default=None, max_length=512)


class TenantIn(BaseModel):
    tenantId: int = Field(ge=1, le=2**53)
    tenantName: str = Field(min_length=1, max_length=16)
    domain: str = Field(default="", max_length=128)
    parentTenantId: int | None = None
    systems: list[SystemOffer] = Field(default_factory=list, max_length=100)

    @field_validator("tenantName", mode="before")
    @classmethod
    def _name_length(cls, v: Any) -> Any:
        """The spec's own message for the company name rule, blank names included."""
        if isinstance(v, str):
            v = v.strip()
            if not 1 <= len(v) <= 16:
                raise BadRequest("tenant.name_length")
        return v


class TenantStateIn(BaseModel):
    tenantId: int
    enabled: bool


class TenantSystemIn(BaseModel):
    tenantId: int
    systemCode: str = Field(min_length=1, max_length=64)
    offered: bool = True
    systemTitle: str | None = Field(default=None, max_length=128)
    themeColor: str | None = Field(default=None, pattern=r"^(#[0-9A-Fa-f]{6})?$")
    systemLogo: str | None = Field(default=None, max_length=512)
    iconUrl: str | None = Field(default=None, max_length=512)


class TenantDeleteIn(BaseModel):
    tenantId: int


# -- users ------------------------------------------------------------------------------------------------


class UserIn(BaseModel):
    account: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=64)  # the tenant's password rule is checked by the service
    userFullName: str = Field(min_length=1, max_length=64)
    tenantId: int | None = None
    supervisor: bool = False
    mobile: str = Field(default="", max_length=32)
    email: str = Field(default="", max_length=128)
    mustChangePassword: bool = True


class UserStateIn(BaseModel):
    userId: int
    enabled: bool
    tenantId: int | None = None


class UserRoleIn(BaseModel):
    userId: int
    roleId: int
    tenantId: int | None = None


class UserPageQuery(BaseModel):
    tenantId: int | None = None
    keyword: str = Field(default="", max_length=64)
    pageIndex: int = Field(default=1, ge=1, le=100_000)
    pageRows: int = Field(default=20, ge=1, le=100)


class UserIdQuery(BaseModel):
    userId: int
    tenantId: int | None = None


Phone = Annotated[
    str, StringConstraints(strip_whitespace=True, max_length=32, pattern=r"^(\+?[0-9][0-9 -]{4,30})?$")
]
Email = Annotated[
    str, StringConstraints(strip_whitespace=True, max_length=128, pattern=r"^([^@\s]+@[^@\s]+\.[^@\s]+)?$")
]


class UserUpdateIn(BaseModel):
    userId: int
    tenantId: int | None = None
    userFullName: str = Field(min_length=1, max_length=64)
    mobile: Phone = ""
    email: Email = ""
    supervisor: bool | None = None


class PasswordResetIn(BaseModel):
    userId: int
    tenantId: int | None = None
    password: str = Field(min_length=1, max_length=64)  # the tenant's password rule is checked by the service


class MembershipIn(BaseModel):
    userId: int
    tenantId: int
    supervisor: bool = False


class MembershipRemoveIn(BaseModel):
    userId: int
    tenantId: int


class PermissionQuery(BaseModel):
    userId: int
    tenantId: int | None = None
    systemCode: str = Field(default="iotAutho", max_length=64)


# -- roles ------------------------------------------------------------------------------------------------


class RoleIn(BaseModel):
    roleCode: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
    roleName: str = Field(min_length=1, max_length=64)
    tenantId: int | None = None


class RoleIdIn(BaseModel):
    roleId: int
    tenantId: int | None = None


class GrantIn(BaseModel):
    roleId: int
    menuIds: list[int] = Field(default_factory=list, max_length=2000)
    tenantId: int | None = None


class GrantResourcesIn(BaseModel):
    roleId: int
    resourceIds: list[int] = Field(default_factory=list, max_length=5000)
    tenantId: int | None = None


# -- menus and their buttons ------------------------------------------------------------------------------


class SystemQuery(BaseModel):
    systemCode: str = Field(default="iotAutho", max_length=64)


class MenuIn(BaseModel):
    systemCode: str = Field(default="iotAutho", max_length=64)
    menuCode: str = Field(min_length=1, max_length=128)
    menuName: str = Field(min_length=1, max_length=128)
    menuEnName: str | dict[str, str] = ""
    menuUrl: str = Field(default="", max_length=512)
    parentId: int | None = None
    parameter: str = Field(default="", max_length=2000)
    sort: int = 0
    menuIconurl: str | None = Field(default=None, max_length=255)
    isCache: bool | None = None
    isFetch: bool | None = None
    fetchPath: str | None = Field(default=None, max_length=512)
    subscriptKey: str | None = Field(default=None, max_length=64)
    subscriptStatus: int | None = Field(default=None, ge=0, le=1)
    userManualUrl: str | None = Field(default=None, max_length=512)
    originalAddr: str | None = Field(default=None, max_length=512)


class MenuMoveIn(BaseModel):
    menuId: int
    parentId: int | None = None
    sort: int = Field(ge=0, le=1_000_000)


class MenuIdIn(BaseModel):
    menuId: int


class ResourceIn(BaseModel):
    menuId: int
    resourceCode: str = Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_:.-]+$")
    resourceName: str = Field(min_length=1, max_length=128)


# -- systems ----------------------------------------------------------------------------------------------


class SystemIn(BaseModel):
    systemCode: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
    systemName: str = Field(min_length=1, max_length=64)
    systemEnName: str = Field(default="", max_length=255)
    requestUrl: str = Field(default="", max_length=512)
    useState: int = Field(default=1, ge=0, le=1)
    iconUrl: str = Field(default="", max_length=512)


class SystemCodeIn(BaseModel):
    systemCode: str = Field(min_length=1, max_length=64)


# -- settings: plugins, password rules, dictionaries, server configuration, grey rules -----------------------


class PluginStateIn(BaseModel):
    plugin: str = Field(min_length=1, max_length=64)
    enabled: bool
    tenantId: int | None = None


class PasswordStrategyIn(BaseModel):
    minLength: int = Field(default=6, ge=6, le=12)
    maxLength: int = Field(default=12, ge=6, le=64)
    expireDays: int = Field(default=90, ge=0, le=3650)
    warnDays: int = Field(default=7, ge=0, le=90)
    allowSymbols: bool = False
    tenantId: int | None = None


class DicTypeQuery(BaseModel):
    dicType: str = Field(default="", max_length=64)


DicCode = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")
]


class DictionaryIn(BaseModel):
    dicType: DicCode
    dicCode: DicCode
    names: dict[str, Annotated[str, StringConstraints(strip_whitespace=True, max_length=128)]]
    sort: int = Field(default=0, ge=0, le=100_000)
    public: bool = True

    @field_validator("names")
    @classmethod
    def _names(cls, v: dict[str, str]) -> dict[str, str]:
        unknown = set(v) - set(LOCALE_NAMES)
        if unknown:
            raise BadRequest("validation.extra_forbidden", field=f"names.{sorted(unknown)[0]}")
        if not v.get("zh-cn"):
            raise BadRequest("validation.missing", field="names.zh-cn")
        return {k: s for k, s in v.items() if s}


class DictionaryIdIn(BaseModel):
    # strict: a JSON `true` is not item 1 (lax parsing would delete it)
    diId: int = Field(strict=True, ge=1)

    @field_validator("diId", mode="before")
    @classmethod
    def _id_text(cls, value: Any) -> Any:
        """The list answers ids as text; the screen sends them back as they came."""
        return int(value) if isinstance(value, str) and value.isdigit() else value


class ServerConfigIn(BaseModel):
    configKey: str = Field(min_length=1, max_length=64)
    value: str = Field(max_length=255)


class GreyRuleIn(BaseModel):
    header: Annotated[
        str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64, pattern=r"^[A-Za-z0-9-]+$")
    ]
    value: Annotated[
        str, StringConstraints(strip_whitespace=True, min_length=1, max_length=255, pattern=r"^[\x20-\x7e]+$")
    ]
    userId: int | None = None
    tenantId: int | None = None


class GreyRuleIdIn(BaseModel):
    ruleId: int
    tenantId: int | None = None


# -- sign-in: options, domain servers, registrations, the sign-in record ----------------------------------


class SigninConfigIn(BaseModel):
    tenantId: int | None = None
    allowRegister: bool | None = None
    registerApproval: bool | None = None
    qrcodeEnabled: bool | None = None
    passwordEnabled: bool | None = None
    phoneCodeEnabled: bool | None = None
    emailCodeEnabled: bool | None = None


class LdapConfigIn(BaseModel):
    tenantId: int | None = None
    id: int | None = None
    domain: str = Field(min_length=1, max_length=64)
    serverUrl: str = Field(min_length=1, max_length=512)
    bindDn: str = Field(default="", max_length=512)
    bindPassword: str | None = Field(default=None, max_length=256)
    searchBase: str = Field(min_length=1, max_length=512)
    userFilter: str = Field(default="(uid={account})", max_length=512)
    attributes: dict[str, str] = Field(default_factory=dict)
    startTls: bool = False
    timeout: int = Field(default=5, ge=1, le=30)
    enabled: bool = True

    @field_validator("serverUrl")
    @classmethod
    def _url(cls, value: str) -> str:
        if not value.lower().startswith(("ldap://", "ldaps://")):
            raise BadRequest("signin.ldap_url_invalid")
        return value.strip()

    @field_validator("userFilter")
    @classmethod
    def _filter(cls, value: str) -> str:
        value = value.strip()
        if "{account}" not in value or not (value.startswith("(") and value.endswith(")")):
            raise BadRequest("signin.ldap_filter_invalid")
        return value

    @field_validator("attributes")
    @classmethod
    def _attributes(cls, value: dict[str, str]) -> dict[str, str]:
        if set(value) - LDAP_ATTRIBUTES or any(len(v) > 64 for v in value.values()):
            raise BadRequest("signin.ldap_attributes_invalid")
        return value


class IdQuery(BaseModel):
    id: int
    tenantId: int | None = None


class DecideIn(BaseModel):
    userId: int
    approve: bool
    tenantId: int | None = None


class LoginLogQuery(BaseModel):
    tenantId: int | None = None
    keyword: str = Field(default="", max_length=64)
    pageIndex: int = Field(default=1, ge=1, le=100_000)
    pageRows: int = Field(default=20, ge=1, le=100)


class LockoutQuery(BaseModel):
    tenantId: int | None = None
    keyword: str = Field(default="", max_length=64)
    pageIndex: int = Field(default=1, ge=1, le=100_000)
    pageRows: int = Field(default=20, ge=1, le=100)


# -- the service ------------------------------------------------------------------------------------------
#
# Every operation runs in the caller's transaction (a request's) as its signed-in user: super
# administrators name any tenant with `tenantId`, supervisors act in their own only (another tenant is
# Forbidden; another tenant's users, roles and servers are NotFound). Every write reaches the audit trail.


class Tenants(Protocol):
    """Tenants: listing, creation with the systems offered, suspension, the systems offered, deletion."""

    def all(self) -> list[dict[str, Any]]:
        """Every tenant."""
        ...

    def create(self, body: TenantIn) -> dict[str, Any]:
        """A tenant with the default system and those offered to it, all or nothing."""
        ...

    def set_state(self, body: TenantStateIn) -> dict[str, Any]:
        """Suspend a tenant (its users' sessions end) or let it work again."""
        ...

    def systems(self, query: TenantIdQuery) -> list[dict[str, Any]]:
        """The systems offered to a tenant with their branding there."""
        ...

    def offer_system(self, body: TenantSystemIn) -> dict[str, Any]:
        """Offer a system to a tenant (with its branding), or withdraw it."""
        ...

    def delete(self, body: TenantDeleteIn) -> None:
        """Delete an unused tenant with its configuration."""
        ...


class Users(Protocol):
    """Users: a tenant's members, their accounts, memberships, roles and effective permissions."""

    def all(self, query: TenantQuery) -> list[dict[str, Any]]:
        """The users of a tenant."""
        ...

    def page(self, query: UserPageQuery) -> dict[str, Any]:
        """One page of a tenant's users, searched by account or name, with the total."""
        ...

    def detail(self, query: UserIdQuery) -> dict[str, Any]:
        """A user with their memberships and roles."""
        ...

    def create(self, body: UserIn) -> dict[str, Any]:
        """Create a user in a tenant."""
        ...

    def set_state(self, body: UserStateIn) -> None:
        """Enable or disable a user (the account, or the membership of the tenant)."""
        ...

    def update(self, body: UserUpdateIn) -> dict[str, Any]:
        """Change a user's name, contact and supervisor flag."""
        ...

    def reset_password(self, body: PasswordResetIn) -> None:
        """Give a user a new password to change at the next sign-in; their sessions end."""
        ...

    def unlock(self, body: UserIdQuery) -> None:
        """Lift a lockout after failed sign-ins."""
        ...

    def add_membership(self, body: MembershipIn) -> None:
        """Let a user into another tenant (or change their supervisor flag there)."""
        ...

    def remove_membership(self, body: MembershipRemoveIn) -> None:
        """Take a user out of a tenant with their roles and sessions there."""
        ...

    def assign_role(self, body: UserRoleIn) -> None:
        """Give a user of the tenant a role."""
        ...

    def remove_role(self, body: UserRoleIn) -> None:
        """Take a role away from a user of the tenant."""
        ...

    def permissions(self, query: PermissionQuery) -> dict[str, Any]:
        """A user's effective menus and buttons in a tenant and system."""
        ...


class Roles(Protocol):
    """Roles of a tenant and their menu and button grants."""

    def all(self, query: TenantQuery) -> list[dict[str, Any]]:
        """A tenant's roles with their granted menus."""
        ...

    def create(self, body: RoleIn) -> dict[str, Any]:
        """Create a role in a tenant."""
        ...

    def delete(self, body: RoleIdIn) -> None:
        """Delete a role no user holds."""
        ...

    def grant_menus(self, body: GrantIn) -> None:
        """Replace a role's menu grants."""
        ...

    def resources(self, query: RoleIdIn) -> list[str]:
        """The buttons granted to a role."""
        ...

    def grant_resources(self, body: GrantResourcesIn) -> None:
        """Replace a role's button grants."""
        ...


class Menus(Protocol):
    """The platform's menus and their buttons (resources)."""

    def all(self, query: SystemQuery) -> list[dict[str, Any]]:
        """Every menu of a system, flat."""
        ...

    def save(self, body: MenuIn) -> dict[str, Any]:
        """Create or update a menu (by system and code)."""
        ...

    def move(self, body: MenuMoveIn) -> dict[str, Any]:
        """Move a menu under another parent at a position."""
        ...

    def delete(self, body: MenuIdIn) -> None:
        """Delete an unused menu with its buttons."""
        ...

    def resources(self, query: SystemQuery) -> list[dict[str, Any]]:
        """The buttons of every menu of a system."""
        ...

    def save_resource(self, body: ResourceIn) -> dict[str, str]:
        """Add a button to a menu, or rename it."""
        ...


class Systems(Protocol):
    """The platform's systems."""

    def all(self) -> list[dict[str, Any]]:
        """Every system."""
        ...

    def save(self, body: SystemIn) -> dict[str, str]:
        """Create or update a system."""
        ...

    def delete(self, body: SystemCodeIn) -> None:
        """Delete a system no tenant is offered and no menu belongs to."""
        ...


class Settings(Protocol):
    """A tenant's plugins, password rules and grey rules; the platform's dictionaries and server flags."""

    def plugins(self, query: TenantQuery) -> list[dict[str, Any]]:
        """Installed plugins with their state and enablement for a tenant."""
        ...

    def set_plugin_state(self, body: PluginStateIn) -> dict[str, Any]:
        """Enable or disable a plugin for a tenant (not one that must stay on)."""
        ...

    def password_strategy(self, query: TenantQuery) -> dict[str, Any]:
        """A tenant's password rules."""
        ...

    def save_password_strategy(self, body: PasswordStrategyIn) -> dict[str, Any]:
        """Set a tenant's password rules."""
        ...

    def dictionaries(self, query: DicTypeQuery) -> dict[str, Any]:
        """The dictionary types, and the items of one type."""
        ...

    def save_dictionary(self, body: DictionaryIn) -> dict[str, str]:
        """Add a dictionary item or change it."""
        ...

    def delete_dictionary(self, body: DictionaryIdIn) -> None:
        """Delete a dictionary item."""
        ...

    def server_config(self) -> list[dict[str, str]]:
        """The server configuration flags with their values."""
        ...

    def save_server_config(self, body: ServerConfigIn) -> None:
        """Set a server configuration flag."""
        ...

    def grey_rules(self, query: TenantQuery) -> list[dict[str, Any]]:
        """A tenant's grey rules."""
        ...

    def add_grey_rule(self, body: GreyRuleIn) -> dict[str, str]:
        """Add a grey rule for a tenant (or one of its users)."""
        ...

    def delete_grey_rule(self, body: GreyRuleIdIn) -> None:
        """Delete one of a tenant's grey rules."""
        ...


class Signin(Protocol):
    """A tenant's sign-in: modes offered, options, domain servers, registrations, sign-ins, lockouts."""

    def modes(self, query: TenantQuery) -> dict[str, Any]:
        """What the tenant's sign-in page offers now, with its domain name."""
        ...

    def config(self, query: TenantQuery) -> dict[str, bool]:
        """The tenant's sign-in options."""
        ...

    def save_config(self, body: SigninConfigIn) -> dict[str, bool]:
        """Change some of the tenant's sign-in options."""
        ...

    def ldap_servers(self, query: TenantQuery) -> list[dict[str, Any]]:
        """The tenant's domain servers (bind passwords never shown)."""
        ...

    def save_ldap(self, body: LdapConfigIn) -> dict[str, Any]:
        """Add or change a domain server."""
        ...

    def delete_ldap(self, query: IdQuery) -> None:
        """Remove a domain server."""
        ...

    def test_ldap(self, query: IdQuery) -> dict[str, Any]:
        """Bind with a domain server's service account and count the entries under its search base."""
        ...

    def registrations(self, query: TenantQuery) -> list[dict[str, Any]]:
        """Registrations waiting for the tenant's approval."""
        ...

    def decide(self, body: DecideIn) -> None:
        """Approve or refuse a registration."""
        ...

    def login_log(self, query: LoginLogQuery) -> dict[str, Any]:
        """The tenant's sign-ins, newest first, with each account's failures and lockout."""
        ...

    def lockouts(self, query: LockoutQuery) -> dict[str, Any]:
        """The tenant's accounts with failed sign-ins since their last success."""
        ...


class Administration(Protocol):
    """The platform's administration, by concept (``services().administration.users.page(query)``).

    Example::

        admin = services().administration
        found = admin.users.page(UserPageQuery(keyword="ann"))
    """

    tenants: Tenants
    users: Users
    roles: Roles
    menus: Menus
    systems: Systems
    settings: Settings
    signin: Signin
