"""The SDK's directory: what plugins may read of tenants, users, roles and systems, tenant by tenant."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy import update

from atrium.kernel import accounts
from atrium.kernel.models import Tenant
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
