"""Helpers shared by the kernel's API tests: clients in other languages, fresh users, direct row edits.

The session-wide app (``atrium_app``) serves every test; tests that change state work on users and
tenants made for them, so they do not depend on order.
"""

from __future__ import annotations

import base64
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from atrium.kernel.identity.sessions import token_hash
from atrium.kernel.models import AuthToken, Menu, ServerConfig, User
from atrium.sdk.context import unscoped
from atrium.sdk.testing import AtriumClient

ACME, GLOBEX, PLATFORM = 1001, 1002, -999


@dataclass
class Person:
    """A user made for one test, and a client signed in as them."""

    account: str
    password: str
    user_id: int
    client: AtriumClient


def b64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8")).decode()


def unique_phone() -> str:
    return "139" + "".join(secrets.choice("0123456789") for _ in range(8))


@pytest.fixture
def http(atrium_app: Any) -> Any:
    return atrium_app.state.http


@pytest.fixture
def make_client(http: Any) -> Callable[[str], AtriumClient]:
    """An anonymous client speaking a given locale (`en-us`, `zh-cn`, `hu-hu`, ...)."""

    def make(locale: str = "en-us") -> AtriumClient:
        return AtriumClient(http, locale)

    return make


@pytest.fixture
def rows(kernel: Any) -> Callable[[], Any]:
    """`with rows() as db:` an unscoped session on the test database, committed at the end."""

    @contextmanager
    def open_() -> Iterator[Session]:
        with unscoped(), kernel.db() as db:
            yield db

    return open_


@pytest.fixture
def set_user(kernel: Any, rows: Any) -> Callable[..., None]:
    """Change a user's row directly and drop the cached profiles and sessions."""

    def change(user_id: int, **values: Any) -> None:
        with rows() as db:
            db.execute(update(User).where(User.id == user_id).values(**values))
        kernel.local.drop("profile")
        kernel.local.drop("session")

    return change


@pytest.fixture
def get_user(rows: Any) -> Callable[[int], User]:
    def read(user_id: int) -> User:
        with rows() as db:
            user = db.get(User, user_id)
            assert user is not None
            db.expunge(user)
            return user

    return read


@pytest.fixture
def expire_access(kernel: Any, rows: Any) -> Callable[[str], None]:
    """Make an access token expired in the database and forget the cached session."""
    from datetime import timedelta

    from atrium.sdk.db import utcnow

    def expire(token: str) -> None:
        with rows() as db:
            db.execute(
                update(AuthToken)
                .where(AuthToken.token_hash == token_hash(token))
                .values(expires_at=utcnow() - timedelta(minutes=1))
            )
        kernel.local.drop("session")

    return expire


@pytest.fixture
def person(client: AtriumClient, user_factory: Any) -> Callable[..., Person]:
    """A fresh user (default: a plain user of Acme) and a client signed in as them."""

    def make(tenant_id: int = ACME, locale: str = "en-us", **fields: Any) -> Person:
        account, password, uid = user_factory(tenant_id, **fields)
        base = AtriumClient(client.http, locale)
        return Person(account, password, uid, base.signed_in(account, password))

    return make


@pytest.fixture
def staff(person: Callable[..., Person], admin_client: AtriumClient) -> Callable[[], Person]:
    """A fresh user of Acme with the demo's staff role (sees the demo menus)."""
    roles = admin_client.ok("GET", "/api/base/admin/roles")
    staff_role = next(r for r in roles if r["roleCode"] == "staff")

    def make() -> Person:
        p = person()
        admin_client.ok(
            "POST", "/api/base/admin/users/roles", json={"userId": p.user_id, "roleId": staff_role["roleId"]}
        )
        return p

    return make


@pytest.fixture
def menu_ids(rows: Any) -> dict[str, int]:
    """Demo menu ids by code (codes are unique across the demo's systems)."""
    with rows() as db:
        return {code: mid for code, mid in db.execute(select(Menu.code, Menu.id))}


@pytest.fixture
def server_config(kernel: Any, rows: Any) -> Iterator[Callable[[str, str], None]]:
    """Set server configuration rows for one test; removed (and caches dropped) afterwards."""
    keys: list[str] = []

    def put(key: str, value: str) -> None:
        with rows() as db:
            row = db.get(ServerConfig, key)
            if row is None:
                db.add(ServerConfig(key=key, value=value))
            else:
                row.value = value
        keys.append(key)
        kernel.local.drop("menus")

    yield put
    with rows() as db:
        db.execute(delete(ServerConfig).where(ServerConfig.key.in_(keys)))
    kernel.local.drop("menus")


def find_menu(tree: list[dict[str, Any]], code: str) -> dict[str, Any] | None:
    for item in tree:
        if item["menuCode"] == code:
            return item
        found = find_menu(item["children"], code)
        if found is not None:
            return found
    return None


def menu_codes(tree: list[dict[str, Any]]) -> set[str]:
    codes: set[str] = set()
    for item in tree:
        codes.add(item["menuCode"])
        codes |= menu_codes(item["children"])
    return codes
