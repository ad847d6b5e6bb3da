"""A request answered from caches opens no database session; one that writes still commits its change."""

from __future__ import annotations

from typing import Any

import pytest

from tests.reports.conftest import data


@pytest.fixture
def opened(kernel: Any, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The sessions the kernel opens for requests from now on."""
    seen: list[object] = []
    factory = kernel.sessions

    def counting() -> Any:
        s = factory()
        seen.append(s)
        return s

    monkeypatch.setattr(kernel, "sessions", counting)
    return seen


def test_a_cached_answer_opens_no_session_and_a_save_commits(acme, admin_client, opened):
    view = acme.view("销售总览", "总销售额")
    first = data(admin_client, view)
    opened.clear()
    again = data(admin_client, view)
    assert again["data"] == first["data"]
    assert opened == []

    panel = admin_client.ok(
        "POST", "/api/dyreport/panel/save", json={"name": "lazy", "panelData": [], "panelStyle": {}}
    )
    assert len(opened) >= 1
    listed = admin_client.ok("GET", f"/api/dyreport/panel/findOne/{panel['id']}")
    assert listed["name"] == "lazy"
