"""Migration 0007 files the chat written before channels existed: what a seated player of
that match wrote is the players' talk, what anyone else wrote is the watchers' chat (players
read the watchers' channel, so nothing anyone could read before is hidden from the players)."""

from __future__ import annotations

import asyncio

from alembic import command
from sqlalchemy import text

from app.db.migrate import alembic_config, upgrade_to_head
from app.db.session import make_engine

MATCH = (
    "INSERT INTO matches (id, game, rules_version, options, status, host_id, seats, version,"
    " seed, seed_commitment, nonces, private, accepted, lobby_version)"
    " VALUES ('m1', 'c64-maze', '1', '{}', 'active', 'ada', '[\"ada\", \"bob\"]', 0,"
    " 's', 'c', '[null, null]', false, '[]', 0)"
)
CHAT = (
    "INSERT INTO chat_messages (match_id, player_id, seat, name, text)"
    " VALUES ('m1', {}, {}, {}, {})"
)


def _run(database_url: str, statements: list[str]) -> list[tuple[str, str]]:
    async def run() -> list[tuple[str, str]]:
        engine = make_engine(database_url)
        try:
            async with engine.begin() as conn:
                for statement in statements:
                    await conn.execute(text(statement))
                if not statements:
                    rows = await conn.execute(
                        text("SELECT text, channel FROM chat_messages ORDER BY id")
                    )
                    return [(row[0], row[1]) for row in rows]
            return []
        finally:
            await engine.dispose()

    return asyncio.run(run())


def test_old_chat_is_filed_under_the_players_or_the_watchers(database_url: str) -> None:
    command.upgrade(alembic_config(database_url), "0005")
    _run(
        database_url,
        [
            "INSERT INTO players (id, name, token_hash) VALUES ('ada', 'Ada', 'h1')",
            "INSERT INTO players (id, name, token_hash) VALUES ('bob', 'Bob', 'h2')",
            "INSERT INTO players (id, name, token_hash) VALUES ('wes', 'Wes', 'h3')",
            MATCH,
            "INSERT INTO match_seats (player_id, match_id) VALUES ('ada', 'm1')",
            "INSERT INTO match_seats (player_id, match_id) VALUES ('bob', 'm1')",
            CHAT.format("'ada'", 0, "'Ada'", "'gl hf'"),
            CHAT.format("'bob'", "NULL", "'Bob'", "'said in the lobby'"),
            CHAT.format("'wes'", "NULL", "'Wes'", "'go Ada'"),
            CHAT.format("NULL", "NULL", "'Spectator'", "'from nobody'"),
        ],
    )
    upgrade_to_head(database_url)
    assert _run(database_url, []) == [
        ("gl hf", "players"),
        ("said in the lobby", "players"),
        ("go Ada", "watchers"),
        ("from nobody", "watchers"),
    ]
