"""The help plugin's HTTP API: documents and help centre (`/api/help`), knowledge chat (`/api/aigc`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, HttpUrl, StringConstraints
from starlette.responses import StreamingResponse

from atrium.plugins.help import chat, service
from atrium.sdk.context import current_user
from atrium.sdk.routing import Router

router = Router()
HELP = "/api/help"
AIGC = "/api/aigc"

MenuCode = Annotated[
    str, StringConstraints(strip_whitespace=True, max_length=64, pattern=r"^[A-Za-z0-9_.:/-]*$")
]
Locale = Literal["zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu"]


class DocListQuery(BaseModel):
    keyword: Annotated[str, StringConstraints(max_length=200)] = ""
    menuCode: MenuCode = ""
    pageIndex: int = Field(default=1, ge=1, le=10_000)
    pageRows: int = Field(default=20, ge=1, le=100)


class DocIdQuery(BaseModel):
    id: int = Field(ge=1)


class MenuQuery(BaseModel):
    menuCode: MenuCode


class DocOut(BaseModel):
    id: str
    menuCode: str
    locale: str
    title: str
    manualUrl: str
    summary: str
    sort: int
    updatedAt: str
    content: str = ""


class DocPage(BaseModel):
    total: int
    list: list[DocOut]


@router.get(f"{HELP}/doc/list", query=DocListQuery, response=DocPage)
def doc_list(query: DocListQuery) -> dict[str, Any]:
    """The help centre: the tenant's documents in the caller's language, searched by keyword and paged."""
    return service.list_docs(query.keyword, query.menuCode, query.pageIndex, query.pageRows)


@router.get(f"{HELP}/doc/detail", query=DocIdQuery, response=DocOut)
def doc_detail(query: DocIdQuery) -> dict[str, Any]:
    """One document with its sanitised HTML (also what `/knowledge-details` shows for a help article)."""
    return service.detail(query.id)


@router.get(f"{HELP}/doc/for-menu", query=MenuQuery, response=list[DocOut])
def doc_for_menu(query: MenuQuery) -> list[dict[str, Any]]:
    """The documents attached to a menu in the caller's language; empty when none exists yet."""
    return service.for_menu(query.menuCode)


class DocIn(BaseModel):
    id: int | None = Field(default=None, ge=1)
    menuCode: MenuCode = ""
    locale: Locale = "zh-cn"
    title: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
    content: Annotated[str, StringConstraints(max_length=200_000)] = ""
    manualUrl: HttpUrl | Literal[""] = ""
    sort: int = Field(default=0, ge=0, le=10_000)


@router.post(f"{HELP}/admin/doc/save", permission="admin", body=DocIn, response=DocOut)
def doc_save(body: DocIn) -> dict[str, Any]:
    """Create or update a document (administrators); its HTML is sanitised before it is stored."""
    return service.save_doc(
        body.id, body.menuCode, body.locale, body.title, body.content, str(body.manualUrl), body.sort
    )


@router.post(f"{HELP}/admin/doc/delete", permission="admin", body=DocIdQuery)
def doc_delete(body: DocIdQuery) -> None:
    """Delete a document (administrators)."""
    service.delete_doc(body.id)


# -- the knowledge chat --------------------------------------------------------


class ChatQuery(BaseModel):
    """The spec's knowledge-chat parameters: top 5, access, model, session, prompt."""

    prompt: Annotated[str, StringConstraints(max_length=64_000)] = ""
    top: int = Field(default=5, ge=1, le=service.TOP_MAX)
    access: Literal["all", "help", "portal", ""] = "all"
    model: Annotated[
        str, StringConstraints(strip_whitespace=True, max_length=128, pattern=r"^[\w.:/@-]*$")
    ] = ""
    session: Annotated[str, StringConstraints(max_length=64)] = ""


class PassageOut(BaseModel):
    index: int
    docId: str
    source: str
    title: str
    text: str
    url: str
    score: float


class SearchOut(BaseModel):
    passages: list[PassageOut]


@router.get(f"{AIGC}/knowledge/search", query=ChatQuery, response=SearchOut)
def knowledge_search(query: ChatQuery) -> dict[str, Any]:
    """The passages the chat would cite for a question (tenant-scoped BM25 retrieval)."""
    question = service.check_prompt(query.prompt)
    found = service.retrieve(question, query.top, query.access or "all")
    return {"passages": [service.passage_out(i + 1, p, s) for i, (p, s) in enumerate(found)]}


@router.get(f"{AIGC}/knowledge/chat", query=ChatQuery)
def knowledge_chat(query: ChatQuery) -> StreamingResponse:
    """Answer a question as Server-Sent Events (meta, token..., error?, done); bad input: the envelope."""
    plan = chat.prepare(query.prompt, query.top, query.access or "all", query.model, query.session)
    return chat.respond(plan)


@router.post(f"{AIGC}/knowledge/chat", body=ChatQuery)
def knowledge_chat_post(body: ChatQuery) -> StreamingResponse:
    """The same stream with the question in the body (long prompts do not fit a URL)."""
    return chat.respond(chat.prepare(body.prompt, body.top, body.access or "all", body.model, body.session))


class SessionQuery(BaseModel):
    session: Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


@router.get(f"{AIGC}/session/history", query=SessionQuery)
def session_history(query: SessionQuery) -> list[dict[str, str]]:
    """The caller's turns of one chat session (kept until sign-out or a day of silence)."""
    return service.history(query.session)


@router.post(f"{AIGC}/session/clear")
def session_clear() -> None:
    """Forget the caller's chats."""
    service.clear_sessions(current_user().user_id)


class EndpointOut(BaseModel):
    baseUrl: str
    model: str
    hasKey: bool
    timeoutSeconds: int
    enabled: int


class EndpointIn(BaseModel):
    baseUrl: HttpUrl | Literal[""] = ""
    model: Annotated[
        str, StringConstraints(strip_whitespace=True, max_length=128, pattern=r"^[\w.:/@-]*$")
    ] = ""
    apiKey: Annotated[str, StringConstraints(strip_whitespace=True, max_length=512)] | None = Field(
        default=None, description="null keeps the stored key, empty removes it"
    )
    timeoutSeconds: int = Field(default=30, ge=1, le=300)
    enabled: int = Field(default=1, ge=0, le=1)


@router.get(f"{AIGC}/admin/endpoint", permission="admin", response=EndpointOut)
def endpoint_get() -> dict[str, Any]:
    """The tenant's language-model endpoint (the key is never shown, only whether one is stored)."""
    return service.endpoint_out()


@router.post(f"{AIGC}/admin/endpoint/save", permission="admin", body=EndpointIn, response=EndpointOut)
def endpoint_save(body: EndpointIn) -> dict[str, Any]:
    """Store the tenant's OpenAI-compatible endpoint (base URL, model, key stored encrypted, time-out)."""
    return service.save_endpoint(
        str(body.baseUrl).rstrip("/"), body.model, body.apiKey, body.timeoutSeconds, body.enabled
    )
