"""The form calls: design, versions, publish, render, submit, list, edit, delete, limits and tenants."""

from __future__ import annotations

from typing import Any

import pytest

from atrium.plugins.forms import service
from atrium.sdk.testing import AtriumClient
from tests.forms.conftest import DESIGN, SUB, published_form, sample_schema, save_design

GOOD = {
    "title": "Taxi",
    "amount": 42,
    "kind": "a",
    "code": "AB12",
    "day": "2026-11-20",
    "span": ["2026-11-20", "2026-11-21"],
    "lines": [{"item": "ride", "qty": 1}],
}


def submit(c: AtriumClient, form: str, data: dict[str, Any], draft: bool = False) -> dict[str, Any]:
    return c.post(f"{SUB}/save", json={"params": {"formId": form, "data": data, "draft": draft}})


def test_demo_form_renders_from_its_menu_code(user_client: AtriumClient, client: AtriumClient) -> None:
    form = user_client.ok("GET", "/api/form/render/leave-request", params={"layoutId": "L1"})
    assert form["code"] == "leave-request" and form["version"] == 1
    assert form["layout"] == {"columns": 2}
    assert "applicant" in form["schema"]["properties"]
    counts = client.signed_in("supervisor").ok("GET", "/api/form/count")
    assert counts["forms"] >= 2 and counts["published"] >= 2 and counts["submissions"] >= 13
    assert counts["scope"] == "tenant"
    mine = user_client.ok("GET", "/api/form/count")
    assert mine["scope"] == "mine" and mine["published"] >= 2 and mine["submissions"] < counts["submissions"]


def test_design_save_versions_publish_and_render(boss: AtriumClient) -> None:
    saved = save_design(boss)
    assert saved["code"] == 800 and saved["data"]["version"] == 1
    form_id = saved["data"]["formId"]
    missing = boss.get("/api/form/render/expense")
    assert missing["code"] == 404 and "not published" in missing["msg"]
    boss.ok("POST", f"{DESIGN}/publish", json={"formId": form_id})
    again = save_design(boss, formId=int(form_id), schema={**sample_schema(), "required": ["title"]})
    assert again["data"]["version"] == 2
    rendered = boss.ok("GET", "/api/form/render/expense")
    assert rendered["version"] == 1, "the published version stays until another is published"
    detail = boss.ok("GET", f"{DESIGN}/detail", params={"formId": form_id})
    assert detail["version"] == 2 and [v["version"] for v in detail["versions"]] == [2, 1]
    assert boss.ok("GET", f"/api/form/render/{form_id}")["code"] == "expense"
    listed = boss.ok("POST", f"{DESIGN}/list", json={"keyword": "exp"})
    assert [f["code"] for f in listed["list"]] == ["expense"] and listed["total"] == 1


def test_a_schema_that_is_not_json_schema_is_refused(boss: AtriumClient) -> None:
    bad = save_design(boss, "broken", schema={"type": "object", "properties": {"a": {"type": "strng"}}})
    assert bad["code"] == 400 and "JSON Schema" in bad["msg"]
    assert save_design(boss, "broken2", schema={"type": "string"})["code"] == 400
    assert save_design(boss, "broken3", schema={"type": "object", "properties": {"a b": {}}})["code"] == 400
    assert save_design(boss, "9bad")["code"] == 400
    save_design(boss, "dup")
    assert save_design(boss, "dup")["code"] == 409


def test_submission_is_validated_with_field_messages_in_the_callers_language(boss: AtriumClient) -> None:
    published_form(boss)
    wrong = submit(boss, "expense", {"title": "x", "amount": 5000, "code": "zz"})
    assert wrong["code"] == 400
    errors = {e["field"]: e["message"] for e in wrong["data"]["errors"]}
    assert errors == {
        "title": "Title needs at least 2 characters",
        "amount": "Amount must be at most 1000",
        "code": "Code has an invalid format",
    }
    boss.headers["language"] = "zh#cn"
    wrong = submit(boss, "expense", {"amount": 5})
    assert {e["field"]: e["message"] for e in wrong["data"]["errors"]} == {"title": "标题不能为空"}
    boss.headers["language"] = "en#us"
    ok = boss.ok("POST", f"{SUB}/save", json={"formId": "expense", "data": {**GOOD, "hack": 1, "intro": "x"}})
    assert ok["status"] == "submitted" and ok["version"] == 1
    assert "hack" not in ok["data"] and "intro" not in ok["data"]


def test_hidden_fields_are_dropped_and_required_only_when_shown(boss: AtriumClient) -> None:
    published_form(boss)
    ok = boss.ok("POST", f"{SUB}/save", json={"formId": "expense", "data": {**GOOD, "reason": "x"}})
    assert "reason" not in ok["data"]
    need = submit(boss, "expense", {**GOOD, "kind": "b"})
    assert need["code"] == 400 and need["data"]["errors"][0] == {
        "field": "reason",
        "message": "Reason is required",
    }
    assert submit(boss, "expense", {**GOOD, "kind": "b", "reason": "late"})["code"] == 800


def test_submissions_keep_their_schema_version(boss: AtriumClient) -> None:
    form = published_form(boss)
    first = boss.ok("POST", f"{SUB}/save", json={"formId": "expense", "data": GOOD})
    schema = sample_schema()
    schema["properties"]["amount"]["maximum"] = 10
    saved = save_design(boss, formId=int(form["formId"]), schema=schema)
    boss.ok("POST", f"{DESIGN}/publish", json={"formId": form["formId"], "version": saved["data"]["version"]})
    assert submit(boss, "expense", GOOD)["code"] == 400, "the new version allows at most 10"
    detail = boss.ok("GET", f"{SUB}/detail", params={"submissionId": first["submissionId"]})
    assert detail["version"] == 1 and detail["schema"]["properties"]["amount"]["maximum"] == 1000
    edited = boss.ok(
        "POST", f"{SUB}/update", json={"submissionId": first["submissionId"], "data": {**GOOD, "amount": 500}}
    )
    assert edited["version"] == 1 and edited["data"]["amount"] == 500


def test_a_long_list_counts_up_to_the_cap(boss: AtriumClient, monkeypatch: pytest.MonkeyPatch) -> None:
    published_form(boss)
    monkeypatch.setattr(service, "COUNT_CAP", 3)
    for i in range(5):
        boss.ok("POST", f"{SUB}/save", json={"formId": "expense", "data": {**GOOD, "title": f"Trip {i}"}})
    first = boss.ok("POST", f"{SUB}/list", json={"formId": "expense", "pageSize": 2})
    assert (first["total"], first["totalExact"]) == (3, False), "past the cap the total says 'at least'"
    assert [s["data"]["title"] for s in first["list"]] == ["Trip 4", "Trip 3"]
    last = boss.ok("POST", f"{SUB}/list", json={"formId": "expense", "pageSize": 2, "pageNum": 3})
    assert [s["data"]["title"] for s in last["list"]] == ["Trip 0"], "pages past the cap still open"
    one = boss.ok("POST", f"{SUB}/list", json={"formId": "expense", "filters": {"title": "Trip 2"}})
    assert (one["total"], one["totalExact"]) == (1, True)


def test_list_search_filter_paging_and_who_sees_what(boss: AtriumClient, member: Any) -> None:
    published_form(boss)
    staff = member(boss.tenant_id)
    # the owner is picked among the tenant's members and kept with the directory's name
    owned = {**GOOD, "owner": {"id": boss.user_id, "name": "typed"}}
    for i in range(5):
        boss.ok(
            "POST",
            f"{SUB}/save",
            json={
                "formId": "expense",
                "data": {**owned, "title": f"Trip {i}", "kind": "a" if i % 2 else "b", "reason": "r"},
            },
        )
    staff.ok("POST", f"{SUB}/save", json={"formId": "expense", "data": {**owned, "title": "Lunch"}})
    everyone = boss.ok("POST", f"{SUB}/list", json={"formId": "expense", "pageSize": 4})
    assert everyone["total"] == 6 and len(everyone["list"]) == 4
    assert everyone["list"][0]["data"]["title"] == "Lunch", "newest first"
    page2 = boss.ok("POST", f"{SUB}/list", json={"formId": "expense", "pageSize": 4, "pageNum": 2})
    assert len(page2["list"]) == 2
    by_kind = boss.ok("POST", f"{SUB}/list", json={"formId": "expense", "filters": {"kind": "b"}})
    assert by_kind["total"] == 3
    both = boss.ok(
        "POST", f"{SUB}/list", json={"formId": "expense", "filters": {"kind": "a", "title": "Trip 1"}}
    )
    assert [s["data"]["title"] for s in both["list"]] == ["Trip 1"]
    words = boss.ok("POST", f"{SUB}/list", json={"formId": "expense", "keyword": "unc"})
    assert [s["data"]["title"] for s in words["list"]] == ["Lunch"]
    taxi = {**GOOD, "title": "Taxi", "amount": 7.5}
    boss.ok("POST", f"{SUB}/save", json={"formId": "expense", "data": taxi})
    by_amount = boss.ok("POST", f"{SUB}/list", json={"formId": "expense", "filters": {"amount": "7.5"}})
    assert [s["data"]["title"] for s in by_amount["list"]] == ["Taxi"] and by_amount["total"] == 1
    by_both = boss.ok(
        "POST", f"{SUB}/list", json={"formId": "expense", "filters": {"amount": 7.5, "title": "Taxi"}}
    )
    assert by_both["total"] == 1
    boss.ok("POST", f"{SUB}/delete", json={"ids": [int(by_amount["list"][0]["submissionId"])]})
    by_owner = boss.ok(
        "POST", f"{SUB}/list", json={"formId": "expense", "filters": {"owner": f"User {boss.account}"}}
    )
    assert by_owner["total"] == 6
    mine = staff.ok("POST", f"{SUB}/list", json={"formId": "expense"})
    assert [s["data"]["title"] for s in mine["list"]] == ["Lunch"]
    other = everyone["list"][1]["submissionId"]
    assert staff.get(f"{SUB}/detail", params={"submissionId": other})["code"] == 404


def test_drafts_edit_and_delete_rules(boss: AtriumClient, member: Any) -> None:
    published_form(boss)
    staff = member(boss.tenant_id)
    draft = staff.ok("POST", f"{SUB}/save", json={"formId": "expense", "data": {"title": "x"}, "draft": True})
    assert draft["status"] == "draft", "a draft is stored even when incomplete"
    bad = staff.post(f"{SUB}/update", json={"submissionId": draft["submissionId"], "data": {"title": "x"}})
    assert bad["code"] == 400
    done = staff.ok("POST", f"{SUB}/update", json={"submissionId": draft["submissionId"], "data": GOOD})
    assert done["status"] == "submitted"
    denied = staff.post(f"{SUB}/update", json={"submissionId": draft["submissionId"], "data": GOOD})
    assert denied["code"] == 403, "the form does not allow editing a submitted form"
    assert staff.post(f"{SUB}/delete", json={"ids": [int(draft["submissionId"])]})["code"] == 403
    assert boss.ok("POST", f"{SUB}/delete", json={"ids": [int(draft["submissionId"])]}) == {"deleted": 1}
    assert boss.get(f"{SUB}/detail", params={"submissionId": draft["submissionId"]})["code"] == 404
    assert (
        staff.post(f"{DESIGN}/save", json={"code": "x", "name": {"en-us": "x"}, "schema": sample_schema()})[
            "code"
        ]
        == 403
    )


def test_limits_on_size_rows_and_uploads(boss: AtriumClient) -> None:
    published_form(boss)
    big = submit(boss, "expense", {**GOOD, "notes": "x" * 1_000_100})
    assert big["code"] == 400 and "1000 KB" in big["msg"]
    rows = submit(boss, "expense", {**GOOD, "lines": [{"item": "a", "qty": 1}] * 10_001})
    assert rows["code"] == 400 and "10000 rows" in rows["msg"]
    gif = submit(boss, "expense", {**GOOD, "photos": [{"fileId": "1", "name": "a.gif", "size": 10}]})
    assert gif["code"] == 400 and "JPEG, JPG or PNG" in gif["msg"]
    huge = submit(boss, "expense", {**GOOD, "photos": [{"fileId": "1", "name": "a.png", "size": 3_000_000}]})
    assert huge["code"] == 400 and "2MB" in huge["msg"]
    many = submit(
        boss, "expense", {**GOOD, "photos": [{"fileId": str(i), "name": "a.png"} for i in range(6)]}
    )
    assert many["code"] == 400
    fine = submit(
        boss,
        "expense",
        {
            **GOOD,
            "photos": [{"fileId": "1", "name": "a.PNG", "size": 1000}],
            "lines": [{"item": "a", "qty": 1, "junk": 2}] * 3,
        },
    )
    assert fine["code"] == 800 and fine["data"]["data"]["lines"][0] == {"item": "a", "qty": 1}
    assert submit(boss, "expense", {**GOOD, "lines": [{"item": "a", "qty": 0}]})["code"] == 400
    assert boss.post(f"{SUB}/save", json={"formId": "expense", "data": []})["code"] == 400


def test_another_tenants_forms_and_submissions_are_not_found(
    boss: AtriumClient, tenant_factory: Any, member: Any
) -> None:
    form = published_form(boss)
    sub = boss.ok("POST", f"{SUB}/save", json={"formId": "expense", "data": GOOD})
    stranger = member(tenant_factory(), supervisor=True)
    assert stranger.get("/api/form/render/expense")["code"] == 404
    assert stranger.get(f"/api/form/render/{form['formId']}")["code"] == 404
    assert stranger.get(f"{DESIGN}/detail", params={"formId": form["formId"]})["code"] == 404
    assert stranger.get(f"{SUB}/detail", params={"submissionId": sub["submissionId"]})["code"] == 404
    assert (
        stranger.post(f"{SUB}/update", json={"submissionId": sub["submissionId"], "data": GOOD})["code"]
        == 404
    )
    assert stranger.post(f"{SUB}/delete", json={"ids": [int(sub["submissionId"])]})["code"] == 404
    assert stranger.post(f"{SUB}/list", json={"formId": form["formId"]})["code"] == 404
    assert stranger.post(f"{DESIGN}/publish", json={"formId": form["formId"]})["code"] == 404
    assert stranger.ok("GET", "/api/form/count")["forms"] == 0
    assert (
        boss.ok("GET", f"{SUB}/detail", params={"submissionId": sub["submissionId"]})["data"]["title"]
        == "Taxi"
    )


def test_delete_form_removes_its_submissions(boss: AtriumClient) -> None:
    form = published_form(boss)
    sub = boss.ok("POST", f"{SUB}/save", json={"formId": "expense", "data": GOOD})
    boss.ok("POST", f"{DESIGN}/delete", json={"formId": form["formId"]})
    assert boss.get(f"{SUB}/detail", params={"submissionId": sub["submissionId"]})["code"] == 404
    assert boss.ok("GET", "/api/form/count") == {
        "forms": 0,
        "published": 0,
        "submissions": 0,
        "scope": "tenant",
    }


def test_the_list_says_who_may_edit_which_submission(boss: AtriumClient, member: Any) -> None:
    form = published_form(boss)
    staff = member(boss.tenant_id)
    staff.ok("POST", f"{SUB}/save", json={"formId": "expense", "data": {"title": "x"}, "draft": True})
    sent = staff.ok("POST", f"{SUB}/save", json={"formId": "expense", "data": GOOD})
    mine = staff.ok("POST", f"{SUB}/list", json={"formId": "expense"})["list"]
    assert {s["status"]: s["canEdit"] for s in mine} == {"draft": True, "submitted": False}
    assert staff.ok("GET", f"{SUB}/detail", params={"submissionId": sent["submissionId"]})["canEdit"] is False
    denied = staff.post(f"{SUB}/update", json={"submissionId": sent["submissionId"], "data": GOOD})
    assert denied["code"] == 403
    assert all(s["canEdit"] for s in boss.ok("POST", f"{SUB}/list", json={"formId": "expense"})["list"])
    # once the form allows it, submitters edit what they submitted (and it stays submitted)
    assert save_design(boss, formId=int(form["formId"]), allowEdit=True)["code"] == 800
    mine = staff.ok("POST", f"{SUB}/list", json={"formId": "expense"})["list"]
    assert all(s["canEdit"] for s in mine)
    edited = staff.ok(
        "POST",
        f"{SUB}/update",
        json={"submissionId": sent["submissionId"], "data": {**GOOD, "title": "Edited"}, "draft": True},
    )
    assert edited["status"] == "submitted" and edited["data"]["title"] == "Edited"
