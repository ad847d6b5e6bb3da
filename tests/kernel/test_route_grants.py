"""Grants on the server: a route that names the button its action needs (`grant=`) refuses every caller
whose roles lack it, before reading the body, whatever the browser shows; administrators hold every grant."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

REFUSED = "You do not have permission for this action"


def _granted_operations(http: Any) -> list[tuple[str, str, str]]:
    doc = http.get("/api/openapi.json").json()
    return [
        (method.upper(), path, op["x-atrium-grant"])
        for path, ops in doc["paths"].items()
        for method, op in ops.items()
        if isinstance(op, dict) and op.get("x-atrium-grant")
    ]


def _concrete(path: str) -> str:
    return re.sub(r"\{\w+\}", "1", path)


def test_the_openapi_document_names_each_guarded_action(http) -> None:
    grants = {(m, p): g for m, p, g in _granted_operations(http)}
    assert grants[("POST", "/api/form/design/save")] == "form:design"
    assert grants[("POST", "/api/process/model/deploy")] == "process:deploy"
    assert grants[("POST", "/api/process/model/save")] == "process:design"


def test_a_member_without_the_button_is_refused_before_validation(http, client, user_factory) -> None:
    account, password, _ = user_factory(1001)
    member = client.signed_in(account, password)
    operations = _granted_operations(http)
    assert len(operations) >= 8
    for method, path, _ in operations:
        answer = member._call(method, _concrete(path), json={"nonsense": True} if method == "POST" else None)
        assert answer["code"] == 403 and answer["msg"] == REFUSED and answer["data"] is None, (path, answer)


def test_a_role_with_the_button_opens_the_action(client, admin_client, user_factory, kernel) -> None:
    from atrium.kernel.models import MenuResource
    from atrium.sdk.context import unscoped

    account, password, uid = user_factory(1001)
    member = client.signed_in(account, password)
    forms = admin_client.ok("POST", "/api/form/design/list", json={"pageNum": 1, "pageSize": 5})["list"]
    detail = f"/api/form/design/detail?formId={forms[0]['formId']}"
    assert member.get(detail)["msg"] == REFUSED
    with unscoped(), kernel.db() as db:
        button = db.execute(select(MenuResource.id).where(MenuResource.code == "form:design")).scalar()
    role = admin_client.ok(
        "POST", "/api/base/admin/roles", json={"roleCode": f"d{uid}", "roleName": "Designers"}
    )
    admin_client.ok(
        "POST", "/api/base/admin/roles/resources", json={"roleId": role["roleId"], "resourceIds": [button]}
    )
    admin_client.ok("POST", "/api/base/admin/users/roles", json={"userId": uid, "roleId": role["roleId"]})
    assert member.ok("GET", detail)["formId"] == forms[0]["formId"]
    deploy = member.post("/api/process/model/deploy", json={"modelId": 1})
    assert deploy["code"] == 403 and deploy["msg"] == REFUSED
