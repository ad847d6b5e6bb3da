"""Tenant scoping in one place: reads filtered by the current tenant, writes stamped with it."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from sqlalchemy import select

from atrium.kernel.models import Role
from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.errors import Forbidden

ACME, GLOBEX = 1001, 1002


def codes(kernel: Any, tenant_id: int | None, prefix: str) -> set[str]:
    with kernel.db() as db, tenant_scope(tenant_id):
        return set(db.execute(select(Role.code).where(Role.code.startswith(prefix))).scalars())


def test_a_row_belongs_to_the_tenant_current_when_it_was_added(kernel: Any) -> None:
    prefix = f"s{secrets.token_hex(3)}"
    with unscoped(), kernel.db() as db:
        with tenant_scope(ACME):
            db.add(Role(code=f"{prefix}-a", name="A"))
        with tenant_scope(GLOBEX):
            db.add(Role(code=f"{prefix}-g", name="G"))
        # one flush for both, outside either tenant's block
    assert codes(kernel, ACME, prefix) == {f"{prefix}-a"}
    assert codes(kernel, GLOBEX, prefix) == {f"{prefix}-g"}


def test_writing_a_row_of_another_tenant_is_refused_and_nothing_is_written(kernel: Any) -> None:
    prefix = f"s{secrets.token_hex(3)}"
    with pytest.raises(Forbidden), kernel.db() as db, tenant_scope(ACME):
        db.add(Role(code=f"{prefix}-x", name="X", tenant_id=GLOBEX))
        db.flush()
    with pytest.raises(Forbidden), kernel.db() as db:
        with tenant_scope(ACME):
            db.add(Role(code=f"{prefix}-y", name="Y"))
        with tenant_scope(GLOBEX):
            db.flush()
    assert codes(kernel, ACME, prefix) == set() and codes(kernel, GLOBEX, prefix) == set()


def test_without_a_tenant_nothing_is_read_or_written(kernel: Any) -> None:
    with kernel.db() as db, tenant_scope(None):
        assert db.execute(select(Role)).scalars().all() == []
    with pytest.raises(Forbidden), kernel.db() as db, tenant_scope(None):
        db.add(Role(code=f"s{secrets.token_hex(3)}", name="none"))
        db.flush()
