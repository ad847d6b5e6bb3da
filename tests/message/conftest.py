"""Fixtures for the message plugin's tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient
from tests.message.helpers import ACME


@pytest.fixture
def member(client: AtriumClient, user_factory: Callable[..., tuple[str, str, int]]) -> Callable[..., Any]:
    """A new user of a tenant (Acme by default), signed in; `.user_id` and `.account` are set."""

    def make(tenant_id: int = ACME, **kw: Any) -> Any:
        account, password, uid = user_factory(tenant_id, **kw)
        c = client.signed_in(account, password)
        c.user_id = uid
        c.account = account
        return c

    return make
