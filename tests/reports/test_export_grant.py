"""The export button is checked by the export routes themselves: a panel's export privilege alone does not
let a member export while her roles lack `dyreport:export`."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from tests.reports.conftest import Demo
from tests.reports.test_transfer import _wait_export


def _export_button_id(kernel: Any) -> int:
    from atrium.kernel.models import MenuResource
    from atrium.sdk.context import unscoped

    with unscoped(), kernel.db() as db:
        return int(db.execute(select(MenuResource.id).where(MenuResource.code == "dyreport:export")).scalar())


def test_exporting_needs_the_export_button(client, admin_client, acme: Demo, user_factory, kernel) -> None:
    account, password, uid = user_factory(1001)
    member = client.signed_in(account, password)
    v = acme.view("表格与文本", "明细表")
    admin_client.ok(
        "POST",
        f"/api/dyreport/panel/grants/{v['panelId']}",
        json={"grants": [{"subjectType": "user", "subjectId": uid, "export": True}]},
    )
    body = {"viewId": v["id"], "panelId": v["panelId"], "pageRows": 10}
    refused = member.post("/api/dyreport/chart/view/exportData", json=body)
    assert refused["code"] == 403 and refused["data"] is None
    assert refused["msg"] == "You do not have permission for this action"
    if "transfer" in kernel.plugins.loaded:
        task = member.post(
            "/api/dataexport/data-export/v2/export/",
            json={"url": "api/dyreport/chart/view/exportData", "fileName": "x", "params": body},
        )
        if task["code"] == 800:  # queued: the task itself is refused, with the reason kept for the user
            done = _wait_export(member, task["data"]["exportId"])
            assert done["status"] == 3 and done["errorMsg"] == "You do not have permission for this action"
        else:
            assert task["code"] == 403

    role = admin_client.ok(
        "POST", "/api/base/admin/roles", json={"roleCode": f"exp{uid}", "roleName": "Exporters"}
    )["roleId"]
    admin_client.ok(
        "POST",
        "/api/base/admin/roles/resources",
        json={"roleId": role, "resourceIds": [_export_button_id(kernel)]},
    )
    admin_client.ok("POST", "/api/base/admin/users/roles", json={"userId": uid, "roleId": role})
    member = client.signed_in(account, password)
    page = member.ok("POST", "/api/dyreport/chart/view/exportData", json=body)
    assert page["columns"] and len(page["rows"]) == 10
