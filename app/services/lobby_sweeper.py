"""Closes open lobbies nobody touched for too long, in one server process at a time.

With several processes, the one holding the lease `lobby-sweeper:<lease scope>`
(app/realtime/leases.py) sweeps; the lease lasts two intervals and is renewed at each
sweep, so when its process dies another takes the sweeps over within two intervals. The
sweep itself is one conditional UPDATE (see matches.expire_lobbies), so even two processes
sweeping at once (while Redis is unreachable every process sweeps) close each lobby once,
and only the process that closed it tells the lobby's pages (through the hub, which reaches
the others).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.realtime.leases import Leases, LocalLeases
from app.services.matches import expire_lobbies

log = logging.getLogger(__name__)

Notify = Callable[[str, str], Awaitable[None]]

LEASE_SLACK_SECONDS = 1.0
"""Added to the sweeper's lease of two intervals: a slow sweep or a busy event loop between
two short intervals does not lose it to another process."""


def utc_now() -> datetime:
    return datetime.now(UTC)


class LobbySweeper:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        notify: Notify,
        *,
        ttl: timedelta,
        interval: float,
        clock: Callable[[], datetime] = utc_now,
        leases: Leases | None = None,
        lease: str = "lobby-sweeper",
    ) -> None:
        self._sessions = sessions
        self._notify = notify
        self._ttl = ttl
        self._interval = interval
        self._clock = clock
        self._leases = leases or LocalLeases()
        self._lease = lease
        self.sweeps = 0
        """Sweeps this process made (tests read it: one process sweeps at a time)."""
        self._task: asyncio.Task[None] | None = None

    async def sweep(self) -> list[str]:
        """Closes the lobbies expired by now; their pages hear it as a lobby change."""
        async with self._sessions() as session:
            closed = await expire_lobbies(session, now=self._clock(), ttl=self._ttl)
            await session.commit()
        for match_id in closed:
            await self._notify(match_id, "lobby")
        return closed

    async def sweep_if_owner(self) -> list[str] | None:
        """The sweep, if this process holds the sweeper's lease (taken or renewed here);
        None when another process sweeps."""
        if not await self._leases.claim(self._lease, 2 * self._interval + LEASE_SLACK_SECONDS):
            return None
        self.sweeps += 1
        return await self.sweep()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._leases.release(self._lease)  # a stop hands the sweeps over at once

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep_if_owner()
            except Exception:  # a database that is down now may be back at the next sweep
                log.exception("lobby sweep failed")
            await asyncio.sleep(self._interval)
