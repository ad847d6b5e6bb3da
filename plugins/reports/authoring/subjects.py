"""Who a panel can be shared with: the tenant's users and roles from the platform's directory."""

from __future__ import annotations

from typing import Any

from atrium.sdk.services import services

LIMIT = 50


def _matches(keyword: str, *texts: str) -> bool:
    return not keyword or any(keyword in (t or "").casefold() for t in texts)


def find(tenant_id: int, keyword: str) -> dict[str, list[dict[str, Any]]]:
    """`{users: [{id, name, account}], roles: [{id, name}]}`: at most 50 of each, filtered by keyword."""
    directory = services().directory
    word = keyword.strip().casefold()
    users = [
        {"id": p.user_id, "name": p.full_name, "account": p.account}
        for p in sorted(directory.members(tenant_id), key=lambda p: (p.full_name, p.user_id))
        if _matches(word, p.full_name, p.account)
    ]
    roles = [
        {"id": rid, "name": name}
        for rid, name in sorted(directory.roles(tenant_id).items(), key=lambda item: (item[1], item[0]))
        if _matches(word, name)
    ]
    return {"users": users[:LIMIT], "roles": roles[:LIMIT]}
