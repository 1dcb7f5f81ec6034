"""Fan-out of match notices: in memory for one process, Redis pub/sub for several.

Callers only see `publish(channel, message)` and `async with hub.subscribe(channel) as inbox`,
which always unsubscribes on exit. Messages are small JSON notices ("match M is at version
v"); every process turns them into per-viewer patches from its own cache or the database.
Every subscriber must also understand `RESYNC`: notices may have been lost (Redis was
away), so it reads again from the database what it shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

from app.realtime.lean import LeanQueue
from app.realtime.leases import process_id

log = logging.getLogger(__name__)

QUEUE_LIMIT = 1000
"""Notices waiting for one subscriber: newer ones are dropped rather than eating memory, and
the subscriber is told to resync once it has read the rest."""
RESYNC: dict[str, Any] = {"kind": "resync"}
"""The notice every subscriber gets when notices may have been lost (Redis was away): read
again what you show, from the database."""


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
        message = await self.queue.get()
        if self.overflowed and self.queue.empty():
            # Notices were dropped while it was this far behind: it reads again what it shows.
            self.overflowed = False
            self.queue.put_nowait(dict(RESYNC))
        return message


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
    """One Redis pattern subscription per process, dispatched to local inboxes; and a hub
    that outlives Redis.

    A notice reaches this process's own subscribers first, in the publisher's call, and then
    Redis for the other processes; each message carries this process's id, so that it is not
    delivered twice when Redis sends it back. So while Redis is away the players connected to
    one process go on playing: `publish` never raises, and after a failure it does not try
    Redis again for `RETRY_AFTER` seconds (a move never waits on a dead connection twice).

    The listener reconnects forever, with a backoff from `BACKOFF_MIN` to `BACKOFF_MAX`
    seconds, and notices a silent connection by pinging it when it is quiet. Pub/sub keeps
    nothing for a process that was away, so on every reconnection each channel with local
    subscribers gets `RESYNC`: they read again what they show (a match socket sends the
    versions it missed, from the database). A process whose publishes failed while its
    listener stayed connected tells every process to do the same (`RESYNC_CHANNEL`), since
    those notices never reached the others: before its next publish, or after `RETRY_AFTER`
    seconds if it has nothing more to say.
    """

    PREFIX = "arcade:"
    RESYNC_CHANNEL = "hub:resync"
    """Where a process that lost notices asks every other process to catch up."""
    ORIGIN = "origin"
    """The key of a message naming the process that published it."""
    SOCKET_TIMEOUT = 1.0  # seconds a Redis call may take before Redis counts as away
    CONNECTIONS = 32
    """Connections to Redis per process (the listener's one among them): publishes beyond
    that many in flight wait for one to be free."""
    RETRY_AFTER = 1.0  # seconds during which publishes skip Redis after a failure
    BACKOFF_MIN = 0.1  # seconds before the listener's first reconnection attempt
    BACKOFF_MAX = 5.0  # the longest wait between reconnection attempts
    QUIET_PING = 5.0
    """Seconds without a message after which the listener pings Redis; as long again
    without an answer and the connection is given up as dead."""

    def __init__(self, url: str, origin: str | None = None) -> None:
        super().__init__()
        import redis.asyncio as redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff
        from redis.exceptions import ConnectionError as RedisConnectionError

        self.origin = origin or process_id()
        # A bounded pool that makes a publish wait for a free connection (at most
        # SOCKET_TIMEOUT): the default pool raises "Too many connections" at 100 publishes in
        # flight, which under load would look like an outage and set off resyncs.
        pool = redis.BlockingConnectionPool.from_url(
            url,
            max_connections=self.CONNECTIONS,
            timeout=self.SOCKET_TIMEOUT,
            socket_timeout=self.SOCKET_TIMEOUT,
            socket_connect_timeout=self.SOCKET_TIMEOUT,
            # Once, at once, on a broken connection: the pooled one Redis closed when it
            # restarted. Never on a timeout, which would make a move wait twice as long.
            retry=Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
        )
        self._redis = redis.Redis.from_pool(pool)
        self._task: asyncio.Task[None] | None = None
        self._down_until = 0.0  # monotonic time before which publishes skip Redis
        self._publish_failed = False  # logged once per outage
        self._lost = False  # notices the other processes never got: they must catch up
        self._repair: asyncio.Task[None] | None = None  # asks them, while `_lost`
        self.connected = asyncio.Event()
        """Set while the listener is subscribed (tests and health checks read it)."""
        self.reconnections = 0
        """How many times the listener subscribed again after losing Redis."""

    async def start(self) -> None:
        pubsub = None
        try:
            pubsub = await self._subscribe()
        except Exception as exc:
            # The server starts all the same: alone until Redis answers.
            log.warning("hub: Redis unreachable at start (%s); serving alone until it is back", exc)
        self._task = asyncio.create_task(self._listen(pubsub))

    async def stop(self) -> None:
        for task in (self._task, self._repair):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._task = self._repair = None
        await self._redis.aclose()

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        self.deliver(channel, message)
        await self._send(channel, message)

    async def _send(self, channel: str, message: dict[str, Any]) -> None:
        """Hands `message` to the other processes; never raises (their loss is repaired by
        a resync once Redis answers again)."""
        if time.monotonic() < self._down_until:
            self._lose_notices()
            return
        try:
            if self._lost:
                await self._ask_everyone_to_resync()
            await self._redis.publish(
                self.PREFIX + channel, json.dumps({**message, self.ORIGIN: self.origin})
            )
        except Exception as exc:
            self._down_until = time.monotonic() + self.RETRY_AFTER
            self._lose_notices()
            if not self._publish_failed:
                self._publish_failed = True
                log.warning(
                    "hub: publishing to Redis failed (%s); notices reach this process only "
                    "until it is back",
                    exc,
                )
            return
        if self._publish_failed:
            self._publish_failed = False
            log.warning("hub: publishing to Redis works again")

    def _lose_notices(self) -> None:
        """Some notices never reached the other processes: they are asked to catch up as
        soon as Redis takes a message, whether or not this process publishes again."""
        self._lost = True
        if self._repair is None or self._repair.done():
            self._repair = asyncio.create_task(self._repair_loss())

    async def _repair_loss(self) -> None:
        backoff = self.RETRY_AFTER
        while self._lost:
            await asyncio.sleep(backoff)
            if not self._lost or time.monotonic() < self._down_until:
                continue  # asked meanwhile, or a publish failed again a moment ago
            try:
                await self._ask_everyone_to_resync()
            except Exception:
                self._down_until = time.monotonic() + self.RETRY_AFTER
                backoff = min(backoff * 2, self.BACKOFF_MAX)

    async def _ask_everyone_to_resync(self) -> None:
        self._lost = False  # before the call: publishes meanwhile need not ask again
        try:
            await self._redis.publish(
                self.PREFIX + self.RESYNC_CHANNEL,
                json.dumps({"kind": "resync", self.ORIGIN: self.origin}),
            )
        except BaseException:
            self._lost = True
            raise

    async def _subscribe(self) -> Any:
        """A new subscription to every channel, confirmed by Redis: from here on every
        message published reaches it."""
        pubsub = self._redis.pubsub()
        try:
            await pubsub.psubscribe(self.PREFIX + "*")
            deadline = time.monotonic() + self.SOCKET_TIMEOUT
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("Redis did not confirm the subscription")
                item = await pubsub.get_message(timeout=left)
                if item is not None and item.get("type") == "psubscribe":
                    return pubsub
        except BaseException:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            raise

    async def _listen(self, pubsub: Any) -> None:
        """Runs for the life of the hub: reads, and reconnects whenever Redis goes away."""
        backoff = self.BACKOFF_MIN
        while True:
            began = time.monotonic()
            try:
                if pubsub is None:
                    pubsub = await self._subscribe()
                    await self._back()
                self.connected.set()
                await self._read(pubsub)
            except Exception as exc:
                if self.connected.is_set():  # once per outage, not per attempt
                    log.warning("hub: lost Redis (%s); this process goes on alone", exc)
            finally:
                self.connected.clear()
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
                pubsub = None
            if time.monotonic() - began > self.BACKOFF_MAX:
                backoff = self.BACKOFF_MIN  # it had been up a while: not a flapping server
            # Never a busy loop, even when a connection breaks as soon as it is made.
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, self.BACKOFF_MAX)

    async def _back(self) -> None:
        """Subscribed again after an outage: what was lost meanwhile is caught up."""
        self.reconnections += 1
        log.warning("hub: Redis is back; every subscriber catches up")
        self._down_until = 0.0  # publishes may try again at once
        self._resync_here()
        if self._lost:
            with contextlib.suppress(Exception):
                await self._ask_everyone_to_resync()

    async def _read(self, pubsub: Any) -> None:
        pinged = False
        while True:
            item = await pubsub.get_message(timeout=self.QUIET_PING)
            if item is None:
                if pinged:
                    raise ConnectionError("Redis did not answer a ping")
                await pubsub.ping()
                pinged = True
                continue
            pinged = False
            if item.get("type") != "pmessage":
                continue
            try:
                data = json.loads(item["data"])
            except ValueError:
                log.warning("hub: a message that is not JSON was ignored")
                continue
            if not isinstance(data, dict) or data.pop(self.ORIGIN, None) == self.origin:
                continue  # delivered here when it was published
            channel = item["channel"].decode()[len(self.PREFIX) :]
            if channel == self.RESYNC_CHANNEL:
                self._resync_here()
            else:
                self.deliver(channel, data)

    def _resync_here(self) -> None:
        for channel in list(self._subscribers):
            self.deliver(channel, dict(RESYNC))


def make_hub(redis_url: str | None, origin: str | None = None) -> Hub:
    return RedisHub(redis_url, origin) if redis_url else MemoryHub()
