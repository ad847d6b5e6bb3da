"""Excel exports through a shared link (reports spec 1, 4, 7.2): the link's client, without a session,
exports a view of the link's panel with the same proof its data calls use (header `linkToken`), and only
that client fetches the file."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from typing import Any

import openpyxl
import pytest

from atrium.sdk.testing import AtriumClient
from tests.reports.conftest import Demo
from tests.reports.test_links import anonymous, validate

START = "/api/dyreport/api/link/export"
RESULT = "/api/dyreport/api/link/export/result"
DOWNLOAD = "/api/dyreport/api/link/export/download"
SOURCE = "api/dyreport/chart/view/exportData"


@pytest.fixture
def tables_link(acme: Demo, admin_client: AtriumClient) -> Iterator[dict[str, Any]]:
    """A fresh copy of the tables panel with a link (no password) and its views by name; deleted after the
    test (a second panel of the demo's name would stand in for the demo's in the other tests' lookups)."""
    bundle = admin_client.ok("GET", f"/api/dyreport/panel/export/{acme.panels['表格与文本']}")
    panel = admin_client.ok("POST", "/api/dyreport/panel/import", json={"bundle": bundle})
    lk = admin_client.ok("POST", f"/api/dyreport/api/link/enable/{panel['id']}")
    views = admin_client.ok("GET", f"/api/dyreport/chart/view/listByPanel/{panel['id']}")
    yield {**lk, "panelId": panel["id"], "views": {v["name"]: v for v in views}}
    admin_client.ok("POST", f"/api/dyreport/panel/delete/{panel['id']}")


def link_client(client: AtriumClient, link_id: str, ip: str) -> AtriumClient:
    """An anonymous browser that opened the link (no password): it holds the link's token."""
    anon = anonymous(client, ip)
    anon.headers["linkToken"] = validate(anon, link_id)["linkToken"]
    return anon


def start(
    c: AtriumClient, view: dict[str, Any], panel_id: str | None = None, **request: Any
) -> dict[str, Any]:
    body = {
        "url": SOURCE,
        "fileName": "明细",
        "excelType": "xlsx",
        "method": "POST",
        "singleSheetMaxRows": 100000,
        "pageIndex": 1,
        "pageRows": 1000,
        "columnList": [],
        "params": {"viewId": view["id"], "panelId": panel_id or view["panelId"], "requestList": request},
    }
    return c.post(START, json=body)


def wait(c: AtriumClient, export_id: str) -> dict[str, Any]:
    for _ in range(300):
        task = c.ok("POST", f"{RESULT}?exportId={export_id}")
        if task["status"] in (2, 3):
            return task
        time.sleep(0.1)
    raise AssertionError("the link export did not finish")


def city_filter(acme: Demo, city: str) -> list[dict[str, Any]]:
    return [{"fieldId": acme.fields["city"], "operator": "eq", "value": [city]}]


def test_a_link_client_exports_a_view_to_excel(tables_link, client, acme: Demo, sales) -> None:
    anon = link_client(client, tables_link["id"], "10.7.0.1")
    assert "authorization" not in anon.headers
    view = tables_link["views"]["明细表"]
    started = start(anon, view, filter=city_filter(acme, "杭州"))
    assert started["code"] == 800, started
    assert started["data"]["status"] == 0 and isinstance(started["data"]["exportId"], str)
    done = wait(anon, started["data"]["exportId"])
    assert done["status"] == 2, done
    expected = sum(1 for r in sales if r["city"] == "杭州")
    assert done["rowCount"] == expected and done["fileName"] == "明细.xlsx"
    assert done["downloadUrl"].startswith("dyreport/api/link/export/download?exportId=")
    raw = anon.http.get(f"/api/{done['downloadUrl']}", headers=anon.headers)
    assert raw.status_code == 200
    assert raw.headers["content-type"].startswith("application/vnd.openxmlformats")
    assert "attachment" in raw.headers["content-disposition"]
    ws = openpyxl.load_workbook(io.BytesIO(raw.content), read_only=True).active
    rows = list(ws.iter_rows(values_only=True))
    assert list(rows[0]) == ["下单日期", "城市", "产品", "数量", "销售额"]
    assert len(rows) == expected + 1 and {r[1] for r in rows[1:]} == {"杭州"}
    assert sum(r[4] for r in rows[1:]) == pytest.approx(
        sum(r["amount"] for r in sales if r["city"] == "杭州")
    )


def test_the_columns_the_viewer_shows_name_the_sheet_columns(tables_link, client, acme: Demo) -> None:
    anon = link_client(client, tables_link["id"], "10.7.0.2")
    view = tables_link["views"]["明细表"]
    answer = anon.ok("POST", f"/api/dyreport/chart/view/getData/{view['id']}/{view['panelId']}", json={})
    keys = [f["key"] for f in answer["data"]["fields"]]
    body = {
        "url": SOURCE,
        "fileName": "x",
        "columnList": [{"key": keys[1], "title": "City"}, {"key": keys[4], "title": "Amount"}],
        "params": {
            "viewId": view["id"],
            "panelId": view["panelId"],
            "requestList": {"filter": city_filter(acme, "杭州")},
        },
    }
    done = wait(anon, anon.ok("POST", START, json=body)["exportId"])
    raw = anon.http.get(f"/api/{done['downloadUrl']}", headers=anon.headers)
    rows = list(
        openpyxl.load_workbook(io.BytesIO(raw.content), read_only=True).active.iter_rows(values_only=True)
    )
    assert list(rows[0]) == ["City", "Amount"] and rows[1][0] == "杭州"


def test_a_password_link_needs_the_password_first(tables_link, client, admin_client) -> None:
    view = tables_link["views"]["明细表"]
    anon = link_client(client, tables_link["id"], "10.7.0.3")  # a token from before the password was set
    admin_client.ok(
        "POST",
        "/api/dyreport/api/link/update",
        json={"id": tables_link["id"], "enablePwd": True, "pwd": "2468"},
    )
    refused = start(anon, view)
    assert refused["code"] == 403 and refused["data"] is None
    assert refused["msg"] == "The link session has expired; open the link again"
    state = validate(anon, tables_link["id"], anon.headers["linkToken"])
    assert state["passPwd"] is False and "linkToken" not in state
    bare = anonymous(client, "10.7.0.4")
    refused = start(bare, view)
    assert refused["code"] == 403 and refused["msg"] == "The link session has expired; open the link again"
    passed = bare.ok(
        "POST", "/api/dyreport/api/link/validatePwd", json={"password": "2468", "link": tables_link["id"]}
    )
    bare.headers["linkToken"] = passed["linkToken"]
    done = wait(bare, bare.ok("POST", START, json=_body(view))["exportId"])
    assert done["status"] == 2 and done["rowCount"] > 0


def _body(view: dict[str, Any], **request: Any) -> dict[str, Any]:
    return {
        "url": SOURCE,
        "fileName": "x",
        "params": {"viewId": view["id"], "panelId": view["panelId"], "requestList": request},
    }


def test_expired_or_disabled_links_export_nothing(tables_link, client, admin_client, acme: Demo) -> None:
    view = tables_link["views"]["明细表"]
    anon = link_client(client, tables_link["id"], "10.7.0.5")
    done = wait(anon, anon.ok("POST", START, json=_body(view, filter=city_filter(acme, "杭州")))["exportId"])
    past = int((time.time() - 60) * 1000)
    admin_client.ok("POST", "/api/dyreport/api/link/update", json={"id": tables_link["id"], "overTime": past})
    refused = start(anon, view)
    assert refused["code"] == 403 and refused["msg"] == "The link has expired"
    # a file made before is not handed out any more either
    assert anon.post(f"{RESULT}?exportId={done['exportId']}")["msg"] == "The link has expired"
    raw = anon.http.get(f"/api/{done['downloadUrl']}", headers=anon.headers)
    assert raw.status_code == 200 and raw.json()["code"] == 403
    admin_client.ok(
        "POST",
        "/api/dyreport/api/link/update",
        json={"id": tables_link["id"], "clearOverTime": True, "valid": False},
    )
    refused = start(anon, view)
    assert refused["code"] == 403 and refused["msg"] == "Invalid link"
    anon.headers["language"] = "zh#cn"
    assert start(anon, view)["msg"] == "无效链接"


def test_only_views_of_the_link_panel(tables_link, client, acme: Demo) -> None:
    anon = link_client(client, tables_link["id"], "10.7.0.6")
    other = acme.view("表格与文本", "明细表")  # the same view on the demo panel the link does not share
    refused = start(anon, other)
    assert refused["code"] == 404 and refused["data"] is None and refused["msg"] == "Panel not found"
    refused = start(anon, other, panel_id=tables_link["panelId"])
    assert refused["code"] == 404 and refused["msg"] == "View not found"
    overview = acme.view("销售总览", "总销售额")
    assert start(anon, overview, panel_id=tables_link["panelId"])["code"] == 404
    body = {**_body(tables_link["views"]["明细表"]), "url": "api/base/users/export"}
    refused = anon.post(START, json=body)
    assert refused["code"] == 400 and refused["msg"] == "A shared link exports report views only"
    # no session stands in for the link's proof
    admin = client.signed_in("admin")
    refused = admin.post(START, json=_body(tables_link["views"]["明细表"]))
    assert refused["code"] == 403 and refused["msg"] == "The link session has expired; open the link again"


def test_another_link_client_cannot_fetch_the_export(tables_link, client, acme: Demo) -> None:
    view = tables_link["views"]["明细表"]
    alice = link_client(client, tables_link["id"], "10.7.0.7")
    done = wait(
        alice, alice.ok("POST", START, json=_body(view, filter=city_filter(acme, "杭州")))["exportId"]
    )
    assert done["status"] == 2
    bob = link_client(client, tables_link["id"], "10.7.0.8")  # the same link, another browser
    assert bob.headers["linkToken"] != alice.headers["linkToken"]
    seen = bob.post(f"{RESULT}?exportId={done['exportId']}")
    assert seen["code"] == 404 and seen["data"] is None and seen["msg"] == "Export not found"
    raw = bob.http.get(f"/api/{done['downloadUrl']}", headers=bob.headers)
    assert raw.status_code == 200 and raw.json()["code"] == 404
    # nor anyone without the link's token, nor a guessed id
    raw = client.http.get(f"/api/{done['downloadUrl']}")
    assert raw.json()["code"] == 403
    assert alice.post(f"{RESULT}?exportId={'x' * 24}")["code"] == 404
    # alice's renewed token (the page validated again) still reaches her own export
    alice.headers["linkToken"] = validate(alice, tables_link["id"], alice.headers["linkToken"])["linkToken"]
    raw = alice.http.get(f"/api/{done['downloadUrl']}", headers=alice.headers)
    assert raw.status_code == 200 and raw.content[:2] == b"PK"


def test_a_link_export_may_not_name_an_arbitrary_user(tables_link, client, user_factory) -> None:
    _, _, uid = user_factory(1001)
    anon = link_client(client, tables_link["id"], "10.7.0.9")
    refused = start(anon, tables_link["views"]["明细表"], user=uid)
    assert refused["code"] == 403 and refused["data"] is None
    assert (
        refused["msg"]
        == "No permission to see the data as this user: only the panel's proxy user may be named"
    )
