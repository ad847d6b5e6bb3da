"""Datasets are for report authors: a member without the authoring grant reads no dataset, no SQL and no
field values, except the values of the fields behind a panel they may view."""

from __future__ import annotations

from typing import Any

from tests.reports.conftest import Demo


def _member(client: Any, user_factory: Any) -> tuple[Any, int]:
    account, password, uid = user_factory(1001)
    return client.signed_in(account, password), uid


def _fields_of(admin: Any, dataset_id: str) -> list[str]:
    return [f["id"] for f in admin.ok("GET", f"/api/dyreport/dataset/get/{dataset_id}")["fields"]]


def test_a_member_without_the_grant_reads_no_dataset(client, admin_client, acme: Demo, user_factory) -> None:
    member, _ = _member(client, user_factory)
    datasets = admin_client.ok("GET", "/api/dyreport/dataset/list")
    assert datasets, "the demo tenant has datasets"
    some = datasets[0]["id"]
    for path in (
        "/api/dyreport/dataset/list",
        f"/api/dyreport/dataset/get/{some}",
        f"/api/dyreport/dataset/syncStatus/{some}",
    ):
        answer = member.get(path)
        assert answer["code"] == 403 and answer["data"] is None, (path, answer)
        assert answer["msg"] == "You do not have permission for this action"
    member.headers["language"] = "zh#cn"
    assert member.get("/api/dyreport/dataset/list")["msg"] == "您没有执行此操作的权限"
    fields = _fields_of(admin_client, some)
    refused = member.post("/api/dyreport/dataset/field/multFieldValues", json={"fieldIds": fields[:1]})
    assert refused["code"] in (403, 404) and refused["data"] is None


def test_a_viewer_reads_the_values_of_her_panels_fields_only(
    client, admin_client, acme: Demo, user_factory
) -> None:
    member, uid = _member(client, user_factory)
    panel_id = acme.overview
    admin_client.ok(
        "POST",
        f"/api/dyreport/panel/grants/{panel_id}",
        json={"grants": [{"subjectType": "user", "subjectId": uid, "view": True}]},
    )
    views = admin_client.ok("GET", f"/api/dyreport/chart/view/listByPanel/{panel_id}")
    behind = {v["tableId"] for v in views}
    mine = _fields_of(admin_client, sorted(behind)[0])
    values = member.ok(
        "POST",
        "/api/dyreport/dataset/field/multFieldValues",
        json={"fieldIds": mine[:1], "panelId": panel_id},
    )
    assert isinstance(values, list) and values
    others = [d["id"] for d in admin_client.ok("GET", "/api/dyreport/dataset/list") if d["id"] not in behind]
    assert others, "the demo has a dataset behind no view of the overview"
    foreign = _fields_of(admin_client, others[0])[:1]
    answer = member.post(
        "/api/dyreport/dataset/field/multFieldValues", json={"fieldIds": foreign, "panelId": panel_id}
    )
    assert answer["code"] == 400 and answer["data"] is None


def test_an_author_with_the_grant_lists_datasets_without_their_sql(
    client, admin_client, acme: Demo, user_factory
) -> None:
    """The grant comes from a role holding the `dyreport:manage` button (the demo's author carol, not the
    viewer alice); tenant administrators hold it."""
    from atrium.sdk.testing import DEMO_PASSWORDS

    supervisor = client.signed_in("supervisor", DEMO_PASSWORDS["supervisor"])
    listed = supervisor.ok("GET", "/api/dyreport/dataset/list")
    assert {d["id"] for d in listed} == {
        d["id"] for d in admin_client.ok("GET", "/api/dyreport/dataset/list")
    }
    author = client.signed_in("carol")
    assert author.ok("GET", "/api/dyreport/dataset/list")
    assert all(not d.get("sql") for d in author.ok("GET", "/api/dyreport/dataset/list"))
    viewer = client.signed_in("alice")
    assert viewer.get("/api/dyreport/dataset/list")["code"] == 403
