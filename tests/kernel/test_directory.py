"""The SDK's directory: what plugins may read of tenants, users, roles and systems, tenant by tenant."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy import delete, event, insert, update

from atrium.kernel import accounts
from atrium.kernel.models import Tenant, TenantSystem, User
from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.types import Person, SystemInfo, TenantInfo

ACME, GLOBEX = 1001, 1002


def test_tenants_by_id_or_domain_and_only_enabled(kernel: Any, tenant_factory: Callable[..., int]) -> None:
    d = kernel.directory
    with kernel.db():
        assert d.tenant(ACME) == TenantInfo(ACME, "Acme", "acme.localhost")
        assert d.tenant(domain="globex.localhost") == TenantInfo(GLOBEX, "Globex", "globex.localhost")
        assert d.tenant(domain="nowhere.localhost") is None and d.tenant() is None
    tid = tenant_factory()
    with unscoped(), kernel.db() as db:
        db.execute(update(Tenant).where(Tenant.id == tid).values(enabled=False))
    with kernel.db():
        assert d.tenant(tid) is None


def test_members_are_the_enabled_users_of_that_tenant_only(kernel: Any, user_factory: Any) -> None:
    d = kernel.directory
    mobile = f"139{secrets.randbelow(10**8):08d}"
    _a, _p, uid = user_factory(ACME, mobile=mobile, department="QA")
    _b, _q, other = user_factory(GLOBEX, mobile=mobile)
    with kernel.db():
        people = d.members(ACME)
        assert uid in {p.user_id for p in people} and other not in {p.user_id for p in people}
        [me] = d.members(ACME, [uid, other])
        assert me.department == "QA" and me.mobile == mobile
        assert d.members_with_contact(ACME, "sms", mobile) == [uid]
        assert d.members_with_contact(GLOBEX, "sms", mobile) == [other]
        assert d.members_with_contact(ACME, "email", mobile) == []
        # across tenants by id, for screens that show who is linked
        found = d.users([uid, other, 10**9])
        assert set(found) == {uid, other} and isinstance(found[uid], Person)
    with kernel.db():
        accounts.set_member_enabled(kernel, uid, ACME, False)
    with kernel.db():
        assert uid not in {p.user_id for p in d.members(ACME)}
        assert d.members_with_contact(ACME, "sms", mobile) == []


def test_roles_and_their_members_stay_in_their_tenant(kernel: Any, user_factory: Any) -> None:
    d = kernel.directory
    _a, _p, uid = user_factory(ACME)
    code = f"r{secrets.token_hex(3)}"
    with kernel.db(), tenant_scope(ACME):
        role = accounts.create_role(code, "Auditors")
        accounts.assign_role(kernel, uid, role.id)
        role_id = role.id
    with kernel.db():
        assert d.roles(ACME, [role_id]) == {role_id: "Auditors"}
        assert d.roles(GLOBEX, [role_id]) == {}
        assert d.role_members(ACME, [role_id]) == {uid}
        assert d.role_members(GLOBEX, [role_id]) == set()


def test_systems_offered_to_a_tenant(kernel: Any) -> None:
    with kernel.db():
        acme = kernel.directory.systems(ACME)
        globex = {s.code for s in kernel.directory.systems(GLOBEX)}
    assert all(isinstance(s, SystemInfo) for s in acme)
    assert {"iotAutho", "assetMgmt"} <= {s.code for s in acme}
    assert globex < {s.code for s in acme}


def test_plugins_reach_the_directory_and_hooks_through_the_sdk(kernel: Any) -> None:
    from atrium.sdk.services import services

    assert services().directory is kernel.directory
    answered = services().call_hook("atrium_plugin_info")
    assert {"message", "sso", "reports"} <= set(answered)


def _membership_reads(kernel: Any) -> Callable[[], int]:
    """A counter of the statements reading memberships the engine runs from now on."""
    seen = [0]

    def count(_conn: Any, _cursor: Any, sql: str, *_rest: Any) -> None:
        seen[0] += "membership" in sql

    event.listen(kernel.engine, "after_cursor_execute", count)
    return lambda: seen[0]


def test_member_ids_are_kept_and_follow_every_change_of_users_and_memberships(
    kernel: Any, tenant_factory: Callable[..., int]
) -> None:
    """Letters check their recipients against the tenant's members on every send: the answer is kept, and
    a change made by any writer (the accounts module, a bare statement on a connection of its own) shows
    in the next answer."""
    d = kernel.directory
    tid = tenant_factory()
    with unscoped(), kernel.db():
        first = accounts.create_user(f"m{secrets.token_hex(4)}", "Passw0rd1", "First", tid).id
    with kernel.db():
        assert d.member_ids(tid) == {first}
    reads = _membership_reads(kernel)
    with kernel.db():
        assert d.member_ids(tid) == {first}
    assert reads() == 0
    with unscoped(), kernel.db():
        second = accounts.create_user(f"m{secrets.token_hex(4)}", "Passw0rd1", "Second", tid).id
    with kernel.db():
        assert d.member_ids(tid) == {first, second}
    with kernel.db():
        accounts.set_member_enabled(kernel, first, tid, False)
    with kernel.db():
        assert d.member_ids(tid) == {second}
    with kernel.engine.begin() as conn:
        conn.execute(update(User).where(User.id == second).values(enabled=False))
    with kernel.db():
        assert d.member_ids(tid) == frozenset()


def test_a_change_rolled_back_leaves_the_members_as_they_were(
    kernel: Any, tenant_factory: Callable[..., int]
) -> None:
    d = kernel.directory
    tid = tenant_factory()
    with unscoped(), kernel.db():
        uid = accounts.create_user(f"m{secrets.token_hex(4)}", "Passw0rd1", "Kept", tid).id
    with kernel.engine.connect() as conn:
        conn.execute(update(User).where(User.id == uid).values(enabled=False))
        with kernel.db():
            assert d.member_ids(tid) == {uid}  # another connection does not see the change yet
        conn.rollback()
    with kernel.db():
        assert d.member_ids(tid) == {uid}


def test_systems_follow_a_change_of_the_tenants_systems(
    kernel: Any, tenant_factory: Callable[..., int]
) -> None:
    d = kernel.directory
    tid = tenant_factory()
    with kernel.db():
        before = {s.code for s in d.systems(tid)}
        extra = next(s.code for s in d.systems(ACME) if s.code not in before)
    with kernel.engine.begin() as conn:
        conn.execute(insert(TenantSystem).values(tenant_id=tid, system_code=extra))
    with kernel.db():
        assert {s.code for s in d.systems(tid)} == before | {extra}
    with kernel.engine.begin() as conn:
        conn.execute(delete(TenantSystem).where(TenantSystem.tenant_id == tid))
    with kernel.db():
        assert d.systems(tid) == []
