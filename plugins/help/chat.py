"""The knowledge chat: retrieval, then an answer streamed as Server-Sent Events.

Events, each ``event: <name>`` with a JSON ``data`` line:

- ``meta``: ``{session, mode, passages}`` first, at once (``mode`` is ``llm`` or ``passages``);
- ``token``: ``{text}`` pieces of the answer, in order;
- ``error``: ``{code, msg}`` when the language model fails or times out (the answer so far stands);
- ``done``: ``{session, mode}`` last; the stream then closes.

Without a configured endpoint the answer is the best passages themselves, introduced by a sentence
saying so (``mode: passages``). Comment lines (``: ping``) keep a quiet connection open.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse

from atrium.plugins.help import service
from atrium.plugins.help.llm import LlmError, LlmTimeout, stream_chat
from atrium.sdk.context import current_context, current_tenant, current_user
from atrium.sdk.services import services

PING_SECONDS = 15.0
LANGUAGES = {
    "zh-cn": "Simplified Chinese",
    "zh-tw": "Traditional Chinese",
    "en-us": "English",
    "vi-vn": "Vietnamese",
    "hu-hu": "Hungarian",
}
SYSTEM_PROMPT = (
    "You answer questions about an enterprise portal using only the numbered passages from its help "
    "documents. Cite the passages you use as [n]. If they do not contain the answer, say so briefly. "
    "Answer in {language}."
)


@dataclass
class ChatPlan:
    """Everything the stream needs, gathered inside the request (the stream itself has no database)."""

    tenant_id: int
    user_id: int
    session_id: str
    question: str
    passages: list[dict[str, Any]]
    endpoint: service.Endpoint | None
    history: list[dict[str, str]] = field(default_factory=list)
    locale: str = "zh-cn"
    texts: dict[str, str] = field(default_factory=dict)

    @property
    def mode(self) -> str:
        return "llm" if self.endpoint else "passages"


def prepare(prompt: str, top: int, access: str, model: str, session_id: str) -> ChatPlan:
    """Validate, retrieve and load the endpoint and history; raises the envelope's errors."""
    question = service.check_prompt(prompt)
    ctx = current_context()
    user = current_user()
    sid = session_id if service.SESSION_ID.match(session_id or "") else secrets.token_urlsafe(12)
    found = service.retrieve(question, max(1, min(top, service.TOP_MAX)), access)
    svc = services()
    return ChatPlan(
        tenant_id=current_tenant(),
        user_id=user.user_id,
        session_id=sid,
        question=question,
        passages=[service.passage_out(i + 1, p, s) for i, (p, s) in enumerate(found)],
        endpoint=service.active_endpoint(model),
        history=service.history(sid),
        locale=ctx.locale,
        texts={
            "passages_only": svc.t("help:passages_only"),
            "no_passages": svc.t("help:no_passages"),
            "failed": svc.t("help:llm_failed"),
        },
    )


def sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def messages_for(plan: ChatPlan) -> list[dict[str, str]]:
    context = "\n\n".join(f"[{p['index']}] {p['title']}\n{p['text']}" for p in plan.passages) or "(none)"
    system = SYSTEM_PROMPT.format(language=LANGUAGES.get(plan.locale, "the user's language"))
    return [
        {"role": "system", "content": system},
        *plan.history,
        {"role": "user", "content": f"Passages:\n{context}\n\nQuestion: {plan.question}"},
    ]


async def _with_pings(pieces: AsyncIterator[str]) -> AsyncIterator[str | None]:
    """The pieces, with None whenever nothing came for PING_SECONDS (the caller sends a comment)."""
    nxt: asyncio.Future[str] | None = None
    try:
        while True:
            if nxt is None:
                nxt = asyncio.ensure_future(pieces.__anext__())
            done, _ = await asyncio.wait({nxt}, timeout=PING_SECONDS)
            if not done:
                yield None
                continue
            try:
                piece = nxt.result()
            except StopAsyncIteration:
                return
            nxt = None
            yield piece
    finally:  # the reader went away or the model finished: stop the pending read, then the upstream stream
        if nxt is not None and not nxt.done():
            nxt.cancel()
            await asyncio.wait({nxt})
        aclose = getattr(pieces, "aclose", None)
        if aclose is not None:
            await aclose()


async def events(plan: ChatPlan, timeout_text: str) -> AsyncIterator[bytes]:
    yield sse("meta", {"session": plan.session_id, "mode": plan.mode, "passages": plan.passages})
    answer: list[str] = []
    if plan.endpoint is None:
        intro = plan.texts["passages_only"] if plan.passages else plan.texts["no_passages"]
        answer.append(intro)
        yield sse("token", {"text": intro})
        for p in plan.passages:
            cited = f"\n\n[{p['index']}] {p['title']}\n{p['text']}"
            answer.append(cited)
            yield sse("token", {"text": cited})
    else:
        ep = plan.endpoint
        try:
            pieces = stream_chat(ep.base_url, ep.model, ep.key, messages_for(plan), ep.timeout)
            async for piece in _with_pings(pieces):
                if piece is None:
                    yield b": ping\n\n"
                    continue
                answer.append(piece)
                yield sse("token", {"text": piece})
        except LlmTimeout:
            yield sse("error", {"code": 504, "msg": timeout_text})
        except LlmError as exc:
            yield sse("error", {"code": 502, "msg": f"{plan.texts['failed']} ({exc.status}: {exc.detail})"})
    if answer:
        await run_in_threadpool(
            service.remember, plan.tenant_id, plan.user_id, plan.session_id, plan.question, "".join(answer)
        )
    yield sse("done", {"session": plan.session_id, "mode": plan.mode})


def respond(plan: ChatPlan) -> StreamingResponse:
    timeout_text = ""
    if plan.endpoint is not None:
        timeout_text = services().t("help:llm_timeout", seconds=int(plan.endpoint.timeout))
    headers = {"cache-control": "no-cache", "x-accel-buffering": "no"}
    return StreamingResponse(events(plan, timeout_text), media_type="text/event-stream", headers=headers)
