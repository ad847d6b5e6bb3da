"""Fixtures for the forms plugin's tests: a supervisor of a fresh tenant, members, a sample design."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient

DESIGN = "/api/form/design"
SUB = "/api/form/submission"


def sample_schema() -> dict[str, Any]:
    """A form with one field of each data kind the designer offers."""
    return {
        "type": "object",
        "required": ["title", "amount"],
        "properties": {
            "intro": {"type": "null", "title": "Intro", "x-kind": "section"},
            "title": {
                "type": "string",
                "title": "标题",
                "x-kind": "text",
                "minLength": 2,
                "maxLength": 20,
                "x-i18n": {"en-us": "Title"},
            },
            "notes": {"type": "string", "title": "备注", "x-kind": "textarea", "maxLength": 200},
            "amount": {
                "type": "number",
                "title": "金额",
                "x-kind": "number",
                "minimum": 1,
                "maximum": 1000,
                "x-i18n": {"en-us": "Amount"},
            },
            "kind": {"type": "string", "title": "类型", "x-kind": "select", "enum": ["a", "b"]},
            "urgent": {"type": "boolean", "title": "紧急", "x-kind": "checkbox"},
            "code": {
                "type": "string",
                "title": "编号",
                "x-kind": "text",
                "pattern": "^[A-Z]{2}[0-9]+$",
                "x-i18n": {"en-us": "Code"},
            },
            "day": {"type": "string", "format": "date", "title": "日期", "x-kind": "date"},
            "span": {
                "type": "array",
                "x-kind": "daterange",
                "items": {"type": "string", "format": "date"},
                "minItems": 2,
                "maxItems": 2,
            },
            "owner": {
                "type": "object",
                "x-kind": "user",
                "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
            },
            "photos": {"type": "array", "x-kind": "image", "items": {"type": "object"}},
            "lines": {
                "type": "array",
                "x-kind": "table",
                "items": {
                    "type": "object",
                    "properties": {"item": {"type": "string"}, "qty": {"type": "integer", "minimum": 1}},
                },
            },
            "reason": {
                "type": "string",
                "title": "原因",
                "x-kind": "text",
                "x-visibleIf": {"field": "kind", "value": "b"},
                "x-i18n": {"en-us": "Reason"},
            },
        },
        "allOf": [
            {
                "if": {"properties": {"kind": {"const": "b"}}, "required": ["kind"]},
                "then": {"required": ["reason"]},
            }
        ],
    }


@pytest.fixture
def member(client: AtriumClient, user_factory: Callable[..., tuple[str, str, int]]) -> Callable[..., Any]:
    """A new user of a tenant, signed in; `.user_id`, `.account` and `.tenant_id` are set (the user is named
    `User <account>`)."""

    def make(tenant_id: int = 1001, **kw: Any) -> Any:
        account, password, uid = user_factory(tenant_id, **kw)
        c = client.signed_in(account, password)
        c.user_id = uid
        c.account = account
        c.tenant_id = tenant_id
        return c

    return make


@pytest.fixture
def boss(tenant_factory: Callable[..., int], member: Callable[..., Any]) -> Any:
    """The supervisor of a new tenant (forms made here touch no other test's tenant)."""
    return member(tenant_factory(), supervisor=True)


def save_design(
    c: AtriumClient, code: str = "expense", schema: dict[str, Any] | None = None, **extra: Any
) -> dict[str, Any]:
    body = {
        "code": code,
        "name": {"zh-cn": "报销", "en-us": "Expense"},
        "schema": schema or sample_schema(),
        "layouts": {"L1": {"columns": 2}},
        **extra,
    }
    return c.post(f"{DESIGN}/save", json={"params": body})


def published_form(c: AtriumClient, code: str = "expense", **extra: Any) -> dict[str, Any]:
    saved = save_design(c, code, **extra)
    assert saved["code"] == 800, saved
    data: dict[str, Any] = c.ok("POST", f"{DESIGN}/publish", json={"formId": saved["data"]["formId"]})
    return data
