"""Fixtures for the reports tests: the demo panels, views and the demo rows to check answers against."""

from __future__ import annotations

from typing import Any

import pytest

from atrium.plugins.reports.demo import content
from atrium.plugins.reports.demo.sales import sales_rows
from atrium.plugins.reports.engine import filters

ACME_ROWS = 20_000
ACME_SEED = 20240101
# The demo's rows cover the 731 days up to the day it is loaded, so last year is always there whole.
LAST_YEAR = filters.today().year - 1


@pytest.fixture(scope="session")
def sales() -> list[dict[str, Any]]:
    """The rows the demo loaded for Acme (the generator is deterministic)."""
    return sales_rows(ACME_ROWS, ACME_SEED, end=filters.today())


class Demo:
    """Ids of Acme's demo content, looked up through the API."""

    def __init__(self, admin: Any) -> None:
        self.admin = admin
        self.panels = {p["name"]: p["id"] for p in admin.ok("GET", "/api/dyreport/panel/list")}
        self.datasets = {d["name"]: d for d in admin.ok("GET", "/api/dyreport/dataset/list")}
        ds = self.datasets["销售明细"]
        self.dataset_id = ds["id"]
        self.fields = {f["originName"]: f["id"] for f in ds["fields"]}
        self.extract_id = self.datasets["销售明细（抽取）"]["id"]
        self.extract_fields = {f["originName"]: f["id"] for f in self.datasets["销售明细（抽取）"]["fields"]}
        self.overview = self.panels[content.OVERVIEW]
        self.views: dict[str, dict[str, Any]] = {}
        for pid in self.panels.values():
            for v in admin.ok("GET", f"/api/dyreport/chart/view/listByPanel/{pid}"):
                self.views[f"{pid}:{v['name']}"] = v

    def view(self, panel_name: str, view_name: str) -> dict[str, Any]:
        return self.views[f"{self.panels[panel_name]}:{view_name}"]


@pytest.fixture
def acme(admin_client: Any) -> Demo:
    return Demo(admin_client)


def data(client: Any, view: dict[str, Any], **body: Any) -> dict[str, Any]:
    """getData of a saved view; asserts success."""
    answer = client.ok("POST", f"/api/dyreport/chart/view/getData/{view['id']}/{view['panelId']}", json=body)
    assert answer["success"] is True
    return answer


def calc(client: Any, view: dict[str, Any], **body: Any) -> dict[str, Any]:
    """calcData of an unsaved view definition; asserts success."""
    answer = client.ok(
        "POST",
        f"/api/dyreport/chart/view/calcData/{view.get('id') or 'new'}",
        json={"view": view, "cache": False, **body},
    )
    assert answer["success"] is True
    return answer
