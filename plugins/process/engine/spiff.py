"""SpiffWorkflow behind the process plugin: parsed specs cached per version, a script engine that only runs
the allow-listed expression language, and the instance state serialized without its (shared) spec."""

from __future__ import annotations

import json
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import orjson
from SpiffWorkflow.bpmn.parser.BpmnParser import BpmnParser
from SpiffWorkflow.bpmn.parser.ValidationException import ValidationException
from SpiffWorkflow.bpmn.script_engine import PythonScriptEngine
from SpiffWorkflow.bpmn.serializer.config import DEFAULT_CONFIG
from SpiffWorkflow.bpmn.serializer.default.workflow import BpmnWorkflowConverter, WorkflowConverter
from SpiffWorkflow.bpmn.serializer.workflow import BpmnWorkflowSerializer
from SpiffWorkflow.bpmn.specs.event_definitions.timer import TimerEventDefinition
from SpiffWorkflow.bpmn.specs.mixins.script_task import ScriptTask
from SpiffWorkflow.bpmn.specs.mixins.service_task import ServiceTask
from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.specs.ExclusiveChoice import ExclusiveChoice
from SpiffWorkflow.specs.MultiChoice import MultiChoice
from SpiffWorkflow.task import Task
from SpiffWorkflow.util.task import TaskState

from atrium.plugins.process.engine import bpmn, expr, labels
from atrium.sdk.kept import Kept

_CACHE_SIZE = 256


class SafeScriptEngine(PythonScriptEngine):  # type: ignore[misc]
    """Conditions and scripts through `expr` only: no ``eval``/``exec`` of model text."""

    def __init__(self) -> None:
        super().__init__()

    def validate(self, expression: str) -> None:
        expr.check(expression)

    def evaluate(self, task: Task, expression: str, external_context: dict[str, Any] | None = None) -> Any:
        return expr.evaluate(expression, {**task.data, **(external_context or {})})

    def execute(self, task: Task, script: str, external_context: dict[str, Any] | None = None) -> bool:
        expr.run_script(script, task.data)
        return True

    def call_service(self, task: Task, **kwargs: Any) -> Any:
        raise RuntimeError(f"HTTP task {task.task_spec.bpmn_id} runs outside the engine step")


ENGINE = SafeScriptEngine()


class Compiled:
    """One deployed version, parsed once: the Spiff spec and the node settings."""

    def __init__(self, xml: str, key: str) -> None:
        design = bpmn.check_design(key, xml)
        parser = BpmnParser()
        try:
            parser.add_bpmn_xml(design.root, filename=f"{design.process_id}.bpmn")
            self.spec = parser.get_spec(design.process_id)
            self.subprocess_specs = parser.get_subprocess_specs(design.process_id)
        except ValidationException as exc:
            raise bpmn.fail([bpmn.Problem("xml_unsupported", "xml", {"reason": str(exc)[:160]})]) from None
        self.nodes = design.nodes
        self.process_id = design.process_id
        self.labels = design.labels
        _quote_timer_literals(self.spec)

    def name_of(self, element_id: str, stored: str) -> str:
        """An element's name as the reader sees it: its label in her language, else ``stored`` (the name a
        task or history row kept, or the element's own)."""
        return labels.pick(self.labels.get(element_id, {}), stored)

    def process_name(self, stored: str) -> str:
        """The process's name as the reader sees it: its label in her language, else ``stored`` (the
        model's name)."""
        return self.name_of(self.process_id, stored)


def _quote_timer_literals(spec: Any) -> None:
    """Spiff evaluates a timer's text as an expression: a bare ``PT5M`` or date becomes a quoted literal."""
    for task_spec in spec.task_specs.values():
        definition = getattr(task_spec, "event_definition", None)
        if not isinstance(definition, TimerEventDefinition):
            continue
        text = (definition.expression or "").strip()
        kind = "timeDate" if "TimeDate" in type(definition).__name__ else "timeDuration"
        if bpmn.timer_literal(kind, text):
            definition.expression = repr(text)


_compiled: Kept[Compiled] = Kept(_CACHE_SIZE)


def cached(version_id: int) -> Compiled | None:
    return _compiled.get(version_id)


def compiled(version_id: int, xml: str, key: str) -> Compiled:
    found = _compiled.get(version_id)
    if found is None:
        found = Compiled(xml, key)
        _compiled.put(version_id, found)
    return found


_current: ContextVar[Compiled | None] = ContextVar("process_compiled", default=None)


class _StateConverter(BpmnWorkflowConverter):  # type: ignore[misc]
    """The workflow without its spec, which every instance of a version shares."""

    def to_dict(self, workflow: BpmnWorkflow) -> dict[str, Any]:
        dct: dict[str, Any] = WorkflowConverter.to_dict(self, workflow)
        dct["subprocesses"] = self.mapping_to_dict(workflow.subprocesses)
        dct["bpmn_events"] = self.registry.convert(workflow.bpmn_events)
        return dct

    def from_dict(self, dct: dict[str, Any]) -> BpmnWorkflow:
        comp = _current.get()
        if comp is None:
            raise RuntimeError("no compiled process for this state")
        workflow = self.target_class(comp.spec, comp.subprocess_specs, deserializing=True)
        workflow.tasks = self.mapping_from_dict(dct["tasks"], UUID, workflow=workflow)
        workflow.task_tree = workflow.tasks.get(UUID(dct["root"]))
        self.set_default_attributes(workflow, dct)
        self.subprocesses_from_dict(dct["subprocesses"], workflow)
        workflow.bpmn_events = self.registry.restore(dct.pop("bpmn_events", []))
        return workflow


_CONFIG = {**DEFAULT_CONFIG, BpmnWorkflow: _StateConverter}
SERIALIZER = BpmnWorkflowSerializer(BpmnWorkflowSerializer.configure(_CONFIG))


def dump(workflow: BpmnWorkflow) -> str:
    """The state as JSON, through the standard encoder: it writes every value task data can hold the way
    `load` reads it back (orjson would turn a NaN into null)."""
    return str(SERIALIZER.serialize_json(workflow))


def _parse(state: str) -> dict[str, Any]:
    """The stored state as a dict: orjson for speed, the standard parser for what orjson refuses (the
    ``NaN`` and ``Infinity`` the standard encoder writes for such floats, integers beyond 64 bits)."""
    try:
        found: dict[str, Any] = orjson.loads(state)
    except orjson.JSONDecodeError:
        found = json.loads(state)
    return found


#: the workflows steps of this process left, by instance id, each with the state it was stored as
_left: Kept[tuple[str, BpmnWorkflow]] = Kept(_CACHE_SIZE)


def keep(instance_id: int, state: str, workflow: BpmnWorkflow) -> None:
    """Keep a step's workflow, stored as ``state``, for the instance's next step in this process (call it
    once the step has committed, and change the workflow no more)."""
    _left.put(instance_id, (state, workflow))


def load(comp: Compiled, state: str, instance_id: int | None = None) -> BpmnWorkflow:
    """The workflow stored as ``state``. Given its instance, the one its last step in this process left,
    when the stored state is still the one that step wrote (no other process or step has moved it since,
    nor did the step roll back): reading the state back costs as much as the rest of a step. The caller
    owns the workflow either way."""
    if instance_id is not None:
        left = _left.take(instance_id)
        if left is not None and left[0] == state:
            return left[1]
    token = _current.set(comp)
    try:
        dct = _parse(state)
        SERIALIZER.migrate(dct)
        workflow = SERIALIZER.from_dict(dct)
    finally:
        _current.reset(token)
    workflow.script_engine = ENGINE
    return workflow


def new(comp: Compiled, variables: dict[str, Any]) -> BpmnWorkflow:
    workflow = BpmnWorkflow(comp.spec, comp.subprocess_specs, script_engine=ENGINE)
    start = workflow.get_next_task(state=TaskState.READY)
    if start is not None:
        start.data.update(variables)
    return workflow


def advance(workflow: BpmnWorkflow) -> None:
    workflow.do_engine_steps()


def ready_user_tasks(workflow: BpmnWorkflow) -> list[Task]:
    return list(workflow.get_tasks(state=TaskState.READY, manual=True))


def variables(workflow: BpmnWorkflow) -> dict[str, Any]:
    """The instance's variables as of its latest task (JSON-safe)."""
    last = workflow.last_task or workflow.task_tree
    data = {k: v for k, v in (last.data if last is not None else {}).items() if k != "data_objects"}
    out: dict[str, Any] = json.loads(json.dumps(data, default=str))
    return out


def task_by_id(workflow: BpmnWorkflow, engine_id: str) -> Task | None:
    try:
        found: Task | None = workflow.get_task_from_id(UUID(engine_id))
    except Exception:
        return None
    return found


def _branches(spec: MultiChoice, data: dict[str, Any]) -> set[str]:
    """The outputs of a gateway that may be taken under ``data``: an exclusive gateway takes the first
    branch whose condition holds (one it cannot tell counts, and so do the branches after it), and its default
    when none is known to hold; an inclusive one every branch not known to be false, and its default when
    none is known to hold."""
    keep: set[str] = set()
    verdicts = [
        (name, expr.decide(str(c.args[0]), data)) for c, name in spec.cond_task_specs if c is not None
    ]
    for name, verdict in verdicts:
        if verdict is False:
            continue
        keep.add(name)
        if verdict and isinstance(spec, ExclusiveChoice):
            return keep
    if not any(verdict for _, verdict in verdicts):
        keep |= {name for c, name in spec.cond_task_specs if c is None}
    return keep


def predicted_children(task: Task, data: dict[str, Any] | None) -> list[tuple[Task, dict[str, Any] | None]]:
    """The predicted next tasks after ``task`` with the variables to judge their gateways by (``data``: the
    variables of the step the prediction starts from, None once they cannot be known). A gateway's branches
    that are false under them are left out; after a script or HTTP task the variables may have changed, so
    every branch counts."""
    spec = task.task_spec
    if data is not None and isinstance(spec, MultiChoice) and spec.cond_task_specs:
        names = _branches(spec, data)
        return [(c, data) for c in task.children if c.task_spec.name in names]
    after = None if isinstance(spec, ScriptTask | ServiceTask) else data
    return [(c, after) for c in task.children]


def _is_http(task: Task) -> bool:
    return task.state == TaskState.STARTED and isinstance(task.task_spec, ServiceTask)


def _is_timer(task: Task) -> bool:
    definition = getattr(task.task_spec, "event_definition", None)
    return task.state == TaskState.WAITING and isinstance(definition, TimerEventDefinition)


def waits(workflow: BpmnWorkflow) -> tuple[list[Task], list[Task]]:
    """In one pass over the tree: the HTTP (service) tasks reached and not yet answered (Spiff leaves them
    started), and the timer events (intermediate or on a task's boundary) waiting for their time."""
    found = list(workflow.get_tasks(state=TaskState.STARTED | TaskState.WAITING))
    return [t for t in found if _is_http(t)], [t for t in found if _is_timer(t)]


def http_tasks(workflow: BpmnWorkflow) -> list[Task]:
    return waits(workflow)[0]


def timer_tasks(workflow: BpmnWorkflow) -> list[Task]:
    return waits(workflow)[1]


def timer_due(task: Task) -> datetime | None:
    """When a waiting timer fires (naive UTC, as the database stores times); None before it was evaluated."""
    value = task._get_internal_data("event_value")
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = TimerEventDefinition.parse_time_or_duration(value)
    except Exception:
        return None
    if not isinstance(parsed, datetime):
        return None
    return parsed.astimezone(UTC).replace(tzinfo=None)


def fire_due_timers(workflow: BpmnWorkflow, now: datetime) -> list[Task]:
    """Fire the timers due at ``now`` (naive UTC) rather than at Spiff's own clock, then let the engine
    move past them; answers the timers fired."""
    fired = []
    for task in timer_tasks(workflow):
        due = timer_due(task)
        if due is not None and due <= now:
            task._set_internal_data(event_fired=True)
            fired.append(task)
    if fired:
        workflow.refresh_timers()
    return fired
