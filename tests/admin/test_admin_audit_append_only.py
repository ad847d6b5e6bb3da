"""The audit trail is append-only in the database itself: an UPDATE or DELETE on it fails."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError

from atrium.sdk.testing import AtriumClient
from tests.admin.conftest import A, audit_of


def _recorded_audit_id(admin_client: AtriumClient, tenant_factory: Any) -> int:
    tid = tenant_factory()
    admin_client.ok("POST", f"{A}/tenants/state", json={"tenantId": tid, "enabled": False})
    [record] = audit_of(admin_client, "tenant.state", tid)
    return int(record["auditId"])


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE admin_audit SET account = 'someone-else' WHERE id = :id",
        "UPDATE admin_audit SET after = '{}'",
        "DELETE FROM admin_audit WHERE id = :id",
        "DELETE FROM admin_audit",
    ],
)
def test_the_database_refuses_changing_audit_records(
    admin_client: AtriumClient, tenant_factory: Any, kernel: Any, statement: str
) -> None:
    audit_id = _recorded_audit_id(admin_client, tenant_factory)
    with pytest.raises(DBAPIError, match="append-only"), kernel.engine.begin() as conn:
        conn.execute(sa.text(statement), {"id": audit_id})
    with kernel.engine.connect() as conn:
        account = conn.execute(sa.text("SELECT account FROM admin_audit WHERE id = :id"), {"id": audit_id})
        assert account.scalar_one() == "admin"


def test_records_are_still_added(admin_client: AtriumClient, tenant_factory: Any, kernel: Any) -> None:
    with kernel.engine.connect() as conn:
        before = conn.execute(sa.text("SELECT count(*) FROM admin_audit")).scalar_one()
    _recorded_audit_id(admin_client, tenant_factory)
    with kernel.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM admin_audit")).scalar_one() == before + 1


def test_truncate_is_refused_on_postgresql(kernel: Any) -> None:
    if kernel.engine.dialect.name != "postgresql":
        pytest.skip("TRUNCATE exists on PostgreSQL only")
    with pytest.raises(DBAPIError, match="append-only"), kernel.engine.begin() as conn:
        conn.execute(sa.text("TRUNCATE admin_audit"))
