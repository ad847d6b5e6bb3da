"""The process service's HTTP API (`/api/process`): models, deployments, instances, my tasks, counts."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from atrium.plugins.process import service
from atrium.plugins.process.engine import bpmn
from atrium.plugins.process.models import OPEN
from atrium.sdk.context import current_user
from atrium.sdk.grants import holds_grant
from atrium.sdk.routing import Router

router = Router("/api/process")

Ref = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, max_length=500)]
Xml = Annotated[str, StringConstraints(max_length=bpmn.MAX_XML_BYTES * 4)]
Variables = dict[Annotated[str, StringConstraints(max_length=64)], Any]


class ModelIn(BaseModel):
    modelId: int | None = Field(default=None, description="absent: a new model")
    key: Annotated[str, StringConstraints(max_length=200)] = Field(
        default="", description="the model id: starts with a letter; letters, digits, _ and -"
    )
    name: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
    category: Annotated[str, StringConstraints(strip_whitespace=True, max_length=64)] = ""
    xml: Xml = Field(description="the diagram as BPMN 2.0 XML")


class ImportIn(BaseModel):
    fileName: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
    key: Annotated[str, StringConstraints(max_length=200)] = ""
    name: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
    category: Annotated[str, StringConstraints(strip_whitespace=True, max_length=64)] = ""
    xml: Xml


class ModelListIn(BaseModel):
    keyword: Annotated[str, StringConstraints(strip_whitespace=True, max_length=64)] = ""
    category: Annotated[str, StringConstraints(strip_whitespace=True, max_length=64)] = ""
    pageNum: int = Field(default=1, ge=1)
    pageSize: int = Field(default=20, ge=1, le=service.PAGE_MAX)


class ModelRefIn(BaseModel):
    modelId: Ref
    version: int | None = Field(default=None, ge=1, description="absent: the latest version")


class DetailQuery(BaseModel):
    modelId: Ref
    version: int | None = Field(default=None, ge=1)


class StartIn(BaseModel):
    modelId: Ref = Field(description="the model's id or key; its deployed version starts")
    variables: Variables = Field(default_factory=dict, max_length=100)
    form: dict[str, Any] | None = Field(default=None, description="the start form's data, when it has one")


class TaskIn(BaseModel):
    taskId: int = Field(ge=1)
    variables: Variables = Field(default_factory=dict, max_length=100)
    form: dict[str, Any] | None = None
    comment: Text = ""


class TaskRefIn(BaseModel):
    taskId: int = Field(ge=1)
    comment: Text = ""


class InstanceIn(BaseModel):
    processId: int = Field(ge=1)
    comment: Text = ""


class InstanceQuery(BaseModel):
    processId: int = Field(ge=1)


class PageIn(BaseModel):
    pageNum: int = Field(default=1, ge=1)
    pageSize: int = Field(default=20, ge=1, le=service.PAGE_MAX)


class MineIn(PageIn):
    status: Literal["", "running", "completed", "cancelled", "withdrawn", "failed"] = ""


@router.post("/model/save", grant="process:design", body=ModelIn)
def model_save(body: ModelIn) -> dict[str, Any]:
    """Save a new version of a model; every designer rule is checked and all problems are answered."""
    return service.save_model(body.key, body.name, body.category, body.xml, body.modelId)


@router.post("/model/import", grant="process:design", body=ImportIn)
def model_import(body: ImportIn) -> dict[str, Any]:
    """Import a `.bpmn` file as a new model (same rules as saving)."""
    bpmn.check_file_name(body.fileName)
    return service.save_model(body.key, body.name, body.category, body.xml)


@router.post("/model/list", body=ModelListIn)
def model_list(body: ModelListIn) -> dict[str, Any]:
    """The tenant's models, searched by key or name, paged."""
    return service.list_models(body.keyword, body.category, body.pageNum, body.pageSize)


@router.get("/model/detail", grant="process:design", query=DetailQuery)
def model_detail(query: DetailQuery) -> dict[str, Any]:
    """A version of a model (the latest without `version`) with its diagram; also the `.bpmn` export (the
    designer's: its HTTP tasks' addresses and headers are no one else's to read)."""
    return service.model_detail(query.modelId, query.version)


@router.post("/model/deploy", grant="process:deploy", body=ModelRefIn)
def model_deploy(body: ModelRefIn) -> dict[str, Any]:
    """Deploy a version: new instances start from it; running ones keep theirs."""
    return service.deploy(body.modelId, body.version)


@router.post("/model/delete", grant="process:design", body=ModelRefIn)
def model_delete(body: ModelRefIn) -> None:
    """Delete a model with no running instance."""
    service.delete_model(body.modelId)


@router.get("/forms")
def forms() -> list[dict[str, Any]]:
    """Published forms a model may use as start or task form (empty without the forms plugin)."""
    return service.start_forms()


@router.post("/instance/start", body=StartIn)
def instance_start(body: StartIn) -> dict[str, Any]:
    """Start an instance of a deployed model with variables or its start form."""
    return service.start(body.modelId, dict(body.variables), body.form)


@router.post("/instance/withdraw", body=InstanceIn)
def instance_withdraw(body: InstanceIn) -> dict[str, Any]:
    """The starter withdraws a running instance."""
    return service.withdraw(body.processId, body.comment)


@router.post("/instance/cancel", permission="admin", body=InstanceIn)
def instance_cancel(body: InstanceIn) -> dict[str, Any]:
    """An administrator cancels a running instance."""
    return service.cancel(body.processId, body.comment)


@router.get("/instance/detail", query=InstanceQuery)
def instance_detail(query: InstanceQuery) -> dict[str, Any]:
    """An instance's history, tasks, variables and diagram."""
    return service.instance_detail(query.processId)


@router.post("/task/claim", body=TaskRefIn)
def task_claim(body: TaskRefIn) -> dict[str, Any]:
    """Take an open task offered to a role or to several users: only the claimer sees it from now on."""
    return service.claim(body.taskId)


@router.post("/task/complete", body=TaskIn)
def task_complete(body: TaskIn) -> dict[str, Any]:
    """Complete an open task (with its form's data when it has one)."""
    return service.complete(body.taskId, dict(body.variables), body.form, body.comment)


@router.post("/task/reject", body=TaskRefIn)
def task_reject(body: TaskRefIn) -> dict[str, Any]:
    """Send the instance back to the previous person's task."""
    return service.reject(body.taskId, body.comment)


@router.post("/my/pending", body=PageIn)
def my_pending(body: PageIn) -> dict[str, Any]:
    """Open tasks I may do."""
    return service.my_tasks(OPEN, body.pageNum, body.pageSize)


@router.post("/my/upcoming", body=PageIn)
def my_upcoming(body: PageIn) -> dict[str, Any]:
    """Tasks that come to me next, once the open step before them is done."""
    return service.my_tasks(service.UPCOMING, body.pageNum, body.pageSize)


@router.post("/my/process", body=MineIn)
def my_process(body: MineIn) -> dict[str, Any]:
    """Instances I started."""
    return service.my_processes(body.status, body.pageNum, body.pageSize)


#: the button that shows a member the tenant's process figures; without it (or administration) she sees her
#: own
STATS_GRANT = "process:stats"


@router.get("/count")
def count() -> dict[str, Any]:
    """Running, failed and normal instances and the week's submissions per day (home cards), with the
    `scope` counted: the tenant's for administrators and holders of `process:stats`, else "mine" (the
    instances the caller started)."""
    mine = None if holds_grant(STATS_GRANT) else current_user().user_id
    return service.counts(mine)
