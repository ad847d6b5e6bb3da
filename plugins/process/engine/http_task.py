"""HTTP tasks: the request a node's settings describe, and the queued job that makes it and moves the
instance on.

The job reads what it needs in one short transaction, calls the address with no transaction open, then
takes the instance's row again to record the answer: on the success status the answer becomes a variable
(``resultVariable``, ``response`` by default: status and JSON or text body) and the workflow continues; on
another status or no answer the attempt is recorded and the next one falls due after a backoff (the
scheduler's scan hands it over), until the node's attempts are spent and the instance fails.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import httpx
import structlog
from SpiffWorkflow.task import Task
from SpiffWorkflow.util.task import TaskState
from sqlalchemy import select

from atrium.plugins.process import service
from atrium.plugins.process.engine import bpmn, spiff, waiting
from atrium.plugins.process.models import RUNNING, HistoryEntry, ProcessInstance
from atrium.sdk.context import RequestContext, current_context, reset_context, set_context
from atrium.sdk.db import session, utcnow
from atrium.sdk.services import services

log = structlog.get_logger("atrium.process.http")

TIMEOUT_SECONDS = 10.0
MAX_BODY_CHARS = 16_000
FIRST_BACKOFF_SECONDS = 15
MAX_BACKOFF_SECONDS = 3600
QUERY_TYPES = {"query", "params", "url"}
FORM_TYPES = {"form", "x-www-form-urlencoded", "application/x-www-form-urlencoded"}
BODYLESS_METHODS = {"GET", "HEAD", "DELETE", "OPTIONS"}


@dataclass
class Outcome:
    """One attempt's answer: ``ok`` on the success status; ``reason`` (translated) otherwise; ``final``
    when trying again cannot help (the request cannot even be built)."""

    ok: bool
    status: int | None = None
    body: Any = None
    reason: str = ""
    final: bool = False


def backoff(attempt: int) -> timedelta:
    """The wait before the attempt after ``attempt``: 15 s, 1 min, 4 min, ... at most an hour."""
    return timedelta(seconds=min(FIRST_BACKOFF_SECONDS * 4 ** max(attempt - 1, 0), MAX_BACKOFF_SECONDS))


def _fill(value: Any, variables: dict[str, Any]) -> Any:
    """``"${name}"`` in the body's values stands for the variable ``name``."""
    if isinstance(value, str) and value.startswith("${") and value.endswith("}"):
        return variables.get(value[2:-1].strip())
    if isinstance(value, dict):
        return {k: _fill(v, variables) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, variables) for v in value]
    return value


def request_args(settings: dict[str, str], variables: dict[str, Any]) -> dict[str, Any]:
    """httpx arguments for a node's settings; the parameters are its ``body`` (JSON, with ``${name}``
    variables) or, without one, the instance's variables."""
    method = settings.get("method", "GET").strip().upper() or "GET"
    raw_body = settings.get("body") or ""
    params: Any = _fill(json.loads(raw_body), variables) if raw_body else variables
    raw_headers = settings.get("headers") or ""
    headers = {str(k): str(v) for k, v in (json.loads(raw_headers) if raw_headers else {}).items()}
    charset = settings.get("charset", "utf-8").strip() or "utf-8"
    kind = settings.get("paramType", "json").strip().lower()
    out: dict[str, Any] = {"method": method, "url": settings.get("url", "")}
    if kind in QUERY_TYPES or method in BODYLESS_METHODS:
        if not isinstance(params, dict):
            raise ValueError("query parameters must be a JSON object")
        out["params"] = {k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()}
    elif kind in FORM_TYPES:
        if not isinstance(params, dict):
            raise ValueError("form parameters must be a JSON object")
        out["content"] = str(httpx.QueryParams(params)).encode(charset)
        headers.setdefault("Content-Type", f"application/x-www-form-urlencoded; charset={charset}")
    else:
        out["content"] = json.dumps(params, ensure_ascii=False, default=str).encode(charset)
        content_type = settings.get("contentType", "application/json").strip() or "application/json"
        headers.setdefault("Content-Type", f"{content_type}; charset={charset}")
    out["headers"] = headers
    return out


def _body(resp: httpx.Response) -> Any:
    text = resp.text
    if len(text) > MAX_BODY_CHARS:
        return text[:MAX_BODY_CHARS]
    if "json" in resp.headers.get("content-type", ""):
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


def call(settings: dict[str, str], variables: dict[str, Any]) -> Outcome:
    """Make one attempt: never raises; redirects are not followed."""
    t = services().t
    try:
        args = request_args(settings, variables)
    except (ValueError, LookupError, TypeError, AttributeError) as exc:
        return Outcome(False, reason=t("process:http.request_invalid", error=str(exc)[:120]), final=True)
    try:
        with httpx.Client(timeout=TIMEOUT_SECONDS, follow_redirects=False) as client:
            resp = client.request(**args)
    except httpx.TimeoutException:
        return Outcome(False, reason=t("process:http.timeout", seconds=int(TIMEOUT_SECONDS)))
    except (httpx.HTTPError, OSError, ValueError) as exc:
        return Outcome(False, reason=t("process:http.network", error=type(exc).__name__))
    expected = settings.get("successCode", "200")
    body = _body(resp)
    if str(resp.status_code) != expected.strip():
        reason = t("process:http.status", status=resp.status_code, expected=expected)
        return Outcome(False, resp.status_code, body, reason)
    return Outcome(True, resp.status_code, body)


@dataclass
class _Attempt:
    settings: dict[str, str]
    variables: dict[str, Any]


def run(tenant_id: int, instance_id: int, engine_id: str, attempt: int) -> None:
    """The queued job: one attempt of one HTTP task, in its tenant, each transaction its own."""
    token = set_context(RequestContext(tenant_id=tenant_id))
    try:
        with services().db():
            found = _read(instance_id, engine_id, attempt)
        if found is None:
            return
        outcome = call(found.settings, found.variables)
        with services().db():
            _record(instance_id, engine_id, attempt, outcome, utcnow())
    except Exception:  # the attempt falls due again after its lease and the scan hands it over once more
        log.exception("HTTP task job failed", instance=instance_id, attempt=attempt)
    finally:
        reset_context(token)


def _current(
    inst: ProcessInstance | None, engine_id: str, attempt: int
) -> tuple[service.Loaded, Task] | None:
    """The instance loaded with its HTTP task, when this attempt is still the one it waits for."""
    if inst is None or inst.status != RUNNING:
        return None
    lo = service.load(inst)
    task = spiff.task_by_id(lo.workflow, engine_id)
    state = waiting.http_state(task) if task is not None else None
    if task is None or task.state != TaskState.STARTED or state is None or state.get("attempt") != attempt:
        return None
    context = current_context()
    context.locale = str(state.get("locale") or context.locale)
    return lo, task


def _read(instance_id: int, engine_id: str, attempt: int) -> _Attempt | None:
    inst = (
        session()
        .execute(select(ProcessInstance).where(ProcessInstance.id == instance_id))
        .scalar_one_or_none()
    )
    found = _current(inst, engine_id, attempt)
    if found is None:
        return None
    lo, task = found
    node = lo.comp.nodes.get(task.task_spec.bpmn_id or "")
    data = {k: v for k, v in task.data.items() if k != "data_objects"}
    return _Attempt(dict(node.http) if node else {}, json.loads(json.dumps(data, default=str)))


def _record(instance_id: int, engine_id: str, attempt: int, outcome: Outcome, now: datetime) -> None:
    db = session()
    inst = db.execute(
        select(ProcessInstance).where(ProcessInstance.id == instance_id).with_for_update()
    ).scalar_one_or_none()
    found = _current(inst, engine_id, attempt)
    if inst is None or found is None:
        return
    lo, task = found
    node = lo.comp.nodes.get(task.task_spec.bpmn_id or "") or bpmn.Node(task.task_spec.bpmn_id or "", "", "")
    attempts, t = waiting.attempts_of(node), services().t
    if outcome.ok:
        comment = t("process:http.attempt_ok", attempt=attempt, attempts=attempts, status=outcome.status)
        db.add(
            HistoryEntry(instance_id=inst.id, node_id=node.id, name=node.name, action="http", comment=comment)
        )
        result = node.http.get("resultVariable") or "response"
        task.data[result] = {"status": outcome.status, "body": outcome.body}
        task.complete()
        service.step(lo)
        return
    comment = t("process:http.attempt_failed", attempt=attempt, attempts=attempts, reason=outcome.reason)
    db.add(
        HistoryEntry(
            instance_id=inst.id, node_id=node.id, name=node.name, action="http", comment=comment[:500]
        )
    )
    if outcome.final or attempt >= attempts:
        message = t("process:http.failed", name=node.name, attempts=attempt, reason=outcome.reason)
        service.fail(inst, message)
        inst.state = spiff.dump(lo.workflow)
        db.flush()
        return
    state = waiting.http_state(task) or {}
    waiting.schedule_attempt(task, attempt + 1, now + backoff(attempt), str(state.get("locale") or ""))
    service.step(lo)
