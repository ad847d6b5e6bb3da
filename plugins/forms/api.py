"""The forms service's HTTP API (`/api/form`): design, publish, render, submissions."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from atrium.plugins.forms import service
from atrium.sdk.context import current_user
from atrium.sdk.grants import holds_grant
from atrium.sdk.routing import Router

router = Router("/api/form")

Code = Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")]
Ref = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]
Names = dict[
    Annotated[str, StringConstraints(max_length=8)], Annotated[str, StringConstraints(max_length=100)]
]


class DesignIn(BaseModel):
    formId: int | None = Field(default=None, description="absent: a new form")
    code: Code = Field(description="the code the form is published under (`diy_code`)")
    name: Names = Field(min_length=1, max_length=5, description="name per locale")
    description: Annotated[str, StringConstraints(max_length=500)] = ""
    schema_: dict[str, Any] = Field(alias="schema", description="the form's JSON Schema")
    uiSchema: dict[str, Any] = Field(default_factory=dict)
    layouts: dict[str, Any] = Field(default_factory=dict, description="layout_code to its column layout")
    allowEdit: bool = False


class MenuWishIn(BaseModel):
    systemCode: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]
    parentId: int | None = Field(default=None, description="absent: a top-level menu")
    name: Annotated[str, StringConstraints(strip_whitespace=True, max_length=128)] = Field(
        default="", description="empty: the form's names"
    )


class PublishIn(BaseModel):
    formId: Ref
    version: int | None = Field(default=None, ge=1, description="absent: the latest version")
    menu: MenuWishIn | None = Field(
        default=None,
        description="also put the form on a menu (tenant administrators only), granted to every role",
    )


class FormRefIn(BaseModel):
    formId: Ref


class FormListIn(BaseModel):
    keyword: Annotated[str, StringConstraints(strip_whitespace=True, max_length=64)] = ""
    pageNum: int = Field(default=1, ge=1)
    pageSize: int = Field(default=20, ge=1, le=200)
    published: bool = False


class DetailQuery(BaseModel):
    formId: Ref
    version: int | None = Field(default=None, ge=1)


class RenderQuery(BaseModel):
    layoutId: Annotated[str, StringConstraints(max_length=64)] = ""


@router.post("/design/save", grant="form:design", body=DesignIn)
def design_save(body: DesignIn) -> dict[str, Any]:
    """Save a new version of a form (its designers); a schema that is not valid JSON Schema is refused."""
    design = service.Design(
        code=body.code,
        name=dict(body.name),
        schema=body.schema_,
        ui_schema=body.uiSchema,
        layouts=body.layouts,
        description=body.description,
        allow_edit=body.allowEdit,
    )
    return service.save_design(design, body.formId)


@router.post("/design/publish", grant="form:design", body=PublishIn)
def design_publish(body: PublishIn) -> dict[str, Any]:
    """Publish a version under the form's code: menus and links render it from now on. With `menu`, the form
    gets a menu of its own (one per form; publishing again moves or renames it) and `menu` is answered."""
    wish = None
    if body.menu is not None:
        wish = service.MenuWish(body.menu.systemCode, body.menu.parentId, body.menu.name)
    return service.publish(body.formId, body.version, wish)


@router.get("/design/menu-options", grant="form:design")
def design_menu_options() -> dict[str, Any]:
    """For the publish dialog (tenant administrators): the tenant's systems with their menu trees."""
    return service.menu_options()


@router.post("/design/unpublish", grant="form:design", body=FormRefIn)
def design_unpublish(body: FormRefIn) -> dict[str, Any]:
    """Withdraw the published version (submissions are kept)."""
    return service.unpublish(body.formId)


@router.post("/design/delete", grant="form:design", body=FormRefIn)
def design_delete(body: FormRefIn) -> None:
    """Delete a form with its versions and submissions."""
    service.delete_form(body.formId)


@router.post("/design/list", body=FormListIn)
def design_list(body: FormListIn) -> dict[str, Any]:
    """The tenant's forms, searched by code or name and paged."""
    return service.list_forms(body.keyword, body.pageNum, body.pageSize, body.published)


@router.get("/design/detail", grant="form:design", query=DetailQuery)
def design_detail(query: DetailQuery) -> dict[str, Any]:
    """A version of a form (the latest without `version`) for the designer and the preview."""
    return service.design_detail(query.formId, query.version)


@router.get("/render/{formId}", query=RenderQuery)
def render(formId: str, query: RenderQuery) -> dict[str, Any]:  # noqa: N803
    """The published version of a form by code or id, with the layout named by `layoutId`."""
    return service.render(formId[:64], query.layoutId)


class PeopleQuery(BaseModel):
    keyword: Annotated[str, StringConstraints(strip_whitespace=True, max_length=64)] = ""
    limit: int = Field(default=20, ge=1, le=service.PEOPLE_MAX)


@router.get("/people", query=PeopleQuery)
def people(query: PeopleQuery) -> list[dict[str, Any]]:
    """The current tenant's members for the user and member pickers (`{id, name, account, department}`)."""
    return service.people(query.keyword, query.limit)


#: the button that shows a member the tenant's form figures; without it (or administration) she sees her own
STATS_GRANT = "form:stats"


@router.get("/count")
def count() -> dict[str, int | str]:
    """How many forms the tenant has, how many are published, how many submissions (home card), with the
    `scope` counted: the tenant's for administrators and holders of `form:stats`, else "mine" (the
    published forms and the caller's own submissions)."""
    mine = None if holds_grant(STATS_GRANT) else current_user().user_id
    return service.count_forms(mine)


class SubmitIn(BaseModel):
    formId: Ref = Field(description="the form's code or id; its published version is filled")
    data: dict[str, Any]
    draft: bool = False


class UpdateIn(BaseModel):
    submissionId: int = Field(ge=1)
    data: dict[str, Any]
    draft: bool = False


class SubmissionListIn(BaseModel):
    formId: Ref
    keyword: Annotated[str, StringConstraints(strip_whitespace=True, max_length=100)] = ""
    filters: dict[Annotated[str, StringConstraints(max_length=64)], Any] = Field(
        default_factory=dict, max_length=20
    )
    status: Literal["", "draft", "submitted"] = ""
    mine: bool = False
    pageNum: int = Field(default=1, ge=1)
    pageSize: int = Field(default=20, ge=1, le=200)


class IdQuery(BaseModel):
    submissionId: int = Field(ge=1)


class IdsIn(BaseModel):
    ids: list[int] = Field(min_length=1, max_length=500)


@router.post("/submission/save", body=SubmitIn)
def submission_save(body: SubmitIn) -> dict[str, Any]:
    """Submit (or save as a draft) a filled form, checked against the published schema; unknown fields go."""
    return service.submit(body.formId, body.data, body.draft)


@router.post("/submission/update", body=UpdateIn)
def submission_update(body: UpdateIn) -> dict[str, Any]:
    """Edit a submission against the schema version it was made with, where allowed."""
    return service.update_submission(body.submissionId, body.data, body.draft)


@router.post("/submission/list", body=SubmissionListIn)
def submission_list(body: SubmissionListIn) -> dict[str, Any]:
    """A form's submissions (everyone's for administrators, one's own otherwise), searched and paged."""
    q = service.ListQuery(
        keyword=body.keyword,
        filters={k: str(v) for k, v in body.filters.items()},
        status=body.status,
        mine=body.mine,
    )
    return service.list_submissions(body.formId, q, body.pageNum, body.pageSize)


@router.get("/submission/detail", query=IdQuery)
def submission_detail(query: IdQuery) -> dict[str, Any]:
    """One submission with the schema version it was made against."""
    return service.submission_detail(query.submissionId)


@router.post("/submission/delete", body=IdsIn)
def submission_delete(body: IdsIn) -> dict[str, int]:
    """Delete submissions (administrators; authors their drafts)."""
    return {"deleted": service.delete_submissions(body.ids)}
