"""Fan-out of match notices: in memory for one process, Redis pub/sub for several.

Callers only see `publish(channel, message)` and `async with hub.subscribe(channel) as inbox`,
which always unsubscribes on exit. Messages are small JSON notices ("match M is at version
v"); every process turns them into per-viewer patches from its own cache or the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any, Protocol

QUEUE_LIMIT = 1000  # a subscriber this far behind is dropped rather than eating memory


class Inbox:
    def __init__(self) -> None:
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE_LIMIT)
        self.overflowed = False

    def put(self, message: dict[str, Any]) -> None:
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True

    async def get(self) -> dict[str, Any]:
        return await self.queue.get()


class Hub(Protocol):
    async def start(self) -> None: ...
    async def stop(self) -> None: ...
    async def publish(self, channel: str, message: dict[str, Any]) -> None: ...
    def subscribe(self, channel: str) -> contextlib.AbstractAsyncContextManager[Inbox]: ...


class _LocalFanout:
    def __init__(self) -> None:
        self._subscribers: defaultdict[str, set[Inbox]] = defaultdict(set)

    def deliver(self, channel: str, message: dict[str, Any]) -> None:
        for inbox in list(self._subscribers.get(channel, ())):
            inbox.put(message)

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[Inbox]:
        inbox = Inbox()
        self._subscribers[channel].add(inbox)
        try:
            yield inbox
        finally:
            subscribers = self._subscribers.get(channel)
            if subscribers is not None:
                subscribers.discard(inbox)
                if not subscribers:
                    del self._subscribers[channel]


class MemoryHub(_LocalFanout):
    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        self.deliver(channel, message)


class RedisHub(_LocalFanout):
    """One Redis pattern subscription per process, dispatched to local inboxes."""

    PREFIX = "arcade:"

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis.asyncio as redis

        self._redis = redis.from_url(url)
        self._pubsub = self._redis.pubsub()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self._pubsub.psubscribe(self.PREFIX + "*")
        self._task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._pubsub.aclose()
        await self._redis.aclose()

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        await self._redis.publish(self.PREFIX + channel, json.dumps(message))

    async def _listen(self) -> None:
        async for item in self._pubsub.listen():
            if item.get("type") != "pmessage":
                continue
            channel = item["channel"].decode()[len(self.PREFIX) :]
            self.deliver(channel, json.loads(item["data"]))


def make_hub(redis_url: str | None) -> Hub:
    return RedisHub(redis_url) if redis_url else MemoryHub()
