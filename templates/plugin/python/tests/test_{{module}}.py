"""{{title}} works inside Atrium: discovered, migrated, routed, and scoped to the tenant."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def enabled_everywhere(admin_client: Any) -> None:
    """Installed, the plugin is off in every tenant until enabled: on in all of them here."""
    for tenant in admin_client.ok("GET", "/api/base/admin/tenants"):
        admin_client.ok(
            "POST",
            "/api/base/admin/plugins/state",
            json={"plugin": "{{name}}", "enabled": True, "tenantId": tenant["tenantId"]},
        )


def test_plugin_is_loaded(admin_client: Any) -> None:
    plugins = admin_client.ok("GET", "/api/kernel/plugins")
    assert {"name": "{{name}}", "status": "loaded"}.items() <= next(
        p for p in plugins if p["name"] == "{{name}}"
    ).items()


def test_notes_are_kept_per_tenant(client: Any) -> None:
    alice = client.signed_in("alice")
    bob = client.signed_in("bob")
    alice.ok("POST", "/api/{{name}}/notes", json={"params": {"text": "only for Acme"}})
    assert "only for Acme" in [n["text"] for n in alice.ok("GET", "/api/{{name}}/notes")]
    assert "only for Acme" not in [n["text"] for n in bob.ok("GET", "/api/{{name}}/notes")]


def test_an_empty_note_is_refused(client: Any) -> None:
    body = client.signed_in("alice").post("/api/{{name}}/notes", json={"text": ""})
    assert body["code"] == 400
    assert "text" in body["msg"]
