"""Defects report authors met, on the server's side: identifier columns taken for measures when a dataset is
made, and a panel never published reported as live."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from atrium.plugins.reports.engine.fields import default_role, is_identifier

P = "/api/dyreport/panel"
TEXT = {"id": "t1", "type": "v-text", "propValue": "hello", "style": {"left": 0, "top": 0, "width": 400}}


def orders_file(path: Path) -> Path:
    with sqlite3.connect(path) as db:
        db.execute(
            'create table orders (id integer primary key, order_id integer, "customerId" integer, '
            '"用户ID" integer, "订单编号" integer, paid real, amount real, qty integer, region text)'
        )
        db.execute("insert into orders values (1, 1001, 7, 9, 5, 10.5, 99.5, 2, 'East')")
    return path


@pytest.mark.parametrize(
    "name,identifier",
    [
        ("id", True),
        ("ID", True),
        ("order_id", True),
        ("ORDER-ID", True),
        ("customerId", True),
        ("customerID", True),
        ("用户ID", True),
        ("订单编号", True),
        ("paid", False),
        ("valid", False),
        ("idle", False),
        ("amount", False),
    ],
)
def test_identifier_names(name: str, identifier: bool) -> None:
    assert is_identifier(name) is identifier
    assert default_role("integer", name) == ("dimension" if identifier else "quota")
    assert default_role("text", name) == "dimension"


def test_identifier_columns_are_dimensions(admin_client: Any, tmp_path: Path) -> None:
    """A numeric `id` (and `*_id`, `*Id`, `…编号`) column is a dimension when a dataset is made, in the draft
    preview and in the saved dataset: summing identifiers means nothing. Amounts stay measures."""
    path = orders_file(tmp_path / "orders.db")
    src = admin_client.ok(
        "POST", "/api/dyreport/datasource/save", json={"name": "orders", "type": "sqlite", "path": str(path)}
    )
    want = {
        "id": "dimension",
        "order_id": "dimension",
        "customerId": "dimension",
        "用户ID": "dimension",
        "订单编号": "dimension",
        "paid": "quota",
        "amount": "quota",
        "qty": "quota",
        "region": "dimension",
    }
    try:
        draft = admin_client.ok(
            "POST",
            "/api/dyreport/dataset/previewDraft",
            json={"datasourceId": src["id"], "kind": "table", "tableName": "orders"},
        )
        assert {f["originName"]: f["role"] for f in draft["fields"]} == want
        assert {f["originName"]: f["type"] for f in draft["fields"]}["id"] == "integer"
        ds = admin_client.ok(
            "POST",
            "/api/dyreport/dataset/save",
            json={"name": "orders", "datasourceId": src["id"], "kind": "table", "tableName": "orders"},
        )
        assert {f["originName"]: f["role"] for f in ds["fields"]} == want
        admin_client.ok("POST", f"/api/dyreport/dataset/delete/{ds['id']}")
    finally:
        admin_client.post(f"/api/dyreport/datasource/delete/{src['id']}")


@pytest.fixture
def new_panel(admin_client: Any) -> Iterator[dict[str, Any]]:
    """A panel as the designer starts one: created with nothing on it."""
    made: dict[str, Any] = admin_client.ok("POST", f"{P}/save", json={"name": "fresh", "panelData": []})
    yield made
    admin_client.post(f"{P}/delete/{made['id']}")


def listed(client: Any, panel_id: str) -> dict[str, Any]:
    return next(p for p in client.ok("GET", f"{P}/list") if p["id"] == panel_id)


def test_a_panel_never_published_is_not_live(admin_client: Any, new_panel: dict[str, Any]) -> None:
    pid = new_panel["id"]
    assert new_panel["live"] is False
    assert listed(admin_client, pid)["live"] is False
    assert admin_client.ok("GET", f"{P}/draft/{pid}")["live"] is False
    # a saved draft is not published either
    drafted = admin_client.ok("POST", f"{P}/saveDraft", json={"id": pid, "panelData": [TEXT]})
    assert drafted["live"] is False and drafted["hasUnpublished"] is True
    assert listed(admin_client, pid)["live"] is False
    admin_client.ok("POST", f"{P}/publish", json={"id": pid})
    assert listed(admin_client, pid)["live"] is True
    assert admin_client.ok("GET", f"{P}/draft/{pid}")["live"] is True


def test_a_panel_written_live_with_components_is_live(admin_client: Any, acme: Any) -> None:
    """The demo's panels and imports are written live without a version: viewers see them."""
    made = admin_client.ok("POST", f"{P}/save", json={"name": "direct", "panelData": [TEXT]})
    try:
        assert made["publishedVersion"] == 0 and made["live"] is True
        assert listed(admin_client, made["id"])["live"] is True
        overview = listed(admin_client, acme.overview)
        assert overview["publishedVersion"] == 0 and overview["live"] is True
    finally:
        admin_client.post(f"{P}/delete/{made['id']}")
