"""The audit trail, for the kernel and every plugin: one call per security-relevant write.

A record says who (the signed-in user), in which tenant, did what (an action code such as
``reports.link.enable``, translated on the audit screen from ``admin:audit.action.<code>``) to which object
(its type, id and name), and what it was before and after. It is reported as an ``admin.audit`` event,
which the audit trail adds in the same transaction as the write: the record stands or falls with it.

Secrets are never recorded: the value of a key that names one (password, pwd, secret, token, ...) becomes
a marker (``SET``, ``CHANGED``, ``REMOVED``), and a password inside a URL becomes ``***``.

Example::

    from atrium.sdk import audit

    audit.record(
        "reports.link.password.change", target_type="panel", target_id=panel.id, target_name=panel.name,
        before={"pwd": old}, after={"pwd": new},   # recorded as {"pwd": "[set]"} -> {"pwd": "[changed]"}
    )
"""

from __future__ import annotations

import re
from typing import Any

from atrium.sdk.context import current_context
from atrium.sdk.services import services

EVENT = "admin.audit"

#: markers recorded in place of a secret's value
SET = "[set]"
CHANGED = "[changed]"
REMOVED = "[removed]"
MARKERS = (SET, CHANGED, REMOVED)

#: a key whose (lower-cased, ``_`` and ``-`` removed) name contains one of these holds a secret
SECRET_WORDS = (
    "password",
    "passwd",
    "pwd",
    "secret",
    "token",
    "apikey",
    "privatekey",
    "credential",
    "magic",
)
_URL_PASSWORD = re.compile(r"(\b[a-zA-Z][\w+.-]*://[^/:@\s]*:)[^@\s/]+@")


def is_secret(key: str) -> bool:
    """Whether a key (``password``, ``bindPassword``, ``clientSecret``, ``pwd``...) names a secret."""
    name = key.lower().replace("_", "").replace("-", "")
    return any(word in name for word in SECRET_WORDS)


def _blank(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _plain(value: Any) -> bool:
    """Flags and counts are kept even under a secret-sounding key (``enablePwd``, ``pwdVersion``)."""
    return isinstance(value, bool | int | float)


def secret_markers(before: Any, after: Any) -> tuple[Any, Any]:
    """The markers recorded for a secret's values before and after (empty ones stay empty)."""
    if _blank(before) and _blank(after):
        return before, after
    if _blank(before):
        return before, SET
    if _blank(after):
        return SET, REMOVED
    return (SET, SET) if before == after else (SET, CHANGED)


def _scrub(value: Any) -> Any:
    return _URL_PASSWORD.sub(r"\1***@", value) if isinstance(value, str) else value


def redact_pair(before: Any, after: Any) -> tuple[Any, Any]:
    """Before and after with every secret replaced by a marker: ``SET`` where one was, ``CHANGED`` where
    it differs afterwards, ``REMOVED`` where it went; nested dictionaries and lists are followed."""
    if isinstance(before, dict) or isinstance(after, dict):
        b = before if isinstance(before, dict) else {}
        a = after if isinstance(after, dict) else {}
        out_b: dict[str, Any] = {}
        out_a: dict[str, Any] = {}
        for key in dict.fromkeys([*b, *a]):
            bv, av = b.get(key), a.get(key)
            if is_secret(str(key)) and not _plain(bv) and not _plain(av):
                mb, ma = secret_markers(bv, av)
            else:
                mb, ma = redact_pair(bv, av)
            if key in b:
                out_b[key] = mb
            if key in a:
                out_a[key] = ma
        return (
            out_b if isinstance(before, dict) else redact(before),
            out_a if isinstance(after, dict) else redact(after),
        )
    if isinstance(before, list | tuple) or isinstance(after, list | tuple):
        return (
            [redact(v) for v in before] if isinstance(before, list | tuple) else _scrub(before),
            [redact(v) for v in after] if isinstance(after, list | tuple) else _scrub(after),
        )
    return _scrub(before), _scrub(after)


def redact(value: Any) -> Any:
    """A value with every secret replaced by ``SET`` (an empty one is left empty)."""
    return redact_pair(value, value)[0]


def record(
    action: str,
    *,
    target_type: str,
    target_id: str | int,
    target_name: str = "",
    before: Any = None,
    after: Any = None,
    tenant_id: int | None = None,
    platform_wide: bool = False,
    user_id: int | None = None,
    account: str = "",
) -> None:
    """Add a record to the audit trail, in the running transaction.

    ``action`` is a code (``<plugin>.<object>.<verb>``) that has a translation ``audit.action.<code>`` in
    every locale's ``admin.json``; ``target_type`` names the kind of object (``audit.type.<type>``).
    The tenant is the request's unless given (``platform_wide`` for definitions outside any tenant); the
    person is the signed-in user unless given (``user_id``, ``account``: someone acting before signing in,
    resetting a forgotten password say). ``before`` and ``after`` are JSON-able values (usually the changed
    fields); secrets in them are replaced by markers."""
    ctx = current_context()
    su = ctx.user
    if user_id is None and su is not None:
        user_id, account = su.user_id, account or su.account
    if tenant_id is None and not platform_wide:
        tenant_id = ctx.tenant_id if ctx.tenant_id is not None else (su.tenant_id if su is not None else None)
    safe_before, safe_after = redact_pair(before, after)
    services().emit(
        EVENT,
        tenant_id=tenant_id,
        user_id=user_id,
        account=account,
        action=action,
        target=str(target_id),
        target_type=target_type,
        target_name=str(target_name or ""),
        before=safe_before,
        after=safe_after,
    )
