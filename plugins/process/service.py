"""Process models, deployments, instances and tasks: the logic behind the API (no HTTP here).

Every step loads the instance's engine state, runs it, and writes it back in the same transaction with the
task rows, so a restart continues where the last committed step left off.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import orjson
from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.task import Task
from SpiffWorkflow.util.task import TaskState
from sqlalchemy import Select, and_, delete, exists, func, or_, select, tuple_, update

from atrium.plugins.process.engine import bpmn, letters, spiff, startform, store, waiting
from atrium.plugins.process.engine.store import TaskRow
from atrium.plugins.process.models import (
    CANCELLED,
    CLOSED,
    COMPLETED,
    DONE,
    FAILED,
    OPEN,
    REJECTED,
    ROLE,
    RUNNING,
    SUPERVISOR,
    USER,
    WITHDRAWN,
    HistoryEntry,
    ProcessInstance,
    ProcessModel,
    ProcessTask,
    ProcessVersion,
    TaskCandidate,
)
from atrium.sdk import AtriumError, BadRequest, Conflict, Forbidden, NotFound, SessionUser
from atrium.sdk.context import current_tenant, current_user
from atrium.sdk.db import after_commit, session, utcnow
from atrium.sdk.services import services

UPCOMING = store.UPCOMING
MAX_VARIABLES_BYTES = 64_000
PAGE_MAX = 200


def _iso(value: datetime | None) -> str | None:
    return value.isoformat(timespec="seconds") if value is not None else None


# -- models and versions ---------------------------------------------------------------------------------


def model_out(m: ProcessModel, deployed: spiff.Compiled | None = None) -> dict[str, Any]:
    """A model; given its deployed version, its name reads in the reader's language (the designer's
    answers leave it out: they show the name as saved)."""
    return {
        "modelId": str(m.id),
        "key": m.key,
        "name": _process_name(deployed, m.name),
        "category": m.category,
        "latestVersion": m.latest_version,
        "deployedVersion": m.deployed_version,
        "updatedAt": _iso(m.updated_at),
    }


def get_model(ref: str | int) -> ProcessModel:
    """A model of the current tenant by id or key; another tenant's answers as not found."""
    text = str(ref).strip()[:64]
    q = select(ProcessModel)
    q = q.where(ProcessModel.id == int(text)) if text.isdigit() else q.where(ProcessModel.key == text)
    found = session().execute(q).scalar_one_or_none()
    if found is None:
        raise NotFound("process:model.not_found", model=text)
    return found


def get_version(m: ProcessModel, version: int | None) -> ProcessVersion:
    number = version or m.latest_version
    row = (
        session()
        .execute(
            select(ProcessVersion).where(ProcessVersion.model_id == m.id, ProcessVersion.version == number)
        )
        .scalar_one_or_none()
    )
    if row is None:
        raise NotFound("process:version.not_found", version=number)
    return row


def _check(key: str, xml: str) -> None:
    """Every designer rule plus what the engine itself refuses (a fresh parse, never the cache)."""
    spiff.Compiled(xml, key)


def save_model(key: str, name: str, category: str, xml: str, model_id: int | None = None) -> dict[str, Any]:
    """Save a new version of a model (a new model without ``model_id``) once every rule passes."""
    key = key.strip()
    _check(key, xml)
    db = session()
    clash = db.execute(select(ProcessModel.id).where(ProcessModel.key == key)).scalar_one_or_none()
    if model_id is None:
        if clash is not None:
            raise Conflict("process:model.key_exists", key=key)
        m = ProcessModel(key=key, name=name, category=category, created_by=current_user().user_id)
        db.add(m)
        db.flush()
    else:
        m = get_model(model_id)
        if clash is not None and clash != m.id:
            raise Conflict("process:model.key_exists", key=key)
    m.key, m.name, m.category = key, name, category
    m.latest_version += 1
    db.add(
        ProcessVersion(model_id=m.id, version=m.latest_version, xml=xml, created_by=current_user().user_id)
    )
    db.flush()
    return {**model_out(m), "version": m.latest_version}


def list_models(keyword: str, category: str, page: int, size: int) -> dict[str, Any]:
    q: Select[Any] = select(ProcessModel)
    if keyword:
        like = f"%{keyword}%"
        q = q.where(or_(ProcessModel.key.like(like), ProcessModel.name.like(like)))
    if category:
        q = q.where(ProcessModel.category == category)
    db = session()
    total = db.execute(select(func.count()).select_from(q.subquery())).scalar_one()
    rows = list(
        db.execute(q.order_by(ProcessModel.id.desc()).offset((page - 1) * size).limit(size)).scalars()
    )
    deployed = _deployed(rows)
    return {
        "list": [
            {**model_out(m, deployed.get(m.id)), "startFields": _start_fields(deployed.get(m.id))}
            for m in rows
        ],
        "total": total,
    }


def _deployed(models: list[ProcessModel]) -> dict[int, spiff.Compiled]:
    """Each model's deployed version by model id, read in one statement; the parsed versions are cached, as
    for starting. A version saved under rules since tightened is left out (it starts with no form, its
    model shows the name it was saved with)."""
    deployed = {(m.id, m.deployed_version): m for m in models if m.deployed_version is not None}
    if not deployed:
        return {}
    rows = session().execute(
        select(ProcessVersion.id, ProcessVersion.model_id, ProcessVersion.version, ProcessVersion.xml).where(
            tuple_(ProcessVersion.model_id, ProcessVersion.version).in_(list(deployed))
        )
    )
    out: dict[int, spiff.Compiled] = {}
    for vid, model_id, version, xml in rows:
        try:
            out[model_id] = spiff.compiled(vid, xml, deployed[(model_id, version)].key)
        except AtriumError:
            continue
    return out


def _start_fields(comp: spiff.Compiled | None) -> list[dict[str, Any]]:
    """The start form of a deployed version (its start event's fields)."""
    start_node = _start_node(comp) if comp is not None else None
    return [f.out() for f in start_node.fields] if start_node is not None else []


def _versions(version_ids: Iterable[int]) -> dict[int, spiff.Compiled]:
    """The parsed versions of these ids (the instances a list shows): cached ones as they are, the others
    read in one statement. One that no longer parses is left out: its rows show the names they stored."""
    wanted = set(version_ids)
    out = {vid: comp for vid in wanted if (comp := spiff.cached(vid)) is not None}
    missing = wanted - set(out)
    if not missing:
        return out
    rows = session().execute(
        select(ProcessVersion.id, ProcessVersion.xml, ProcessModel.key)
        .join(ProcessModel, ProcessModel.id == ProcessVersion.model_id)
        .where(ProcessVersion.id.in_(missing))
    )
    for vid, xml, key in rows:
        try:
            out[vid] = spiff.compiled(vid, xml, key)
        except AtriumError:
            continue
    return out


def _node_name(comp: spiff.Compiled | None, node_id: str, stored: str) -> str:
    """A task's or step's name for the reader: its element's label in her language, else the name stored
    with the row (so a row written in another language, or before the label, reads the same)."""
    return comp.name_of(node_id, stored) if comp is not None else stored


def _process_name(comp: spiff.Compiled | None, stored: str) -> str:
    """A model's or instance's name for the reader: the process's label in her language, else the name
    stored."""
    return comp.process_name(stored) if comp is not None else stored


def _start_node(comp: spiff.Compiled) -> bpmn.Node | None:
    return next((n for n in comp.nodes.values() if n.kind == "startEvent"), None)


def model_detail(ref: str, version: int | None) -> dict[str, Any]:
    m = get_model(ref)
    if m.latest_version == 0:
        raise NotFound("process:version.not_found", version=version or 0)
    row = get_version(m, version)
    versions = session().execute(
        select(ProcessVersion.version, ProcessVersion.created_at, ProcessVersion.deployed_at)
        .where(ProcessVersion.model_id == m.id)
        .order_by(ProcessVersion.version.desc())
    )
    return {
        **model_out(m),
        "version": row.version,
        "xml": row.xml,
        "versions": [{"version": v, "createdAt": _iso(c), "deployedAt": _iso(d)} for v, c, d in versions],
    }


def deploy(ref: str, version: int | None) -> dict[str, Any]:
    """Make a version the one new instances start from; its diagram is checked again first."""
    m = get_model(ref)
    row = get_version(m, version)
    _check(m.key, row.xml)
    row.deployed_at = utcnow()
    m.deployed_version = row.version
    session().flush()
    return model_out(m)


def delete_model(ref: str) -> None:
    m = get_model(ref)
    db = session()
    if db.execute(
        select(exists().where(ProcessInstance.model_id == m.id, ProcessInstance.status == RUNNING))
    ).scalar():
        raise Conflict("process:model.in_use", key=m.key)
    db.execute(delete(ProcessVersion).where(ProcessVersion.model_id == m.id))
    db.delete(m)
    db.flush()


def start_forms() -> list[dict[str, Any]]:
    """The published forms the designer offers as start and task forms (the forms plugin answers)."""
    answers = services().call_hook("atrium_process_forms", tenant_id=current_tenant())
    out: list[dict[str, Any]] = []
    for found in answers.values():
        out.extend(found or [])
    return out


# -- running ---------------------------------------------------------------------------------------------


@dataclass
class Loaded:
    """An instance with its engine state, and what the running step has still to write."""

    instance: ProcessInstance
    comp: spiff.Compiled
    workflow: BpmnWorkflow
    writes: store.Writes = field(default_factory=store.Writes)


def _compiled(version_id: int) -> spiff.Compiled:
    found = spiff.cached(version_id)
    if found is not None:
        return found
    row = (
        session().execute(select(ProcessVersion).where(ProcessVersion.id == version_id)).scalar_one_or_none()
    )
    if row is None:
        raise NotFound("process:version.not_found", version=version_id)
    key = session().execute(select(ProcessModel.key).where(ProcessModel.id == row.model_id)).scalar_one()
    return spiff.compiled(row.id, row.xml, key)


def _check_variables(values: dict[str, Any]) -> dict[str, Any]:
    for name in values:
        if not bpmn.PARAM_NAME.match(name):
            raise BadRequest("process:rule.param_name", name=str(name)[:64])
    if len(orjson.dumps(values)) > MAX_VARIABLES_BYTES:
        raise BadRequest("process:variables.too_large", limit=MAX_VARIABLES_BYTES // 1000)
    return values


def _submit_form(form_key: str, data: dict[str, Any], where: dict[str, Any]) -> dict[str, Any]:
    """Validate and store a start or task form through the forms hook; its cleaned data become variables."""
    user = current_user()
    answers = services().call_hook(
        "atrium_process_form_submit",
        tenant_id=current_tenant(),
        form_code=form_key,
        data=data,
        user_id=user.user_id,
        process=where,
    )
    answer = next((a for a in answers.values() if a is not None), None)
    if answer is None:
        raise BadRequest("process:form.unavailable", form=form_key)
    if answer.get("errors"):
        errors = answer["errors"]
        detail = "; ".join(str(e.get("message", "")) for e in errors[:5])
        raise BadRequest("process:form.invalid", data={"errors": errors}, detail=detail)
    cleaned: dict[str, Any] = dict(answer.get("data") or {})
    return cleaned


def start(ref: str, variables: dict[str, Any], form: dict[str, Any] | None) -> dict[str, Any]:
    """Start an instance of the model's deployed version, with plain variables or its start form's data."""
    m = _deployed_model(ref)
    if m.version_id is None:
        raise Conflict("process:model.not_deployed", key=m.key)
    comp = _compiled(m.version_id)
    values = _check_variables(dict(variables))
    start_node = _start_node(comp)
    if start_node is not None and start_node.fields:
        values = startform.check_values(start_node.fields, values)
    user = current_user()
    inst = store.insert_instance(current_tenant(), m, m.version_id, user.user_id, utcnow())
    if start_node is not None and start_node.form_key:
        values.update(
            _check_variables(
                _submit_form(start_node.form_key, form or {}, {"processId": str(inst.id), "kind": "start"})
            )
        )
    values["initiator"] = user.user_id
    lo = Loaded(inst, comp, spiff.new(comp, values))
    lo.writes.note("start", name=m.name, user_id=user.user_id)
    step(lo, [], initiator=user.user_id)
    return instance_out(inst, comp)


def _deployed_model(ref: str) -> store.Deployed:
    """A model of the current tenant by id or key, as `get_model` finds it, with its deployed version."""
    text = str(ref).strip()[:64]
    found = store.deployed(current_tenant(), int(text) if text.isdigit() else None, text)
    if found is None:
        raise NotFound("process:model.not_found", model=text)
    return found


def load(inst: ProcessInstance) -> Loaded:
    """The instance with its workflow, to run a step on."""
    comp = _compiled(inst.version_id)
    return Loaded(inst, comp, spiff.load(comp, inst.state, inst.id))


def _candidates(node: bpmn.Node, starter: int | None) -> list[tuple[str, int]]:
    out = [(USER, u) for u in node.users] + [(ROLE, r) for r in node.roles]
    if node.starter and starter is not None:
        out.append((USER, starter))
    if node.supervisor:
        out.append((SUPERVISOR, 0))
    return out


def _next_user_tasks(ready: Iterable[Task]) -> list[Task]:
    """The user tasks right after the ready ones on each predicted path (who is up next). A gateway on the
    way is judged with the variables of the step it follows: a branch whose condition is false under them
    is not taken; one it cannot tell (a variable not yet set, a script on the way) still counts."""
    found: dict[Any, Task] = {}
    stack: list[tuple[Task, dict[str, Any] | None]] = [(c, t.data) for t in ready for c in t.children]
    while stack:
        t, data = stack.pop()
        if t.state not in (TaskState.FUTURE, TaskState.LIKELY, TaskState.MAYBE):
            continue
        if getattr(t.task_spec, "manual", False):
            found[t.id] = t
            continue
        stack.extend(spiff.predicted_children(t, data))
    return list(found.values())


def _complete_on_start(lo: Loaded, initiator: int, now: datetime) -> list[TaskRow]:
    """The starter's own first steps the model marks ``atrium:completeOnStart``: done as the instance starts,
    with the start's values as their data, and recorded as done by the starter (a later step may still send
    the instance back to them). A step with a task form of its own waits for it as usual."""
    done: list[TaskRow] = []
    for t in spiff.ready_user_tasks(lo.workflow):
        node = lo.comp.nodes.get(t.task_spec.bpmn_id or "")
        if node is None or not node.complete_on_start or node.form_key:
            continue
        if (USER, initiator) not in _candidates(node, initiator):
            continue
        t.run()
        done.append(
            TaskRow(
                id=0,
                instance_id=lo.instance.id,
                engine_id=str(t.id),
                node_id=node.id,
                name=node.name,
                form_key=node.form_key,
                status=DONE,
                candidates=_candidate_settings(node),
                created_at=now,
                done_by=initiator,
                done_at=now,
            )
        )
        lo.writes.note("complete", node_id=node.id, name=node.name, user_id=initiator)
    if done:
        spiff.advance(lo.workflow)
    return done


def _candidate_settings(node: bpmn.Node) -> dict[str, Any]:
    return {"users": node.users, "roles": node.roles, "supervisor": node.supervisor, "starter": node.starter}


def step(lo: Loaded, live: list[TaskRow] | None = None, initiator: int | None = None) -> None:
    """Run the engine until it waits (for people, an HTTP task's answer or a timer), then sync the task rows,
    hand new HTTP tasks to the queue, store the state and queue the letters about the tasks it opened (sent
    once the step commits). ``live`` are the instance's open and upcoming rows
    when the caller has read them already (without any it has just closed); ``initiator`` is the starter
    when the instance has just started (their steps marked to be done on start are done first)."""
    inst, db, writes = lo.instance, session(), lo.writes
    if db.new:  # entries the caller added through the session come first in the history
        db.flush()
    tid, now = inst.tenant_id, utcnow()
    done: list[TaskRow] = []
    try:
        spiff.advance(lo.workflow)
        if initiator is not None:
            done = _complete_on_start(lo, initiator, now)
    except Exception as exc:
        store.write(tid, inst.id, writes, now)
        fail(inst, services().t("process:instance.engine_error", error=str(exc)[:400]))
        inst.state = spiff.dump(lo.workflow)
        return
    ready = spiff.ready_user_tasks(lo.workflow)
    http, timers = spiff.waits(lo.workflow)
    upcoming = _next_user_tasks([*ready, *http, *timers])
    existing = {r.engine_id: r for r in (store.live_tasks(tid, inst.id) if live is None else live)}
    wanted: dict[str, tuple[Task, str]] = {str(t.id): (t, OPEN) for t in ready}
    for t in upcoming:
        wanted.setdefault(str(t.id), (t, UPCOMING))
    _drop_stale([r for eid, r in existing.items() if eid not in wanted], writes, now)
    opened: list[TaskRow] = []
    created: list[tuple[TaskRow, list[tuple[str, int]]]] = []
    for eid, (t, status) in wanted.items():
        row = existing.get(eid)
        if row is not None:
            if row.status != status:
                row.status = status
                row.created_at = now
                writes.changed.append(row)
                if status == OPEN:
                    opened.append(row)
            continue
        node = lo.comp.nodes.get(t.task_spec.bpmn_id or "")
        if node is None:
            continue
        row = TaskRow(
            id=0,
            instance_id=inst.id,
            engine_id=eid,
            node_id=node.id,
            name=node.name,
            form_key=node.form_key,
            status=status,
            candidates=_candidate_settings(node),
            created_at=now,
        )
        created.append((row, _candidates(node, inst.started_by)))
    if lo.workflow.is_completed():
        inst.status = COMPLETED
        inst.ended_at = now
        inst.wake_at = None
        writes.note("end", name=inst.model_name)
    else:
        waiting.sync(inst, http, timers)
    store.write(tid, inst.id, writes, now)
    if done or created:
        store.insert_tasks(tid, [*done, *(row for row, _ in created)])
    if created:
        store.insert_candidates(tid, [(row.id, k, ref) for row, cands in created for k, ref in cands])
    inst.state = spiff.dump(lo.workflow)
    inst.updated_at = now
    store.save_instance(inst)
    if inst.status == RUNNING:
        after_commit(partial(spiff.keep, inst.id, inst.state, lo.workflow))
    opened.extend(row for row, _ in created if row.status == OPEN)
    letters.send_after_commit(tid, letters.compose(opened, inst, lo.comp))


def _drop_stale(rows: list[TaskRow], writes: store.Writes, now: datetime) -> None:
    """Rows the engine no longer waits for: an upcoming guess is forgotten; an open task taken away by the
    engine (a boundary timer fired, a branch ended) is closed and keeps its place in the history."""
    for row in rows:
        writes.unlisted.append(row.id)
        if row.status == UPCOMING:
            writes.forgotten.append(row.id)
        elif row.status == OPEN:
            row.status = CLOSED
            row.done_at = now
            writes.changed.append(row)


def fail(inst: ProcessInstance, message: str) -> None:
    """End the instance as failed with a message its detail shows, and a history entry."""
    inst.status = FAILED
    inst.error = message[:500]
    inst.ended_at = utcnow()
    inst.wake_at = None
    session().add(HistoryEntry(instance_id=inst.id, action="fail", comment=message[:500]))
    _close_open(inst.id)


def _close_open(instance_id: int) -> None:
    db = session()
    ids = list(
        db.execute(
            select(ProcessTask.id).where(
                ProcessTask.instance_id == instance_id, ProcessTask.status.in_((OPEN, UPCOMING))
            )
        ).scalars()
    )
    if ids:
        db.execute(
            delete(TaskCandidate)
            .where(TaskCandidate.task_id.in_(ids))
            .execution_options(synchronize_session=False)
        )
        db.execute(
            update(ProcessTask)
            .where(ProcessTask.id.in_(ids))
            .values(status=CLOSED, done_at=utcnow())
            .execution_options(synchronize_session=False)
        )


# -- tasks -----------------------------------------------------------------------------------------------


def _may_do(row: ProcessTask | TaskRow, user: SessionUser, started_by: int | None) -> bool:
    """Whether ``user`` may do an open task: its claimer, or else one of its candidates. Read from the row's
    candidate settings, which its candidate rows (the index my pending reads) are made from."""
    if row.claimed_by is not None:
        return row.claimed_by == user.user_id
    cands = row.candidates or {}
    return bool(
        user.user_id in (cands.get("users") or [])
        or (cands.get("starter") and started_by is not None and started_by == user.user_id)
        or user.roles.intersection(cands.get("roles") or [])
        or (cands.get("supervisor") and user.is_admin)
    )


@dataclass
class _Opened:
    """An open task the user may do, its instance locked for the transaction, and the instance's other
    open and upcoming rows (read once: the step that follows works from them)."""

    row: TaskRow
    instance: ProcessInstance
    others: list[TaskRow]


def _open_task(task_id: int) -> _Opened:
    """The task with its instance locked. The task rows are read after the lock, in their own statement:
    a step that finished while this one waited for the lock shows its task as done, not open."""
    inst = store.lock_instance_of_task(current_tenant(), task_id)
    if inst is None:
        raise NotFound("process:task.not_found", id=task_id)
    live = store.live_tasks(inst.tenant_id, inst.id)
    row = next((r for r in live if r.id == task_id), None)
    if row is not None and row.status == UPCOMING:
        raise NotFound("process:task.not_found", id=task_id)
    if row is None or inst.status != RUNNING:
        raise Conflict("process:task.closed", id=task_id)
    if not _may_do(row, current_user(), inst.started_by):
        raise Forbidden("process:task.not_yours", id=task_id)
    return _Opened(row, inst, [r for r in live if r.id != task_id])


def claim(task_id: int) -> dict[str, Any]:
    found = _open_task(task_id)
    row = found.row
    if row.claimed_by is None:
        row.claimed_by = current_user().user_id
        store.update_tasks(found.instance.tenant_id, [row])
    return task_out(row, comp=_compiled(found.instance.version_id))


def complete(
    task_id: int, variables: dict[str, Any], form: dict[str, Any] | None, comment: str
) -> dict[str, Any]:
    """Complete an open task the user may do: its form (if any) is stored, its variables merged, the instance
    runs on until it waits again."""
    found = _open_task(task_id)
    row, inst = found.row, found.instance
    values = _check_variables(dict(variables))
    if row.form_key:
        values.update(
            _check_variables(
                _submit_form(row.form_key, form or {}, {"processId": str(inst.id), "taskId": str(row.id)})
            )
        )
    lo = load(inst)
    task = spiff.task_by_id(lo.workflow, row.engine_id)
    if task is None or task.state != TaskState.READY:
        raise Conflict("process:task.closed", id=task_id)
    task.data.update(values)
    task.run()
    user = current_user()
    _done(lo.writes, row, DONE, user.user_id, comment)
    lo.writes.note("complete", node_id=row.node_id, name=row.name, user_id=user.user_id, comment=comment)
    step(lo, found.others)
    return instance_out(inst, lo.comp)


def _done(writes: store.Writes, row: TaskRow, status: str, user_id: int, comment: str) -> None:
    row.status = status
    row.done_by = user_id
    row.done_at = utcnow()
    row.comment = comment
    writes.changed.append(row)
    writes.unlisted.append(row.id)


def reject(task_id: int, comment: str) -> dict[str, Any]:
    """Send the instance back to the user task done before this one; that task opens again."""
    found = _open_task(task_id)
    row, inst = found.row, found.instance
    db = session()
    previous = db.execute(
        select(ProcessTask)
        .where(ProcessTask.instance_id == inst.id, ProcessTask.status == DONE, ProcessTask.id < row.id)
        .order_by(ProcessTask.id.desc())
        .limit(1)
    ).scalar_one_or_none()
    if previous is None:
        raise Conflict("process:task.no_previous", id=task_id)
    lo = load(inst)
    target = spiff.task_by_id(lo.workflow, previous.engine_id)
    if target is None:
        raise Conflict("process:task.no_previous", id=task_id)
    lo.workflow.reset_from_task_id(target.id)
    user = current_user()
    _done(lo.writes, row, REJECTED, user.user_id, comment)
    db.execute(
        update(ProcessTask)
        .where(ProcessTask.instance_id == inst.id, ProcessTask.engine_id == previous.engine_id)
        .values(engine_id=f"~{previous.id}")
        .execution_options(synchronize_session=False)
    )
    lo.writes.note("reject", node_id=row.node_id, name=row.name, user_id=user.user_id, comment=comment)
    step(lo, found.others)
    return instance_out(inst, lo.comp)


def _instance_for_change(instance_id: int) -> ProcessInstance:
    inst = (
        session()
        .execute(select(ProcessInstance).where(ProcessInstance.id == instance_id).with_for_update())
        .scalar_one_or_none()
    )
    if inst is None:
        raise NotFound("process:instance.not_found", id=instance_id)
    if inst.status != RUNNING:
        raise Conflict("process:instance.not_running", id=instance_id)
    return inst


def _end(inst: ProcessInstance, status: str, action: str, comment: str) -> dict[str, Any]:
    lo = load(inst)
    lo.workflow.cancel()
    inst.status = status
    inst.ended_at = utcnow()
    inst.wake_at = None
    inst.state = spiff.dump(lo.workflow)
    _close_open(inst.id)
    session().add(
        HistoryEntry(instance_id=inst.id, action=action, user_id=current_user().user_id, comment=comment)
    )
    session().flush()
    return instance_out(inst, lo.comp)


def withdraw(instance_id: int, comment: str) -> dict[str, Any]:
    """The starter takes a running instance back."""
    inst = _instance_for_change(instance_id)
    if inst.started_by != current_user().user_id:
        raise Forbidden("process:instance.not_starter", id=instance_id)
    return _end(inst, WITHDRAWN, "withdraw", comment)


def cancel(instance_id: int, comment: str) -> dict[str, Any]:
    """An administrator stops a running instance."""
    inst = _instance_for_change(instance_id)
    if not current_user().is_admin:
        raise Forbidden("process:instance.cancel_denied", id=instance_id)
    return _end(inst, CANCELLED, "cancel", comment)


# -- lists and counts ------------------------------------------------------------------------------------


def instance_out(inst: ProcessInstance, comp: spiff.Compiled | None = None) -> dict[str, Any]:
    """An instance; given its version, its model's name reads in the reader's language."""
    return {
        "processId": str(inst.id),
        "modelKey": inst.model_key,
        "modelName": _process_name(comp, inst.model_name),
        "status": inst.status,
        "startedBy": inst.started_by,
        "error": inst.error,
        "createdAt": _iso(inst.created_at),
        "endedAt": _iso(inst.ended_at),
    }


def task_out(
    row: ProcessTask | TaskRow, inst: ProcessInstance | None = None, comp: spiff.Compiled | None = None
) -> dict[str, Any]:
    """A task (with its instance's model when ``inst`` is given); given the instance's version, its names
    read in the reader's language."""
    out = {
        "taskId": str(row.id),
        "processId": str(row.instance_id),
        "nodeId": row.node_id,
        "name": _node_name(comp, row.node_id, row.name),
        "formKey": row.form_key,
        "status": row.status,
        "claimedBy": row.claimed_by,
        "createdAt": _iso(row.created_at),
    }
    if inst is not None:
        out.update(
            modelKey=inst.model_key,
            modelName=_process_name(comp, inst.model_name),
            startedBy=inst.started_by,
        )
    return out


def _mine(status: str) -> Any:
    user = current_user()
    keys = [(USER, user.user_id)] + [(ROLE, r) for r in sorted(user.roles)]
    if user.is_admin:
        keys.append((SUPERVISOR, 0))
    cand = (
        select(TaskCandidate.task_id)
        .where(tuple_(TaskCandidate.kind, TaskCandidate.ref).in_(keys))
        .scalar_subquery()
    )
    return and_(
        ProcessTask.status == status,
        or_(
            ProcessTask.claimed_by == user.user_id,
            and_(ProcessTask.claimed_by.is_(None), ProcessTask.id.in_(cand)),
        ),
    )


def my_tasks(status: str, page: int, size: int) -> dict[str, Any]:
    """My pending (open tasks I may do) or my upcoming (the next tasks that will reach me), newest first.

    The page's task ids are found among my tasks alone; only those rows are then joined to their
    instances (joining first makes the database join every task of mine before it keeps a page)."""
    db = session()
    cond = _mine(status)
    total = db.execute(select(func.count()).select_from(ProcessTask).where(cond)).scalar_one()
    ids = (
        db.execute(
            select(ProcessTask.id)
            .where(cond)
            .order_by(ProcessTask.id.desc())
            .offset((page - 1) * size)
            .limit(size)
        )
        .scalars()
        .all()
    )
    rows = (
        db.execute(
            select(ProcessTask, ProcessInstance)
            .join(ProcessInstance, ProcessInstance.id == ProcessTask.instance_id)
            .where(ProcessTask.id.in_(ids))
            .order_by(ProcessTask.id.desc())
        ).all()
        if ids
        else []
    )
    comps = _versions(i.version_id for _, i in rows)
    return {"list": [task_out(t, i, comps.get(i.version_id)) for t, i in rows], "total": total}


def my_processes(status: str, page: int, size: int) -> dict[str, Any]:
    """The instances I started."""
    q: Select[Any] = select(ProcessInstance).where(ProcessInstance.started_by == current_user().user_id)
    if status:
        q = q.where(ProcessInstance.status == status)
    db = session()
    total = db.execute(select(func.count()).select_from(q.subquery())).scalar_one()
    rows = list(
        db.execute(q.order_by(ProcessInstance.id.desc()).offset((page - 1) * size).limit(size)).scalars()
    )
    comps = _versions(i.version_id for i in rows)
    return {"list": [instance_out(i, comps.get(i.version_id)) for i in rows], "total": total}


def instance_detail(instance_id: int) -> dict[str, Any]:
    """An instance with its history, its tasks, its variables and the diagram to draw them on.
    Seen by its starter, anyone who had a task in it, and administrators."""
    db = session()
    inst = db.execute(select(ProcessInstance).where(ProcessInstance.id == instance_id)).scalar_one_or_none()
    if inst is None:
        raise NotFound("process:instance.not_found", id=instance_id)
    user = current_user()
    tasks = list(
        db.execute(
            select(ProcessTask)
            .where(ProcessTask.instance_id == inst.id, ProcessTask.status != UPCOMING)
            .order_by(ProcessTask.id)
        ).scalars()
    )
    involved = (
        user.is_admin
        or inst.started_by == user.user_id
        or any(
            t.done_by == user.user_id or (t.status == OPEN and _may_do(t, user, inst.started_by))
            for t in tasks
        )
    )
    if not involved:
        raise Forbidden("process:instance.not_involved", id=instance_id)
    history = list(
        db.execute(
            select(HistoryEntry).where(HistoryEntry.instance_id == inst.id).order_by(HistoryEntry.id)
        ).scalars()
    )
    names = _people([inst.started_by, *(h.user_id for h in history), *(t.done_by for t in tasks)])
    xml = db.execute(select(ProcessVersion.xml).where(ProcessVersion.id == inst.version_id)).scalar_one()
    comp = _compiled(inst.version_id)
    workflow = spiff.load(comp, inst.state)
    waits = waiting.describe(workflow, comp) if inst.status == RUNNING else []
    return {
        **instance_out(inst, comp),
        "xml": bpmn.localized(xml, comp.labels),
        "variables": spiff.variables(workflow),
        "startedByName": names.get(inst.started_by) if inst.started_by is not None else None,
        "tasks": [
            {
                **task_out(t, comp=comp),
                "doneBy": t.done_by,
                "doneByName": names.get(t.done_by) if t.done_by is not None else None,
                "doneAt": _iso(t.done_at),
                "comment": t.comment,
            }
            for t in tasks
        ],
        "history": [
            {
                "nodeId": h.node_id,
                "name": _step_name(comp, h),
                "action": h.action,
                "userId": h.user_id,
                "userName": names.get(h.user_id) if h.user_id is not None else None,
                "comment": h.comment,
                "at": _iso(h.created_at),
            }
            for h in history
        ],
        "waiting": waits,
        "doneNodes": sorted({t.node_id for t in tasks if t.status in (DONE, REJECTED)}),
        "activeNodes": sorted({t.node_id for t in tasks if t.status == OPEN} | {w["nodeId"] for w in waits}),
    }


def _step_name(comp: spiff.Compiled, h: HistoryEntry) -> str:
    """A history step's name for the reader: its element's, or for a step of no element that names
    something (the start and the end) the process's."""
    if h.node_id:
        return comp.name_of(h.node_id, h.name)
    return comp.process_name(h.name) if h.name else ""


def _people(user_ids: Iterable[int | None]) -> dict[int, str]:
    """The names of the people who acted in an instance (their full name, else their account), in one
    look-up through the directory; someone since removed keeps their id alone."""
    ids = {u for u in user_ids if u is not None}
    if not ids:
        return {}
    found = services().directory.users(ids)
    return {uid: p.full_name or p.account for uid, p in found.items()}


def counts(started_by: int | None = None) -> dict[str, Any]:
    """Running, failed and normally ended instances, and submissions (instances started) per day of the
    last seven days (the home cards): the tenant's (``"scope": "tenant"``), or with `started_by` only the
    instances that member started (``"scope": "mine"``)."""
    db = session()
    own = [ProcessInstance.started_by == started_by] if started_by is not None else []
    by_status = dict(
        db.execute(
            select(ProcessInstance.status, func.count()).where(*own).group_by(ProcessInstance.status)
        ).all()
    )
    today = utcnow().date()
    since = datetime.combine(today - timedelta(days=6), datetime.min.time())
    day = func.date(ProcessInstance.created_at)
    per_day = {
        str(d): n
        for d, n in db.execute(
            select(day, func.count()).where(ProcessInstance.created_at >= since, *own).group_by(day)
        ).all()
    }
    week = [
        {
            "date": (today - timedelta(days=i)).isoformat(),
            "count": per_day.get((today - timedelta(days=i)).isoformat(), 0),
        }
        for i in range(6, -1, -1)
    ]
    return {
        "scope": "tenant" if started_by is None else "mine",
        "running": by_status.get(RUNNING, 0),
        "failed": by_status.get(FAILED, 0),
        "normal": by_status.get(COMPLETED, 0),
        "cancelled": by_status.get(CANCELLED, 0) + by_status.get(WITHDRAWN, 0),
        "weekly": week,
        "weekTotal": sum(w["count"] for w in week),
    }
