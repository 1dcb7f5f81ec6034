"""match_seats mirrors the JSON seats of matches: filled from existing matches by migration
0005 and kept by every lobby change, so a player's own list is read by its key."""

from __future__ import annotations

import asyncio

import sqlalchemy as sa
from alembic import command

from app.db.migrate import alembic_config, upgrade_to_head
from app.db.models import MatchSeat
from app.db.session import make_engine, make_sessionmaker
from app.services import matches as lobby
from app.services.players import create_player


async def _seat_rows(database_url: str) -> set[tuple[str, str]]:
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(sa.select(MatchSeat.player_id, MatchSeat.match_id))
            return {(r.player_id, r.match_id) for r in rows}
    finally:
        await engine.dispose()


async def test_migration_0005_fills_match_seats_from_existing_matches(database_url: str) -> None:
    await asyncio.to_thread(command.upgrade, alembic_config(database_url), "0004")
    engine = make_engine(database_url)
    async with engine.begin() as conn:
        for player in ("p1", "p2", "p3"):
            await conn.execute(
                sa.text("INSERT INTO players (id, name, token_hash) VALUES (:id, :id, :id)"),
                {"id": player},
            )
        for match_id, seats in (("m1", '["p1", null, "p2"]'), ("m2", '["p3"]'), ("m3", "[null]")):
            await conn.execute(
                sa.text(
                    "INSERT INTO matches (id, game, rules_version, options, status, host_id,"
                    " seats, version, seed, seed_commitment, nonces, private, accepted)"
                    " VALUES (:id, 'c64-maze', '1', '{}', 'open', 'p1', :seats, 0, 's', 'c',"
                    " '[]', false, '[]')"
                ),
                {"id": match_id, "seats": seats},
            )
    await engine.dispose()
    await asyncio.to_thread(upgrade_to_head, database_url)
    assert await _seat_rows(database_url) == {("p1", "m1"), ("p2", "m1"), ("p3", "m2")}


async def test_every_lobby_change_keeps_match_seats(database_url: str) -> None:
    await asyncio.to_thread(upgrade_to_head, database_url)
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    async with sessions() as session:
        ann, _ = await create_player(session, name="Ann")
        bob, _ = await create_player(session, name="Bob")
        cy, _ = await create_player(session, name="Cy")
        match = await lobby.create_match(
            session, host=ann, game_id="c64-maze", options={}, seats=4, private=True
        )
        await session.commit()
        assert await _seat_rows(database_url) == {(ann.id, match.id)}
        await lobby.join_match(session, match_id=match.id, player=bob, seat=3)
        await lobby.join_match(session, match_id=match.id, player=cy, seat=None)
        await session.commit()
        await lobby.leave_match(session, match_id=match.id, player=cy)
        await session.commit()
        assert await _seat_rows(database_url) == {(ann.id, match.id), (bob.id, match.id)}
        await lobby.start_match(session, match_id=match.id, player=ann)
        await session.commit()
        assert await _seat_rows(database_url) == {(ann.id, match.id), (bob.id, match.id)}

        mine, count, _next = await lobby.list_matches(
            session, status="active", game=None, player_id=bob.id, limit=10
        )
        assert [m.id for m in mine] == [match.id] and count == 1  # private, but hers
        theirs, count, _next = await lobby.list_matches(
            session, status="active", game=None, player_id=cy.id, limit=10
        )
        assert theirs == [] and count == 0
    await engine.dispose()
