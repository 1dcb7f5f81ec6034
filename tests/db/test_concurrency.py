"""Two processes racing for one version: the primary key (match_id, seq) lets exactly one win.

Each runtime below has its own engine, connection pool and cache, as two server processes
would; the submissions run concurrently against a real PostgreSQL.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import func, select

from app.db.migrate import upgrade_to_head
from app.db.models import Move
from app.db.session import make_engine, make_sessionmaker
from app.engine.runtime import LiveMatch, MatchRuntime
from app.errors import ArcadeError
from tests.conftest import drop_postgres_database, fresh_postgres_database
from tests.helpers import started_match_in_db

pytestmark = pytest.mark.postgres


async def _noop(_match_id: str, _version: int, _accepted: dict) -> None:
    return None


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    url, name = await asyncio.to_thread(fresh_postgres_database)
    await asyncio.to_thread(upgrade_to_head, url)
    try:
        yield url
    finally:
        await asyncio.to_thread(drop_postgres_database, name)


async def _started(url: str) -> tuple[str, list[str]]:
    engine = make_engine(url)
    async with make_sessionmaker(engine)() as session:
        started = await started_match_in_db(session)
    await engine.dispose()
    return started


async def _moves(url: str, match_id: str) -> int:
    engine = make_engine(url)
    async with engine.connect() as conn:
        count = await conn.scalar(
            select(func.count()).select_from(Move).where(Move.match_id == match_id)
        )
    await engine.dispose()
    return int(count or 0)


async def test_same_move_from_two_processes_is_applied_once(pg_url: str) -> None:
    engines = [make_engine(pg_url), make_engine(pg_url)]
    runtimes = [MatchRuntime(e, _noop) for e in engines]
    try:
        for _round in range(10):
            match_id, players = await _started(pg_url)
            lives = [await r.get(match_id) for r in runtimes]
            assert lives[0] is not None and lives[1] is not None
            move = lives[0].game.legal_moves(lives[0].state, 0)[0]
            results = await asyncio.gather(
                *(r.submit(match_id, player_id=players[0], raw_move=move) for r in runtimes),
                return_exceptions=True,
            )
            wins = [r for r in results if r == 1]
            losses = [r for r in results if isinstance(r, ArcadeError)]
            assert len(wins) == 1 and len(losses) == 1, results
            assert losses[0].code in {"illegal_move", "not_your_turn"}
            assert await _moves(pg_url, match_id) == 1
            # the loser caught up with the winner's move
            assert lives[0].state == lives[1].state
    finally:
        for e in engines:
            await e.dispose()


async def test_two_seats_in_a_simultaneous_phase_are_both_applied(pg_url: str) -> None:
    """Set-up is simultaneous: the second writer reloads, revalidates and lands at seq 2."""
    engines = [make_engine(pg_url), make_engine(pg_url)]
    runtimes = [MatchRuntime(e, _noop) for e in engines]
    try:
        match_id, players = await _started(pg_url)
        lives = [await r.get(match_id) for r in runtimes]
        assert lives[0] is not None and lives[1] is not None
        moves = [lives[i].game.legal_moves(lives[i].state, i)[0] for i in (0, 1)]
        results = await asyncio.gather(
            *(
                runtimes[i].submit(match_id, player_id=players[i], raw_move=moves[i], version=0)
                for i in (0, 1)
            )
        )
        assert sorted(results) == [1, 2]
        assert await _moves(pg_url, match_id) == 2
        await runtimes[0].ensure_version(lives[0], 2)
        await runtimes[1].ensure_version(lives[1], 2)
        assert lives[0].state == lives[1].state
    finally:
        for e in engines:
            await e.dispose()


async def test_the_loser_of_a_race_shows_the_winners_move_not_its_own(pg_url: str) -> None:
    """A runtime builds a move's views and patches while its commit is in flight
    (MatchRuntime._submit_as). The racer whose commit fails must drop them: every view and
    patch it then holds is the one a third process builds from the moves that were committed."""
    engines = [make_engine(pg_url) for _ in range(3)]
    runtimes = [MatchRuntime(e, _noop) for e in engines]
    try:
        match_id, players = await _started(pg_url)
        lives = [await r.get(match_id) for r in runtimes[:2]]
        assert lives[0] is not None and lives[1] is not None
        moves = [lives[i].game.legal_moves(lives[i].state, i)[0] for i in (0, 1)]
        await asyncio.gather(
            *(
                runtimes[i].submit(match_id, player_id=players[i], raw_move=moves[i], version=0)
                for i in (0, 1)
            )
        )
        fresh = await runtimes[2].get(match_id)  # loaded from the moves table afterwards
        assert fresh is not None and fresh.version == 2

        def shown(live: LiveMatch) -> dict[tuple[int, int], Any]:
            return {
                (v, s): (live.viewer_state(v, s), live.patch(v, s), live.events_for(v, s))
                for v in (1, 2)
                for s in range(len(live.players))
            }

        for runtime, live in zip(runtimes[:2], lives, strict=True):
            await runtime.ensure_version(live, 2)
            assert shown(live) == shown(fresh)
    finally:
        for e in engines:
            await e.dispose()
