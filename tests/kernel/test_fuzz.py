"""Fuzzing every route of the OpenAPI document: whatever arrives, the answer is the envelope, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from atrium.sdk.testing import AtriumClient

DESTRUCTIVE = ("/logout", "/update-pwd", "/change-tenant", "/going-system", "/refresh-token")


@pytest.mark.parametrize("signed_in", [True, False], ids=["signed-in", "anonymous"])
def test_no_input_breaks_the_envelope(atrium_app: Any, user_client: AtriumClient, signed_in: bool) -> None:
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", atrium_app)
    failures: list[str] = []
    calls: list[int] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 50

    for operation in operations:
        call_headers = dict(user_client.headers)
        if not signed_in:
            call_headers = {"language": call_headers.get("language", "en#us")}
        elif operation.path.endswith(DESTRUCTIVE):
            call_headers.pop("authorization", None)

        @given(case=operation.as_strategy())
        @settings(
            max_examples=5,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def check(case: Any) -> None:
            response = case.call(headers=call_headers)  # noqa: B023 - check() runs inside this iteration
            calls.append(response.status_code)
            where = f"{case.method} {case.formatted_path}"
            if response.status_code >= 500:
                failures.append(f"{where}: HTTP {response.status_code}")
            elif "application/json" in str(response.headers.get("content-type", "")):
                body = response.json()
                if not isinstance(body, dict) or not {"code", "msg", "data"} <= set(body):
                    failures.append(f"{where}: not an envelope: {str(body)[:200]}")
                elif body["code"] == 500:
                    failures.append(f"{where}: {body['msg']}")

        check()
    assert len(calls) > 3 * len(operations)
    assert not failures, "\n".join(sorted(set(failures))[:40])
