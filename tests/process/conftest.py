"""Fixtures for the process plugin's tests: a fresh tenant with its supervisor and members, and helpers to
save, deploy and drive a model through the API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient

API = "/api/process"


@pytest.fixture
def member(client: AtriumClient, user_factory: Callable[..., tuple[str, str, int]]) -> Callable[..., Any]:
    """A new user of a tenant, signed in; `.user_id` and `.tenant_id` are set."""

    def make(tenant_id: int, **kw: Any) -> Any:
        account, password, uid = user_factory(tenant_id, **kw)
        c = client.signed_in(account, password)
        c.user_id = uid
        c.tenant_id = tenant_id
        return c

    return make


@pytest.fixture
def tenant(tenant_factory: Callable[..., int]) -> int:
    return tenant_factory()


@pytest.fixture
def boss(tenant: int, member: Callable[..., Any]) -> Any:
    """The supervisor of a new tenant (models made here touch no other test's tenant)."""
    return member(tenant, supervisor=True)


def save(c: AtriumClient, key: str, xml: str, **extra: Any) -> dict[str, Any]:
    body = {
        "key": key,
        "name": extra.pop("name", key.strip() or "model"),
        "category": "test",
        "xml": xml,
        **extra,
    }
    return c.post(f"{API}/model/save", json={"params": body})


def deployed(c: AtriumClient, key: str, xml: str) -> dict[str, Any]:
    saved = save(c, key, xml)
    assert saved["code"] == 800, saved
    data: dict[str, Any] = c.ok("POST", f"{API}/model/deploy", json={"modelId": saved["data"]["modelId"]})
    return data


def start(c: AtriumClient, key: str, **variables: Any) -> dict[str, Any]:
    data: dict[str, Any] = c.ok(
        "POST", f"{API}/instance/start", json={"modelId": key, "variables": variables}
    )
    return data


def pending(c: AtriumClient) -> list[dict[str, Any]]:
    data = c.ok("POST", f"{API}/my/pending", json={"pageSize": 200})
    rows: list[dict[str, Any]] = data["list"]
    return rows


def upcoming(c: AtriumClient) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = c.ok("POST", f"{API}/my/upcoming", json={"pageSize": 200})["list"]
    return rows


def complete(c: AtriumClient, task_id: str, **variables: Any) -> dict[str, Any]:
    return c.post(f"{API}/task/complete", json={"taskId": int(task_id), "variables": variables})


def detail(c: AtriumClient, process_id: str) -> dict[str, Any]:
    data: dict[str, Any] = c.ok("GET", f"{API}/instance/detail", params={"processId": process_id})
    return data
