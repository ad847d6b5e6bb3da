"""Fetch menus (spec 3, 7): a menu flagged isFetch carries its fetchPath in the user's tree, and the
host's expand call (`base-menu-fetch/find-list`, params menuId as the tree gives it: a string) answers
its entries; the flag and the path come back from an administrator's change."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from atrium.kernel.menus import MENU_STRUCTURE, MENUS
from atrium.kernel.models import Menu
from tests.kernel.conftest import find_menu

TREE = "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho"
FETCH = "/api/base/base-menu-fetch/find-list"


@pytest.fixture
def fetch_menu(kernel: Any, rows: Any, menu_ids: dict[str, int]) -> Iterator[int]:
    """The demo's partner site made a fetch menu for one test (restored afterwards)."""
    mid = menu_ids["partner-site"]

    def flag(on: bool, path: str) -> None:
        with rows() as db:
            row = db.execute(select(Menu).where(Menu.id == mid)).scalar_one()
            row.is_fetch, row.fetch_path = on, path
        kernel.local.invalidate(MENUS)
        kernel.local.invalidate(MENU_STRUCTURE)

    flag(True, "/portal/news")
    try:
        yield mid
    finally:
        flag(False, "")


def test_a_fetch_menu_is_flagged_in_the_tree_and_answers_its_entries(staff, fetch_menu):
    p = staff()
    item = find_menu(p.client.ok("GET", TREE)["menus"], "partner-site")
    assert item is not None
    assert item["isFetch"] == 1 and item["fetchPath"] == "/portal/news"
    # the host expands it with the tree's id (a string), wrapped as {params: {menuId}}
    entries = p.client.ok("POST", FETCH, json={"params": {"menuId": item["menuId"]}})
    assert [e["fetchItemName"] for e in entries] == ["合作伙伴"]
    assert entries[0]["menuFetchId"].isdigit()


def test_fetch_entries_of_a_menu_outside_the_tree_stay_hidden(person, fetch_menu):
    outsider = person()
    assert outsider.client.ok("POST", FETCH, json={"params": {"menuId": str(fetch_menu)}}) == []
