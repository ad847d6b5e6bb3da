"""One authorization matrix: every operation of the OpenAPI document has a row in `authorization_matrix.py`
with the answer each of six callers gets, and the test calls every operation as each of them.

Callers: anonymous; a signed-in member of Acme without roles; a member holding the operation's button (only
for operations with `x-atrium-grant`); Acme's tenant administrator; Globex's tenant administrator; the super
administrator. Each call carries a valid body and query (the first positive example schemathesis generates
with a fixed seed, ids in it turned into ids nothing has), so what decides is the access rule and not
validation; path ids are those of real Acme objects (`path_values`), so another tenant's administrator gets
"hidden". The calls run against an app of their own (its own database, on PostgreSQL a schema of its own) as
accounts made for the test, so that settings the administrators' calls change reach no other test.

A route without a row fails the test, and so does a row for a route that no longer exists. To bootstrap rows
for new routes, run with ``ATRIUM_MATRIX_RECORD=<file>``: the answers seen are written there, to review
before they are copied into the table (a member or anonymous caller reading administrators' or another
tenant's data, or acting where a button guards the action, is a leak to fix in the route, never a row)."""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.generation.meta import TestPhase
from sqlalchemy import select

from atrium.sdk.testing import AtriumClient
from tests.kernel.authorization_matrix import CALLERS, MATRIX

#: the answer classes: an envelope code's meaning for access
SIGNIN, FORBIDDEN, HIDDEN, OFF, OK, ANY = "signin", "forbidden", "hidden", "off", "ok", "any"
NO_GRANT = "-"
#: an id no object has: ids in generated bodies and queries are replaced by it, so no call changes an object
#: the other calls need
NOBODY = 987_654_321
ID_KEY = re.compile(r"(^id$|Id$|Ids$|_id$|^ids$)")
#: calls that end or change the caller's session: the caller signs in again after them
SESSION_ENDING = ("/logout", "/update-pwd", "/change-tenant", "/going-system", "/refresh-token")
PASSWORD = "Matrix@12345"


def classify(status: int, body: Any) -> str:
    """The class of an answer: the envelope's code, or `ok` for anything that is not a refusal."""
    if status >= 500:
        return f"http-{status}"
    if not isinstance(body, dict) or "code" not in body:
        return OK  # a file, a redirect, a page: the route answered
    code = body["code"]
    return {-1: SIGNIN, 403: FORBIDDEN, 404: HIDDEN, 460: OFF, 500: "error"}.get(code, OK)


def operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, op)
        for path, ops in doc["paths"].items()
        for method, op in ops.items()
        if isinstance(op, dict)
    ]


def key(method: str, path: str) -> str:
    return f"{method} {path}"


# -- the table against the document ------------------------------------------------------------------------


def test_every_operation_has_a_row_and_every_row_an_operation(http: Any) -> None:
    doc = http.get("/api/openapi.json").json()
    present = {key(m, p) for m, p, _ in operations(doc)}
    missing = sorted(present - set(MATRIX))
    stale = sorted(set(MATRIX) - present)
    assert not missing, "operations without a row in authorization_matrix.py:\n" + "\n".join(missing)
    assert not stale, "rows for operations that no longer exist:\n" + "\n".join(stale)


def test_each_row_answers_for_every_caller_and_names_the_grant_column_rightly(http: Any) -> None:
    doc = http.get("/api/openapi.json").json()
    classes = {SIGNIN, FORBIDDEN, HIDDEN, OFF, OK, ANY}
    for method, path, op in operations(doc):
        text = MATRIX.get(key(method, path))
        if text is None:
            continue
        row = text.split()
        assert len(row) == len(CALLERS), (method, path, row)
        holder = row[CALLERS.index("holder")]
        if op.get("x-atrium-grant"):
            assert holder in classes, f"{method} {path}: the holder of {op['x-atrium-grant']} needs an answer"
        else:
            assert holder == NO_GRANT, f"{method} {path} names no grant: its holder column is {NO_GRANT!r}"
        for answer in row:
            assert answer in classes | {NO_GRANT}, (method, path, answer)
        if op["x-atrium-access"] != "public":
            assert row[0] == SIGNIN, f"{method} {path} needs a session: anonymous is {SIGNIN!r}"


# -- the calls ---------------------------------------------------------------------------------------------


def _postgres_schema() -> Iterator[str]:
    """A fresh schema of the test database (when the suite runs on PostgreSQL), dropped afterwards."""
    import sqlalchemy as sa

    base = os.environ["ATRIUM_TEST_DATABASE_URL"].replace("postgresql://", "postgresql+psycopg://", 1)
    schema = f"m_{secrets.token_hex(6)}"
    engine = sa.create_engine(base)
    with engine.begin() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    try:
        sep = "&" if "?" in base else "?"
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        engine.dispose()


@pytest.fixture
def own_app(make_atrium_app: Callable[..., Any]) -> Iterator[Any]:
    """An app with demo data on a database of its own (SQLite, or a fresh PostgreSQL schema)."""
    overrides: dict[str, Any] = {"secret_key": "matrix-" + secrets.token_hex(24)}
    if os.environ.get("ATRIUM_TEST_REDIS_URL"):
        overrides["redis_url"] = os.environ["ATRIUM_TEST_REDIS_URL"]
        overrides["redis_prefix"] = f"atrium-matrix-{secrets.token_hex(4)}:"
    if os.environ.get("ATRIUM_TEST_DATABASE_URL"):
        schema = _postgres_schema()
        overrides["database_url"] = next(schema)
        yield make_atrium_app(**overrides)
        next(schema, None)
    else:
        yield make_atrium_app(**overrides)


class Callers:
    """The six callers, each signed in (again after a call that ends its session) as an account of its own."""

    def __init__(self, http: Any) -> None:
        self.http = http
        self.kernel = http.app.state.kernel
        self.admin = AtriumClient(http).signed_in("admin")
        self.accounts: dict[str, str] = {}
        self.accounts["member"] = self._user(1001)
        self.accounts["acme_admin"] = self._user(1001, supervisor=True)
        self.accounts["other_admin"] = self._user(1002, supervisor=True)
        self.accounts["super_admin"] = self._user(1001, super_admin=True)
        self.holders: dict[str, str] = {}
        self.clients: dict[str, AtriumClient] = {}

    def _user(self, tenant_id: int, **flags: bool) -> str:
        from atrium.kernel import accounts
        from atrium.sdk.context import unscoped

        account = f"mx{secrets.token_hex(4)}"
        with unscoped(), self.kernel.db():
            user = accounts.create_user(account, PASSWORD, f"Matrix {account}", tenant_id, **flags)
            if flags.get("super_admin"):
                accounts.add_membership(user.id, 1002, supervisor=True)
        return account

    def holder_of(self, code: str) -> str:
        """A member of Acme whose one role holds the button `code`, given through the admin API."""
        if code not in self.holders:
            from atrium.kernel.models import MenuResource
            from atrium.sdk.context import unscoped

            account = self._user(1001)
            users = self.admin.ok("GET", "/api/base/admin/users/page", params={"keyword": account})
            uid = next(u["userId"] for u in users["list"] if u["account"] == account)
            with unscoped(), self.kernel.db() as db:
                button = db.execute(select(MenuResource.id).where(MenuResource.code == code)).scalar()
            role = self.admin.ok(
                "POST", "/api/base/admin/roles", json={"roleCode": f"mx{uid}", "roleName": f"holds {code}"}
            )
            self.admin.ok(
                "POST",
                "/api/base/admin/roles/resources",
                json={"roleId": role["roleId"], "resourceIds": [button]},
            )
            self.admin.ok(
                "POST", "/api/base/admin/users/roles", json={"userId": uid, "roleId": role["roleId"]}
            )
            self.holders[code] = account
        return self.holders[code]

    def client(self, who: str, grant: str | None) -> AtriumClient | None:
        if who == "anonymous":
            return None
        account = self.holder_of(grant) if who == "holder" and grant else self.accounts[who]
        if account not in self.clients:
            self.clients[account] = AtriumClient(self.http).signed_in(account, PASSWORD)
        return self.clients[account]

    def forget(self, who: str, grant: str | None) -> None:
        account = self.holder_of(grant) if who == "holder" and grant else self.accounts.get(who)
        self.clients.pop(account or "", None)


#: the password strategy the demo gives its tenants (symbols allowed: its passwords hold one)
DEMO_STRATEGY = {"minLength": 6, "maxLength": 12, "expireDays": 90, "warnDays": 7, "allowSymbols": True}


def _harmless(value: Any, name: str = "") -> Any:
    """A generated body or query with every id in it replaced by one no object has."""
    if isinstance(value, dict):
        return {k: _harmless(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_harmless(v, name) for v in value]
    if ID_KEY.search(name) and isinstance(value, int | str) and not isinstance(value, bool):
        return NOBODY if isinstance(value, int) else str(NOBODY)
    return value


def examples(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """One valid example per operation: body and query, from schemathesis with a fixed seed."""
    schema = schemathesis.openapi.from_dict(doc)
    found: dict[str, dict[str, Any]] = {}
    for result in schema.get_all_operations():
        operation = result.ok()
        seen: list[Any] = []
        _first_example(operation, seen)
        case = seen[0]
        query = {k: v for k, v in (case.query or {}).items() if v is not None}
        found[key(operation.method.upper(), operation.path)] = {
            "body": _harmless(case.body) if case.body is not None and not _is_unset(case.body) else None,
            "query": _harmless(query),
            "multipart": "multipart/form-data" in (case.media_type or ""),
        }
    return found


def _first_example(operation: Any, seen: list[Any]) -> None:
    """The first positive example of `operation` into `seen` (a fixed seed: the same one every run)."""

    @given(case=operation.as_strategy(generation_mode=GenerationMode.POSITIVE, phase=TestPhase.FUZZING))
    @settings(
        max_examples=1,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def first(case: Any) -> None:
        if not seen:
            seen.append(case)

    first()


def _is_unset(body: Any) -> bool:
    return type(body).__name__ == "NotSet"


def path_values(super_admin: AtriumClient) -> dict[str, str]:
    """Path parameters filled with Acme's objects (made by Acme's administrators for the test where the call
    may change them), by parameter name, then by route for names that mean different objects."""
    panels = {p["name"]: p["id"] for p in super_admin.ok("GET", "/api/dyreport/panel/list")}
    overview = next(iter(panels.values()))
    views = super_admin.ok("GET", f"/api/dyreport/chart/view/listByPanel/{overview}")
    datasets = super_admin.ok("GET", "/api/dyreport/dataset/list")
    dataset = datasets[0]
    forms = super_admin.ok("POST", "/api/form/design/list", json={"pageNum": 1, "pageSize": 5})["list"]
    link = super_admin.ok("POST", f"/api/dyreport/api/link/enable/{overview}")
    models = super_admin.ok("POST", "/api/process/model/list", json={})["list"]
    return {
        # queries that name one object: Acme's
        "?/api/process/model/detail": f"modelId={models[0]['modelId']}",
        "?/api/form/design/detail": f"formId={forms[0]['formId']}",
        "panelId": overview,
        "viewId": views[0]["id"],
        "datasetId": dataset["id"],
        "fieldId": str(NOBODY),  # a field that is not there: deleting it changes nothing
        "formId": str(forms[0]["formId"]),
        "tenant": "1001",
        "name": "none.png",
        "id": overview,
        "/api/dyreport/chart/view/calcData/{id}": views[0]["id"],
        "/api/dyreport/dataset/get/{id}": dataset["id"],
        "/api/dyreport/dataset/fields/{id}": dataset["id"],
        "/api/dyreport/dataset/delete/{id}": dataset["id"],  # in use by views: refused, kept
        "/api/dyreport/dataset/preview/{id}": dataset["id"],
        "/api/dyreport/dataset/sync/{id}": dataset["id"],
        "/api/dyreport/dataset/syncStatus/{id}": dataset["id"],
        "/api/dyreport/dataset/rowPermissions/{id}": dataset["id"],
        "/api/dyreport/dataset/tables/{id}": str(dataset.get("datasourceId") or NOBODY),
        "/api/dyreport/datasource/delete/{id}": str(dataset.get("datasourceId") or NOBODY),  # in use: kept
        "/api/dyreport/link/{id}": link["id"],
    }


#: routes that delete the object in their path: each call gets an Acme object made for it
FRESH: dict[str, Callable[[AtriumClient, dict[str, str]], str]] = {
    "/api/dyreport/panel/delete/{id}": lambda admin, _: admin.ok(
        "POST", "/api/dyreport/panel/save", json={"name": "to delete", "panelData": []}
    )["id"],
    "/api/dyreport/chart/view/delete/{id}": lambda admin, values: admin.ok(
        "POST",
        "/api/dyreport/chart/view/save",
        json={
            "panelId": values["panelId"],
            "tableId": values["datasetId"],
            "name": "to delete",
            "type": "text",
        },
    )["id"],
}


def _fill(path: str, values: dict[str, str], admin: AtriumClient) -> str:
    if path in FRESH:
        return re.sub(r"\{\w+\}", FRESH[path](admin, values), path)
    return re.sub(r"\{(\w+)\}", lambda m: values.get(path, values.get(m.group(1), "1")), path)


def _call(http: Any, caller: AtriumClient | None, method: str, url: str, ex: dict[str, Any]) -> str:
    headers = dict(caller.headers) if caller else {"language": "en#us"}
    kw: dict[str, Any] = {"params": {**ex["query"], **ex.get("acme", {})}}
    if ex["body"] is not None:
        if ex["multipart"]:
            kw["data"] = {k: str(v) for k, v in ex["body"].items()} if isinstance(ex["body"], dict) else {}
        else:
            kw["json"] = ex["body"]
    resp = http.request(method, url, headers=headers, follow_redirects=False, **kw)
    if caller and resp.headers.get("authorization"):
        caller.headers["authorization"] = resp.headers["authorization"]
    try:
        body = resp.json() if resp.headers.get("content-type", "").startswith("application/json") else None
    except ValueError:
        body = None
    return classify(resp.status_code, body)


def test_every_caller_gets_the_answer_of_its_row(own_app: Any) -> None:
    http = own_app
    doc = http.get("/api/openapi.json").json()
    ops = operations(doc)
    missing = [key(m, p) for m, p, _ in ops if key(m, p) not in MATRIX]
    if not os.environ.get("ATRIUM_MATRIX_RECORD"):
        assert not missing, f"operations without a row: {missing}"
    callers = Callers(http)
    super_admin = callers.client("super_admin", None)
    assert super_admin is not None
    values = path_values(super_admin)
    generated = examples(doc)
    # the callers save Acme's password strategy: the demo's own, so the rule later tests read stays the demo's
    generated[key("POST", "/api/base/admin/password-strategy")]["body"] = DEMO_STRATEGY
    seen: dict[str, tuple[str, ...]] = {}
    wrong: list[str] = []
    for method, path, op in ops:
        grant = op.get("x-atrium-grant")
        answers = []
        for who in CALLERS:
            if who == "holder" and not grant:
                answers.append(NO_GRANT)
                continue
            caller = callers.client(who, grant)
            url = _fill(path, values, super_admin)
            example = dict(generated[key(method, path)])
            if f"?{path}" in values:
                example["acme"] = dict(p.split("=", 1) for p in values[f"?{path}"].split("&"))
            answers.append(_call(http, caller, method, url, example))
            if caller is not None and path.endswith(SESSION_ENDING):
                callers.forget(who, grant)
        seen[key(method, path)] = tuple(answers)
        expected = MATRIX.get(key(method, path))
        if expected is None:
            continue
        for who, want, got in zip(CALLERS, expected.split(), answers, strict=True):
            if want != got and want != ANY:
                wrong.append(f"{method} {path}: {who} expected {want}, got {got}")
    record = os.environ.get("ATRIUM_MATRIX_RECORD")
    if record:
        with open(record, "w", encoding="utf-8") as out:
            for k, row in seen.items():
                out.write(f'    "{k}": "{" ".join(row)}",\n')
    assert not wrong, "\n".join(wrong)
