"""Fuzzing every route of the OpenAPI document: whatever arrives, the answer is the envelope as the document
describes it, never a 500 (neither HTTP 5xx nor an envelope with code 500).

Three passes, each signed in and anonymous: valid input (fuzzing), invalid input (negative fuzzing) and the
coverage phase's boundary values, every answer checked against the document's response schema; and every
route given bodies of the wrong content type, malformed or nested deeper than the parser goes."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Flaky, Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import response_schema_conformance
from schemathesis.generation.meta import TestPhase

from atrium.sdk.testing import AtriumClient

DESTRUCTIVE = ("/logout", "/update-pwd", "/change-tenant", "/going-system", "/refresh-token")
PASSES = {
    "valid": (GenerationMode.POSITIVE, TestPhase.FUZZING, 5),
    "invalid": (GenerationMode.NEGATIVE, TestPhase.FUZZING, 3),
}
#: bodies no route takes: each must be a 400-family refusal in the envelope, never a 500
ODD_BODIES: list[tuple[str, bytes]] = [
    ("text/plain", b"hello"),
    ("multipart/form-data", b"--x\r\nContent-Disposition: form-data\r\n\r\n1\r\n--x--\r\n"),
    ("multipart/form-data; boundary=", b"--\r\n"),
    ("application/x-www-form-urlencoded", b"%zz=%%&a"),
    ("application/json", b"[" * 50_000),
    ("application/json", b'{"a": ' * 3_000 + b"1" + b"}" * 3_000),
    ("application/json", b"\xff\xfe\x00"),
    ("application/xml", b"<a/>"),
]


def _headers(client: AtriumClient, path: str, signed_in: bool) -> dict[str, str]:
    headers = dict(client.headers)
    if not signed_in:
        return {"language": headers.get("language", "en#us")}
    if path.endswith(DESTRUCTIVE):
        headers.pop("authorization", None)
    return headers


def _judge(where: str, response: Any, failures: list[str]) -> None:
    if response.status_code >= 500:
        failures.append(f"{where}: HTTP {response.status_code}")
    elif "application/json" in str(response.headers.get("content-type", "")):
        body = response.json()
        if not isinstance(body, dict) or not {"code", "msg", "data"} <= set(body):
            failures.append(f"{where}: not an envelope: {str(body)[:200]}")
        elif body["code"] == 500:
            failures.append(f"{where}: {body['msg']}")


@pytest.mark.parametrize("kind", list(PASSES))
@pytest.mark.parametrize("signed_in", [True, False], ids=["signed-in", "anonymous"])
def test_no_input_breaks_the_envelope(
    atrium_app: Any, user_client: AtriumClient, signed_in: bool, kind: str
) -> None:
    mode, phase, examples = PASSES[kind]
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", atrium_app)
    failures: list[str] = []
    unlike_the_document: list[str] = []
    calls: list[int] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 50

    for operation in operations:
        call_headers = _headers(user_client, operation.path, signed_in)

        @given(case=operation.as_strategy(generation_mode=mode, phase=phase))
        @settings(
            max_examples=examples,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def check(case: Any) -> None:
            response = case.call(headers=call_headers)  # noqa: B023 - check() runs inside this iteration
            calls.append(response.status_code)
            where = f"{case.method} {case.formatted_path}"
            _judge(where, response, failures)
            try:
                case.validate_response(response, checks=[response_schema_conformance])
            except AssertionError as exc:
                unlike_the_document.append(f"{where}: {str(exc)[:300]}")

        try:
            check()
        except Unsatisfiable:  # nothing about this operation can be made invalid (no parameters, no body)
            continue
        except Flaky:
            # schemathesis's negative overlay draws from `random` while Hypothesis replays a case, which
            # Hypothesis reports as flaky generation; the answers are judged above, call by call, all the same
            continue
    assert len(calls) >= len(operations) // 2
    assert not failures, "\n".join(sorted(set(failures))[:40])
    assert not unlike_the_document, "\n".join(sorted(set(unlike_the_document))[:20])


#: at most this many of the coverage phase's boundary cases per operation (missing fields, edge values, wrong
#: types of each parameter in turn), so the pass stays within a few minutes
COVERAGE_CASES = 12


@pytest.mark.parametrize("signed_in", [True, False], ids=["signed-in", "anonymous"])
def test_boundary_values_break_nothing(atrium_app: Any, user_client: AtriumClient, signed_in: bool) -> None:
    """Schemathesis's coverage phase: for each operation, values at and past each declared limit, each field
    missing, each of the wrong type; every answer an envelope as documented, never a 500."""
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", atrium_app)
    failures: list[str] = []
    unlike_the_document: list[str] = []
    calls = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        call_headers = _headers(user_client, operation.path, signed_in)
        cases = schema.iter_coverage_cases(
            operation,
            generation_modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
            generation_config=schema.config.generation_for(operation=operation),
        )
        for n, case in enumerate(cases):
            if n >= COVERAGE_CASES:
                break
            response = case.call(headers=call_headers)
            calls += 1
            where = f"{case.method} {case.formatted_path}"
            _judge(where, response, failures)
            try:
                case.validate_response(response, checks=[response_schema_conformance])
            except AssertionError as exc:
                unlike_the_document.append(f"{where}: {str(exc)[:300]}")
    assert calls > 500
    assert not failures, "\n".join(sorted(set(failures))[:40])
    assert not unlike_the_document, "\n".join(sorted(set(unlike_the_document))[:20])


def test_bodies_of_the_wrong_kind_are_refused_clearly(atrium_app: Any, user_client: AtriumClient) -> None:
    """Every route that takes a body, given a body of another content type, malformed, or nested deeper
    than the parser goes: a refusal in the envelope (400 family), never a 500 and never a success."""
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", atrium_app)
    failures: list[str] = []
    refused = 0
    http = user_client.http
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.body is None or not len(operation.body):
            continue
        path = operation.path
        if path.endswith(DESTRUCTIVE) or "{" in path:
            continue
        for ctype, raw in ODD_BODIES:
            headers = {**_headers(user_client, path, True), "content-type": ctype}
            response = http.request(operation.method.upper(), path, content=raw, headers=headers)
            where = f"{operation.method.upper()} {path} [{ctype}]"
            _judge(where, response, failures)
            if response.headers.get("content-type", "").startswith("application/json"):
                code = response.json().get("code")
                refused += code != 800
    assert refused > 100
    assert not failures, "\n".join(sorted(set(failures))[:40])
