"""The portal content API (`/api/portal/portal-article`): readers' lists, panels and details, the public
detail for `/knowledge-details`, and the `/content-management` screen's calls (administrators)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from atrium.plugins.portal import service
from atrium.plugins.portal.models import DRAFT, PUBLISHED
from atrium.sdk.routing import Router

router = Router("/api/portal/portal-article")

Category = Literal["announcement", "hot", "featured", "news"]
Keyword = Annotated[str, StringConstraints(strip_whitespace=True, max_length=100)]
Url = Annotated[
    str, StringConstraints(strip_whitespace=True, max_length=1000, pattern=r"^(|/[^\s]*|https?://\S+)$")
]


class ListQuery(BaseModel):
    category: Category | Literal[""] = ""
    keyword: Keyword = ""
    pageIndex: int = Field(default=1, ge=1, le=100_000)
    pageRows: int = Field(default=10, ge=1, le=100)


class ManageQuery(ListQuery):
    status: Literal["", "draft", "published"] = ""


class IdQuery(BaseModel):
    id: int = Field(ge=1, le=2**62)


class IdIn(BaseModel):
    id: int = Field(ge=1, le=2**62)


class ArticleIn(BaseModel):
    id: int | None = Field(default=None, ge=1, le=2**62)
    category: Category
    title: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
    summary: Annotated[str, StringConstraints(strip_whitespace=True, max_length=500)] = ""
    coverUrl: Url = ""
    content: Annotated[str, StringConstraints(max_length=200_000)] = ""
    pinned: bool = False
    public: bool = False
    publishStart: datetime | None = None
    publishEnd: datetime | None = None


class PreviewIn(BaseModel):
    content: Annotated[str, StringConstraints(max_length=200_000)] = ""


def _naive(value: datetime | None) -> datetime | None:
    if value is None or value.tzinfo is None:
        return value
    from datetime import UTC

    return value.astimezone(UTC).replace(tzinfo=None)


@router.get("/list", query=ListQuery)
def list_published(query: ListQuery) -> dict[str, Any]:
    """Published articles (company news list: paging and search by title or summary)."""
    return service.published(query.category, query.keyword, query.pageIndex, query.pageRows)


@router.get("/panels")
def panels() -> dict[str, list[dict[str, Any]]]:
    """The portal's announcement, hot topic (by views), featured and company news panels."""
    return service.panels()


@router.get("/detail", query=IdQuery)
def detail(query: IdQuery) -> dict[str, Any]:
    """A published article of the reader's tenant, with its content; counts a view."""
    return service.read(query.id)


@router.get("/public-detail", public=True, query=IdQuery)
def public_detail(query: IdQuery) -> dict[str, Any]:
    """A published article marked public, readable without a session (`/knowledge-details`)."""
    return service.read_public(query.id)


@router.get("/admin/list", permission="admin", query=ManageQuery)
def manage_list(query: ManageQuery) -> dict[str, Any]:
    """Every article of the tenant, drafts included (administrators)."""
    return service.manage_list(query.category, query.keyword, query.status, query.pageIndex, query.pageRows)


@router.get("/admin/get", permission="admin", query=IdQuery)
def manage_get(query: IdQuery) -> dict[str, Any]:
    """One article with its content, whatever its status (administrators)."""
    return service.out(service.get(query.id), content=True)


@router.post("/admin/save", permission="admin", body=ArticleIn)
def manage_save(body: ArticleIn) -> dict[str, Any]:
    """Create (no id) or update an article; the content is sanitised before it is stored."""
    draft = service.Draft(
        category=body.category,
        title=body.title,
        summary=body.summary,
        cover_url=body.coverUrl,
        content=body.content,
        pinned=body.pinned,
        public=body.public,
        publish_start=_naive(body.publishStart),
        publish_end=_naive(body.publishEnd),
    )
    return service.save(draft, body.id)


@router.post("/admin/publish", permission="admin", body=IdIn)
def manage_publish(body: IdIn) -> dict[str, Any]:
    """Publish an article (readers see it inside its window)."""
    return service.set_status(body.id, PUBLISHED)


@router.post("/admin/unpublish", permission="admin", body=IdIn)
def manage_unpublish(body: IdIn) -> dict[str, Any]:
    """Take an article back to draft."""
    return service.set_status(body.id, DRAFT)


@router.post("/admin/delete", permission="admin", body=IdIn)
def manage_delete(body: IdIn) -> None:
    """Delete an article."""
    service.delete(body.id)


@router.post("/admin/preview", permission="admin", body=PreviewIn)
def manage_preview(body: PreviewIn) -> dict[str, str]:
    """The content as it would be stored and shown (sanitised)."""
    return {"content": service.sanitise(body.content)}
