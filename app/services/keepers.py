"""Match keepers: one process at a time runs a match's clocks and computer players.

A match that has a decision clock (its game answers `decision_seconds`) or computer work (a
computer plays a seat, stands in for an absent player, or a lesson's script moves) needs a
*keeper* while it is active: the one process that arms its decision clock and searches its
computers' moves. Every other process holding the match serves its sockets from its cache
and arms nothing, so a clock fires once and a search runs once.

With several processes (REDIS_URL set), the keeper holds the lease `keeper:<match id>`
(app/realtime/leases.py) and renews it every third of `lease_seconds`. It follows the match's
notices on the hub, so it hears every version wherever it was made, and writes the match in
a registry (a Redis sorted set scored by when its lease runs out). Every process sweeps the
registry every `sweep_seconds` for matches whose keeper stopped renewing, and claims them:
it loads the match, brings it up to date and arms its clock at the deadline the log gives
(`LiveMatch.reach`: the deadline is derived from the version's time, so a takeover fires
when the dead keeper would have, not a whole period later). A slower sweep of the database
(`database_sweep_seconds`) finds matches nobody registered (a keeper that died before
writing, a Redis that lost its data). A process stopping gracefully gives its matches up at
once (`release_all`). The first process to see a match that needs a keeper (it made or
loaded a version) claims it.

While Redis cannot be reached, every claim answers True: each process keeps the matches it
has, alone. Two processes firing the same clock submit the same move for the same version,
and the database takes it once (the moves' primary key; computers' moves carry ids made of
the version and seat).

With one process (no REDIS_URL) it owns every match: clocks and computers run as soon as a
version is made, as they always did.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.context import match_channel
from app.db.models import Match
from app.engine.contract import Game, Outcome
from app.engine.registry import all_games
from app.engine.runtime import LiveMatch, MatchRuntime, stand_ins_of
from app.realtime.hub import Hub
from app.realtime.leases import Leases, LocalLeases

log = logging.getLogger(__name__)

Duty = Callable[[LiveMatch], None]
"""Work the keeper does on each version of a match it keeps (the computer players' turns)."""

NOT_OURS_AGAIN_MS = 60_000
"""A registered match this process cannot load (deleted, or another deployment's sharing
the Redis) is looked at again after this long, so it does not hide the others behind it."""


RENEWALS_AT_ONCE = 64
"""Leases renewed concurrently (round trips in flight to Redis) in one renewal round."""


def lease_name(match_id: str) -> str:
    return f"keeper:{match_id}"


def clock_games() -> list[str]:
    """The games whose rules ask questions against a clock (they override decision_seconds)."""
    return [
        game.id for game in all_games() if type(game).decision_seconds is not Game.decision_seconds
    ]


def needs_keeper(live: LiveMatch) -> bool:
    """An active match with a clock or a computer's work in it (now or later)."""
    if live.status != "active":
        return False
    if live.computers() or live.script is not None:
        return True
    return type(live.game).decision_seconds is not Game.decision_seconds


class Registry(Protocol):
    async def vouch(self, match_ids: Sequence[str], until_ms: int) -> None:
        """These matches have a live keeper until `until_ms`."""
        ...

    async def orphans(self, now_ms: int, limit: int) -> list[str]:
        """Up to `limit` matches whose keeper has not vouched for them since `now_ms`."""
        ...

    async def drop(self, match_id: str) -> None: ...

    async def close(self) -> None: ...


class NoRegistry:
    """One process: nobody else could take a match over."""

    async def vouch(self, match_ids: Sequence[str], until_ms: int) -> None:
        return None

    async def orphans(self, now_ms: int, limit: int) -> list[str]:
        return []

    async def drop(self, match_id: str) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisRegistry:
    """A sorted set: match id, scored by the time (epoch ms) until which its keeper vouches."""

    RETRY_AFTER = 1.0
    """Seconds after a failed call during which Redis is not asked again (as RedisLeases)."""

    def __init__(self, url: str, key: str) -> None:
        import redis.asyncio as redis

        self._redis = redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)
        self._key = key
        self._down_until = 0.0

    def _reachable(self) -> bool:
        return time.monotonic() >= self._down_until

    def _failed(self, what: str) -> None:
        if self._reachable():
            log.warning("keepers: Redis unreachable (%s); takeovers wait for it", what)
        self._down_until = time.monotonic() + self.RETRY_AFTER

    async def vouch(self, match_ids: Sequence[str], until_ms: int) -> None:
        if not match_ids or not self._reachable():
            return
        try:
            await self._redis.zadd(self._key, dict.fromkeys(match_ids, until_ms))
        except Exception:
            self._failed("vouch")

    async def orphans(self, now_ms: int, limit: int) -> list[str]:
        if not self._reachable():
            return []
        try:
            found = await self._redis.zrangebyscore(self._key, "-inf", now_ms, start=0, num=limit)
        except Exception:
            self._failed("orphans")
            return []
        return [m.decode() if isinstance(m, bytes) else str(m) for m in found]

    async def drop(self, match_id: str) -> None:
        if not self._reachable():
            return
        try:
            await self._redis.zrem(self._key, match_id)
        except Exception:
            self._failed("drop")

    async def close(self) -> None:
        await self._redis.aclose()


def make_registry(redis_url: str | None, key: str) -> Registry:
    return RedisRegistry(redis_url, key) if redis_url else NoRegistry()


def now_ms() -> int:
    return int(time.time() * 1000)


class MatchKeepers:
    def __init__(
        self,
        runtime: MatchRuntime,
        sessions: async_sessionmaker[AsyncSession],
        hub: Hub,
        leases: Leases,
        registry: Registry,
        *,
        lease_seconds: float,
        sweep_seconds: float,
        database_sweep_seconds: float,
        sweep_limit: int,
        most_kept: int,
    ) -> None:
        self._runtime = runtime
        self._sessions = sessions
        self._hub = hub
        self._leases = leases
        self._registry = registry
        self._lease_seconds = lease_seconds
        self._sweep_seconds = sweep_seconds
        self._database_sweep_seconds = database_sweep_seconds
        self._sweep_limit = sweep_limit
        self._most_kept = most_kept
        self.shared = not isinstance(leases, LocalLeases)
        """Several processes may hold a match: leases decide. Alone, this one keeps all."""
        self.duties: list[Duty] = []
        self._kept: dict[str, asyncio.Task[None]] = {}
        """match id -> the task following its notices, for every match this process keeps."""
        self._claiming: set[str] = set()
        self._refused: dict[str, float] = {}
        """match id -> monotonic time until which another process is known to keep it."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self._database_after = ""

    # --- wiring ---------------------------------------------------------------------------
    def start(self) -> None:
        self._runtime.on_turn = self.follow
        self._runtime.owns_clock = self.keeps
        self._loops.append(asyncio.create_task(self._database_sweeps()))
        if self.shared:
            self._loops.append(asyncio.create_task(self._renewals()))
            self._loops.append(asyncio.create_task(self._registry_sweeps()))

    async def release_all(self) -> None:
        """Gives up every match this process keeps, at once: a graceful stop hands them
        over to the other processes' next sweep instead of after the leases run out."""
        kept = list(self._kept)
        await self._stop_tasks()
        for match_id in kept:
            self._runtime.disarm(match_id)
            await self._leases.release(lease_name(match_id))
        await self._registry.vouch(kept, 0)  # orphans from now on

    async def close(self) -> None:
        if self._runtime.on_turn == self.follow:
            self._runtime.on_turn = None
        await self.release_all()
        await self._registry.close()

    async def _stop_tasks(self) -> None:
        tasks = [*self._loops, *self._kept.values(), *self._tasks]
        self._loops.clear()
        self._kept.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    # --- who keeps what -------------------------------------------------------------------
    def keeps(self, match_id: str) -> bool:
        """Whether this process arms the match's clock and runs its computers now."""
        return not self.shared or match_id in self._kept

    def kept(self) -> list[str]:
        return list(self._kept)

    def follow(self, live: LiveMatch) -> None:
        """Called with each version this process makes, loads or hears of (runtime.on_turn):
        the keeper does the match's work; a match that needs a keeper and has none known
        here is claimed."""
        if not self.keeps(live.id):
            if needs_keeper(live) and self._may_claim(live.id):
                self._spawn(self._claim(live.id, fresh=True))
            return
        if needs_keeper(live):
            self._work(live)
        elif self.shared:
            self._spawn(self._let_go(live.id))

    def _work(self, live: LiveMatch) -> None:
        self._runtime.arm_clock(live)
        for duty in self.duties:
            try:
                duty(live)
            except Exception:
                log.exception("a keeper's duty failed for match %s", live.id)

    def _may_claim(self, match_id: str) -> bool:
        if match_id in self._claiming or len(self._kept) >= self._most_kept:
            return False
        return self._refused.get(match_id, 0.0) <= time.monotonic()

    def _spawn(self, work: object) -> None:
        task: asyncio.Task[None] = asyncio.create_task(work)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _claim(self, match_id: str, *, fresh: bool) -> bool:
        """Takes the match if nobody keeps it: the lease, the match brought up to date, its
        notices followed, its clock armed and its computers started. `fresh`: this process
        has just made or heard of its newest version."""
        if match_id in self._kept or not self._may_claim(match_id):
            return False
        self._claiming.add(match_id)
        leased = False
        try:
            leased = await self._leases.claim(lease_name(match_id), self._lease_seconds)
            if not leased:
                self._refused[match_id] = time.monotonic() + self._lease_seconds / 3
                return False
            self._refused.pop(match_id, None)
            live = await self._runtime.get(match_id)
            if live is not None and not fresh:
                await self._bring_up_to_date(live)
            if live is None or not needs_keeper(live):
                await self._leases.release(lease_name(match_id))
                if live is not None:
                    await self._registry.drop(match_id)
                return False
            self._kept[match_id] = asyncio.create_task(self._follow_notices(match_id))
            await self._registry.vouch([match_id], now_ms() + int(self._lease_seconds * 1000))
            self._work(live)
            return True
        except Exception:
            log.exception("keepers: taking match %s failed", match_id)
            if leased and match_id not in self._kept:
                await self._leases.release(lease_name(match_id))
            return False
        finally:
            self._claiming.discard(match_id)

    async def _let_go(self, match_id: str) -> None:
        """The match needs no keeper any more (it ended, its computers left)."""
        task = self._kept.pop(match_id, None)
        if task is None:
            return
        if task is not asyncio.current_task():
            task.cancel()
        self._runtime.disarm(match_id)
        await self._leases.release(lease_name(match_id))
        await self._registry.drop(match_id)

    def _lost(self, match_id: str) -> None:
        """Another process holds the lease now (this one stalled past it): stop at once."""
        task = self._kept.pop(match_id, None)
        if task is not None:
            task.cancel()
        self._runtime.disarm(match_id)
        self._refused[match_id] = time.monotonic() + self._lease_seconds / 3
        log.warning("keepers: match %s is kept by another process now", match_id)

    # --- following a kept match -------------------------------------------------------------
    async def _follow_notices(self, match_id: str) -> None:
        """The keeper hears every version of its match, wherever it was made (a process
        with none of the match's sockets would not), and every end or change of seats."""
        me = asyncio.current_task()
        async with self._hub.subscribe(match_channel(match_id)) as inbox:
            # What was made between the claim and this subscription was not heard: read it.
            live = await self._runtime.get(match_id)
            if live is not None:
                await self._bring_up_to_date(live)
            while self._kept.get(match_id) is me:
                notice = await inbox.get()
                try:
                    await self._heard(match_id, notice, overflowed=inbox.overflowed)
                    inbox.overflowed = False
                except Exception:
                    log.exception("keepers: a notice of match %s failed", match_id)

    async def _heard(self, match_id: str, notice: dict[str, object], *, overflowed: bool) -> None:
        live = await self._runtime.get(match_id)
        if live is None:
            await self._let_go(match_id)
            return
        kind = notice.get("kind")
        if overflowed or kind in ("ended", "seats"):
            await self._bring_up_to_date(live)
        elif kind == "version":
            version = notice.get("version")
            accepted = notice.get("accepted")
            if isinstance(version, int):
                await self._runtime.ensure_version(
                    live, version, accepted if isinstance(accepted, dict) else None
                )
        if not needs_keeper(live):
            await self._let_go(match_id)

    async def _bring_up_to_date(self, live: LiveMatch) -> None:
        """This process's copy follows the database: moves, stand-ins, an end or a claim."""
        async with self._sessions() as session:
            row = await session.get(Match, live.id, populate_existing=True)
        if row is None:
            return
        async with live.lock:
            await self._runtime.catch_up(live)
        if row.status == "abandoned":
            await self._runtime.end(live.id)
        elif row.status == "finished" and live.outcome is None and row.outcome:
            await self._runtime.claim(live.id, Outcome.from_json(row.outcome))
        stand_ins = stand_ins_of(row.stand_ins)
        if stand_ins != live.stand_ins:
            live.stand_ins = dict(stand_ins)
        if self.keeps(live.id) and needs_keeper(live):
            self._work(live)

    # --- renewals and sweeps ------------------------------------------------------------------
    async def _renewals(self) -> None:
        while True:
            await asyncio.sleep(self._lease_seconds / 3)
            try:
                await self.renew()
            except Exception:
                log.exception("keepers: renewing leases failed")

    async def renew(self) -> None:
        """Every kept match's lease and registry entry, renewed; a lease lost is let go."""
        moment = time.monotonic()
        for match_id in [m for m, until in self._refused.items() if until <= moment]:
            del self._refused[match_id]
        kept = []
        ids = list(self._kept)
        for start in range(0, len(ids), RENEWALS_AT_ONCE):
            chunk = ids[start : start + RENEWALS_AT_ONCE]
            renewed = await asyncio.gather(
                *(self._leases.claim(lease_name(m), self._lease_seconds) for m in chunk)
            )
            for match_id, ours in zip(chunk, renewed, strict=True):
                if ours:
                    kept.append(match_id)
                elif match_id in self._kept:
                    self._lost(match_id)
        await self._registry.vouch(kept, now_ms() + int(self._lease_seconds * 1000))

    async def _registry_sweeps(self) -> None:
        while True:
            await asyncio.sleep(self._sweep_seconds)
            try:
                await self.sweep_registry()
            except Exception:
                log.exception("keepers: the registry sweep failed")

    async def sweep_registry(self) -> int:
        """Claims the registered matches whose keeper stopped vouching; how many it took."""
        taken = 0
        for match_id in await self._registry.orphans(now_ms(), self._sweep_limit):
            # Its keeper stopped vouching: whoever refused this process before may be gone.
            self._refused.pop(match_id, None)
            if match_id in self._kept or not self._may_claim(match_id):
                continue
            # Loaded before it is claimed: a match this database does not hold is never
            # leased here (another deployment may share the Redis).
            live = await self._runtime.get(match_id)
            if live is None:
                await self._registry.vouch([match_id], now_ms() + NOT_OURS_AGAIN_MS)
                continue
            taken += await self._claim(match_id, fresh=False)
        return taken

    async def _database_sweeps(self) -> None:
        while True:
            try:
                await self.sweep_database()
            except Exception:
                log.exception("keepers: the database sweep failed")
            await asyncio.sleep(self._database_sweep_seconds)

    async def sweep_database(self) -> int:
        """Looks at the next `sweep_limit` active matches with computers or clocks: a kept
        one's work is started again if it was lost (after a worker failed), one kept by
        nobody is claimed. Each sweep goes on where the last one stopped."""
        clocks = clock_games()
        async with self._sessions() as session:
            ids = list(
                (
                    await session.scalars(
                        select(Match.id)
                        .where(
                            Match.status == "active",
                            or_(Match.has_computer, Match.game.in_(clocks)),
                            Match.id > self._database_after,
                        )
                        .order_by(Match.id)
                        .limit(self._sweep_limit)
                    )
                ).all()
            )
        self._database_after = ids[-1] if len(ids) == self._sweep_limit else ""
        for match_id in ids:
            if self.keeps(match_id):
                live = await self._runtime.get(match_id)
                if live is not None:
                    self.follow(live)
            else:
                await self._claim(match_id, fresh=False)
        return len(ids)
