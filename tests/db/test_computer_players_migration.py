"""Migration 0008 (issue 15) adds computer players, stand-ins, the turn timer, when each
seated player was last seen and which moves a computer made, without touching what is there:
existing players are people, existing moves were made by people, no match has a computer."""

from __future__ import annotations

import asyncio

from alembic import command
from sqlalchemy import text

from app.db.migrate import alembic_config
from app.db.session import make_engine

PLAYER = "INSERT INTO players (id, name, token_hash) VALUES ('ada', 'Ada', 'h1')"
MATCH = (
    "INSERT INTO matches (id, game, rules_version, options, status, host_id, seats, version,"
    " seed, seed_commitment, nonces, private, accepted, lobby_version)"
    " VALUES ('m1', 'c64-maze', '1', '{}', 'active', 'ada', '[\"ada\", null]', 1,"
    " 's', 'c', '[null, null]', false, '[]', 0)"
)
SEAT = "INSERT INTO match_seats (player_id, match_id) VALUES ('ada', 'm1')"
MOVE = (
    "INSERT INTO moves (match_id, seq, seat, move, events, client_id)"
    " VALUES ('m1', 1, 0, '{}', '[]', 'x')"
)


def _run(database_url: str, statements: list[str], query: str | None = None) -> list[tuple]:
    async def run() -> list[tuple]:
        engine = make_engine(database_url)
        try:
            async with engine.begin() as conn:
                for statement in statements:
                    await conn.execute(text(statement))
                if query:
                    return [tuple(row) for row in await conn.execute(text(query))]
            return []
        finally:
            await engine.dispose()

    return asyncio.run(run())


def test_rows_from_before_are_people_and_their_moves(database_url: str) -> None:
    config = alembic_config(database_url)
    command.upgrade(config, "0007")
    _run(database_url, [PLAYER, MATCH, SEAT, MOVE])
    command.upgrade(config, "0008")
    assert _run(database_url, [], "SELECT bot_level FROM players") == [(None,)]
    assert _run(database_url, [], "SELECT turn_timer, stand_ins, has_computer FROM matches") == [
        (None, None, False)
    ]
    assert _run(database_url, [], "SELECT seen_at FROM match_seats") == [(None,)]
    assert _run(database_url, [], "SELECT bot FROM moves") == [(False,)]
    command.downgrade(config, "0007")
    assert _run(database_url, [], "SELECT count(*) FROM moves") == [(1,)]
    command.upgrade(config, "head")
