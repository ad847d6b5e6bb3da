"""SpiffWorkflow behind the process plugin: parsed specs cached per version, a script engine that only runs
the allow-listed expression language, and the instance state serialized without its (shared) spec."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from contextvars import ContextVar
from typing import Any
from uuid import UUID

from SpiffWorkflow.bpmn.parser.BpmnParser import BpmnParser
from SpiffWorkflow.bpmn.parser.ValidationException import ValidationException
from SpiffWorkflow.bpmn.script_engine import PythonScriptEngine
from SpiffWorkflow.bpmn.serializer.config import DEFAULT_CONFIG
from SpiffWorkflow.bpmn.serializer.default.workflow import BpmnWorkflowConverter, WorkflowConverter
from SpiffWorkflow.bpmn.serializer.workflow import BpmnWorkflowSerializer
from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.task import Task
from SpiffWorkflow.util.task import TaskState

from atrium.plugins.process import bpmn, expr

_CACHE_SIZE = 256


class HttpTaskPending(RuntimeError):
    """An HTTP task was reached: it runs outside the engine step."""


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
        raise HttpTaskPending(task.task_spec.bpmn_id)


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


_compiled: OrderedDict[int, Compiled] = OrderedDict()
_lock = threading.Lock()


def cached(version_id: int) -> Compiled | None:
    with _lock:
        return _compiled.get(version_id)


def compiled(version_id: int, xml: str, key: str) -> Compiled:
    with _lock:
        found = _compiled.get(version_id)
        if found is not None:
            _compiled.move_to_end(version_id)
            return found
    made = Compiled(xml, key)
    with _lock:
        _compiled[version_id] = made
        while len(_compiled) > _CACHE_SIZE:
            _compiled.popitem(last=False)
    return made


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
    return str(SERIALIZER.serialize_json(workflow))


def load(comp: Compiled, state: str) -> BpmnWorkflow:
    token = _current.set(comp)
    try:
        workflow = SERIALIZER.deserialize_json(state)
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
