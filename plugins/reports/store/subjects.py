"""People and roles by name, as the designer's screens and the audit trail show them."""

from __future__ import annotations

from typing import Any

from atrium.sdk.services import services


def subject_names(tenant_id: int, grants: list[dict[str, Any]]) -> dict[tuple[str, int], str]:
    """The people and roles that grants or rules name (``subjectType``, ``subjectId``), by name."""
    user_ids = {g["subjectId"] for g in grants if g["subjectType"] == "user"}
    role_ids = {g["subjectId"] for g in grants if g["subjectType"] == "role"}
    directory = services().directory
    names: dict[tuple[str, int], str] = {}
    for uid, person in (directory.users(user_ids) if user_ids else {}).items():
        names[("user", uid)] = (
            f"{person.full_name} ({person.account})" if person.full_name else person.account
        )
    for rid, role in (directory.roles(tenant_id, role_ids) if role_ids else {}).items():
        names[("role", rid)] = role
    return names


def named(tenant_id: int, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Grants or rules, each with its ``subjectName`` ("" for a person or role no longer there)."""
    names = subject_names(tenant_id, items)
    return [{**i, "subjectName": names.get((i["subjectType"], i["subjectId"]), "")} for i in items]


def proxy_name(tenant_id: int, user_id: int | None) -> str:
    """The name of a panel's proxy user ("" for none)."""
    if user_id is None:
        return ""
    names = subject_names(tenant_id, [{"subjectType": "user", "subjectId": user_id}])
    return names.get(("user", user_id), "")
