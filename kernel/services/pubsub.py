"""Publish/subscribe across server processes: in-process by default, Redis channels when configured.

Publishing is safe from any thread; subscribers are coroutines run on the server's event loop. With Redis,
a process that lost its subscription (Redis restarted, the connection dropped) subscribes again as soon as
Redis answers, then tells its own subscribers of `RESUMED` that messages may have been missed meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import defaultdict, deque
from typing import Any

import orjson
import redis
import redis.asyncio as aioredis
import structlog

from atrium.sdk.services import Subscriber

log = structlog.get_logger("atrium.pubsub")

#: delivered in-process (never published) after a lost subscription is back: messages may have been missed
RESUMED = "pubsub.resumed"


class _Fanout:
    def __init__(self) -> None:
        self.subscribers: dict[str, list[Subscriber]] = defaultdict(list)
        self.loop: asyncio.AbstractEventLoop | None = None

    def subscribe(self, channel: str, callback: Subscriber) -> None:
        self.subscribers[channel].append(callback)

    async def deliver(self, channel: str, message: dict[str, Any]) -> None:
        for cb in list(self.subscribers.get(channel, ())):
            try:
                await cb(message)
            except Exception:
                log.exception("subscriber failed", channel=channel)


class MemoryPubSub(_Fanout):
    """Delivery within this process. A message published from a worker thread is queued and the loop woken
    once for everything queued until it runs (a step's letter publishes twice in a row: waking the loop
    for each costs a thread switch each)."""

    def __init__(self) -> None:
        super().__init__()
        self._queued: deque[tuple[str, dict[str, Any]]] = deque()
        self._lock = threading.Lock()
        self._woken = False

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()

    async def stop(self) -> None:
        self.loop = None

    def publish(self, channel: str, message: dict[str, Any]) -> None:
        loop = self.loop
        if loop is None:
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            loop.create_task(self.deliver(channel, message))
            return
        with self._lock:
            self._queued.append((channel, message))
            if self._woken:
                return
            self._woken = True
        loop.call_soon_threadsafe(self._drain, loop)

    def _drain(self, loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            items = list(self._queued)
            self._queued.clear()
            self._woken = False
        for channel, message in items:
            loop.create_task(self.deliver(channel, message))


def compact_json(value: Any) -> bytes:
    """Compact UTF-8 JSON through orjson, for speed (a letter to a whole tenant is one message of thousands
    of frames); what it refuses (keys that are not strings, integers beyond 64 bits) goes through the
    standard encoder, written the same way."""
    try:
        return orjson.dumps(value, default=str)
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(value, default=str, separators=(",", ":"), ensure_ascii=False).encode()


def _decoded(data: bytes) -> Any:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:  # the NaN and Infinity the standard encoder writes
        return json.loads(data)


class RedisPubSub(_Fanout):
    def __init__(self, url: str, prefix: str = "atrium:ps:") -> None:
        super().__init__()
        self.url = url
        self.prefix = prefix
        self.sync = redis.Redis.from_url(url)
        self._task: asyncio.Task[None] | None = None
        self._client: aioredis.Redis | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._client = aioredis.Redis.from_url(self.url)
        self._ready = asyncio.Event()
        self._task = asyncio.create_task(self._listen())
        await asyncio.wait_for(self._ready.wait(), 10)

    async def _listen(self) -> None:
        assert self._client is not None
        pause = 0.2
        while True:
            ps = self._client.pubsub()
            try:
                await ps.psubscribe(self.prefix + "*")
                if self._ready.is_set():
                    log.info("pub/sub subscribed again")
                    await self.deliver(RESUMED, {})
                self._ready.set()
                pause = 0.2
                async for item in ps.listen():
                    if item.get("type") != "pmessage":
                        continue
                    channel = item["channel"].decode()[len(self.prefix) :]
                    try:
                        message = _decoded(item["data"])
                    except ValueError:
                        continue
                    await self.deliver(channel, message)
            except asyncio.CancelledError:
                return
            except (redis.RedisError, OSError) as exc:
                log.warning("pub/sub lost Redis, subscribing again", error=str(exc)[:200], retry_in=pause)
            finally:
                try:
                    await ps.aclose()  # type: ignore[no-untyped-call]
                except (redis.RedisError, OSError):
                    pass
            try:
                await asyncio.sleep(pause)
            except asyncio.CancelledError:
                return
            pause = min(pause * 2, 5.0)

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self._client:
            await self._client.aclose()
        self.sync.close()

    def publish(self, channel: str, message: dict[str, Any]) -> None:
        self.sync.publish(self.prefix + channel, compact_json(message))
