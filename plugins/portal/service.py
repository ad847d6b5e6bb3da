"""Articles without HTTP: sanitising, the publish window, listing, panels and view counts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import nh3
from sqlalchemy import and_, func, or_, select, update

from atrium.plugins.portal.models import CATEGORIES, DRAFT, PUBLISHED, Article
from atrium.sdk.context import current_context, current_user, tenant_scope, unscoped
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import BadRequest, NotFound
from atrium.sdk.services import services

PANEL_SIZE = 6
TAGS = set(nh3.ALLOWED_TAGS) - {"script", "style"}


def sanitise(html: str) -> str:
    """Rich text as it may be shown: nh3's allow-list (no scripts, handlers or script URLs)."""
    return nh3.clean(html, tags=TAGS, url_schemes={"http", "https", "mailto"}, link_rel="noopener noreferrer")


@dataclass(frozen=True)
class Draft:
    """What a save carries (validated by the API's model)."""

    category: str
    title: str
    summary: str
    cover_url: str
    content: str
    pinned: bool
    public: bool
    publish_start: datetime | None
    publish_end: datetime | None


def _visible(now: datetime) -> Any:
    return and_(
        Article.status == PUBLISHED,
        or_(Article.publish_start.is_(None), Article.publish_start <= now),
        or_(Article.publish_end.is_(None), Article.publish_end > now),
    )


def out(a: Article, content: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(a.id),
        "category": a.category,
        "title": a.title,
        "summary": a.summary,
        "coverUrl": a.cover_url,
        "status": a.status,
        "pinned": a.pinned,
        "public": a.public,
        "publishStart": a.publish_start.isoformat(timespec="seconds") if a.publish_start else None,
        "publishEnd": a.publish_end.isoformat(timespec="seconds") if a.publish_end else None,
        "publishedAt": a.published_at.isoformat(timespec="seconds") if a.published_at else None,
        "views": a.views,
        "authorName": a.author_name,
        "updatedAt": a.updated_at.isoformat(timespec="seconds") if a.updated_at else None,
    }
    if content:
        data["content"] = a.content
    return data


def _page(q: Any, page: int, size: int) -> dict[str, Any]:
    db = session()
    total = db.execute(select(func.count()).select_from(q.order_by(None).subquery())).scalar() or 0
    rows = db.execute(q.offset((page - 1) * size).limit(size)).scalars().all()
    return {"list": [out(r) for r in rows], "total": int(total), "pageIndex": page, "pageRows": size}


def _search(q: Any, category: str, keyword: str) -> Any:
    if category:
        q = q.where(Article.category == category)
    if keyword:
        escaped = keyword.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        like = f"%{escaped}%"
        q = q.where(or_(Article.title.ilike(like, escape="\\"), Article.summary.ilike(like, escape="\\")))
    return q


def published(category: str, keyword: str, page: int, size: int) -> dict[str, Any]:
    """Readers' list: published articles in their window, pinned first, newest first."""
    q = select(Article).where(_visible(utcnow()))
    q = _search(q, category, keyword).order_by(
        Article.pinned.desc(), Article.published_at.desc(), Article.id.desc()
    )
    return _page(q, page, size)


def panels() -> dict[str, list[dict[str, Any]]]:
    """The portal's four article panels; hot topics by views."""
    now = utcnow()
    db = session()
    result: dict[str, list[dict[str, Any]]] = {}
    for category in CATEGORIES:
        q = select(Article).where(_visible(now), Article.category == category)
        order = (
            (Article.views.desc(),)
            if category == "hot"
            else (Article.pinned.desc(), Article.published_at.desc())
        )
        rows = db.execute(q.order_by(*order, Article.id.desc()).limit(PANEL_SIZE)).scalars().all()
        result[category] = [out(r) for r in rows]
    return result


def _count_view(article: Article) -> dict[str, Any]:
    """Count one view in the database (no read-modify-write) and answer the article as the reader sees it."""
    session().execute(
        update(Article)
        .where(Article.id == article.id)
        .values(views=Article.views + 1)
        .execution_options(synchronize_session=False)
    )
    data = out(article, content=True)
    data["views"] += 1
    return data


def read(article_id: int) -> dict[str, Any]:
    """A published article for a signed-in reader of its tenant; counts the view."""
    row = session().execute(select(Article).where(Article.id == article_id, _visible(utcnow()))).scalar()
    if row is None:
        raise NotFound("portal:not_found", id=article_id)
    return _count_view(row)


def read_public(article_id: int) -> dict[str, Any]:
    """An article read without a session: only published public ones of a tenant with the portal on."""
    with unscoped():
        row = session().execute(select(Article).where(Article.id == article_id, _visible(utcnow()))).scalar()
        if row is None or not row.public or not services().is_enabled(row.tenant_id, "portal"):
            raise NotFound("portal:not_found", id=article_id)
        data = _count_view(row)
        if row.cover_url:
            data["coverSrc"] = _shared_cover(row.tenant_id, row.cover_url)
        return data


def _shared_cover(tenant_id: int, url: str) -> str | None:
    """A signed address of a stored cover, from the plugin that keeps the tenant's files."""
    svc = services()
    answers = svc.call_hook("atrium_shared_file_url", tenant_id=tenant_id, url=url)
    return next((u for plugin, u in answers.items() if u and svc.is_enabled(tenant_id, plugin)), None)


# administration ----------------------------------------------------------------------------------------


def manage_list(category: str, keyword: str, status: str, page: int, size: int) -> dict[str, Any]:
    q = _search(select(Article), category, keyword)
    if status:
        q = q.where(Article.status == status)
    return _page(q.order_by(Article.updated_at.desc(), Article.id.desc()), page, size)


def get(article_id: int) -> Article:
    """An article of the current tenant (other tenants' ids answer as unknown)."""
    row = session().execute(select(Article).where(Article.id == article_id)).scalar()
    if row is None:
        raise NotFound("portal:not_found", id=article_id)
    return row


def save(draft: Draft, article_id: int | None) -> dict[str, Any]:
    su = current_user()
    if draft.publish_start and draft.publish_end and draft.publish_end <= draft.publish_start:
        raise BadRequest("portal:window_invalid")
    if article_id is None:
        row = Article(status=DRAFT, views=0, author_id=su.user_id, author_name=su.full_name[:64])
        session().add(row)
    else:
        row = get(article_id)
    row.category, row.title, row.summary = draft.category, draft.title, draft.summary
    row.cover_url, row.content = draft.cover_url, sanitise(draft.content)
    row.pinned, row.public = draft.pinned, draft.public
    row.publish_start, row.publish_end = draft.publish_start, draft.publish_end
    session().flush()
    return out(row, content=True)


def set_status(article_id: int, status: str) -> dict[str, Any]:
    row = get(article_id)
    row.status = status
    if status == PUBLISHED:
        row.published_at = utcnow()
    session().flush()
    return out(row)


def delete(article_id: int) -> None:
    session().delete(get(article_id))


def knowledge(tenant_id: int) -> list[dict[str, Any]]:
    """A tenant's published articles for the help plugin's retrieval index."""
    if current_context().db is None:  # asked outside a request or job: open a session for it
        with services().db():
            return knowledge(tenant_id)
    with tenant_scope(tenant_id):
        rows = (
            session().execute(select(Article).where(_visible(utcnow())).order_by(Article.id)).scalars().all()
        )
    return [
        {
            "id": str(a.id),
            "title": a.title,
            "content": a.content or a.summary,
            "url": f"/knowledge-details?id={a.id}",
            "locale": "",
        }
        for a in rows
    ]


def seed(tenant_id: int, articles: list[dict[str, Any]]) -> None:
    """Store demo articles for a tenant, published."""
    with tenant_scope(tenant_id):
        db = session()
        for a in articles:
            db.add(Article(**{**a, "content": sanitise(a["content"])}, status=PUBLISHED, author_name="Admin"))
        db.flush()
