"""Data scope: the row permissions of datasets, and whose scope a data request answers in (spec 6).

A **row permission** names a user or a role of the tenant and a filter on one field of a dataset
(`fieldId`, `operator`, `value`, as a filter widget's, spec 3.4). A user's rows of the dataset are those
matching every rule that names them or one of their roles; a user no rule names sees every row. Rules
apply to chart data, exported rows and filter values alike, whoever asks.

A panel may have a **proxy user** (spec 6: "a proxy user id, when the panel has a proxy, is added to data
and option requests"). A data or option request that names the panel's proxy (`user` in getData and
exportData bodies, `userId` in field-value calls) answers in the proxy's data scope instead of the
caller's. A caller acts only for that one user: any other user id is refused (the caller's own id, and
for a shared link's client the link owner's, as whom it acts anyway, mean "my own scope"). Who may set a
panel's proxy: a tenant administrator managing the panel (any member of the tenant), or a manager naming
themselves.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select

from atrium.plugins.reports.engine import hotpath
from atrium.plugins.reports.engine.fields import FieldInfo
from atrium.plugins.reports.engine.filters import OPERATORS, Condition, condition
from atrium.plugins.reports.models import Dataset, RowPermission
from atrium.plugins.reports.store.access import Viewer
from atrium.sdk.context import current_context
from atrium.sdk.db import session
from atrium.sdk.errors import AtriumError, BadRequest, Forbidden
from atrium.sdk.services import services

SUBJECT_TYPES = ("user", "role")
MAX_RULES = 200
RULES_TTL = 300.0


class ProxyRefused(AtriumError):
    """A data request named a user the caller may not act for."""

    code = 403
    key = "reports:proxy.not_allowed"


@dataclass(frozen=True)
class DataUser:
    """Whose data scope answers: a user and their roles (None: looked up in the directory when needed)."""

    user_id: int | None
    roles: frozenset[int] | None = None


@dataclass(frozen=True)
class Rule:
    id: str
    subject_type: str
    subject_id: int
    field_id: str
    operator: str
    value: tuple[Any, ...]

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "subjectType": self.subject_type,
            "subjectId": self.subject_id,
            "fieldId": self.field_id,
            "operator": self.operator,
            "value": list(self.value),
        }


# ---------------------------------------------------------------------------
# whose scope
# ---------------------------------------------------------------------------


def own_user(viewer: Viewer) -> DataUser:
    """The caller's own scope (a shared link's client: the link owner's, with the roles the link keeps)."""
    return DataUser(viewer.user_id, viewer.roles)


def acting_user(viewer: Viewer, proxy: int | None, requested: int | None) -> DataUser:
    """The scope a request answers in: the caller's own, or the panel's proxy user's when the request names
    it. Any other user id is refused (403, translated)."""
    if requested is None or requested == viewer.user_id:
        return own_user(viewer)
    if proxy is not None and requested == proxy:
        return DataUser(proxy, None)
    raise ProxyRefused()


# ---------------------------------------------------------------------------
# rules
# ---------------------------------------------------------------------------


def _rule(row: RowPermission) -> Rule:
    try:
        value = json.loads(row.value or "[]")
    except ValueError:
        value = []
    return Rule(
        row.id,
        row.subject_type,
        int(row.subject_id),
        row.field_id,
        row.operator,
        tuple(value if isinstance(value, list) else [value]),
    )


def rules_of(dataset_id: str) -> list[Rule]:
    """The dataset's rules, cached under the tenant's metadata epoch (every change renews it)."""
    tid = current_context().tenant_id
    key = f"rpt:rowperm:{tid}:{hotpath.epoch(tid)}:{dataset_id}"
    cache = services().cache
    found = cache.get(key)
    if found is None:
        rows = session().execute(
            select(RowPermission).where(RowPermission.dataset_id == dataset_id).order_by(RowPermission.id)
        )
        found = [_rule(r).public() for r in rows.scalars()]
        cache.set(key, found, ttl=RULES_TTL)
    return [
        Rule(r["id"], r["subjectType"], int(r["subjectId"]), r["fieldId"], r["operator"], tuple(r["value"]))
        for r in found
    ]


def _roles_of(user: DataUser, role_ids: set[int]) -> frozenset[int]:
    if user.roles is not None:
        return user.roles & role_ids
    tid = current_context().tenant_id
    if tid is None or user.user_id is None:
        return frozenset()
    directory = services().directory
    return frozenset(r for r in sorted(role_ids) if user.user_id in directory.role_members(tid, [r]))


def applicable(dataset_id: str, user: DataUser) -> list[Rule]:
    """The rules of the dataset that restrict `user`: those naming the user or one of their roles."""
    rules = rules_of(dataset_id)
    if not rules:
        return []
    role_ids = {r.subject_id for r in rules if r.subject_type == "role"}
    roles = _roles_of(user, role_ids) if role_ids else frozenset()
    return [
        r
        for r in rules
        if (r.subject_type == "user" and r.subject_id == user.user_id)
        or (r.subject_type == "role" and r.subject_id in roles)
    ]


def scope_key(rules: list[Rule]) -> str:
    """What sets the rows apart in cached answers: the rules applied ('' for none)."""
    return ",".join(sorted(r.id for r in rules))


def conditions(rules: list[Rule], fields: dict[str, FieldInfo]) -> list[Condition]:
    """The rules as filter conditions. A rule whose field left the dataset refuses the data (fails closed)."""
    out: list[Condition] = []
    for r in rules:
        f = fields.get(r.field_id)
        if f is None:
            raise Forbidden("reports:rowperm.broken")
        c = condition(f, r.operator, list(r.value))
        if c is None:
            raise Forbidden("reports:rowperm.broken")
        out.append(c)
    return out


def list_rules(ds: Dataset) -> list[dict[str, Any]]:
    return [r.public() for r in rules_of(ds.id)]


def save_rules(
    ds: Dataset, items: list[dict[str, Any]], fields: dict[str, FieldInfo]
) -> list[dict[str, Any]]:
    """Replace the dataset's rules (each checked: subject, field of the dataset, operator, values)."""
    if len(items) > MAX_RULES:
        raise BadRequest("reports:rowperm.too_many", max=MAX_RULES)
    rows: list[RowPermission] = []
    for item in items:
        if not isinstance(item, dict):
            raise BadRequest("reports:rowperm.bad")
        subject_type = item.get("subjectType")
        subject_id = item.get("subjectId")
        if subject_type not in SUBJECT_TYPES or isinstance(subject_id, bool):
            raise BadRequest("reports:rowperm.subject")
        try:
            sid = int(subject_id)  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):
            raise BadRequest("reports:rowperm.subject") from None
        if not 0 < sid < 2**63:
            raise BadRequest("reports:rowperm.subject")
        f = fields.get(str(item.get("fieldId") or ""))
        if f is None:
            raise BadRequest("reports:field.not_found", id=str(item.get("fieldId") or "-")[:40])
        operator = item.get("operator") or "eq"
        if operator not in OPERATORS:
            raise BadRequest("reports:filter.operator", operator=str(operator)[:40])
        value = item.get("value")
        value = list(value) if isinstance(value, list | tuple) else [value]
        if condition(f, operator, value) is None:
            raise BadRequest("reports:rowperm.value", field=f.name)
        rows.append(
            RowPermission(
                dataset_id=ds.id,
                subject_type=subject_type,
                subject_id=sid,
                field_id=f.id,
                operator=operator,
                value=json.dumps(value, ensure_ascii=False),
            )
        )
    db = session()
    db.execute(delete(RowPermission).where(RowPermission.dataset_id == ds.id))
    db.add_all(rows)
    db.flush()
    hotpath.touch()
    return [_rule(r).public() for r in sorted(rows, key=lambda r: r.id)]


def forget_dataset(dataset_id: str) -> None:
    """A dataset is deleted: its rules go with it."""
    session().execute(delete(RowPermission).where(RowPermission.dataset_id == dataset_id))


def is_member(user_id: int) -> bool:
    """Whether the user is an active member of the current tenant."""
    tid = current_context().tenant_id
    if tid is None:
        return False
    return bool(services().directory.members(tid, [user_id]))
