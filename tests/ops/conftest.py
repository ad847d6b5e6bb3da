"""Fixtures for the ops plugin's tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient


@pytest.fixture
def tenant_admin(
    client: AtriumClient,
    tenant_factory: Callable[..., int],
    user_factory: Callable[..., tuple[str, str, int]],
) -> Any:
    """The supervisor (administrator) of a new tenant: an administrator, not a platform one."""
    tid = tenant_factory()
    account, password, _uid = user_factory(tid, supervisor=True)
    return client.signed_in(account, password)
