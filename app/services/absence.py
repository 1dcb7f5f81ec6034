"""When each seated player was last at the table, kept where every process can read it.

A socket's presence lives in one process and dies with it; an absence must hold across
processes and restarts. So each process writes match_seats.seen_at: when a player's socket
opens, every `away_after / 3` seconds while she has one open here, and when her last one
here closes. She is away once `away_after` seconds have passed since then (a reload is not
an absence), and the match's pages hear of it then (a presence refresh through the hub).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.realtime.hub import Hub
from app.realtime.presence import Presence
from app.services.computers import mark_seen

log = logging.getLogger(__name__)


def utc_now() -> datetime:
    return datetime.now(UTC)


class Absence:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        presence: Presence,
        hub: Hub,
        *,
        away_after: float,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self._sessions = sessions
        self._presence = presence
        self._hub = hub
        self._away_after = away_after
        self._clock = clock
        self._heartbeat: asyncio.Task[None] | None = None
        self._timers: set[asyncio.TimerHandle] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self._heartbeat = asyncio.create_task(self._beat_forever())

    async def close(self) -> None:
        for handle in self._timers:
            handle.cancel()
        self._timers.clear()
        tasks = [t for t in (self._heartbeat, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    async def seen(self, match_id: str, player_id: str | None) -> None:
        if player_id is None:
            return
        try:
            async with self._sessions() as session:
                await mark_seen(session, [(match_id, player_id)], self._clock())
                await session.commit()
        except Exception:  # presence must never take a socket down with it
            log.exception("could not note when a player was seen")

    async def left(self, match_id: str, player_id: str | None) -> None:
        """Her socket closed: noted now; if none of hers is open anywhere when the grace
        period is over, every page of the match hears that she is away."""
        if player_id is None:
            return
        await self.seen(match_id, player_id)
        loop = asyncio.get_running_loop()
        handle: asyncio.TimerHandle | None = None

        def tell() -> None:
            if handle is not None:
                self._timers.discard(handle)
            if player_id in self._presence.online(match_id):
                return
            task = asyncio.create_task(self._announce(match_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        handle = loop.call_later(self._away_after + 0.25, tell)
        self._timers.add(handle)

    async def _announce(self, match_id: str) -> None:
        from app.realtime.presence import presence_channel

        with contextlib.suppress(Exception):
            await self._hub.publish(presence_channel(match_id), {"kind": "presence"})

    async def beat(self) -> None:
        pairs = self._presence.seated_pairs()
        if not pairs:
            return
        async with self._sessions() as session:
            await mark_seen(session, pairs, self._clock())
            await session.commit()

    async def _beat_forever(self) -> None:
        while True:
            await asyncio.sleep(max(1.0, self._away_after / 3))
            try:
                await self.beat()
            except Exception:
                log.exception("presence heartbeat failed")
