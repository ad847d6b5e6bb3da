"""Settings: a tenant's plugins, password rules, grey rules; the platform's dictionaries and server flags."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from atrium.kernel import menus
from atrium.kernel.administration.common import audit, member, target_tenant
from atrium.kernel.identity.password_rule import rule_from
from atrium.kernel.models import DictItem, GreyRule, PasswordStrategy, ServerConfig
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
from atrium.sdk.context import current_context, tenant_scope, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, NotFound

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

CONSOLE_PLUGIN = "admin"  # serves this console: switched off, nobody could switch it on again


def plugin_guard(kernel: Kernel, plugin: str) -> tuple[str, dict[str, Any]] | None:
    """Why a plugin must stay enabled (the message key and its parameters), or None when it may be switched
    off: the plugin that serves the administration console, an essential plugin, and one that an essential
    plugin depends on."""
    loaded = kernel.plugins.loaded
    if plugin == CONSOLE_PLUGIN:
        return "plugin.serves_console", {"plugin": plugin}
    own = loaded.get(plugin)
    if own is not None and own.info.essential:
        return "plugin.essential", {"plugin": plugin}
    for name, other in loaded.items():
        if other.info.essential and plugin in other.info.depends:
            return "plugin.needed_by", {"plugin": plugin, "by": name}
    return None


class KernelSettings:
    """The SDK's `Settings` (dictionaries and server flags: super administrators)."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel

    def plugins(self, query: TenantQuery) -> list[dict[str, Any]]:
        """A plugin that cannot be switched off says so (`essential`) and why (`lockedReason`, in the
        request's language)."""
        from atrium.kernel.api.manifest import plugins as plugin_rows

        tid = target_tenant(query.tenantId)
        k = self.kernel
        rows = plugin_rows() if tid == current_context().require_user().tenant_id else k.plugins.report()
        for row in rows:
            row["enabled"] = row["status"] == "loaded" and k.enablement.is_enabled(tid, row["name"])
            guard = plugin_guard(k, row["name"]) if row["status"] == "loaded" else None
            row["essential"] = guard is not None
            row["lockedReason"] = k.t(guard[0], **guard[1]) if guard else None
        return rows

    def set_plugin_state(self, body: PluginStateIn) -> dict[str, Any]:
        """The console's own plugin, essential plugins and those an essential plugin depends on cannot be
        disabled (BadRequest, saying why)."""
        tid = target_tenant(body.tenantId)
        k = self.kernel
        loaded = k.plugins.loaded.get(body.plugin)
        if loaded is None:
            raise NotFound("plugin.not_found", plugin=body.plugin)
        guard = plugin_guard(k, body.plugin)
        if guard is not None and not body.enabled:
            raise BadRequest(guard[0], **guard[1])
        k.enablement.set(tid, body.plugin, body.enabled)
        k.local.invalidate(menus.MENUS)
        # the switch is audited by `enablement.set` itself (as from the command line)
        return {"plugin": body.plugin, "tenantId": tid, "enabled": body.enabled}

    def password_strategy(self, query: TenantQuery) -> dict[str, Any]:
        """The defaults when none are stored."""
        tid = target_tenant(query.tenantId)
        with tenant_scope(tid):
            row = session().execute(select(PasswordStrategy)).scalar()
        return _strategy_answer(row, self.kernel.t)

    def save_password_strategy(self, body: PasswordStrategyIn) -> dict[str, Any]:
        if body.maxLength < body.minLength:
            raise BadRequest("password.strategy_range")
        tid = target_tenant(body.tenantId)
        with tenant_scope(tid):
            db = session()
            row = db.execute(select(PasswordStrategy)).scalar()
            if row is None:
                row = PasswordStrategy()
                db.add(row)
            row.min_length, row.max_length = body.minLength, body.maxLength
            row.expire_days, row.warn_days = body.expireDays, body.warnDays
            row.allow_symbols = body.allowSymbols
            db.flush()
        audit("password.strategy", tid, tid, after=body.model_dump(exclude={"tenantId"}))
        return _strategy_answer(row, self.kernel.t)

    def dictionaries(self, query: DicTypeQuery) -> dict[str, Any]:
        db = session()
        with unscoped():
            types = list(
                db.execute(select(DictItem.dic_type).distinct().order_by(DictItem.dic_type)).scalars()
            )
            rows = (
                db.execute(
                    select(DictItem)
                    .where(DictItem.dic_type == query.dicType)
                    .order_by(DictItem.sort, DictItem.id)
                )
                .scalars()
                .all()
                if query.dicType
                else []
            )
        return {
            "types": types,
            "items": [
                {
                    "diId": str(r.id),
                    "dicType": r.dic_type,
                    "dicCode": r.dic_code,
                    "names": r.names,
                    "sort": r.sort,
                    "public": r.public,
                }
                for r in rows
            ],
        }

    def save_dictionary(self, body: DictionaryIn) -> dict[str, str]:
        """By type and code: a new code adds an item, a known one changes it."""
        db = session()
        with unscoped():
            row = db.execute(
                select(DictItem).where(DictItem.dic_type == body.dicType, DictItem.dic_code == body.dicCode)
            ).scalar()
            before = None if row is None else {"names": row.names, "sort": row.sort, "public": row.public}
            if row is None:
                row = DictItem(dic_type=body.dicType, dic_code=body.dicCode)
                db.add(row)
            row.names, row.sort, row.public = dict(body.names), body.sort, body.public
            db.flush()
        audit(
            "dictionary.save",
            None,
            f"{body.dicType}:{body.dicCode}",
            before=before,
            after={"names": body.names, "sort": body.sort, "public": body.public},
        )
        return {"diId": str(row.id)}

    def delete_dictionary(self, body: DictionaryIdIn) -> None:
        db = session()
        with unscoped():
            row = db.get(DictItem, body.diId)
            if row is None:
                raise NotFound("config.dictionary_not_found")
            before = {"dicType": row.dic_type, "dicCode": row.dic_code, "names": row.names}
            db.delete(row)
            db.flush()
        audit("dictionary.delete", None, f"{before['dicType']}:{before['dicCode']}", before=before)

    def server_config(self) -> list[dict[str, str]]:
        """The default where no value is stored."""
        from atrium.kernel.api.settings import CONFIG_KEYS

        with unscoped():
            stored = {r.key: r.value for r in session().execute(select(ServerConfig)).scalars()}
        return [
            {"configKey": key, "value": stored.get(key, default), "default": default}
            for key, default in CONFIG_KEYS.items()
        ]

    def save_server_config(self, body: ServerConfigIn) -> None:
        from atrium.kernel.api.settings import CONFIG_KEYS

        if body.configKey not in CONFIG_KEYS:
            raise BadRequest("config.unknown_key", key=body.configKey)
        db = session()
        with unscoped():
            row = db.get(ServerConfig, body.configKey)
            before = CONFIG_KEYS[body.configKey] if row is None else row.value
            if row is None:
                row = ServerConfig(key=body.configKey)
                db.add(row)
            row.value = body.value.strip()
            db.flush()
        self.kernel.local.invalidate(menus.MENUS)
        audit("config.save", None, body.configKey, before={"value": before}, after={"value": row.value})

    def grey_rules(self, query: TenantQuery) -> list[dict[str, Any]]:
        """A header and value sent by everyone's browser (or one user's)."""
        with tenant_scope(target_tenant(query.tenantId)):
            rows = session().execute(select(GreyRule).order_by(GreyRule.id)).scalars().all()
        return [
            {"ruleId": str(r.id), "userId": r.user_id, "header": r.header, "value": r.value} for r in rows
        ]

    def add_grey_rule(self, body: GreyRuleIn) -> dict[str, str]:
        tid = target_tenant(body.tenantId)
        if body.userId is not None:
            member(body.userId, tid)
        with tenant_scope(tid):
            row = GreyRule(user_id=body.userId, header=body.header, value=body.value)
            session().add(row)
            session().flush()
        audit("grey_rule.add", tid, row.id, after=body.model_dump(exclude={"tenantId"}))
        return {"ruleId": str(row.id)}

    def delete_grey_rule(self, body: GreyRuleIdIn) -> None:
        tid = target_tenant(body.tenantId)
        with tenant_scope(tid):
            db = session()
            row = db.execute(select(GreyRule).where(GreyRule.id == body.ruleId)).scalar()
            if row is None:
                raise NotFound("config.grey_rule_not_found")
            before = {"header": row.header, "value": row.value, "userId": row.user_id}
            db.delete(row)
            db.flush()
        audit("grey_rule.delete", tid, body.ruleId, before=before)


def _strategy_answer(
    row: PasswordStrategy | None, translate: Callable[..., str]
) -> dict[str, Any]:
    """The stored strategy, or the spec's defaults, with the rule it makes as the screens show it."""
    rule = rule_from(row)
    return {
        "minLength": rule.min_length,
        "maxLength": rule.max_length,
        "expireDays": row.expire_days if row else 90,
        "warnDays": row.warn_days if row else 7,
        "allowSymbols": rule.allow_symbols,
        "pattern": rule.pattern,
        "pwdTips": rule.tips(translate),
    }
