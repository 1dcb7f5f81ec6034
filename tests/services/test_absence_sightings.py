"""When a player was last at the table (match_seats.seen_at, app/services/absence.py): every
sighting is written, and sightings that come together share one transaction, so that a storm
of sockets opening or closing at once costs a few transactions, not one each."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from app.db.migrate import upgrade_to_head
from app.db.models import Match, MatchSeat, Player
from app.db.session import make_engine, make_sessionmaker
from app.realtime.hub import MemoryHub
from app.realtime.presence import Presence
from app.services.absence import Absence
from app.services.computers import mark_seen
from app.timestamps import as_utc
from tests.helpers import started_match_in_db

NOW = datetime(2026, 11, 28, 20, 0, tzinfo=UTC)


async def _seen_at(session: AsyncSession) -> dict[tuple[str, str], datetime | None]:
    rows = await session.execute(select(MatchSeat.match_id, MatchSeat.player_id, MatchSeat.seen_at))
    return {(row.match_id, row.player_id): as_utc(row.seen_at) for row in rows}


async def test_sightings_that_come_together_share_one_transaction(
    session: AsyncSession, database_url: str
) -> None:
    pairs = []
    for _ in range(5):
        match_id, players = await started_match_in_db(session)
        pairs += [(match_id, player) for player in players]
    await session.commit()

    engine = make_engine(database_url)
    commits: list[Any] = []
    event.listen(engine.sync_engine, "commit", commits.append)
    absence = Absence(
        make_sessionmaker(engine), Presence(), MemoryHub(), away_after=60, clock=lambda: NOW
    )
    try:
        # Ten sockets open at once, one of them twice (a second tab): one transaction.
        await asyncio.gather(*(absence.seen(m, p) for m, p in [*pairs, pairs[0]]))
        assert len(commits) == 1
        seen = await _seen_at(session)
        assert all(seen[pair] == NOW for pair in pairs)
    finally:
        await absence.close()
        await engine.dispose()


async def test_a_sighting_is_written_though_its_socket_stops_waiting(
    session: AsyncSession, database_url: str
) -> None:
    match_id, (ada, bob) = await started_match_in_db(session)
    await session.commit()
    engine = make_engine(database_url)
    absence = Absence(
        make_sessionmaker(engine), Presence(), MemoryHub(), away_after=60, clock=lambda: NOW
    )
    try:
        waiting = asyncio.create_task(absence.seen(match_id, ada))
        await asyncio.sleep(0)  # it has joined a batch
        waiting.cancel()  # its socket was closed meanwhile
        # Bob's sighting is written in the same batch or the one after: either way, Ada's
        # is written by the time his returns.
        await absence.seen(match_id, bob)
        seen = await _seen_at(session)
        assert seen[(match_id, ada)] == NOW and seen[(match_id, bob)] == NOW
    finally:
        await absence.close()
        await engine.dispose()


async def _takes_the_first_seat_before_it_waits(
    postgres_url: str,
    engine: AsyncEngine,
    first: tuple[str, str],
    last: tuple[str, str],
    write: Callable[[AsyncSession], Awaitable[object]],
) -> None:
    """Runs `write` in a transaction of its own while another holds the seat (match id,
    player id) `last`, and checks that by the time it waits for that seat it holds `first`;
    then lets it finish and commits it."""
    import asyncpg

    plain_url = postgres_url.replace("+asyncpg", "")
    lock_row = "SELECT 1 FROM match_seats WHERE match_id = $1 AND player_id = $2 FOR UPDATE"
    holder = await asyncpg.connect(plain_url)
    prober = await asyncpg.connect(plain_url)
    writer = make_sessionmaker(engine)()
    writing = None
    try:
        held = holder.transaction()
        await held.start()
        await holder.execute(lock_row, *last)
        writing = asyncio.create_task(write(writer))
        deadline = time.monotonic() + 15
        # Asked outside any transaction: within one, pg_stat_activity is frozen.
        while not await prober.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock'"
        ):
            assert not writing.done(), "the write did not wait for the held seat"
            assert time.monotonic() < deadline, "the write never waited for the held seat"
            await asyncio.sleep(0.02)
        async with prober.transaction():
            with pytest.raises(asyncpg.exceptions.LockNotAvailableError):
                await prober.execute(lock_row + " NOWAIT", *first)
        await held.rollback()
        await writing
        await writer.commit()
    finally:
        await holder.close()  # lets a write still waiting go on, to be rolled back
        if writing is not None:
            await asyncio.gather(writing, return_exceptions=True)
        await writer.close()
        await prober.close()


@pytest.mark.postgres
async def test_sightings_lock_the_seats_in_one_order_whatever_order_they_came_in(
    postgres_url: str,
) -> None:
    """The heartbeat and a batch of sightings update thousands of the same seats at once (a
    storm of sockets closing while the heartbeat writes). Taken in two orders they deadlocked,
    and PostgreSQL threw one transaction's sightings away (seen at 5,000 matches,
    bench/human_pace.py). mark_seen takes its seats in (match, player) order: given the two
    seats of a match the other way round while the one that sorts last is held elsewhere, it
    holds the first when it waits."""
    await asyncio.to_thread(upgrade_to_head, postgres_url)
    engine = make_engine(postgres_url)
    try:
        async with make_sessionmaker(engine)() as session:
            match_id, players = await started_match_in_db(session)
        first, last = sorted((match_id, player) for player in players)
        await _takes_the_first_seat_before_it_waits(
            postgres_url, engine, first, last, lambda writer: mark_seen(writer, [last, first], NOW)
        )
        async with make_sessionmaker(engine)() as session:
            seen = await _seen_at(session)
        assert seen[first] == NOW and seen[last] == NOW
    finally:
        await engine.dispose()


@pytest.mark.postgres
async def test_a_table_whose_seats_change_locks_them_in_player_order(postgres_url: str) -> None:
    """A lobby's seats are rewritten when someone joins, leaves or starts the match, while the
    heartbeat may be writing the same seats' seen_at in player order (the lobby's sockets are
    open). The rewrite's delete takes the rows in the table's order, which a sighting of one
    player changes, so it locks them in player order first: here the seat that sorts first
    was seen last (its row now comes after the other's), the one that sorts last is held,
    and the start holds the first when it waits."""
    from app.services.matches import create_match, join_match, start_match
    from app.services.players import create_player

    await asyncio.to_thread(upgrade_to_head, postgres_url)
    engine = make_engine(postgres_url)
    try:
        async with make_sessionmaker(engine)() as session:
            one, _ = await create_player(session, name="Ada")
            two, _ = await create_player(session, name="Bob")
            early, late = sorted((one, two), key=lambda player: player.id)
            match = await create_match(session, host=late, game_id="c64-maze", options={}, seats=2)
            await join_match(session, match_id=match.id, player=early, seat=None)
            await session.commit()
            await mark_seen(session, [(match.id, early.id)], NOW)
            await session.commit()
        first, last = (match.id, early.id), (match.id, late.id)

        async def start(writer: AsyncSession) -> None:
            host = await writer.get(Player, late.id)
            assert host is not None
            await start_match(writer, match_id=match.id, player=host)

        await _takes_the_first_seat_before_it_waits(postgres_url, engine, first, last, start)
        async with make_sessionmaker(engine)() as session:
            started = await session.get(Match, match.id)
            assert started is not None and started.status == "active"
    finally:
        await engine.dispose()
