"""Fixtures for the help plugin's tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient

ACME = 1001
GLOBEX = 1002


@pytest.fixture
def member(client: AtriumClient, user_factory: Callable[..., tuple[str, str, int]]) -> Callable[..., Any]:
    """A new user of a tenant (Acme by default), signed in; `.user_id` and `.account` are set."""

    def make(tenant_id: int = ACME, locale: str = "en-us", **kw: Any) -> Any:
        account, password, uid = user_factory(tenant_id, **kw)
        c = client.signed_in(account, password)
        c.headers["language"] = locale.replace("-", "#")
        c.user_id = uid
        c.account = account
        return c

    return make


@pytest.fixture
def tenant_admin(tenant_factory: Callable[..., int], member: Callable[..., Any]) -> Any:
    """The supervisor of a new, empty tenant (documents written here touch no other test's tenant)."""
    tid = tenant_factory()
    boss = member(tid, supervisor=True)
    boss.tenant_id = tid
    return boss
