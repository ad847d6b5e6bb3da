"""An OpenAI-compatible `/chat/completions` client that streams the answer's tokens.

Errors come out as :class:`LlmError` (the endpoint refused, answered garbage or an error event) or
:class:`LlmTimeout` (no byte within the tenant's limit), so the chat stream can end with a clear message.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx


class LlmError(Exception):
    def __init__(self, status: int, detail: str) -> None:
        self.status = status
        self.detail = detail[:300]
        super().__init__(f"{status}: {self.detail}")


class LlmTimeout(LlmError):
    def __init__(self) -> None:
        super().__init__(504, "timed out")


def _error_detail(raw: bytes) -> str:
    try:
        body: Any = json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace").strip()
    err = body.get("error") if isinstance(body, dict) else None
    if isinstance(err, dict):
        return str(err.get("message") or err.get("type") or err)
    return str(err or body)


async def stream_chat(
    base_url: str, model: str, key: str, messages: list[dict[str, str]], timeout: float,
    transport: httpx.AsyncBaseTransport | None = None,
) -> AsyncIterator[str]:
    """Yield the answer's text pieces as the endpoint streams them (``data: {...}`` lines, ``[DONE]``)."""
    url = base_url.rstrip("/") + "/chat/completions"
    headers = {"accept": "text/event-stream"}
    if key:
        headers["authorization"] = f"Bearer {key}"
    payload = {"model": model, "messages": messages, "stream": True}
    limits = httpx.Timeout(timeout, connect=min(timeout, 10.0))
    try:
        async with (
            httpx.AsyncClient(timeout=limits, transport=transport, follow_redirects=False) as client,
            client.stream("POST", url, json=payload, headers=headers) as resp,
        ):
            if resp.status_code >= 400:
                raise LlmError(resp.status_code, _error_detail(await resp.aread()))
            async for line in resp.aiter_lines():
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    return
                try:
                    chunk: Any = json.loads(data)
                except ValueError as exc:
                    raise LlmError(502, "malformed stream") from exc
                if not isinstance(chunk, dict):
                    raise LlmError(502, "malformed stream")
                if chunk.get("error"):
                    raise LlmError(502, _error_detail(json.dumps(chunk).encode()))
                for choice in chunk.get("choices") or []:
                    piece = ((choice or {}).get("delta") or {}).get("content")
                    if isinstance(piece, str) and piece:
                        yield piece
    except httpx.TimeoutException as exc:
        raise LlmTimeout() from exc
    except httpx.HTTPError as exc:
        raise LlmError(502, type(exc).__name__) from exc
