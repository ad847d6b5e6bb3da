"""Forms: submissions validated and stored, and a filtered submission list, each beside a baseline.

1. Submission validation and insert (a 30-field form, one submission per flush) in submissions per second,
   beside JSON Schema validation alone (the same compiled validator, the same payloads) in the same run
   (budget: at least 0.5x).
2. Listing submissions filtered on one field over ATRIUM_BENCH_FORM_ROWS submissions (default 1,000,000)
   with the plugin's index: p99 of the list call (budget: under 100 ms), beside the bare indexed lookup of
   the matching ids in SQL.

The two are timed in alternating rounds so a busy machine slows both alike. The rows are made in the
database in bulk (a few minutes for a million) under a tenant of their own, removed at the end.

Run: `.venv/bin/python -m tests.bench.bench_forms` (SQLite in a temporary folder; ATRIUM_BENCH_DATABASE_URL,
or ATRIUM_BENCH_DB=pg with ATRIUM_BENCH_PG, names a PostgreSQL database instead).
"""

from __future__ import annotations

import os
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import DateTime, bindparam, select, text

from atrium.kernel.config import Settings
from atrium.plugins.forms import schema as fs
from atrium.plugins.forms import service
from atrium.plugins.forms.models import Form, FormVersion, SubmissionValue
from atrium.sdk.context import SessionUser, tenant_scope
from atrium.sdk.db import session, utcnow
from atrium.sdk.testing import build_app
from tests.bench.report import report

ROWS = int(os.environ.get("ATRIUM_BENCH_FORM_ROWS", "1000000"))
SUBMISSIONS = int(os.environ.get("ATRIUM_BENCH_FORM_SUBMISSIONS", "6000"))
ROUNDS = 20
QUERIES = 300


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


def big_schema() -> dict[str, Any]:
    """The 30-field form plus the field the list filters on."""
    schema = schema30()
    schema["properties"]["city"] = {"type": "string", "title": "City", "x-kind": "select"}
    return schema


def seed(kernel: Any, tenant: int, form_id: int) -> None:
    """ROWS submissions made in the database itself (generate_series on PostgreSQL, a recursive CTE on
    SQLite) in chunks, ids from the table's own sequence, each with the city it is filtered on (1,000
    distinct values) and two more indexed fields, so the lookup index holds three entries per submission."""
    rest = orjson.dumps(payload(0, schema30())).decode()[1:]
    now = bindparam("now", utcnow(), type_=DateTime())
    postgres = kernel.engine.dialect.name == "postgresql"
    if postgres:
        series = "generate_series(1, :n) AS g(i)"
        data = "CAST('{\"city\": \"city' || (i % 1000) || '\", ' || :rest AS JSON)"
        city = "data->>'city'"
    else:
        series = (
            "(WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < :n) SELECT i FROM r)"
        )
        data = "'{\"city\": \"city' || (i % 1000) || '\", ' || :rest"
        city = "json_extract(data, '$.city')"
    submissions = text(
        "INSERT INTO form_submission (tenant_id, form_id, version, data, status, created_by,"
        f" created_by_name, created_at, updated_at) SELECT :t, :f, 1, {data}, 'submitted', 1, 'Bench',"
        f" :now, :now FROM {series}"
    ).bindparams(now)
    made = "FROM form_submission WHERE tenant_id = :t AND form_id = :f AND id > :after"
    values = text(
        "INSERT INTO form_submission_value (tenant_id, form_id, submission_id, field, value) "
        f"SELECT :t, :f, id, 'city', {city} {made} "
        f"UNION ALL SELECT :t, :f, id, 't0', 'value 0 t0' {made} "
        f"UNION ALL SELECT :t, :f, id, 's2', 'a' {made}"
    )
    last = text("SELECT COALESCE(MAX(id), 0) FROM form_submission WHERE tenant_id = :t AND form_id = :f")
    chunk = 100_000
    for done in range(0, ROWS, chunk):
        with tenant_scope(tenant), kernel.db():
            args = {"t": tenant, "f": form_id}
            after = session().execute(last, args).scalar_one()
            session().execute(submissions, {**args, "n": min(chunk, ROWS - done), "rest": rest})
            session().execute(values, {**args, "after": after})


def p99(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100)[98] * 1000


def database_url() -> str:
    if os.environ.get("ATRIUM_BENCH_DATABASE_URL"):
        return os.environ["ATRIUM_BENCH_DATABASE_URL"]
    return os.environ.get("ATRIUM_BENCH_PG", "") if os.environ.get("ATRIUM_BENCH_DB") == "pg" else ""


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="atrium-bench-forms-"))
    settings = Settings(
        var_dir=tmp / "var",
        demo=False,
        scheduler=False,
        secret_key=secrets.token_hex(24),
        database_url=database_url(),
    )
    kernel = build_app(settings).state.kernel
    #: a tenant of its own, removed afterwards (the database may be a shared one)
    tenant = 9_000_000 + secrets.randbelow(1_000_000)
    user = SessionUser(1, "bench", "Bench", tenant, "iotAutho", False, True)
    print(f"forms bench on {kernel.engine.dialect.name}, {ROWS:,} rows", flush=True)
    try:
        run(kernel, tenant, user)
    finally:
        with tenant_scope(tenant), kernel.db():
            for table in ("form_submission_value", "form_submission", "form_version", "form_def"):
                session().execute(text(f"DELETE FROM {table} WHERE tenant_id = :t"), {"t": tenant})


def run(kernel: Any, tenant: int, user: SessionUser) -> None:
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

    # rounds alternate between the two so a busy machine slows both alike
    alone = stored = 0.0
    with tenant_scope(tenant) as ctx, kernel.db():
        ctx.user = user
        form = session().get(Form, form_id)
        row = session().get(FormVersion, row_id)
        assert form is not None and row is not None
        for p in payloads[:100]:
            validator.is_valid(p)
            service.store(form, row, p, False, user)
        for r in range(ROUNDS):
            part = payloads[r::ROUNDS]
            start = time.perf_counter()
            for p in part:
                if not validator.is_valid(p):
                    raise AssertionError(p)
            alone += time.perf_counter() - start
            start = time.perf_counter()
            for p in part:
                service.store(form, row, p, False, user)
            stored += time.perf_counter() - start
    report(
        "forms submit (validate + insert, 30 fields)",
        SUBMISSIONS / stored,
        SUBMISSIONS / alone,
        "submissions/s",
        "at least 0.5x",
        baseline_name="jsonschema validation alone",
        higher_is_better=True,
    )

    with tenant_scope(tenant) as ctx, kernel.db():
        ctx.user = user
        big = Form(code="bench-big", name={"en-us": "Big"}, latest_version=1, published_version=1)
        session().add(big)
        session().flush()
        session().add(FormVersion(form_id=big.id, version=1, schema=big_schema(), ui_schema={}, layouts={}))
        big_id = big.id
    start = time.perf_counter()
    seed(kernel, tenant, big_id)
    with kernel.db():
        for table in ("form_submission", "form_submission_value"):
            session().execute(text(f"ANALYZE {table}"))
    print(f"seeded {ROWS:,} submissions in {time.perf_counter() - start:.0f} s", flush=True)

    listed: list[float] = []
    bare: list[float] = []
    pages = max(1, min(3, ROWS // 1000 // 20))
    with tenant_scope(tenant) as ctx, kernel.db():
        ctx.user = user
        for q in range(QUERIES):
            city = f"city{(q * 37) % 1000}"
            t0 = time.perf_counter()
            page = service.list_submissions(
                big_id, service.ListQuery(filters={"city": city}), 1 + q % pages, 20
            )
            listed.append(time.perf_counter() - t0)
            if len(page["list"]) != 20 or page["list"][0]["data"]["city"] != city:
                raise AssertionError(page["list"][:1])
            if page["total"] != min(ROWS // 1000, service.COUNT_CAP):
                raise AssertionError(page["total"])
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
