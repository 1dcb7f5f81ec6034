"""The presence heartbeat (docs/bots.md, absent friends): `mark_seen` notes when each named
seated player last had a socket open, in runs of SEEN_BATCH pairs, and nobody else."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import MatchSeat
from app.services import computers
from app.services import matches as lobby
from app.services.computers import mark_seen
from app.services.players import create_player


async def test_every_named_pair_and_only_those_is_marked_seen(
    session: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(computers, "SEEN_BATCH", 2)  # three pairs: two statement runs
    players = [(await create_player(session, name=f"P{i}"))[0] for i in range(6)]
    await session.commit()
    matches = []
    for host, guest in (
        (players[0], players[1]),
        (players[2], players[3]),
        (players[4], players[5]),
    ):
        match = await lobby.create_match(
            session, host=host, game_id="c64-maze", options={}, seats=2
        )
        await lobby.join_match(session, match_id=match.id, player=guest, seat=None)
        matches.append(match)
    await session.commit()
    now = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
    named = [
        (matches[0].id, players[0].id),
        (matches[0].id, players[1].id),
        (matches[2].id, players[5].id),
    ]

    await mark_seen(session, named, now)
    await mark_seen(session, [], now)  # an empty heartbeat is no statement at all
    await session.commit()

    rows = (
        await session.execute(select(MatchSeat.match_id, MatchSeat.player_id, MatchSeat.seen_at))
    ).all()
    seen = {
        (row.match_id, row.player_id)
        for row in rows
        if row.seen_at is not None and row.seen_at.replace(tzinfo=UTC) == now
    }
    assert seen == set(named)
    assert len(rows) == 6
