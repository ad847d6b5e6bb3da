"""The platform's dictionaries as choices of select and radio fields (``x-dict``): their items named in a
language, and their codes for the server's check.

The SDK's services have no dictionary look-up, and a plugin never imports the kernel: the kernel's
dictionary table (``dict_item``: type, code, names per locale, sort) is read here by its name, read-only, the
one place this plugin touches a table it does not own. Dictionary items belong to no tenant.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import nullcontext
from typing import Any

from sqlalchemy import JSON, BigInteger, Integer, String, column, select, table

from atrium.sdk.context import current_context
from atrium.sdk.services import services

DICT_ITEM = table(
    "dict_item",
    column("id", BigInteger),
    column("dic_type", String),
    column("dic_code", String),
    column("names", JSON),
    column("sort", Integer),
)


def _rows(types: Iterable[str]) -> list[Any]:
    wanted = sorted({t for t in types if t})
    if not wanted:
        return []
    stmt = (
        select(DICT_ITEM.c.dic_type, DICT_ITEM.c.dic_code, DICT_ITEM.c.names)
        .where(DICT_ITEM.c.dic_type.in_(wanted))
        .order_by(DICT_ITEM.c.dic_type, DICT_ITEM.c.sort, DICT_ITEM.c.id)
    )
    ctx = current_context()
    # inside a request or job its session; elsewhere (an import's row check) a session of its own
    opened = nullcontext(ctx.db) if ctx.db is not None else services().db()
    with opened as db:
        return list(db.execute(stmt).all())


def _name(names: Any, code: str, locale: str) -> str:
    found: dict[str, Any] = names if isinstance(names, dict) else {}
    return str(found.get(locale) or found.get("zh-cn") or found.get("en-us") or code)


def items(types: Iterable[str], locale: str | None = None) -> dict[str, list[dict[str, str]]]:
    """Each type's items in order as ``{"value": code, "label": name}``, named in ``locale`` (the request's
    language by default); a type without items answers an empty list."""
    wanted = {t for t in types if t}
    loc = locale or current_context().locale
    out: dict[str, list[dict[str, str]]] = {t: [] for t in sorted(wanted)}
    for dic_type, code, names in _rows(wanted):
        out[dic_type].append({"value": code, "label": _name(names, code, loc)})
    return out


def codes(dic_type: str) -> set[str]:
    """The item codes of one dictionary type."""
    return {code for _, code, _ in _rows([dic_type])}
