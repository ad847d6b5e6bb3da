"""Settings routes (`/api/base/admin`): plugins, password rules, dictionaries, server flags, grey rules."""

from __future__ import annotations

from typing import Any

from atrium.sdk.accounts import (
    DictionaryIdIn,
    DictionaryIn,
    DicTypeQuery,
    GreyRuleIdIn,
    GreyRuleIn,
    PasswordStrategyIn,
    PluginStateIn,
    ServerConfigIn,
    TenantQuery,
)
from atrium.sdk.routing import Router
from atrium.sdk.services import services

router = Router("/api/base/admin")


@router.get("/plugins", permission="admin", query=TenantQuery)
def list_plugins(query: TenantQuery) -> list[dict[str, Any]]:
    """Installed plugins, their load status and enablement for a tenant; a plugin that cannot be switched off
    says so (`essential`) and why (`lockedReason`, in the request's language)."""
    return services().administration.settings.plugins(query)


@router.post("/plugins/state", permission="admin", body=PluginStateIn)
def set_plugin_state(body: PluginStateIn) -> dict[str, Any]:
    """Enable or disable a plugin for a tenant; the console's own plugin, essential plugins and those an
    essential plugin depends on cannot be disabled (400, saying why)."""
    return services().administration.settings.set_plugin_state(body)


@router.post("/password-strategy", permission="admin", body=PasswordStrategyIn)
def save_password_strategy(body: PasswordStrategyIn) -> dict[str, Any]:
    """Set the tenant's password rules (lengths, expiry and the warning before it)."""
    return services().administration.settings.save_password_strategy(body)


@router.get("/dictionaries", permission="admin", query=DicTypeQuery)
def list_dictionaries(query: DicTypeQuery) -> dict[str, Any]:
    """The dictionary types, and the items of one type with their names in every language."""
    return services().administration.settings.dictionaries(query)


@router.post("/dictionaries", permission="super-admin", body=DictionaryIn)
def save_dictionary(body: DictionaryIn) -> dict[str, str]:
    """Add a dictionary item or change it (by type and code)."""
    return services().administration.settings.save_dictionary(body)


@router.post("/dictionaries/delete", permission="super-admin", body=DictionaryIdIn)
def delete_dictionary(body: DictionaryIdIn) -> None:
    """Delete a dictionary item."""
    services().administration.settings.delete_dictionary(body)


@router.get("/server-config", permission="super-admin")
def list_server_config() -> list[dict[str, str]]:
    """The server configuration flags with their values (the default where none is stored)."""
    return services().administration.settings.server_config()


@router.post("/server-config", permission="super-admin", body=ServerConfigIn)
def save_server_config(body: ServerConfigIn) -> None:
    """Set a server configuration flag."""
    services().administration.settings.save_server_config(body)


@router.get("/grey-rules", permission="admin", query=TenantQuery)
def list_grey_rules(query: TenantQuery) -> list[dict[str, Any]]:
    """The tenant's grey rules: a header and value sent by everyone's browser (or one user's)."""
    return services().administration.settings.grey_rules(query)


@router.post("/grey-rules", permission="admin", body=GreyRuleIn)
def add_grey_rule(body: GreyRuleIn) -> dict[str, str]:
    """Add a grey rule for the tenant (or one of its users)."""
    return services().administration.settings.add_grey_rule(body)


@router.post("/grey-rules/delete", permission="admin", body=GreyRuleIdIn)
def delete_grey_rule(body: GreyRuleIdIn) -> None:
    """Delete one of the tenant's grey rules."""
    services().administration.settings.delete_grey_rule(body)


@router.get("/password-strategy", permission="admin", query=TenantQuery)
def get_password_strategy(query: TenantQuery) -> dict[str, Any]:
    """The tenant's password rules (the defaults when none are stored)."""
    return services().administration.settings.password_strategy(query)
