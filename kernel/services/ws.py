"""The WebSocket hub: sockets subscribe to keys bound to their own tenant and user; payloads fan out
through the pub/sub so a send from any process reaches sockets held by every process."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from atrium.kernel.services.pubsub import compact_json
from atrium.sdk.services import PubSub

SEND_CHANNEL = "ws.send"
CLOSE_CHANNEL = "ws.close"


def ws_key(sub_key: str, tenant_id: int, user_id: int, system_code: str) -> str:
    return f"{sub_key}:{tenant_id}:{user_id}:{system_code}"


class Hub:
    def __init__(self, pubsub: PubSub) -> None:
        self.pubsub = pubsub
        self.by_key: dict[str, set[WebSocket]] = defaultdict(set)
        self.by_user: dict[int, set[WebSocket]] = defaultdict(set)
        self.session_of: dict[WebSocket, str] = {}  # the hash of the access token a socket opened with
        pubsub.subscribe(SEND_CHANNEL, self._on_send)
        pubsub.subscribe(CLOSE_CHANNEL, self._on_close)

    def add(self, ws: WebSocket, user_id: int, session: str = "") -> None:
        self.by_user[user_id].add(ws)
        if session:
            self.session_of[ws] = session

    def subscribe(self, ws: WebSocket, key: str) -> None:
        self.by_key[key].add(ws)

    def remove(self, ws: WebSocket, user_id: int) -> None:
        self.session_of.pop(ws, None)
        self.by_user[user_id].discard(ws)
        if not self.by_user[user_id]:
            self.by_user.pop(user_id, None)
        for key in [k for k, socks in self.by_key.items() if ws in socks]:
            self.by_key[key].discard(ws)
            if not self.by_key[key]:
                self.by_key.pop(key, None)

    def send(self, key: str, payload: dict[str, Any]) -> None:
        self.pubsub.publish(SEND_CHANNEL, {"key": key, "payload": payload})

    def send_many(self, items: list[tuple[str, dict[str, Any]]]) -> None:
        """Many keys in one pub/sub message: a letter to a thousand users is one publish, not a thousand."""
        if items:
            self.pubsub.publish(SEND_CHANNEL, {"batch": [[key, payload] for key, payload in items]})

    def close_user(self, user_id: int, reason: str) -> None:
        self.pubsub.publish(CLOSE_CHANNEL, {"userId": user_id, "reason": reason})

    def close_sessions(self, user_id: int, sessions: list[str], reason: str) -> None:
        """Close only the user's sockets opened with these access tokens (by hash), e.g. on sign-out:
        the user's other sessions keep theirs."""
        self.pubsub.publish(CLOSE_CHANNEL, {"userId": user_id, "reason": reason, "sessions": sessions})

    def connection_count(self) -> int:
        return sum(len(s) for s in self.by_user.values())

    async def _on_send(self, message: dict[str, Any]) -> None:
        """Each payload held by this process is encoded once and written to its sockets; a batch for
        thousands of keys, most of them held by other processes, costs one dict lookup per key.

        The writes are awaited one after another, not gathered: uvicorn's socket write only hands the
        frame to the transport's buffer (it never waits for the peer), so a task per socket would cost
        more than the write itself."""
        items = message["batch"] if "batch" in message else [(message["key"], message["payload"])]
        for key, payload in items:
            sockets = self.by_key.get(key)
            if sockets:
                text = compact_json(payload).decode()  # as Starlette's `send_json` writes it
                for ws in list(sockets):
                    await self._deliver(ws, text)

    @staticmethod
    async def _deliver(ws: WebSocket, text: str) -> None:
        try:
            if ws.application_state == WebSocketState.CONNECTED:
                await ws.send({"type": "websocket.send", "text": text})
        except Exception:  # a socket closing while we write is not an error of the sender
            pass

    async def _on_close(self, message: dict[str, Any]) -> None:
        only = message.get("sessions")
        for ws in list(self.by_user.get(int(message["userId"]), ())):
            if only is not None and self.session_of.get(ws) not in only:
                continue
            try:
                await ws.send_json({"code": -1, "type": "logout", "msg": message.get("reason", "")})
                await ws.close(code=4001, reason=str(message.get("reason", ""))[:120])
            except Exception:
                pass
