"""Fixtures for the watermark plugin's tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient


@pytest.fixture
def member(client: AtriumClient, user_factory: Callable[..., tuple[str, str, int]]) -> Callable[..., Any]:
    """A new user of a tenant (Acme by default), signed in; `.user_id` and `.account` are set."""

    def make(tenant_id: int = 1001, **kw: Any) -> Any:
        account, password, uid = user_factory(tenant_id, **kw)
        c = client.signed_in(account, password)
        c.user_id = uid
        c.account = account
        return c

    return make


@pytest.fixture
def tenant_admin(tenant_factory: Callable[..., int], member: Callable[..., Any]) -> Any:
    """The supervisor of a new tenant (so settings changed here touch no other test's tenant)."""
    tid = tenant_factory()
    boss = member(tid, supervisor=True, staff_no="S-7", mobile="13900000007")
    boss.tenant_id = tid
    return boss
