"""Data scope (reports spec 6, 7.1): row permissions of datasets, and a panel's proxy user whose scope data
and option requests may ask for (`user` in getData and exportData, `userId` in field values) — only that
user: any other user id is refused."""

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

REFUSED = "No permission to see the data as this user: only the panel's proxy user may be named"
REGIONS = ["华东", "华中", "华北", "华南", "西南"]


class Scoped:
    """A copy of the tables panel, a viewer, a proxy-to-be with a rule, a role with a rule and its member."""

    def __init__(self, admin: AtriumClient, acme: Demo, client: AtriumClient, user_factory: Any) -> None:
        self.admin = admin
        self.acme = acme
        bundle = admin.ok("GET", f"/api/dyreport/panel/export/{acme.panels['表格与文本']}")
        panel = admin.ok("POST", "/api/dyreport/panel/import", json={"bundle": bundle})
        self.panel_id = panel["id"]
        views = admin.ok("GET", f"/api/dyreport/chart/view/listByPanel/{self.panel_id}")
        self.views = {v["name"]: v for v in views}
        account, password, self.viewer_id = user_factory(1001)
        admin.ok(
            "POST",
            f"/api/dyreport/panel/grants/{self.panel_id}",
            json={
                "grants": [{"subjectType": "user", "subjectId": self.viewer_id, "view": True, "export": True}]
            },
        )
        self.viewer = client.signed_in(account, password)
        _, _, self.proxy_id = user_factory(1001)  # sees 华东 only
        _, _, self.role_member_id = user_factory(1001)  # through a role: 华南 only
        _, _, self.other_id = user_factory(1001)  # no rule, not the proxy
        role = admin.ok(
            "POST",
            "/api/base/admin/roles",
            json={"roleCode": f"south{self.role_member_id}", "roleName": "South"},
        )["roleId"]
        admin.ok("POST", "/api/base/admin/users/roles", json={"userId": self.role_member_id, "roleId": role})
        self.region = acme.fields["region"]
        self.rules = [
            {"subjectType": "user", "subjectId": self.proxy_id, "fieldId": self.region, "value": ["华东"]},
            {
                "subjectType": "role",
                "subjectId": role,
                "fieldId": self.region,
                "operator": "eq",
                "value": ["华南"],
            },
        ]
        admin.ok(
            "POST", f"/api/dyreport/dataset/rowPermissions/{acme.dataset_id}", json={"rules": self.rules}
        )

    def set_proxy(self, user_id: int | None) -> dict[str, Any]:
        return self.admin.ok("POST", f"/api/dyreport/panel/proxy/{self.panel_id}", json={"userId": user_id})

    def data(self, c: AtriumClient, name: str, **body: Any) -> dict[str, Any]:
        v = self.views[name]
        return c.post(
            f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}", json={"cache": True, **body}
        )

    def regions(self, c: AtriumClient, **body: Any) -> list[str]:
        answer = self.data(c, "汇总表", **body)
        assert answer["code"] == 800, answer
        data = answer["data"]["data"]
        key = data["fields"][0]["key"]
        return sorted({r[key] for r in data["tableRow"]})

    def count(self, c: AtriumClient, **body: Any) -> int:
        answer = self.data(c, "订单总数", **body)
        assert answer["code"] == 800, answer
        return int(answer["data"]["data"]["series"][0]["data"][0]["value"])


@pytest.fixture
def scoped(admin_client, acme: Demo, client, user_factory) -> Iterator[Scoped]:
    s = Scoped(admin_client, acme, client, user_factory)
    try:
        yield s
    finally:  # the demo dataset and the demo panel's name are shared by the other tests
        admin_client.ok("POST", f"/api/dyreport/dataset/rowPermissions/{acme.dataset_id}", json={"rules": []})
        admin_client.ok("POST", f"/api/dyreport/panel/delete/{s.panel_id}")


def test_rows_follow_the_proxy_users_scope(scoped: Scoped, sales) -> None:
    answered = scoped.set_proxy(scoped.proxy_id)
    assert answered["proxy"] == scoped.proxy_id
    detail = scoped.viewer.ok("GET", f"/api/dyreport/panel/findOne/{scoped.panel_id}")
    assert detail["proxy"] == scoped.proxy_id
    east = sum(1 for r in sales if r["region"] == "华东")
    assert scoped.regions(scoped.viewer, user=scoped.proxy_id) == ["华东"]
    assert scoped.count(scoped.viewer, user=scoped.proxy_id) == east
    # the viewer's own scope (no rule names her) and the cached proxy answer do not mix
    assert scoped.regions(scoped.viewer) == sorted(REGIONS)
    assert scoped.count(scoped.viewer) == len(sales)
    assert scoped.regions(scoped.viewer, user=scoped.viewer_id) == sorted(REGIONS)
    # a proxy in a role with a rule: the role's rows
    scoped.set_proxy(scoped.role_member_id)
    assert scoped.regions(scoped.viewer, user=scoped.role_member_id) == ["华南"]
    assert scoped.count(scoped.viewer, user=scoped.role_member_id) == sum(
        1 for r in sales if r["region"] == "华南"
    )
    # the former proxy is just another user now
    refused = scoped.data(scoped.viewer, "汇总表", user=scoped.proxy_id)
    assert refused["code"] == 403 and refused["msg"] == REFUSED


def test_an_arbitrary_user_id_is_refused(scoped: Scoped) -> None:
    for c in (scoped.viewer, scoped.admin):
        refused = scoped.data(c, "汇总表", user=scoped.proxy_id)  # no proxy set yet
        assert refused["code"] == 403 and refused["data"] is None and refused["msg"] == REFUSED
    scoped.set_proxy(scoped.proxy_id)
    refused = scoped.data(scoped.viewer, "订单总数", user=scoped.other_id)
    assert refused["code"] == 403 and refused["msg"] == REFUSED
    values = scoped.viewer.post(
        "/api/dyreport/dataset/field/multFieldValues",
        json={"fieldIds": [scoped.region], "panelId": scoped.panel_id, "userId": scoped.other_id},
    )
    assert values["code"] == 403 and values["msg"] == REFUSED
    v = scoped.views["汇总表"]
    page = scoped.admin.post(
        "/api/dyreport/chart/view/exportData",
        json={"viewId": v["id"], "panelId": v["panelId"], "requestList": {"user": scoped.other_id}},
    )
    assert page["code"] == 403 and page["msg"] == REFUSED
    scoped.viewer.headers["language"] = "zh#cn"
    refused = scoped.data(scoped.viewer, "汇总表", user=scoped.other_id)
    assert refused["msg"] == "无权以该用户的数据范围查看：只能指定报表的代理用户"


def test_filter_values_and_exported_rows_follow_the_proxy(scoped: Scoped) -> None:
    scoped.set_proxy(scoped.proxy_id)
    values = scoped.viewer.ok(
        "POST",
        "/api/dyreport/dataset/field/multFieldValues",
        json={"fieldIds": [scoped.region], "panelId": scoped.panel_id, "userId": scoped.proxy_id},
    )
    assert values == ["华东"]
    mine = scoped.viewer.ok(
        "POST",
        "/api/dyreport/dataset/field/multFieldValues",
        json={"fieldIds": [scoped.region], "panelId": scoped.panel_id},
    )
    assert mine == REGIONS
    v = scoped.views["汇总表"]
    page = scoped.admin.ok(
        "POST",
        "/api/dyreport/chart/view/exportData",
        json={"viewId": v["id"], "panelId": v["panelId"], "requestList": {"user": scoped.proxy_id}},
    )
    assert page["rows"] and {r[0] for r in page["rows"]} == {"华东"}


def test_a_rule_restricts_the_user_it_names(scoped: Scoped, sales) -> None:
    rules = [
        *scoped.rules,
        {
            "subjectType": "user",
            "subjectId": scoped.viewer_id,
            "fieldId": scoped.region,
            "operator": "in",
            "value": ["华北", "华中"],
        },
    ]
    saved = scoped.admin.ok(
        "POST", f"/api/dyreport/dataset/rowPermissions/{scoped.acme.dataset_id}", json={"rules": rules}
    )
    assert len(saved) == 3 and all(r["id"] for r in saved)
    listed = scoped.admin.ok("GET", f"/api/dyreport/dataset/rowPermissions/{scoped.acme.dataset_id}")
    assert {(r["subjectType"], r["subjectId"]) for r in listed} == {
        (r["subjectType"], r["subjectId"]) for r in rules
    }
    assert scoped.regions(scoped.viewer) == ["华中", "华北"]
    assert scoped.count(scoped.viewer) == sum(1 for r in sales if r["region"] in ("华北", "华中"))
    # administrators are restricted only by rules that name them
    assert scoped.regions(scoped.admin) == sorted(REGIONS)


def test_row_permissions_are_checked_and_for_administrators(scoped: Scoped, client, user_factory) -> None:
    path = f"/api/dyreport/dataset/rowPermissions/{scoped.acme.dataset_id}"
    bad_field = scoped.admin.post(
        path, json={"rules": [{"subjectType": "user", "subjectId": 1, "fieldId": "nope", "value": ["x"]}]}
    )
    assert bad_field["code"] == 400 and bad_field["msg"] == "Field nope not found"
    bad_subject = scoped.admin.post(
        path,
        json={"rules": [{"subjectType": "team", "subjectId": 1, "fieldId": scoped.region, "value": ["x"]}]},
    )
    assert bad_subject["code"] == 400 and "subjectType" in bad_subject["msg"]
    empty = scoped.admin.post(
        path, json={"rules": [{"subjectType": "user", "subjectId": 1, "fieldId": scoped.region, "value": []}]}
    )
    assert empty["code"] == 400 and empty["msg"] == "The row permission on 大区 needs a value"
    assert scoped.viewer.get(path)["code"] == 403
    assert scoped.viewer.post(path, json={"rules": []})["code"] == 403
    assert len(scoped.admin.ok("GET", path)) == 2  # unchanged by the refused saves


def test_who_may_set_the_proxy(scoped: Scoped, client, user_factory) -> None:
    account, password, manager_id = user_factory(1001)
    scoped.admin.ok(
        "POST",
        f"/api/dyreport/panel/grants/{scoped.panel_id}",
        json={"grants": [{"subjectType": "user", "subjectId": manager_id, "manage": True}]},
    )
    manager = client.signed_in(account, password)
    path = f"/api/dyreport/panel/proxy/{scoped.panel_id}"
    refused = manager.post(path, json={"userId": scoped.proxy_id})
    assert (
        refused["code"] == 403
        and refused["msg"] == "Only tenant administrators may name another user as the panel's proxy"
    )
    assert manager.ok("POST", path, json={"userId": manager_id})["proxy"] == manager_id
    assert (
        scoped.viewer.post(path, json={"userId": scoped.viewer_id})["code"] == 404
    )  # view only: no such panel to manage
    unknown = scoped.admin.post(path, json={"userId": 987654321})
    assert unknown["code"] == 400 and unknown["msg"] == "The proxy user is not a member of this organisation"
    assert scoped.set_proxy(None)["proxy"] is None


def test_link_clients_ask_for_the_proxy_too(scoped: Scoped, client) -> None:
    scoped.set_proxy(scoped.proxy_id)
    lk = scoped.admin.ok("POST", f"/api/dyreport/api/link/enable/{scoped.panel_id}")
    anon = anonymous(client, "10.8.0.1")
    anon.headers["linkToken"] = validate(anon, lk["id"])["linkToken"]
    owner = anon.ok("GET", f"/api/dyreport/link/{lk['id']}")["user"]
    assert scoped.regions(anon, user=scoped.proxy_id) == ["华东"]
    assert scoped.regions(anon, user=owner) == sorted(REGIONS)  # the link's own user: the owner's scope
    assert scoped.regions(anon) == sorted(REGIONS)
    refused = scoped.data(anon, "汇总表", user=scoped.other_id)
    assert refused["code"] == 403 and refused["msg"] == REFUSED
    values = anon.ok(
        "POST",
        "/api/dyreport/dataset/field/linkMultFieldValues",
        json={"fieldIds": [scoped.region], "userId": scoped.proxy_id},
    )
    assert values == ["华东"]
    refused = anon.post(
        "/api/dyreport/dataset/field/linkMultFieldValues",
        json={"fieldIds": [scoped.region], "userId": scoped.other_id},
    )
    assert refused["code"] == 403 and refused["msg"] == REFUSED
    # the link's Excel export in the proxy's scope
    v = scoped.views["汇总表"]
    body = {
        "url": "api/dyreport/chart/view/exportData",
        "fileName": "scope",
        "params": {"viewId": v["id"], "panelId": v["panelId"], "requestList": {"user": scoped.proxy_id}},
    }
    export_id = anon.ok("POST", "/api/dyreport/api/link/export", json=body)["exportId"]
    for _ in range(300):
        task = anon.ok("POST", f"/api/dyreport/api/link/export/result?exportId={export_id}")
        if task["status"] in (2, 3):
            break
        time.sleep(0.1)
    assert task["status"] == 2, task
    raw = anon.http.get(f"/api/{task['downloadUrl']}", headers=anon.headers)
    rows = list(
        openpyxl.load_workbook(io.BytesIO(raw.content), read_only=True).active.iter_rows(values_only=True)
    )
    assert len(rows) > 1 and {r[0] for r in rows[1:]} == {"华东"}


def test_rules_and_the_proxy_come_with_names_for_those_who_manage(scoped: Scoped) -> None:
    listed = scoped.admin.ok("GET", f"/api/dyreport/dataset/rowPermissions/{scoped.acme.dataset_id}")
    names = {(r["subjectType"], r["subjectId"]): r["subjectName"] for r in listed}
    role_id = scoped.rules[1]["subjectId"]
    assert names[("role", role_id)] == "South"
    person = names[("user", scoped.proxy_id)]
    assert person and person != str(scoped.proxy_id)
    scoped.set_proxy(scoped.proxy_id)
    managed = scoped.admin.ok("GET", f"/api/dyreport/panel/findOne/{scoped.panel_id}")
    assert managed["proxy"] == scoped.proxy_id and managed["proxyName"] == person
    viewed = scoped.viewer.ok("GET", f"/api/dyreport/panel/findOne/{scoped.panel_id}")
    assert viewed["proxy"] == scoped.proxy_id and "proxyName" not in viewed  # a viewer learns no name
