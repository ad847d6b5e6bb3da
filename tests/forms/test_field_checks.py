"""Defects users met, on the server's side: a number field given a word (submitted or kept as a draft) is
refused with a message that says a number is wanted, in the request's language; a form opened without a
layout is drawn in the columns its author designed."""

from __future__ import annotations

from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient
from tests.forms.conftest import DESIGN, SUB, published_form

GOOD = {"title": "Taxi", "amount": 42, "kind": "a", "code": "AB12"}

#: "must be a number" in each language, for the field titled 金额 (labelled Amount in English only)
NOT_A_NUMBER = {
    "en#us": "Amount must be a number",
    "zh#cn": "金额必须是数字",
    "zh#tw": "金额必須是數字",
    "vi#vn": "金额 phải là một số",
    "hu#hu": "金额 értékének számnak kell lennie",
}


def submit(c: AtriumClient, data: dict[str, Any], draft: bool = False) -> dict[str, Any]:
    return c.post(f"{SUB}/save", json={"params": {"formId": "expense", "data": data, "draft": draft}})


def errors(answer: dict[str, Any]) -> dict[str, str]:
    assert answer["code"] == 400, answer
    return {e["field"]: e["message"] for e in answer["data"]["errors"]}


@pytest.mark.parametrize("language", sorted(NOT_A_NUMBER))
def test_a_word_in_a_number_field_is_refused_as_not_a_number(boss: AtriumClient, language: str) -> None:
    published_form(boss)
    boss.headers["language"] = language
    found = errors(submit(boss, {**GOOD, "amount": "abc"}))
    assert found == {"amount": NOT_A_NUMBER[language]}, "a word is not a missing value"


def test_a_number_field_takes_numbers_only_whatever_the_json_type(boss: AtriumClient) -> None:
    published_form(boss)
    boss.headers["language"] = "en#us"
    for wrong in ("42", True, [1], {"n": 1}):
        assert errors(submit(boss, {**GOOD, "amount": wrong})) == {"amount": "Amount must be a number"}
    # a whole-number cell of a sub-table says so too
    rows = errors(submit(boss, {**GOOD, "lines": [{"item": "pens", "qty": 1.5}]}))
    assert rows == {"lines": "lines (0 / qty) must be a whole number"}
    assert submit(boss, {**GOOD, "amount": 7.5})["code"] == 800


def test_a_draft_with_a_word_in_a_number_field_is_refused(boss: AtriumClient) -> None:
    published_form(boss)
    boss.headers["language"] = "en#us"
    found = errors(submit(boss, {"title": "x", "amount": "abc"}, draft=True))
    assert found == {"amount": "Amount must be a number"}
    draft = boss.ok("POST", f"{SUB}/save", json={"formId": "expense", "data": {"title": "x"}, "draft": True})
    assert draft["status"] == "draft", "an incomplete draft is still kept"
    edited = boss.post(
        f"{SUB}/update", json={"submissionId": draft["submissionId"], "data": {"amount": "x"}, "draft": True}
    )
    assert errors(edited) == {"amount": "Amount must be a number"}


def test_a_form_opened_without_a_layout_takes_its_designed_columns(boss: AtriumClient) -> None:
    published_form(boss)  # designed with L1 in two columns
    plain = boss.ok("GET", "/api/form/render/expense")
    assert plain["layout"] == {"columns": 2}, "no layout named: the form's own (L1)"
    unknown = boss.ok("GET", "/api/form/render/expense", params={"layoutId": "L9"})
    assert unknown["layout"] == {"columns": 2}
    sub = boss.ok("POST", f"{SUB}/save", json={"formId": "expense", "data": GOOD})
    detail = boss.ok("GET", f"{SUB}/detail", params={"submissionId": sub["submissionId"]})
    assert detail["layout"] == {"columns": 2}, "a submission is edited in the same columns"
    one = boss.ok("GET", f"{DESIGN}/detail", params={"formId": plain["formId"]})
    assert one["layouts"] == {"L1": {"columns": 2}}
