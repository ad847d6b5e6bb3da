"""Walks over every route: each needs a session or stands on the public list, and no route shows one
tenant's data to another tenant's user."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.routing import Mount, Route, WebSocketRoute

from atrium.sdk.context import tenant_scope
from atrium.sdk.testing import AtriumClient

# Routes outside the route declarations: documents, the catch-all answer for unknown API paths, and the
# operators' probes (/metrics decides itself: allowed networks or its bearer token).
UNDECLARED_PUBLIC = {"/api/openapi.json", "/api/{rest:path}", "/healthz", "/readyz", "/metrics"}


def _declared(app: Any) -> dict[tuple[str, str], Any]:
    return {(spec.path, m): spec for spec in app.state.route_specs for m in spec.methods}


def test_every_route_is_public_by_declaration_or_needs_a_permission(atrium_app: Any) -> None:
    declared = _declared(atrium_app)
    undeclared = []
    for route in atrium_app.routes:
        if isinstance(route, Mount | WebSocketRoute):
            continue
        assert isinstance(route, Route)
        if route.path in UNDECLARED_PUBLIC:
            continue
        for method in route.methods or []:
            if method == "HEAD":
                continue
            spec = declared.get((route.path, method))
            if spec is None:
                undeclared.append(f"{method} {route.path}")
                continue
            assert spec.public or spec.permission in ("user", "admin", "super-admin"), route.path
    assert not undeclared, f"routes with no declared access rule: {undeclared}"


def _fill(path: str, value: str) -> str:
    return re.sub(r"\{[^}]+\}", value, path)


def test_every_non_public_route_refuses_an_anonymous_caller(atrium_app: Any, client: AtriumClient) -> None:
    for spec in atrium_app.state.route_specs:
        if spec.public:
            continue
        for method in spec.methods:
            resp = client.http.request(method, _fill(spec.path, "1"), headers=client.headers, json={})
            assert resp.status_code == 200, f"{method} {spec.path}: HTTP {resp.status_code}"
            body = resp.json()
            assert body["code"] == -1, f"{method} {spec.path} answered {body['code']} without a session"


def test_admin_routes_refuse_an_ordinary_user(atrium_app: Any, user_client: AtriumClient) -> None:
    for spec in atrium_app.state.route_specs:
        if spec.permission not in ("admin", "super-admin"):
            continue
        for method in spec.methods:
            body = user_client._call(method, _fill(spec.path, "1"), json={})
            assert body["code"] == 403, f"{method} {spec.path} answered {body['code']} for a non-admin"


@pytest.fixture
def acme_secrets(kernel: Any, client: AtriumClient) -> list[str]:
    """Data only Acme (tenant 1001) has, to look for in another tenant's answers."""
    alice = client.signed_in("alice")
    menus = alice.ok("GET", "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho")["menus"]
    leaf = next(m for m in menus[0]["children"] if m["menuUrl"].startswith("/"))
    alice.ok(
        "POST",
        "/api/portal/portal-favourite/save-one-click",
        json={"params": {"menuId": leaf["menuId"], "functionUrl": "acme-secret-page", "params": "{}"}},
    )
    alice.ok(
        "POST",
        "/api/portal/base-exception/save",
        json={"ibeOutside": "bug", "ibeExceptionDesc": "ACME-CONFIDENTIAL-NOTE"},
    )
    from atrium.kernel import accounts

    with tenant_scope(1001), kernel.db():
        try:
            accounts.create_role("acme-secret-role", "ACME-SECRET-ROLE")
        except Exception:
            pass
    return ["acme-secret-page", "ACME-CONFIDENTIAL-NOTE", "ACME-SECRET-ROLE", "acme.localhost"]


def test_no_route_shows_acme_data_to_a_globex_user(
    atrium_app: Any, client: AtriumClient, user_factory: Any, acme_secrets: list[str]
) -> None:
    account, password, _ = user_factory(1002, supervisor=True)
    globex = client.signed_in(account, password)
    openapi = client.http.get("/api/openapi.json").json()
    leaks = []
    skip = {
        "/api/base/base-user/logout",
        "/api/base/base-user/update-pwd",
        "/api/base/base-user/change-tenant",
    }
    # saving the password strategy with an empty body would replace Globex's demo strategy with the
    # defaults, which later tests read
    keep = {("post", "/api/base/admin/password-strategy")}
    calls = 0
    for path, ops in openapi["paths"].items():
        if path in skip:
            continue
        for method, op in ops.items():
            if (method, path) in keep:
                continue
            values = ("1", "2", "3", "1001") if "{" in path else ("",)
            filled = {
                p["name"]: "1001"
                if "tenant" in p["name"].lower()
                else "iotAutho"
                if "system" in p["name"].lower()
                else "1"
                for p in op.get("parameters", [])
                if p["in"] == "query"
            }
            for value in values:
                for query in ({}, filled):
                    url = _fill(path, value)
                    resp = globex.http.request(
                        method.upper(), url, headers=globex.headers, params=query, json={}
                    )
                    if (
                        resp.status_code == 200
                        and resp.headers.get("content-type", "").startswith("application/json")
                        and resp.json().get("code") == -1
                    ):
                        globex = client.signed_in(
                            account, password
                        )  # a route that renews tokens ended the session
                        resp = globex.http.request(
                            method.upper(), url, headers=globex.headers, params=query, json={}
                        )
                    calls += 1
                    assert resp.status_code < 500, f"{method} {url}: HTTP {resp.status_code}"
                    for secret in acme_secrets:
                        if secret in resp.text:
                            leaks.append(f"{method.upper()} {url} {query} shows {secret!r}")
    assert calls > 50
    assert not leaks, "\n".join(leaks)
