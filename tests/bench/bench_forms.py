"""Forms: submissions validated and stored, and a filtered submission list, each beside a baseline.

1. Submission validation and insert (a 30-field form, one submission per flush) in submissions per second,
   beside JSON Schema validation alone (the same compiled validator, the same payloads) in the same run
   (budget: at least 0.5x).
2. Listing submissions filtered on one field over ATRIUM_BENCH_FORM_ROWS submissions (default 1,000,000)
   with the plugin's index: p99 of the list call (budget: under 100 ms), beside the bare indexed lookup of
   the matching ids in SQL.

Run: `.venv/bin/python -m tests.bench.bench_forms` (SQLite in a temporary folder unless
ATRIUM_BENCH_DATABASE_URL is set).
"""

from __future__ import annotations

import os
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import insert, select, text

from tests.bench.report import report

ROWS = int(os.environ.get("ATRIUM_BENCH_FORM_ROWS", "1000000"))
SUBMISSIONS = int(os.environ.get("ATRIUM_BENCH_FORM_SUBMISSIONS", "3000"))


def schema30() -> dict[str, Any]:
    props: dict[str, Any] = {}
    for i in range(30):
        kind = i % 3
        if kind == 0:
            props[f"t{i}"] = {
                "type": "string",
                "title": f"T{i}",
                "x-kind": "text",
                "minLength": 1,
                "maxLength": 50,
            }
        elif kind == 1:
            props[f"n{i}"] = {
                "type": "number",
                "title": f"N{i}",
                "x-kind": "number",
                "minimum": 0,
                "maximum": 1e6,
            }
        else:
            props[f"s{i}"] = {"type": "string", "title": f"S{i}", "x-kind": "select", "enum": ["a", "b", "c"]}
    return {"type": "object", "properties": props, "required": list(props)[:20]}


def payload(i: int, schema: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in schema["properties"]:
        out[key] = (
            f"value {i} {key}" if key[0] == "t" else (i % 1000 + 0.5 if key[0] == "n" else "abc"[i % 3])
        )
    return out


def main() -> None:
    from atrium.kernel.config import Settings
    from atrium.plugins.forms import schema as fs
    from atrium.plugins.forms import service
    from atrium.plugins.forms.models import Form, FormVersion, Submission, SubmissionValue
    from atrium.sdk.context import SessionUser, tenant_scope
    from atrium.sdk.db import session, utcnow
    from atrium.sdk.testing import build_app

    tmp = Path(tempfile.mkdtemp(prefix="atrium-bench-forms-"))
    settings = Settings(
        var_dir=tmp / "var",
        demo=True,
        scheduler=False,
        secret_key=secrets.token_hex(24),
        database_url=os.environ.get("ATRIUM_BENCH_DATABASE_URL", ""),
    )
    kernel = build_app(settings).state.kernel
    tenant = 1001
    user = SessionUser(1, "bench", "Bench", tenant, "iotAutho", False, True)
    schema = schema30()
    payloads = [payload(i, schema) for i in range(SUBMISSIONS)]
    with tenant_scope(tenant) as ctx, kernel.db():
        ctx.user = user
        form = Form(code="bench30", name={"en-us": "Bench"}, latest_version=1, published_version=1)
        session().add(form)
        session().flush()
        row = FormVersion(form_id=form.id, version=1, schema=schema, ui_schema={}, layouts={})
        session().add(row)
        session().flush()
        form_id, row_id = form.id, row.id
    validator = fs.validators.get(row_id, schema)

    start = time.perf_counter()
    for p in payloads:
        assert validator.is_valid(fs.clean(schema, p))
    alone = SUBMISSIONS / (time.perf_counter() - start)

    with tenant_scope(tenant) as ctx, kernel.db():
        ctx.user = user
        form = session().get(Form, form_id)
        row = session().get(FormVersion, row_id)
        assert form is not None and row is not None
        start = time.perf_counter()
        for p in payloads:
            service.store(form, row, p, False, user)
        stored = SUBMISSIONS / (time.perf_counter() - start)
    report(
        "forms submit (validate + insert, 30 fields)",
        stored,
        alone,
        "submissions/s",
        "at least 0.5x",
        baseline_name="jsonschema validation alone",
        higher_is_better=True,
    )

    # a big form to filter: one indexed field with 1,000 distinct values, inserted in bulk
    with tenant_scope(tenant) as ctx, kernel.db():
        ctx.user = user
        big = Form(code="bench-big", name={"en-us": "Big"}, latest_version=1, published_version=1)
        session().add(big)
        session().flush()
        session().add(FormVersion(form_id=big.id, version=1, schema=schema, ui_schema={}, layouts={}))
        big_id = big.id
        first = (
            session().execute(select(Submission.id).order_by(Submission.id.desc()).limit(1)).scalar() or 0
        ) + 1
    chunk = 20_000
    for base in range(0, ROWS, chunk):
        with tenant_scope(tenant), kernel.db():
            n = min(chunk, ROWS - base)
            ids = range(first + base, first + base + n)
            session().execute(
                insert(Submission),
                [
                    {
                        "id": i,
                        "tenant_id": tenant,
                        "form_id": big_id,
                        "version": 1,
                        "status": "submitted",
                        "data": {"city": f"city{i % 1000}"},
                        "created_by": 1,
                        "created_by_name": "Bench",
                        "created_at": utcnow(),
                        "updated_at": utcnow(),
                    }
                    for i in ids
                ],
            )
            session().execute(
                insert(SubmissionValue),
                [
                    {
                        "submission_id": i,
                        "tenant_id": tenant,
                        "form_id": big_id,
                        "field": "city",
                        "value": f"city{i % 1000}",
                    }
                    for i in ids
                ],
            )
    with kernel.db():
        session().execute(text("ANALYZE"))

    def p99(samples: list[float]) -> float:
        return statistics.quantiles(samples, n=100)[98] * 1000

    listed: list[float] = []
    bare: list[float] = []
    with tenant_scope(tenant) as ctx, kernel.db():
        ctx.user = user
        for q in range(200):
            city = f"city{(q * 37) % 1000}"
            t0 = time.perf_counter()
            page = service.list_submissions(big_id, service.ListQuery(filters={"city": city}), 1, 20)
            listed.append(time.perf_counter() - t0)
            assert page["total"] == ROWS // 1000 or abs(page["total"] - ROWS // 1000) <= 1
            t0 = time.perf_counter()
            session().execute(
                select(SubmissionValue.submission_id).where(
                    SubmissionValue.tenant_id == tenant,
                    SubmissionValue.form_id == big_id,
                    SubmissionValue.field == "city",
                    SubmissionValue.value == city,
                )
            ).all()
            bare.append(time.perf_counter() - t0)
    report(
        f"forms list filtered on one field over {ROWS:,} submissions, p99",
        p99(listed),
        p99(bare),
        "ms",
        "p99 under 100 ms",
        baseline_name="indexed id lookup alone",
    )


if __name__ == "__main__":
    main()
