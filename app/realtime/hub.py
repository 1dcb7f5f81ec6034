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
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

from app.realtime.lean import LeanQueue

QUEUE_LIMIT = 1000  # a subscriber this far behind is dropped rather than eating memory


class Inbox:
    """One subscriber's notices. Every match socket holds one for its life: a lean queue, which
    holds nothing while it is empty (app/realtime/lean.py)."""

    __slots__ = ("at_once", "overflowed", "queue")

    def __init__(self) -> None:
        self.queue: LeanQueue[dict[str, Any]] = LeanQueue()
        self.overflowed = False
        self.at_once: Callable[[dict[str, Any]], bool] | None = None
        """The subscriber's way to handle a notice in the publisher's call, without a task
        switch, when none is queued before it: True if it did, False to have it queued."""

    def put(self, message: dict[str, Any]) -> None:
        at_once = self.at_once
        if at_once is not None and self.queue.empty() and at_once(message):
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.overflowed = True
            return
        self.queue.put_nowait(message)

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
