"""Help documents, the help centre's search, the tenant's language-model endpoint and chat sessions.

No HTTP here: the API module validates input and calls these functions inside a request's session.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import event, select

from atrium.plugins.help import crypto
from atrium.plugins.help.models import AssistantEndpoint, HelpDocument
from atrium.plugins.help.search import indexes
from atrium.plugins.help.text import Passage, passages, plain_text, sanitise
from atrium.sdk.context import DEFAULT_LOCALE, current_context, current_tenant, current_user
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, NotFound
from atrium.sdk.services import services

MAX_PROMPT = 4000
TOP_MAX = 10
HISTORY_TURNS = 6
HISTORY_TTL = 86_400.0
MAX_SESSIONS = 20
SOURCES = ("help", "portal")
SESSION_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


# -- documents ---------------------------------------------------------------


def doc_out(row: HelpDocument, full: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": str(row.id),
        "menuCode": row.menu_code,
        "locale": row.locale,
        "title": row.title,
        "manualUrl": row.manual_url,
        "summary": row.text[:160],
        "sort": row.sort,
        "updatedAt": row.updated_at.strftime("%Y-%m-%d %H:%M"),
    }
    if full:
        out["content"] = row.content
    return out


def _locale_rows(menu_code: str | None = None) -> list[HelpDocument]:
    """The tenant's documents in the request's locale, else the default locale's, else any."""
    q = select(HelpDocument).order_by(HelpDocument.sort, HelpDocument.id)
    if menu_code is not None:
        q = q.where(HelpDocument.menu_code == menu_code)
    rows = list(session().execute(q).scalars())
    locale = current_context().locale
    for wanted in (locale, DEFAULT_LOCALE):
        picked = [r for r in rows if r.locale == wanted]
        if picked:
            return picked
    return rows


def list_docs(keyword: str, menu_code: str, page: int, rows: int) -> dict[str, Any]:
    """The help centre: documents of the tenant in the caller's language, searched by keyword."""
    current_tenant()
    found = _locale_rows(menu_code or None)
    if keyword.strip():
        order: dict[str, int] = {}
        for passage, _score in retrieve(keyword, 50, "help", cut=False):
            order.setdefault(passage.doc_key, len(order))
        by_key = {f"help:{r.id}": r for r in found}
        found = [by_key[k] for k in order if k in by_key]
    start = (page - 1) * rows
    return {"total": len(found), "list": [doc_out(r, full=False) for r in found[start : start + rows]]}


def detail(doc_id: int) -> dict[str, Any]:
    current_tenant()
    row = session().get(HelpDocument, doc_id)
    if row is None:
        raise NotFound("help:not_found", id=doc_id)
    return doc_out(row)


def for_menu(menu_code: str) -> list[dict[str, Any]]:
    """The documents attached to a menu, in the caller's language (empty: none exists yet)."""
    current_tenant()
    return [doc_out(r) for r in _locale_rows(menu_code)]


def save_doc(
    doc_id: int | None, menu_code: str, locale: str, title: str, content: str, manual_url: str, sort: int
) -> dict[str, Any]:
    tenant_id = current_tenant()
    db = session()
    row: HelpDocument | None
    if doc_id is not None:
        row = db.get(HelpDocument, doc_id)
        if row is None:
            raise NotFound("help:not_found", id=doc_id)
    else:
        row = HelpDocument()
        db.add(row)
    clean = sanitise(content)
    row.menu_code, row.locale, row.title = menu_code, locale, title
    row.content, row.text = clean, plain_text(clean)
    row.manual_url, row.sort = manual_url, sort
    row.updated_by = current_user().user_id
    db.flush()
    _documents_changed(tenant_id)
    return doc_out(row)


def delete_doc(doc_id: int) -> None:
    tenant_id = current_tenant()
    row = session().get(HelpDocument, doc_id)
    if row is None:
        raise NotFound("help:not_found", id=doc_id)
    session().delete(row)
    session().flush()
    _documents_changed(tenant_id)


def _documents_changed(tenant_id: int) -> None:
    """Mark the tenant's indexes stale now and again once the write commits: a question asked in between
    builds from the rows committed before it, and that index must not outlive the commit."""
    indexes.bump(tenant_id)
    event.listen(session(), "after_commit", lambda _s: indexes.bump(tenant_id), once=True)


# -- retrieval ---------------------------------------------------------------


def _articles(tenant_id: int, locale: str) -> list[Passage]:
    """Portal articles other plugins offer through ``atrium_knowledge_articles``."""
    out: list[Passage] = []
    answers = services().call_hook("atrium_knowledge_articles", tenant_id=tenant_id, locale=locale)
    for plugin, articles in answers.items():
        for art in articles or []:
            text = plain_text(sanitise(str(art.get("content") or "")))
            title = str(art.get("title") or "")
            key = f"{plugin}:{art.get('id', '')}"
            out.extend(
                passages(
                    key, title, text, "portal", str(art.get("locale") or locale), str(art.get("url") or "")
                )
            )
    return out


def load_passages(tenant_id: int, locale: str) -> tuple[list[Passage], bool]:
    found: list[Passage] = []
    for row in _locale_rows():
        found.extend(passages(f"help:{row.id}", row.title, row.text, "help", row.locale, row.manual_url))
    articles = _articles(tenant_id, locale)
    return found + articles, bool(articles)


def retrieve(prompt: str, top: int, access: str = "all", cut: bool = True) -> list[tuple[Passage, float]]:
    """The caller's tenant's documents (never another's) relevant to a question, best first, each once by
    its best passage; ``cut``: without those far below the best (see ``search``), as the chat cites them."""
    tenant_id = current_tenant()
    locale = current_context().locale
    index = indexes.get(tenant_id, locale, lambda: load_passages(tenant_id, locale))
    return index.search(prompt, top, access if access in SOURCES else None, cut)


def passage_out(rank: int, passage: Passage, score: float) -> dict[str, Any]:
    kind, _, ident = passage.doc_key.partition(":")
    return {
        "index": rank,
        "docId": ident if kind == "help" else passage.doc_key,
        "source": passage.source,
        "title": passage.title,
        "text": passage.text,
        "url": passage.url,
        "score": round(score, 4),
    }


def check_prompt(prompt: str) -> str:
    text = prompt.strip()
    if not text:
        raise BadRequest("help:prompt_empty")
    if len(text) > MAX_PROMPT:
        raise BadRequest("help:prompt_too_long", max=MAX_PROMPT, length=len(text))
    return text


# -- the language-model endpoint ----------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    base_url: str
    model: str
    key: str
    timeout: float


def endpoint_row() -> AssistantEndpoint | None:
    return session().execute(select(AssistantEndpoint)).scalar()


def endpoint_out() -> dict[str, Any]:
    current_tenant()
    row = endpoint_row()
    return {
        "baseUrl": row.base_url if row else "",
        "model": row.model if row else "",
        "hasKey": bool(row and row.key_enc),
        "timeoutSeconds": row.timeout_seconds if row else 30,
        "enabled": row.enabled if row else 0,
    }


def save_endpoint(base_url: str, model: str, key: str | None, timeout: int, enabled: int) -> dict[str, Any]:
    """Store the endpoint; ``key`` None keeps the stored key, '' removes it."""
    tenant_id = current_tenant()
    row = endpoint_row()
    if row is None:
        row = AssistantEndpoint()
        session().add(row)
    row.base_url, row.model, row.timeout_seconds, row.enabled = base_url, model, timeout, enabled
    if key is not None:
        row.key_enc = crypto.encrypt(key)
    row.updated_by = current_user().user_id
    session().flush()
    services().cache.delete(f"help:endpoint:{tenant_id}")
    return endpoint_out()


def active_endpoint(model: str = "") -> Endpoint | None:
    row = endpoint_row()
    if row is None or not row.enabled or not row.base_url or not (model or row.model):
        return None
    return Endpoint(row.base_url, model or row.model, crypto.decrypt(row.key_enc), float(row.timeout_seconds))


# -- chat sessions (kept per user in the shared cache, cleared on logout) -------


def _chat_key(tenant_id: int, user_id: int, session_id: str) -> str:
    return f"help:chat:{tenant_id}:{user_id}:{session_id}"


def _list_key(user_id: int) -> str:
    return f"help:chats:{user_id}"


def history(session_id: str) -> list[dict[str, str]]:
    tenant_id = current_tenant()
    user = current_user()
    found: Any = services().cache.get(_chat_key(tenant_id, user.user_id, session_id))
    return list(found or [])


def remember(tenant_id: int, user_id: int, session_id: str, question: str, answer: str) -> None:
    cache = services().cache
    key = _chat_key(tenant_id, user_id, session_id)
    turns = list(cache.get(key) or [])
    turns += [{"role": "user", "content": question}, {"role": "assistant", "content": answer}]
    cache.set(key, turns[-2 * HISTORY_TURNS :], ttl=HISTORY_TTL)
    keys = [k for k in (cache.get(_list_key(user_id)) or []) if k != key]
    cache.set(_list_key(user_id), (keys + [key])[-MAX_SESSIONS:], ttl=HISTORY_TTL)


def clear_sessions(user_id: int) -> None:
    """Forget every chat of a user (sign-out)."""
    cache = services().cache
    for key in cache.pop(_list_key(user_id)) or []:
        cache.delete(key)
