"""The reads and writes of one engine step, as few statements as the step needs.

A step runs once per task done, for every instance, so it skips the ORM's unit of work: task rows are read
once as plain `TaskRow` values, changed in memory, and written back with one executemany; new task rows,
their candidates and the history entries go in with one multi-row insert each. These statements run on the
session's own connection (inside its transaction) and so outside the session's tenant filter: every one
names the tenant itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, insert, select, update
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.util import identity_key

from atrium.plugins.process.models import (
    OPEN,
    RUNNING,
    HistoryEntry,
    ProcessInstance,
    ProcessModel,
    ProcessTask,
    ProcessVersion,
    TaskCandidate,
)
from atrium.sdk.db import session

#: an upcoming task: the next user task on a predicted path (shown as "my upcoming"), not yet open
UPCOMING = "upcoming"

TASKS = cast(Table, ProcessTask.__table__)
CANDIDATES = cast(Table, TaskCandidate.__table__)
HISTORY = cast(Table, HistoryEntry.__table__)
_INSTANCES = cast(Table, ProcessInstance.__table__)
_MODELS = cast(Table, ProcessModel.__table__)
_VERSIONS = cast(Table, ProcessVersion.__table__)

_CHANGED = ("status", "claimed_by", "done_by", "comment", "created_at", "done_at")


@dataclass(slots=True)
class TaskRow:
    """A task row as the step reads and changes it (the columns of `ProcessTask`)."""

    id: int
    instance_id: int
    engine_id: str
    node_id: str
    name: str
    form_key: str
    status: str
    candidates: dict[str, Any]
    created_at: datetime
    claimed_by: int | None = None
    done_by: int | None = None
    comment: str = ""
    done_at: datetime | None = None


@dataclass(slots=True)
class Writes:
    """What a step has to write besides the instance row, gathered while it runs and written at its end."""

    #: task rows whose status, claim or outcome changed
    changed: list[TaskRow] = field(default_factory=list)
    #: tasks that stopped being open or upcoming: their candidate rows go
    unlisted: list[int] = field(default_factory=list)
    #: upcoming guesses the engine no longer predicts: their rows go
    forgotten: list[int] = field(default_factory=list)
    #: history entries, in order (columns of `HistoryEntry` without tenant and instance)
    history: list[dict[str, Any]] = field(default_factory=list)

    def note(
        self, action: str, node_id: str = "", name: str = "", user_id: int | None = None, comment: str = ""
    ) -> None:
        self.history.append(
            {"action": action, "node_id": node_id, "name": name, "user_id": user_id, "comment": comment}
        )


def _conn() -> Any:
    return session().connection()


_LOCK = (
    select(_INSTANCES)
    .where(
        _INSTANCES.c.tenant_id == bindparam("tenant_id"),
        _INSTANCES.c.id
        == select(TASKS.c.instance_id)
        .where(TASKS.c.tenant_id == bindparam("tenant_id"), TASKS.c.id == bindparam("task_id"))
        .scalar_subquery(),
    )
    .with_for_update()
)


def lock_instance_of_task(tenant_id: int, task_id: int) -> ProcessInstance | None:
    """The instance a task of the tenant belongs to, locked for this transaction: one statement, and the
    row becomes a session object as if the ORM had loaded it (changes to it are flushed as usual)."""
    db = session()
    found = db.connection().execute(_LOCK, {"tenant_id": tenant_id, "task_id": task_id}).mappings().first()
    if found is None:
        return None
    known = db.identity_map.get(identity_key(ProcessInstance, found["id"]))
    if isinstance(known, ProcessInstance):  # loaded earlier in this transaction: bring it up to date
        db.refresh(known)
        return known
    return _attached(ProcessInstance(**found))


@dataclass(frozen=True, slots=True)
class Deployed:
    """A model as an instance starts from it: its deployed version's id (None when none is deployed)."""

    model_id: int
    key: str
    name: str
    version_id: int | None


def _deployed_query(by_key: bool) -> Any:
    model = _MODELS.c.key if by_key else _MODELS.c.id
    return (
        select(_MODELS.c.id, _MODELS.c.key, _MODELS.c.name, _VERSIONS.c.id)
        .outerjoin(
            _VERSIONS,
            (_VERSIONS.c.model_id == _MODELS.c.id) & (_VERSIONS.c.version == _MODELS.c.deployed_version),
        )
        .where(_MODELS.c.tenant_id == bindparam("tenant_id"), model == bindparam("ref"))
    )


_DEPLOYED_BY_ID = _deployed_query(by_key=False)
_DEPLOYED_BY_KEY = _deployed_query(by_key=True)


def deployed(tenant_id: int, model_id: int | None, key: str) -> Deployed | None:
    """The tenant's model (by id, else by key) with its deployed version's id, in one statement that reads
    no diagram (the parsed version is cached)."""
    query, ref = (_DEPLOYED_BY_KEY, key) if model_id is None else (_DEPLOYED_BY_ID, model_id)
    found = _conn().execute(query, {"tenant_id": tenant_id, "ref": ref}).first()
    return None if found is None else Deployed(*found)


_INSERT_INSTANCE = insert(_INSTANCES).returning(_INSTANCES.c.id)


def insert_instance(
    tenant_id: int, model: Deployed, version_id: int, started_by: int, when: datetime
) -> ProcessInstance:
    """A new running instance, inserted with one statement; it becomes a session object as if the ORM had
    loaded it (the step then writes its state with `save_instance`)."""
    values: dict[str, Any] = {
        "tenant_id": tenant_id,
        "model_id": model.model_id,
        "version_id": version_id,
        "model_key": model.key,
        "model_name": model.name,
        "status": RUNNING,
        "started_by": started_by,
        "state": "",
        "error": "",
        "created_at": when,
        "updated_at": when,
        "ended_at": None,
        "wake_at": None,
    }
    values["id"] = _conn().execute(_INSERT_INSTANCE, values).scalar_one()
    return _attached(ProcessInstance(**values))


def _attached(inst: ProcessInstance) -> ProcessInstance:
    """A row read or written past the ORM, made a session object holding these values as committed."""
    make_transient_to_detached(inst)
    session().add(inst)
    return inst


#: the instance columns a step changes
_STEP_COLUMNS = ("status", "error", "ended_at", "wake_at", "state", "updated_at")
_SAVE_INSTANCE = (
    update(_INSTANCES)
    .where(_INSTANCES.c.tenant_id == bindparam("i_tenant"), _INSTANCES.c.id == bindparam("i_id"))
    .values({name: bindparam(f"i_{name}") for name in _STEP_COLUMNS})
)


def save_instance(inst: ProcessInstance) -> None:
    """Write what a step changes in the instance row with one UPDATE; the session is told the row holds
    these values, and forgets it when nothing else changed (its flush would look it over at the commit)."""
    values = {name: getattr(inst, name) for name in _STEP_COLUMNS}
    _conn().execute(
        _SAVE_INSTANCE,
        {"i_tenant": inst.tenant_id, "i_id": inst.id, **{f"i_{k}": v for k, v in values.items()}},
    )
    for name, value in values.items():
        set_committed_value(inst, name, value)
    db = session()
    if not db.is_modified(inst, include_collections=False):
        db.expunge(inst)


_ROW_COLUMNS = tuple(f.name for f in fields(TaskRow))
_LIVE = (
    select(*(TASKS.c[name] for name in _ROW_COLUMNS))
    .where(
        TASKS.c.tenant_id == bindparam("tenant_id"),
        TASKS.c.instance_id == bindparam("instance_id"),
        TASKS.c.status.in_((OPEN, UPCOMING)),
    )
    .order_by(TASKS.c.id)
)


def live_tasks(tenant_id: int, instance_id: int) -> list[TaskRow]:
    """The instance's open and upcoming task rows."""
    rows = _conn().execute(_LIVE, {"tenant_id": tenant_id, "instance_id": instance_id})
    return [TaskRow(*r) for r in rows]


_UPDATE_TASK = (
    update(TASKS)
    .where(TASKS.c.tenant_id == bindparam("t_tenant"), TASKS.c.id == bindparam("t_id"))
    .values({name: bindparam(f"t_{name}") for name in _CHANGED})
)


def update_tasks(tenant_id: int, rows: list[TaskRow]) -> None:
    """Write the changed columns of task rows back, in one executemany."""
    if rows:
        _conn().execute(
            _UPDATE_TASK,
            [
                {"t_tenant": tenant_id, "t_id": r.id, **{f"t_{n}": getattr(r, n) for n in _CHANGED}}
                for r in rows
            ],
        )


_INSERT_TASKS = insert(TASKS).returning(TASKS.c.id, sort_by_parameter_order=True)


def insert_tasks(tenant_id: int, rows: list[TaskRow]) -> None:
    """Insert new task rows in one statement and set their ids."""
    if not rows:
        return
    values = [
        {
            "tenant_id": tenant_id,
            "instance_id": r.instance_id,
            "engine_id": r.engine_id,
            "node_id": r.node_id,
            "name": r.name,
            "form_key": r.form_key,
            "status": r.status,
            "candidates": r.candidates,
            "claimed_by": r.claimed_by,
            "done_by": r.done_by,
            "comment": r.comment,
            "created_at": r.created_at,
            "done_at": r.done_at,
        }
        for r in rows
    ]
    ids = _conn().execute(_INSERT_TASKS, values).scalars().all()
    for row, new_id in zip(rows, ids, strict=True):
        row.id = new_id


_INSERT_CANDIDATES = insert(CANDIDATES)
_INSERT_HISTORY = insert(HISTORY)


def insert_candidates(tenant_id: int, pairs: list[tuple[int, str, int]]) -> None:
    """Candidate rows (task id, kind, ref) in one statement."""
    if pairs:
        _conn().execute(
            _INSERT_CANDIDATES,
            [{"tenant_id": tenant_id, "task_id": t, "kind": k, "ref": ref} for t, k, ref in pairs],
        )


# One parameter set per id (an executemany, one statement): an expanding ``IN`` would be rendered anew on
# every execution, which costs more than the statement itself for the one or two ids of a step.
_DELETE_CANDIDATES = delete(CANDIDATES).where(
    CANDIDATES.c.tenant_id == bindparam("d_tenant"), CANDIDATES.c.task_id == bindparam("d_id")
)
_DELETE_TASKS = delete(TASKS).where(
    TASKS.c.tenant_id == bindparam("d_tenant"), TASKS.c.id == bindparam("d_id")
)


def _by_id(tenant_id: int, ids: list[int]) -> list[dict[str, int]]:
    return [{"d_tenant": tenant_id, "d_id": i} for i in ids]


def delete_candidates(tenant_id: int, task_ids: list[int]) -> None:
    if task_ids:
        _conn().execute(_DELETE_CANDIDATES, _by_id(tenant_id, task_ids))


def delete_tasks(tenant_id: int, task_ids: list[int]) -> None:
    if task_ids:
        _conn().execute(_DELETE_TASKS, _by_id(tenant_id, task_ids))


def insert_history(tenant_id: int, instance_id: int, entries: list[dict[str, Any]], when: datetime) -> None:
    """History entries in one statement, in the order given."""
    if entries:
        _conn().execute(
            _INSERT_HISTORY,
            [{"tenant_id": tenant_id, "instance_id": instance_id, "created_at": when, **e} for e in entries],
        )


def write(tenant_id: int, instance_id: int, writes: Writes, when: datetime) -> None:
    """Write what `writes` gathered and empty it (new task rows are inserted apart: their candidate rows
    need their ids)."""
    delete_candidates(tenant_id, writes.unlisted)
    delete_tasks(tenant_id, writes.forgotten)
    update_tasks(tenant_id, writes.changed)
    insert_history(tenant_id, instance_id, writes.history, when)
    writes.changed, writes.unlisted, writes.forgotten, writes.history = [], [], [], []
