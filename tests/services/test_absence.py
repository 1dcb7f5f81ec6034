"""The away announcement has one owner (issue 19, item 1: "every clock (decision, turn, away)
has exactly one owner at a time ... and is taken over by another process within seconds when
its owner dies"): two sweepers on one database and one Redis tell each absence once, and the
one that takes over from a dead sweeper does not tell again what the dead one told."""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import redis.asyncio as aioredis
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.session import make_engine, make_sessionmaker
from app.realtime.hub import MemoryHub
from app.realtime.leases import RedisLeases
from app.realtime.presence import Presence, presence_channel
from app.services.absence import SWEEP_LEASE, Absence
from app.services.computers import mark_seen
from tests.helpers import started_match_in_db
from tests.realtime.test_redis_hub import redis_url  # noqa: F401  (the fixture)

AWAY_AFTER = 2.0
SWEEP_EVERY = 0.2  # the sweeping lease lasts three sweeps
DEADLINE = 30.0


async def test_each_absence_is_told_once_even_when_the_sweeper_changes(
    session: AsyncSession,
    database_url: str,
    redis_url: str,  # noqa: F811
) -> None:
    match_id, players = await started_match_in_db(session)
    gone = datetime.now(UTC) - timedelta(seconds=AWAY_AFTER + 1)
    await mark_seen(session, [(match_id, p) for p in players], gone)
    await session.commit()

    hub = MemoryHub()
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    lease_key = (
        f"{RedisLeases.PREFIX}{SWEEP_LEASE}:"
        f"{hashlib.sha256(database_url.encode()).hexdigest()[:16]}"
    )
    probe = aioredis.from_url(redis_url)
    sweepers: list[tuple[Absence, Presence, RedisLeases]] = []
    for _ in range(2):
        owner = f"test-{uuid.uuid4().hex}"
        presence = Presence(redis_url=redis_url, owner=owner, ttl=3.0)
        leases = RedisLeases(redis_url, owner)
        absence = Absence(
            sessions,
            presence,
            hub,
            away_after=AWAY_AFTER,
            leases=leases,
            sweep_every=SWEEP_EVERY,
            database=database_url,
        )
        sweepers.append((absence, presence, leases))
    (first, _, first_leases), (second, _, second_leases) = sweepers
    try:
        async with hub.subscribe(presence_channel(match_id)) as inbox:
            told = await first.sweep()
            assert sorted(a.player_id for a in told) == sorted(players)
            assert await second.sweep() == []  # the first holds the sweeping lease
            assert await first.sweep() == []  # and told these already

            # The first sweeper dies (it never renews nor releases): the second takes over
            # within three sweeps and does not tell the same absences again.
            loop = asyncio.get_running_loop()
            deadline = loop.time() + DEADLINE
            retold: list[Any] = []
            while await probe.get(lease_key) != second_leases.owner.encode():
                assert loop.time() < deadline, "the second sweeper never took over"
                retold += await second.sweep()
                await asyncio.sleep(SWEEP_EVERY)
            retold += await second.sweep()
            assert retold == []

            # Ada comes back and leaves again: a new absence, told once, by the second.
            again = datetime.now(UTC) - timedelta(seconds=AWAY_AFTER + 0.5)
            async with sessions() as fresh:
                await mark_seen(fresh, [(match_id, players[0])], again)
                await fresh.commit()
            assert [a.player_id for a in await second.sweep()] == [players[0]]
            assert await second.sweep() == []

            notices = []
            while not inbox.queue.empty():
                notices.append(await inbox.get())
        away = sorted(n["away"] for n in notices)
        assert away == sorted([*players, players[0]])
        assert {n["by"] for n in notices if n["away"] == players[1]} == {first_leases.owner}
    finally:
        for absence, presence, leases in sweepers:
            await absence.close()
            await presence.close()
            await leases.close()
        await probe.aclose()
        await engine.dispose()
