"""Fixtures for the administration console's tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient

A = "/api/base/admin"
C = "/api/admin"


@pytest.fixture
def boss(client: AtriumClient, tenant_factory: Callable[..., int], user_factory: Callable[..., Any]) -> Any:
    """The supervisor of a new tenant (`.tenant_id`), signed in."""
    tid = tenant_factory()
    account, password, uid = user_factory(tid, supervisor=True)
    c = client.signed_in(account, password)
    c.tenant_id = tid
    c.user_id = uid
    return c


def audit_of(
    admin: AtriumClient, action: str, target: Any, tenant_id: int | None = None
) -> list[dict[str, Any]]:
    """The audit records of an action on a target, newest first, as a super administrator reads them."""
    query = f"{C}/audit?action={action}&keyword={target}&pageRows=100"
    if tenant_id is not None:
        query += f"&tenantId={tenant_id}"
    rows = admin.ok("GET", query)["list"]
    return [r for r in rows if r["target"] == str(target)]
