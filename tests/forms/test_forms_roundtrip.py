"""The designer's output on the server: the schema the web designer builds for a form with every field kind
(kept in designer_every_kind.json by tests/web/forms_design.test.ts, which builds it as the designer does and
checks it with the same JSON Schema draft) is accepted at save, renders with its dictionary's items, takes the
good submission and refuses the bad one field by field. Also: withdrawing a published version, dictionary
fields and person pickers checked against the platform, defaults checked at save."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from atrium.sdk.testing import AtriumClient
from tests.forms.conftest import DESIGN, SUB, published_form, save_design

FIXTURE = Path(__file__).with_name("designer_every_kind.json")
DICT = "FORMS_ROUNDTRIP"
ITEMS = {
    "gold": {"zh-cn": "金牌", "en-us": "Gold", "hu-hu": "Arany"},
    "silver": {"zh-cn": "银牌", "en-us": "Silver"},
}


def designer() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


@pytest.fixture
def dictionary(admin_client: AtriumClient) -> str:
    """The dictionary type the designed radio field takes its choices from (kept by the kernel)."""
    for sort, (code, names) in enumerate(ITEMS.items()):
        admin_client.ok(
            "POST",
            "/api/base/admin/dictionaries",
            json={"dicType": DICT, "dicCode": code, "names": names, "sort": sort},
        )
    return DICT


def with_person(data: dict[str, Any], user_id: int) -> dict[str, Any]:
    out = copy.deepcopy(data)
    for key in ("user9", "member10"):
        if key in out:
            out[key] = {"id": user_id, "name": "typed by hand"}
    return out


def test_the_designed_schema_is_draft_2020_12_and_the_server_takes_it(
    boss: AtriumClient, dictionary: str
) -> None:
    fx = designer()
    Draft202012Validator.check_schema(fx["schema"])
    form = published_form(boss, "every-kind", schema=fx["schema"])
    rendered = boss.ok("GET", "/api/form/render/every-kind")
    assert rendered["schema"] == fx["schema"], "stored as the designer built it"
    assert rendered["dictionaries"] == {
        dictionary: [{"value": "gold", "label": "Gold"}, {"value": "silver", "label": "Silver"}]
    }
    boss.headers["language"] = "zh#cn"
    zh = boss.ok("GET", f"{DESIGN}/detail", params={"formId": form["formId"]})
    assert [i["label"] for i in zh["dictionaries"][dictionary]] == ["金牌", "银牌"]
    boss.headers["language"] = "en#us"

    good = boss.ok(
        "POST",
        f"{SUB}/save",
        json={"formId": "every-kind", "data": with_person(fx["good"], boss.user_id)},
    )
    assert good["status"] == "submitted"
    assert good["data"]["user9"] == {"id": boss.user_id, "name": f"User {boss.account}"}, (
        "a picked person is stored with the directory's name"
    )
    bad = boss.post(f"{SUB}/save", json={"formId": "every-kind", "data": fx["bad"]})
    assert bad["code"] == 400
    errors = {e["field"]: e["message"] for e in bad["data"]["errors"]}
    assert sorted(errors) == fx["badFields"]
    assert errors["radio5"] == "Level is required" and errors["number3"] == "Nights must be at most 100"
    assert errors["textarea2"] == "textarea label is required", "required once the rule shows it"


def test_a_value_outside_the_dictionary_is_refused_on_the_field(boss: AtriumClient, dictionary: str) -> None:
    fx = designer()
    published_form(boss, "every-kind", schema=fx["schema"])
    data = with_person(fx["good"], boss.user_id)
    wrong = boss.post(f"{SUB}/save", json={"formId": "every-kind", "data": {**data, "radio5": "bronze"}})
    assert wrong["code"] == 400
    assert wrong["data"]["errors"] == [{"field": "radio5", "message": "Level is not one of the choices"}]
    boss.headers["language"] = "zh#cn"
    wrong = boss.post(f"{SUB}/save", json={"formId": "every-kind", "data": {**data, "radio5": "bronze"}})
    assert wrong["data"]["errors"][0]["message"] == "radio label不是可选的值"
    boss.headers["language"] = "en#us"
    draft = boss.ok(
        "POST", f"{SUB}/save", json={"formId": "every-kind", "data": {"radio5": "bronze"}, "draft": True}
    )
    assert draft["status"] == "draft", "a draft is not checked"
    done = boss.post(
        f"{SUB}/update", json={"submissionId": draft["submissionId"], "data": {**data, "radio5": "bronze"}}
    )
    assert done["code"] == 400 and done["data"]["errors"][0]["field"] == "radio5"
    ok = boss.ok("POST", f"{SUB}/update", json={"submissionId": draft["submissionId"], "data": data})
    assert ok["status"] == "submitted" and ok["data"]["radio5"] == "gold"
    found = boss.ok("POST", f"{SUB}/list", json={"formId": "every-kind", "filters": {"radio5": "gold"}})
    assert found["total"] == 1


def test_a_picked_person_must_be_a_member_of_the_tenant(
    boss: AtriumClient, dictionary: str, member: Any, tenant_factory: Any
) -> None:
    fx = designer()
    published_form(boss, "every-kind", schema=fx["schema"])
    staff = member(boss.tenant_id)
    outsider = member(tenant_factory())
    picked = with_person(fx["good"], staff.user_id)
    ok = boss.ok("POST", f"{SUB}/save", json={"formId": "every-kind", "data": picked})
    assert ok["data"]["member10"]["id"] == staff.user_id
    stranger = {**picked, "user9": {"id": outsider.user_id, "name": "Outsider"}}
    refused = boss.post(f"{SUB}/save", json={"formId": "every-kind", "data": stranger})
    assert refused["code"] == 400
    assert refused["data"]["errors"] == [
        {"field": "user9", "message": "Owner must be a member of this tenant"}
    ]
    nameless = boss.post(
        f"{SUB}/save", json={"formId": "every-kind", "data": {**picked, "member10": {"name": "x"}}}
    )
    assert nameless["code"] == 400 and nameless["data"]["errors"][0]["field"] == "member10"


def test_the_people_picker_lists_this_tenants_members_only(
    boss: AtriumClient, member: Any, tenant_factory: Any, user_factory: Any
) -> None:
    staff = member(boss.tenant_id, department="Sales")
    outsider = member(tenant_factory())
    everyone = boss.ok("GET", "/api/form/people")
    ids = {p["id"] for p in everyone}
    assert {boss.user_id, staff.user_id} <= ids and outsider.user_id not in ids
    found = staff.ok("GET", "/api/form/people", params={"keyword": "sal"})
    assert [p["id"] for p in found] == [staff.user_id] and found[0]["department"] == "Sales"
    account = staff.account
    by_account = boss.ok("GET", "/api/form/people", params={"keyword": account.upper()})
    assert by_account == [
        {"id": staff.user_id, "name": f"User {account}", "account": account, "department": "Sales"}
    ]
    for _ in range(3):
        user_factory(boss.tenant_id)
    assert len(boss.ok("GET", "/api/form/people", params={"limit": 2})) == 2
    assert boss.get("/api/form/people", params={"limit": 500})["code"] == 400


def test_unpublish_withdraws_the_form_and_keeps_its_submissions(boss: AtriumClient, member: Any) -> None:
    form = published_form(boss)
    fx_good = {"title": "Taxi", "amount": 42}
    sub = boss.ok("POST", f"{SUB}/save", json={"formId": "expense", "data": fx_good})
    staff = member(boss.tenant_id)
    assert staff.post(f"{DESIGN}/unpublish", json={"formId": form["formId"]})["code"] == 403
    out = boss.ok("POST", f"{DESIGN}/unpublish", json={"formId": "expense"})
    assert out["publishedVersion"] is None and out["latestVersion"] == 1
    gone = boss.get("/api/form/render/expense")
    assert gone["code"] == 404 and gone["msg"] == "Form expense is not published"
    assert boss.post(f"{SUB}/save", json={"formId": "expense", "data": fx_good})["code"] == 404
    assert boss.ok("GET", "/api/form/count") == {
        "forms": 1,
        "published": 0,
        "submissions": 1,
        "scope": "tenant",
    }
    kept = boss.ok("POST", f"{SUB}/list", json={"formId": "expense"})
    assert [s["submissionId"] for s in kept["list"]] == [sub["submissionId"]]
    assert boss.ok("POST", f"{DESIGN}/list", json={"published": True})["total"] == 0
    preview = boss.ok("GET", f"{DESIGN}/detail", params={"formId": form["formId"]})
    assert preview["version"] == 1 and preview["publishedVersion"] is None, "the preview still opens it"
    assert boss.post(f"{DESIGN}/unpublish", json={"formId": "nope"})["code"] == 404
    boss.ok("POST", f"{DESIGN}/publish", json={"formId": form["formId"]})
    assert boss.ok("GET", "/api/form/render/expense")["version"] == 1


def test_dictionary_and_default_conventions_are_checked_at_save(boss: AtriumClient) -> None:
    def one(prop: dict[str, Any]) -> dict[str, Any]:
        return {"type": "object", "properties": {"f": {"title": "F", **prop}}}

    wrong_kind = save_design(boss, "d1", schema=one({"type": "string", "x-kind": "text", "x-dict": "X"}))
    assert wrong_kind["code"] == 400 and wrong_kind["msg"].startswith("F: the dictionary")
    bad_type = save_design(boss, "d2", schema=one({"type": "string", "x-kind": "select", "x-dict": "a b"}))
    assert bad_type["code"] == 400
    default = save_design(
        boss, "d3", schema=one({"type": "number", "x-kind": "number", "maximum": 3, "default": 5})
    )
    assert default == {"code": 400, "msg": "The default value of F does not fit the field", "data": None}
    assert (
        save_design(boss, "d4", schema=one({"type": "string", "enum": ["a"], "default": "b"}))["code"] == 400
    )
    fine = save_design(
        boss, "d5", schema=one({"type": "string", "x-kind": "radio", "x-dict": "LEVELS", "default": "x"})
    )
    assert fine["code"] == 800, "a dictionary field's default is checked when it is filled"
