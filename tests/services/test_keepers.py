"""Match keepers while Redis cannot be reached (issue 19, item 4: "stopping Redis ... never
loses a move"; item 1's owners degrade, they do not stop): every process keeps the matches it
has and fires their clocks alone, and a question answered by two processes at once is
committed once. Two runtimes on one real database stand for two server processes; their
hubs are apart, as they are while Redis is down, and their leases and registry point at a
port where no Redis listens."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.context import match_channel
from app.db.migrate import upgrade_to_head
from app.db.models import Move
from app.db.session import make_engine, make_sessionmaker
from app.engine.runtime import MatchRuntime
from app.realtime.hub import MemoryHub
from app.realtime.leases import RedisLeases
from app.services.keepers import MatchKeepers, RedisRegistry
from tests.fixture_games import QuestionGame, register_fixture_game
from tests.helpers import started_match_in_db

NO_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1: every call fails at once


@pytest.fixture
async def engine(database_url: str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[AsyncEngine]:
    register_fixture_game(monkeypatch, QuestionGame())
    await asyncio.to_thread(upgrade_to_head, database_url)
    made = make_engine(database_url)
    try:
        yield made
    finally:
        await made.dispose()


class Process:
    """What one server process holds here: a runtime, its hub and its keepers."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.hub = MemoryHub()

        async def announce(match_id: str, version: int, accepted: dict[str, Any]) -> None:
            await self.hub.publish(
                match_channel(match_id),
                {"kind": "version", "version": version, "accepted": accepted},
            )

        self.runtime = MatchRuntime(engine, announce)
        self.keepers = MatchKeepers(
            self.runtime,
            make_sessionmaker(engine),
            self.hub,
            RedisLeases(NO_REDIS),
            RedisRegistry(NO_REDIS, "arcade:keepers:unreachable"),
            lease_seconds=5.0,
            sweep_seconds=0.5,
            database_sweep_seconds=60.0,
            sweep_limit=10,
            most_kept=10,
        )
        self.keepers.start()

    async def close(self) -> None:
        await self.keepers.close()
        await self.keepers._leases.close()
        await self.runtime.close()


async def until(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        await asyncio.sleep(0.02)


async def test_without_redis_each_process_fires_its_clock_and_the_answer_is_kept_once(
    engine: AsyncEngine,
) -> None:
    """Both processes keep the match (no lease can be asked for, so each answers yes), both
    fire the question's clock at the same deadline, and the log holds one answer."""
    async with make_sessionmaker(engine)() as session:
        match_id, (ada, _bob) = await started_match_in_db(session, game=QuestionGame.id)
    first, second = Process(engine), Process(engine)
    try:
        live_first = await first.runtime.get(match_id)
        live_second = await second.runtime.get(match_id)
        assert live_first is not None and live_second is not None
        await until(
            lambda: first.keepers.kept() == [match_id] and second.keepers.kept() == [match_id],
            10,
            "both processes keeping the match",
        )
        await first.runtime.submit(match_id, player_id=ada, raw_move={"type": "ask"}, version=0)
        await second.runtime.ensure_version(live_second, 1)  # what its socket would ask for
        assert live_first.deadlines[1] == live_second.deadlines[1], "one deadline, from the log"
        await until(
            lambda: first.runtime.clocks_fired == 1 and second.runtime.clocks_fired == 1,
            10,
            "both clocks firing",
        )
        await until(lambda: live_first.version == 2, 10, "the answer")
        await second.runtime.ensure_version(live_second, 2)
    finally:
        await second.close()
        await first.close()
    async with engine.connect() as conn:
        moves = (
            await conn.execute(
                select(Move.seat, Move.move).where(Move.match_id == match_id).order_by(Move.seq)
            )
        ).all()
    assert [(m.seat, m.move) for m in moves] == [
        (0, {"type": "ask"}),
        (1, {"type": "answer", "answer": "no"}),
    ]
