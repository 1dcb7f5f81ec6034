"""When each seated player was last at the table, kept where every process can read it, and the
one announcement that she is away.

A socket's presence lives in one process and dies with it; an absence must hold across
processes and restarts. So each process writes match_seats.seen_at: when a player's socket
opens, every `away_after / 3` seconds while she has one open here, and when her last one
here closes. She is away once `away_after` seconds have passed since then (a reload is not
an absence) and she has no socket open on any process (shared presence).

The match's pages hear of it then, once: one process at a time holds the lease "absence"
and sweeps, every `sweep_every` seconds, the seats of live matches whose last sighting passed
`away_after` since the last sweeps; for each it takes the lease of that absence (named by
match, player and the moment she was last seen) and publishes a presence notice. If the
sweeping process dies another takes the lease over within seconds, and an absence already
told is not told again: its lease is still held.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Match, MatchSeat, Player
from app.realtime.hub import Hub
from app.realtime.leases import Leases, LocalLeases
from app.realtime.presence import Presence
from app.services.computers import TURN_BASED_TIMERS, mark_seen
from app.timestamps import as_utc

log = logging.getLogger(__name__)

SWEEP_LEASE = "absence"
"""The sweeping lease's name, followed by the database's: one sweeper per database, even when
several sites (or test runs) share a Redis."""
LEASE_SWEEPS = 3
"""The sweeping lease lasts this many sweeps: a dead sweeper is replaced that fast."""
LOOK_BACK_SWEEPS = 30
"""Absences that began this many sweeps ago at most are told (older ones were told then, or
their pages learnt of them with any presence frame since)."""
TOLD_KEPT = 10_000
"""Absences this process remembers having told (the oldest forgotten first)."""
CLOSE_WRITE_SECONDS = 5.0
"""How long closing waits for the sightings still being written."""
SWEEP_ROWS = 1_000
"""Seats one sweep looks at, the oldest absences first: a bound on the work of one sweep."""


def utc_now() -> datetime:
    return datetime.now(UTC)


class _Sightings:
    """(match id, player id) pairs seen, written together; bounded by the sockets open, as each
    adds at most one pair when it opens and one when it closes."""

    __slots__ = ("pairs", "written")

    def __init__(self) -> None:
        self.pairs: dict[tuple[str, str], None] = {}  # insertion-ordered, each pair once
        self.written: asyncio.Future[None] = asyncio.get_running_loop().create_future()


@dataclass(frozen=True)
class Absent:
    match_id: str
    player_id: str
    since: datetime


class Absence:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        presence: Presence,
        hub: Hub,
        *,
        away_after: float,
        leases: Leases | None = None,
        sweep_every: float = 1.0,
        database: str = "",
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self._sessions = sessions
        self._presence = presence
        self._hub = hub
        self._away_after = away_after
        self._leases = leases or LocalLeases()
        self._sweep_every = sweep_every
        digest = hashlib.sha256(database.encode()).hexdigest()[:16]  # no credentials in Redis
        self._sweep_lease = f"{SWEEP_LEASE}:{digest}"
        self._clock = clock
        self._told: dict[Absent, None] = {}  # insertion-ordered: the oldest are dropped first
        self._tasks: list[asyncio.Task[None]] = []
        self._sightings: _Sightings | None = None  # the next batch to write, once begun
        self._writer: asyncio.Task[None] | None = None  # writes them while any are waiting

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._beat_forever()),
            asyncio.create_task(self._sweep_forever()),
        ]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        self._tasks = []
        writer = self._writer
        if writer is not None:
            # The last sockets' sightings are written before the process goes, if the
            # database answers in time.
            await asyncio.wait((writer,), timeout=CLOSE_WRITE_SECONDS)
            writer.cancel()
            with contextlib.suppress(BaseException):
                await writer
            if self._sightings is not None:  # never to be written: nobody waits on them
                self._sightings.written.set_result(None)
                self._sightings = None
        with contextlib.suppress(Exception):
            await self._leases.release(self._sweep_lease)

    async def seen(self, match_id: str, player_id: str | None) -> None:
        """Notes that `player_id` is at `match_id` now; returns once it is written (or failed:
        it is logged, never raised). Sightings that come together share one transaction: when
        thousands of sockets open or close at once (a network outage, a restart), a
        transaction each kept the process busy for many seconds after they closed."""
        if player_id is None:
            return
        batch = self._sightings
        if batch is None:
            batch = self._sightings = _Sightings()
            if self._writer is None or self._writer.done():
                self._writer = asyncio.create_task(self._write_sightings())
        batch.pairs[(match_id, player_id)] = None
        # Shielded: a socket cancelled while it waits leaves the write to the others.
        await asyncio.shield(batch.written)

    async def _write_sightings(self) -> None:
        # Sightings made while a batch is written wait for the next one: under a storm of
        # sockets the batches grow, and the transactions do not.
        while (batch := self._sightings) is not None:
            self._sightings = None
            try:
                async with self._sessions() as session:
                    await mark_seen(session, list(batch.pairs), self._clock())
                    await session.commit()
            except Exception:  # presence must never take a socket down with it
                log.exception("could not note when %d players were seen", len(batch.pairs))
            finally:
                batch.written.set_result(None)

    async def left(self, match_id: str, player_id: str | None) -> None:
        """Her last socket here closed: noted now. If none of hers is open anywhere when the
        grace period is over, the sweeper tells every page of the match that she is away."""
        await self.seen(match_id, player_id)

    # --- heartbeat: seen_at, per process ---------------------------------------------------------
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

    # --- the away announcement: one sweeper, each absence told once -----------------------------
    async def absences(self) -> list[Absent]:
        """Seated people of live matches whose last sighting (or the start, for someone who
        never came) passed `away_after` within the last LOOK_BACK_SWEEPS sweeps."""
        now = self._clock()
        due = now - timedelta(seconds=self._away_after)
        since = due - timedelta(seconds=max(self._sweep_every * LOOK_BACK_SWEEPS, 30.0))
        async with self._sessions() as session:
            rows = await session.execute(
                select(MatchSeat.match_id, MatchSeat.player_id, MatchSeat.seen_at, Match.started_at)
                .join(Match, Match.id == MatchSeat.match_id)
                .join(Player, Player.id == MatchSeat.player_id)
                .where(
                    Match.status == "active",
                    Player.bot_level.is_(None),
                    # Turn-based: nobody has to be at the table, so a closed tab is no absence.
                    or_(Match.turn_timer.is_(None), Match.turn_timer.not_in(TURN_BASED_TIMERS)),
                    or_(
                        and_(MatchSeat.seen_at > since, MatchSeat.seen_at <= due),
                        and_(
                            MatchSeat.seen_at.is_(None),
                            Match.started_at > since,
                            Match.started_at <= due,
                        ),
                    ),
                )
                .order_by(MatchSeat.seen_at, MatchSeat.match_id, MatchSeat.player_id)
                .limit(SWEEP_ROWS)
            )
            found = [
                Absent(row.match_id, row.player_id, as_utc(row.seen_at or row.started_at))
                for row in rows
            ]
        return found

    async def sweep(self) -> list[Absent]:
        """Tells each new absence once (if this process holds the sweeping lease); the ones
        it told."""
        if not await self._leases.claim(self._sweep_lease, self._sweep_every * LEASE_SWEEPS):
            return []
        candidates = [a for a in await self.absences() if a not in self._told]
        if not candidates:
            return []
        seen = await self._presence.look_many(a.match_id for a in candidates)
        told = []
        keep = timedelta(seconds=self._sweep_every * LOOK_BACK_SWEEPS + 60).total_seconds()
        for absent in candidates:
            if absent.player_id in seen[absent.match_id].online:
                continue  # a socket of hers is open somewhere: seen_at will follow
            name = f"away:{absent.match_id}:{absent.player_id}:{absent.since.timestamp():.6f}"
            if not await self._leases.claim(name, keep):
                self._remember(absent)
                continue  # another sweeper told it before this one took over
            self._remember(absent)
            await self._presence.announce(
                self._hub, absent.match_id, away=absent.player_id, by=self._leases.owner
            )
            told.append(absent)
        return told

    def _remember(self, absent: Absent) -> None:
        self._told[absent] = None
        while len(self._told) > TOLD_KEPT:
            del self._told[next(iter(self._told))]

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self._sweep_every)
            try:
                await self.sweep()
            except Exception:  # a database that is down now may be back at the next sweep
                log.exception("absence sweep failed")
